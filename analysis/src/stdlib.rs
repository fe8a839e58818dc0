//! Which puppetlabs-stdlib functions exist in a workspace: the one answer
//! the checks, inference and the IDE features read.
//!
//! - The workspace holds stdlib's Ruby sources (its module's
//!   `lib/puppet/functions` or `lib/puppet/parser/functions` define
//!   functions): those sources alone say what exists, read like any
//!   module's Ruby functions ([`crate::ruby_plugins`]). The bundled table is
//!   not used, so a workspace with stdlib 9 does not know `has_key`, whatever
//!   the target Puppet.
//! - A module `stdlib` without function sources (its Ruby files not checked
//!   out, a placeholder): the bundled table of the target's version stands
//!   for it, stdlib 8.5 with Puppet 7 and stdlib 9 with Puppet 8.
//! - No module `stdlib`: none of its functions exists.

use crate::builtins::{builtins_for, Builtins, Function};
use crate::db::Workspace;
use crate::ruby_plugins::plugin_owners;
use crate::target::PuppetVersion;
use std::collections::BTreeSet;

/// Where the workspace's stdlib functions come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StdlibSource {
    /// No module `stdlib` in the workspace.
    Absent,
    /// A module `stdlib` whose Ruby functions are not in the workspace:
    /// the bundled table of the target's version.
    Bundled,
    /// The stdlib module's own Ruby sources.
    Sources,
}

/// The stdlib functions of a workspace ([`workspace_stdlib`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceStdlib {
    pub source: StdlibSource,
    /// The target's version: whose bundled table stands for stdlib.
    version: PuppetVersion,
    /// With [`StdlibSource::Sources`], the functions the stdlib module's
    /// Ruby files define (lower case).
    defined: BTreeSet<String>,
}

impl WorkspaceStdlib {
    fn table(&self) -> &'static Builtins {
        builtins_for(self.version)
    }

    /// Whether the bundled table's stdlib functions are the workspace's.
    pub fn is_bundled(&self) -> bool {
        self.source == StdlibSource::Bundled
    }

    /// Whether stdlib defines the function `name` here (from the bundled
    /// table or the workspace's sources).
    pub fn defines(&self, name: &str) -> bool {
        let name = name.trim_start_matches("::").to_ascii_lowercase();
        match self.source {
            StdlibSource::Absent => false,
            StdlibSource::Bundled => self.table().stdlib_function(&name).is_some(),
            StdlibSource::Sources => self.defined.contains(&name),
        }
    }

    /// The bundled table's entry of a stdlib function that exists here
    /// (its signatures and documentation): only when the table stands for
    /// the workspace's stdlib. With the sources in the workspace, their
    /// Ruby functions are read instead.
    pub fn bundled_function(&self, name: &str) -> Option<&'static Function> {
        if self.is_bundled() {
            self.table().stdlib_function(name)
        } else {
            None
        }
    }

    /// The bundled table's stdlib functions that exist here (empty unless
    /// the table stands for the workspace's stdlib).
    pub fn bundled_functions(&self) -> &'static [Function] {
        if self.is_bundled() {
            &self.table().stdlib_functions
        } else {
            &[]
        }
    }

    /// The built-in function a call to `name` finds: Puppet's own first
    /// (its system loader is searched before modules), then the bundled
    /// stdlib's when it stands for the workspace's.
    pub fn resolve_function(&self, name: &str) -> Option<&'static Function> {
        self.table().resolve_function(name, self.is_bundled())
    }

    /// Built-in function names close to `name`: Puppet's, and the bundled
    /// stdlib's when it stands for the workspace's.
    pub fn suggest_function(&self, name: &str) -> Vec<String> {
        self.table().suggest_function(name, self.is_bundled())
    }
}

/// Which stdlib functions exist in the workspace, and where they come from.
#[salsa::tracked(returns(ref))]
pub fn workspace_stdlib(db: &dyn salsa::Database, workspace: Workspace) -> WorkspaceStdlib {
    let version = workspace.target(db).version;
    if workspace.layout(db).module("stdlib").is_none() {
        return WorkspaceStdlib {
            source: StdlibSource::Absent,
            version,
            defined: BTreeSet::new(),
        };
    }
    let defined: BTreeSet<String> = plugin_owners(db, workspace)
        .functions
        .iter()
        .filter(|(_, owners)| owners.contains("stdlib"))
        .map(|(name, _)| name.clone())
        .collect();
    WorkspaceStdlib {
        source: if defined.is_empty() {
            StdlibSource::Bundled
        } else {
            StdlibSource::Sources
        },
        version,
        defined,
    }
}
