//! The diagnostics of a module's `metadata.json`: its JSON and fields
//! (`metadata-syntax`, `metadata-schema`, read in [`crate::metadata`]),
//! version ranges Puppet cannot read (`invalid-version-range`), modules
//! declared twice (`duplicate-dependency`), and dependencies on modules of
//! the workspace that do not meet them (`unmet-dependency`), as `puppet
//! module list` judges them.

use super::Diagnostic;
use crate::db::{MetadataFile, Workspace};
use crate::metadata::{
    dependency_module, metadata, module_info, module_of_metadata, standing, Dependency, Standing,
    IGNORED_BY_PUPPET,
};
use crate::target::Target;
use puppet_syntax::Code;
use std::collections::HashMap;

#[salsa::tracked(returns(ref))]
pub fn metadata_file_diagnostics(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: MetadataFile,
) -> Vec<Diagnostic> {
    let m = metadata(db, file);
    let target = workspace.target(db);
    let mut out: Vec<Diagnostic> = m
        .problems
        .iter()
        .map(|p| match p.code {
            Code::MetadataSyntax if target.strict_errors() => {
                refused_module(db, workspace, file, p.range, &p.message, target)
            }
            _ => Diagnostic::new(p.range, p.severity, p.code, p.message.clone()),
        })
        .collect();
    let text = file.text(db);
    for (entries, key) in [
        (&m.dependencies, "dependencies"),
        (&m.requirements, "requirements"),
    ] {
        for d in entries {
            invalid_range(d, &mut out);
        }
        duplicates(text, entries, key, &mut out);
    }
    for d in &m.dependencies {
        unmet(db, workspace, d, &mut out);
    }
    out.sort_by_key(|d| (d.range.start(), d.range.end()));
    out
}

/// A `metadata.json` that does not parse under `strict = error` (Puppet
/// 8's default): Puppet logs "NAME has an invalid and unparsable
/// metadata.json file" and refuses the module, so that every use of its
/// classes, defined types and functions fails (`Could not find class
/// ::NAME`), and `puppet parser validate` logs the error too. A warning
/// here: what fails is each use of the module, and an environment that uses
/// none of it compiles.
fn refused_module(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: MetadataFile,
    range: puppet_syntax::TextRange,
    message: &str,
    target: Target,
) -> Diagnostic {
    let syntax = message.strip_suffix(IGNORED_BY_PUPPET).unwrap_or(message);
    let name = module_of_metadata(db, workspace, file).unwrap_or_else(|| "the module".into());
    Diagnostic::warning(
        range,
        Code::MetadataSyntax,
        format!(
            "{syntax}: Puppet {} refuses the module (strict = error: '{name} has an invalid and unparsable metadata.json file'), so every use of its classes, defined types and functions fails; the Forge, `puppet module` and the PDK refuse it too",
            target.version
        ),
    )
}

fn invalid_range(d: &Dependency, out: &mut Vec<Diagnostic>) {
    let Some(requirement) = &d.version_requirement else {
        return;
    };
    let Err(error) = d.range() else {
        return;
    };
    let hint = if requirement.value.contains(',') {
        "; comparators are separated by spaces, not commas (`>= 1.0.0 < 2.0.0`)"
    } else {
        "; Puppet reads `>= 1.0.0 < 2.0.0`, `1.x`, `~1.2`, `^1.2`, `1.0.0 - 2.0.0` and alternatives with `||`"
    };
    out.push(Diagnostic::warning(requirement.range, Code::InvalidVersionRange, format!("{error}: `puppet module` and the PDK refuse it, and `puppet module list` cannot check the dependency{hint}")));
}

/// Entries naming a module (for `requirements`, a name) given before.
fn duplicates(text: &str, entries: &[Dependency], key: &str, out: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<String, &Dependency> = HashMap::new();
    for d in entries {
        let id = d
            .module_name()
            .unwrap_or_else(|| d.name.value.to_lowercase());
        match seen.get(&id) {
            Some(first) => {
                let line = text[..usize::from(first.name.range.start())]
                    .matches('\n')
                    .count()
                    + 1;
                let same = if first.name.value == d.name.value {
                    String::new()
                } else {
                    format!(" (as '{}')", first.name.value)
                };
                out.push(Diagnostic::warning(d.name.range, Code::DuplicateDependency, format!(
                        "'{}' is declared twice in `{key}`: also on line {line}{same}; only one module of a name can be installed, and `puppet module` refuses conflicting ranges",
                        d.name.value
                    )));
            }
            None => {
                seen.insert(id, d);
            }
        }
    }
}

/// A dependency the workspace's module of its name does not meet.
fn unmet(
    db: &dyn salsa::Database,
    workspace: Workspace,
    d: &Dependency,
    out: &mut Vec<Diagnostic>,
) {
    let Some(found) = dependency_module(db, workspace, d) else {
        return;
    };
    let Some(target) = found.metadata else {
        return;
    };
    let info = module_info(db, target);
    let module = &found.module;
    let (range, message) = match standing(info, d) {
        Standing::Met { .. } | Standing::Unknown => return,
        Standing::OutsideRange { version } => (
            d.version_requirement.as_ref().map_or(d.name.range, |r| r.range),
            format!(
                "the workspace's module '{module}' is version {version}, outside '{}': `puppet module list` warns that it fails to meet this dependency",
                d.version_requirement
                    .as_ref()
                    .map_or(">= 0.0.0", |r| r.value.as_str())
            ),
        ),
        Standing::NotSemantic { version } => (
            d.name.range,
            format!(
                "the workspace's module '{module}' has version '{version}', which is not a semantic version: `puppet module list` cannot check it against the range"
            ),
        ),
        Standing::OtherAuthor { forge_name } => (
            d.name.range,
            format!(
                "the workspace's module '{module}' is '{forge_name}', not '{}': `puppet module list` reports this dependency missing",
                d.name.value
            ),
        ),
    };
    out.push(Diagnostic::warning(range, Code::UnmetDependency, message));
}
