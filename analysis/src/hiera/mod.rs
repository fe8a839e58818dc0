//! Hiera: the data half of a Puppet code base. Environments and modules
//! configure a hierarchy in `hiera.yaml` ([`config`]); its levels name data
//! files (YAML, JSON, eYAML) whose keys bind class parameters (automatic
//! parameter lookup of `class::param`) and answer `lookup()` calls.
//!
//! Files are read with positions ([`yaml`]); what other analyses need is
//! position-free (the keys a file binds), so that editing a value does not
//! invalidate the code that only asks whether a key exists.

pub mod binds;
pub mod calls;
pub mod config;
pub mod data;
pub mod interpolation;
pub mod layers;
pub mod lookup;
pub mod value;
pub mod yaml;

use crate::builtins::legacy_facts::legacy_facts;
use crate::db::{workspace_builtins, Workspace};
use std::path::Path;

/// Whether a path is a Hiera configuration (rather than a data file).
pub fn is_config(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "hiera.yaml")
}

/// The legacy fact an interpolated variable (`segments[0]` the variable,
/// the rest keys into it) reads when the target Puppet does not receive
/// it, which Hiera then interpolates as an empty string: `%{::osfamily}`
/// and `%{osfamily}` (a top-scope variable), `%{facts.osfamily}` (a key of
/// `$facts`). `%{facts.os.family}`, a class's variable (`%{ntp::x}`) and
/// the variables Puppet sets itself are not legacy facts.
pub fn unreceived_legacy_fact<'s>(
    db: &dyn salsa::Database,
    workspace: Workspace,
    segments: &'s [String],
) -> Option<&'s str> {
    let root = segments.first()?.trim_start_matches("::");
    if root.contains("::") {
        return None;
    }
    // No variable Puppet sets itself (`$trusted`, `$environment`...) is a
    // legacy fact (tested below).
    let fact = if root == "facts" {
        segments.get(1)?.as_str()
    } else {
        root
    };
    is_unreceived_legacy_fact(db, workspace, fact).then_some(fact)
}

/// Whether `name` is a legacy fact the target Puppet does not receive
/// (and no module of the workspace adds a fact of that name).
fn is_unreceived_legacy_fact(db: &dyn salsa::Database, workspace: Workspace, name: &str) -> bool {
    if workspace.target(db).has_legacy_facts()
        || crate::module_facts::module_facts(db, workspace).contains_key(name)
    {
        return false;
    }
    match workspace_builtins(db, workspace).fact(name) {
        Some(fact) => fact.legacy,
        None => legacy_facts().is_legacy(name),
    }
}

#[cfg(test)]
mod tests {
    use super::unreceived_legacy_fact;
    use crate::host::AnalysisHost;
    use crate::resolve::scope::BUILTIN_VARIABLES;
    use crate::target::{PuppetVersion, Target};

    #[test]
    fn legacy_facts_in_interpolations() {
        let mut host =
            AnalysisHost::discover_fixture("/env", "#- /env/manifests/site.pp\nnotice(1)\n");
        let read = |host: &AnalysisHost, variable: &str| {
            let analysis = host.analysis();
            let segments: Vec<String> = variable.split('.').map(String::from).collect();
            unreceived_legacy_fact(analysis.db(), analysis.workspace(), &segments).map(String::from)
        };
        host.set_target(Target::of(PuppetVersion::V8), "the test's");
        for variable in ["facts.osfamily", "::osfamily", "osfamily", "::facts.fqdn"] {
            assert!(read(&host, variable).is_some(), "{variable}");
        }
        let not_legacy = [
            "facts.os.family",
            "trusted.certname",
            "ntp::osfamily",
            "role",
        ];
        for variable in not_legacy
            .into_iter()
            .chain(BUILTIN_VARIABLES.iter().copied())
        {
            assert_eq!(read(&host, variable), None, "{variable}");
        }
        host.set_target(Target::of(PuppetVersion::V7), "the test's");
        assert_eq!(read(&host, "facts.osfamily"), None);
    }
}
