//! The inferred type of every variable reference of a file, as hover shows
//! it, in one pass: for tools that check the inference against Puppet
//! (`puppet-ls types`, `tools/soundness/`) rather than for editors.

use super::hover::variable_inferred;
use super::Cancellable;
use crate::Analysis;
use puppet_analysis::db::parse;
use puppet_analysis::infer::infer_file;
use puppet_analysis::resolve::resolution::variable_resolution;
use puppet_syntax::TextRange;
use std::path::Path;

/// One variable reference (`$x`, `"$x"`, `"${x}"`; not assignment targets
/// or parameter declarations) and the type hover shows for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariableType {
    /// The variable token.
    pub range: TextRange,
    /// As written, without `$` (`::x` keeps its `::`).
    pub name: String,
    /// In Puppet type syntax.
    pub ty: String,
}

impl Analysis {
    /// Every variable reference of the file at `path`, in text order
    /// (empty for an unknown file).
    pub fn variable_types(&self, path: &Path) -> Cancellable<Vec<VariableType>> {
        self.with_db(|a| {
            let Some(file) = a.file(path) else {
                return Vec::new();
            };
            let (db, workspace) = (a.db(), a.workspace());
            let root = parse(db, file).syntax_node();
            // One walk of the whole file, where hover walks the statement
            // under the cursor: the same types, computed once.
            let types = infer_file(db, workspace, file);
            variable_resolution(db, workspace, file)
                .references
                .iter()
                .filter_map(|r| {
                    let token = root.covering_element(r.range).into_token()?;
                    Some(VariableType {
                        range: r.range,
                        name: r.name.clone(),
                        ty: variable_inferred(&types, &token).ty.to_string(),
                    })
                })
                .collect()
        })
    }
}
