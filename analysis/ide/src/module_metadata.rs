//! A module's `metadata.json` in the editor: hover on a dependency's name
//! shows the workspace's module of that name (its version against the
//! range, its summary), go to definition opens that module's
//! `metadata.json`; on a requirement (`puppet`), the range against the
//! Puppet version puppet-ls models.

use crate::targets::index_targets;
use crate::{NavigationTarget, SymbolKind};
use puppet_analysis::db::{MetadataFile, Workspace};
use puppet_analysis::index::Namespace;
use puppet_analysis::metadata::{
    dependency_module, metadata, module_info, standing, Dependency, Found, Standing,
};
use puppet_analysis::semver::Version;
use puppet_analysis::target::{PuppetVersion, Target};
use puppet_syntax::{TextRange, TextSize};
use std::fmt::Write;

/// Hover on the name of a dependency or requirement.
pub(crate) fn metadata_hover(
    db: &dyn salsa::Database,
    workspace: Workspace,
    (target, source): (Target, &str),
    file: MetadataFile,
    offset: TextSize,
) -> Option<(TextRange, String)> {
    let (dependency, is_dependency) = metadata(db, file).entry_at(offset)?;
    let markdown = if is_dependency {
        dependency_markdown(db, workspace, dependency)
    } else {
        requirement_markdown(dependency, target, source)
    };
    Some((dependency.name.range, markdown))
}

/// The range as written, or Puppet's default.
fn range_text(dependency: &Dependency) -> &str {
    dependency
        .version_requirement
        .as_ref()
        .map_or(">= 0.0.0", |r| r.value.as_str())
}

fn dependency_markdown(
    db: &dyn salsa::Database,
    workspace: Workspace,
    dependency: &Dependency,
) -> String {
    let name = &dependency.name.value;
    let range = range_text(dependency);
    let mut md = format!("**{name}** `{range}`\n\n");
    let Some(Found { module, metadata }) = dependency_module(db, workspace, dependency) else {
        let _ = writeln!(
            md,
            "No module of the workspace is named `{}`.",
            dependency.module_name().unwrap_or_else(|| name.clone())
        );
        return md;
    };
    let root = workspace
        .layout(db)
        .module(&module)
        .map(|m| m.root.display().to_string())
        .unwrap_or_default();
    let Some(file) = metadata else {
        let _ = writeln!(
            md,
            "The workspace's module `{module}` (`{root}`) has no metadata.json: its version is unknown."
        );
        return md;
    };
    let info = module_info(db, file);
    let shown_name = info.forge_name.as_deref().unwrap_or(&module);
    let version = info.version.as_deref().unwrap_or("no version");
    let _ = writeln!(
        md,
        "Module `{shown_name}` {version}, in the workspace at `{root}`.\n"
    );
    if let Some(summary) = &info.summary {
        let _ = writeln!(md, "{summary}\n");
    }
    let verdict = match standing(info, dependency) {
        Standing::Met { version } => format!("Version {version} satisfies `{range}`."),
        Standing::OutsideRange { version } => format!(
            "Version {version} is outside `{range}`: `puppet module list` reports the dependency unmet."
        ),
        Standing::NotSemantic { version } => format!(
            "Version '{version}' is not a semantic version: `puppet module list` cannot check it."
        ),
        Standing::OtherAuthor { forge_name } => format!(
            "The module is `{forge_name}`, not `{name}`: `puppet module list` reports the dependency missing."
        ),
        Standing::Unknown => match dependency.range() {
            Err(e) => format!("{e}."),
            Ok(_) => String::new(),
        },
    };
    if !verdict.is_empty() {
        let _ = writeln!(md, "{verdict}");
    }
    md
}

/// A `puppet` or `openvox` requirement: which of the Puppet versions
/// puppet-ls knows it allows, and the version checked for with its source.
fn requirement_markdown(requirement: &Dependency, target: Target, source: &str) -> String {
    let name = &requirement.name.value;
    let range = range_text(requirement);
    let mut md = format!("**{name}** `{range}`\n\n");
    if !name.eq_ignore_ascii_case("puppet") && !name.eq_ignore_ascii_case("openvox") {
        return md;
    }
    let range = match requirement.range() {
        Ok(range) => range,
        Err(e) => {
            let _ = writeln!(md, "{e}.");
            return md;
        }
    };
    let verdicts: Vec<String> = PuppetVersion::ALL
        .into_iter()
        .map(|v| {
            let release = Version::parse(&format!("{}.0", v.reference_release()));
            let allowed = release.is_ok_and(|r| range.includes(&r));
            format!(
                "Puppet {} {}",
                v.reference_release(),
                if allowed { "allowed" } else { "excluded" }
            )
        })
        .collect();
    let _ = writeln!(md, "{}.\n", verdicts.join(", "));
    let _ = writeln!(
        md,
        "puppet-ls checks this workspace for Puppet {} (`strict = {}`, `strict_variables = {}`); the version is {source}.",
        target.version, target.strict, target.strict_variables
    );
    md
}

/// Go to definition on a dependency's name: the module's `metadata.json`
/// (or its main class when it has none).
pub(crate) fn metadata_definition(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: MetadataFile,
    offset: TextSize,
) -> Vec<NavigationTarget> {
    let Some((dependency, true)) = metadata(db, file).entry_at(offset) else {
        return Vec::new();
    };
    let Some(found) = dependency_module(db, workspace, dependency) else {
        return Vec::new();
    };
    let Some(target) = found.metadata else {
        // Without metadata.json: the module's main class (`init.pp`).
        return index_targets(db, workspace, Namespace::Class, &found.module);
    };
    let text = target.text(db);
    let focus = metadata(db, target)
        .name
        .as_ref()
        .map_or(TextRange::empty(TextSize::from(0)), |n| n.range);
    vec![NavigationTarget {
        path: target.path(db).clone(),
        full_range: TextRange::up_to(TextSize::of(&**text)),
        focus_range: focus,
        name: module_info(db, target)
            .forge_name
            .clone()
            .unwrap_or(found.module),
        kind: SymbolKind::Module,
    }]
}
