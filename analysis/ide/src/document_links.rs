//! Document links: the strings that name a module's files (`template()`,
//! `epp()`, `file()`, `puppet:///modules/` sources) open those files. Only
//! files that exist are links; the others are diagnostics.

use super::Cancellable;
use crate::Analysis;
use puppet_analysis::links::file_links;
use puppet_syntax::TextRange;
use std::path::{Path, PathBuf};

/// A range of a file that opens another file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLink {
    pub range: TextRange,
    pub target: PathBuf,
}

impl Analysis {
    /// The links of a Puppet file, in order (empty for other files).
    pub fn document_links(&self, path: &Path) -> Cancellable<Vec<DocumentLink>> {
        self.with_db(|a| {
            let Some(file) = a.file(path) else {
                return Vec::new();
            };
            file_links(a.db(), a.workspace(), file)
                .iter()
                .filter(|link| link.exists)
                .map(|link| DocumentLink {
                    range: link.range,
                    target: link.target.clone(),
                })
                .collect()
        })
    }
}
