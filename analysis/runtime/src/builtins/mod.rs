//! Puppet 7's built-ins, known without a Puppet installation.
//!
//! Diagnostics, completion and hover need to know Puppet's resource types
//! (with their attributes and allowed values), the metaparameters, the
//! built-in and puppetlabs-stdlib functions (with typed signatures) and the
//! core facts. A Puppet installation is not required on the user's machine:
//! `tools/gen_builtins.rb` introspects a real Puppet (7.23) once and writes
//! `analysis/runtime/data/puppet_builtins.json`, which is embedded in the binary and
//! parsed on first use ([`builtins`]).
//!
//! Sub-modules: [`resource_types`] (types, attributes, values),
//! [`functions`] (signatures), [`bolt`] (Bolt's plan functions), [`facts`]
//! (fact paths), [`suggest`] ("did you mean" by edit distance). Lookups never panic; a table that fails to
//! parse behaves as an empty one.
//!
//! The tables are plain data, below the evaluator that consults them:
//! types are kept as Puppet prints them (`Variant[String, Array[String]]`).
//! Reading those strings needs the evaluator (one parser for user code and
//! built-ins), so the typed accessors ([`Param::ty`], [`Signature::callable`],
//! [`Attribute::value_type`], [`Facts::type_of`], [`Builtins::fact_type`]...)
//! are implemented in `eval/type_strings.rs`; the tables only hold the cells
//! that keep each type once read.

pub mod bolt;
pub mod facts;
pub mod functions;
mod json;
pub mod legacy_facts;
pub mod resource_types;
pub mod stdlib_removed;
pub mod suggest;

use crate::target::PuppetVersion;
use std::collections::HashMap;
use std::sync::OnceLock;

pub use bolt::{bolt_functions, in_plan_code, BoltFunctions};
pub use facts::{Fact, Facts};
pub use functions::{BlockParam, Function, FunctionApi, Param, ParamKind, Signature};
pub use resource_types::{AllowedValue, Attribute, AttributeKind, ResourceType};
pub use stdlib_removed::{stdlib9_removal, Removed};
pub use suggest::{edit_distance, suggest};

use json::{Json, JsonExt};

/// The generated tables (see `tools/gen_builtins.rb` for how to regenerate
/// them; `docs/puppet8-builtins.md` lists their differences).
const PUPPET7: &str = include_str!("../../data/puppet_builtins.json");
const PUPPET8: &str = include_str!("../../data/puppet8_builtins.json");

/// How many suggestions the `suggest_*` methods return at most.
const SUGGESTIONS: usize = 3;

/// The counts the generator observed in the Puppet it ran under, kept so
/// tests can check the loaded tables are complete.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Resource types loaded by `Puppet::Type.loadall`.
    pub types: usize,
    /// Types listed by `puppet describe --list` (all but `component`).
    pub describe_list_types: usize,
    /// Attributes over all types (metaparameters excluded).
    pub attributes: usize,
    /// Metaparameters.
    pub metaparameters: usize,
    /// Built-in functions (4.x plus 3.x-only).
    pub functions: usize,
    /// Files under `lib/puppet/functions`.
    pub function_files_4x: usize,
    /// Files under `lib/puppet/parser/functions`.
    pub function_files_3x: usize,
    /// stdlib functions (4.x plus 3.x-only).
    pub stdlib_functions: usize,
    /// stdlib files under `lib/puppet/functions` (recursive).
    pub stdlib_function_files_4x: usize,
    /// stdlib files under `lib/puppet/parser/functions`.
    pub stdlib_function_files_3x: usize,
    /// Fact entries.
    pub facts: usize,
}

/// The loaded built-ins tables.
#[derive(Debug, Default)]
pub struct Builtins {
    /// The Puppet version the table was generated from.
    pub puppet_version: String,
    /// The Facter version the facts were read from.
    pub facter_version: String,
    /// The puppetlabs-stdlib version of the stdlib functions.
    pub stdlib_version: String,
    /// The agent-bundled core modules whose types are included.
    pub core_modules: Vec<String>,
    /// The generator's counts.
    pub counts: Counts,
    /// Resource types, sorted by name.
    pub types: Vec<ResourceType>,
    /// Metaparameters (valid on every resource type).
    pub metaparameters: Vec<Attribute>,
    /// Puppet's functions, sorted by name.
    pub functions: Vec<Function>,
    /// puppetlabs-stdlib functions, sorted by name.
    pub stdlib_functions: Vec<Function>,
    /// Core facts.
    pub facts: Facts,
    type_index: HashMap<String, usize>,
    function_index: HashMap<String, usize>,
    stdlib_index: HashMap<String, usize>,
}

/// The resource types of the core modules vendored in Puppet 7.23's agent
/// package (augeas_core, cron_core, host_core, mailalias_core, mount_core,
/// scheduled_task, selinux_core, sshkeys_core, yumrepo_core, zfs_core,
/// zone_core); those installed here have full data in the table.
const VENDORED_CORE_TYPES: &[&str] = &[
    "augeas",
    "cron",
    "host",
    "mailalias",
    "maillist",
    "mount",
    "scheduled_task",
    "selboolean",
    "selmodule",
    "ssh_authorized_key",
    "sshkey",
    "yumrepo",
    "zfs",
    "zone",
    "zpool",
];

/// The built-ins of a Puppet version (its functions and their signatures,
/// the resource types and attributes its agent bundles, its Facter's facts,
/// and the stdlib its users have: 8.5 with Puppet 7, 9 with Puppet 8),
/// parsed on first use.
pub fn builtins_for(version: PuppetVersion) -> &'static Builtins {
    static TABLES: [OnceLock<Builtins>; 2] = [OnceLock::new(), OnceLock::new()];
    let (cell, text) = match version {
        PuppetVersion::V7 => (&TABLES[0], PUPPET7),
        PuppetVersion::V8 => (&TABLES[1], PUPPET8),
    };
    cell.get_or_init(|| Builtins::from_json_text(text).unwrap_or_default())
}

fn index<T>(items: &[T], name: impl Fn(&T) -> &str) -> HashMap<String, usize> {
    items
        .iter()
        .enumerate()
        .map(|(i, t)| (name(t).to_string(), i))
        .collect()
}

impl Builtins {
    /// Parses a table in the generator's JSON format (`None` if malformed).
    pub fn from_json_text(text: &str) -> Option<Builtins> {
        let j: Json = serde_json::from_str(text).ok()?;
        let count = |k: &str| {
            j.get("counts")
                .and_then(|c| c.get(k))
                .and_then(Json::as_u64)
                .unwrap_or(0) as usize
        };
        let counts = Counts {
            types: count("types"),
            describe_list_types: count("describe_list_types"),
            attributes: count("attributes"),
            metaparameters: count("metaparameters"),
            functions: count("functions"),
            function_files_4x: count("function_files_4x"),
            function_files_3x: count("function_files_3x"),
            stdlib_functions: count("stdlib_functions"),
            stdlib_function_files_4x: count("stdlib_function_files_4x"),
            stdlib_function_files_3x: count("stdlib_function_files_3x"),
            facts: count("facts"),
        };
        let list = |k: &str| j.get(k).map(Json::items).unwrap_or(&[]);
        let types: Vec<ResourceType> = list("types")
            .iter()
            .filter_map(ResourceType::from_json)
            .collect();
        let functions: Vec<Function> = list("functions")
            .iter()
            .filter_map(|f| Function::from_json(f, false))
            .collect();
        let stdlib_functions: Vec<Function> = list("stdlib_functions")
            .iter()
            .filter_map(|f| Function::from_json(f, true))
            .collect();
        Some(Builtins {
            puppet_version: j.str_field("puppet_version").unwrap_or("").to_string(),
            facter_version: j.str_field("facter_version").unwrap_or("").to_string(),
            stdlib_version: j.str_field("stdlib_version").unwrap_or("").to_string(),
            core_modules: j.strings("core_modules"),
            counts,
            metaparameters: list("metaparameters")
                .iter()
                .filter_map(|a| Attribute::from_json(a, true))
                .collect(),
            facts: Facts::from_json(list("facts")),
            type_index: index(&types, |t| &t.name),
            function_index: index(&functions, |f| &f.name),
            stdlib_index: index(&stdlib_functions, |f| &f.name),
            types,
            functions,
            stdlib_functions,
        })
    }

    // ---- resource types -------------------------------------------------

    /// The resource type `name` (case-insensitive, leading `::` ignored).
    pub fn resource_type(&self, name: &str) -> Option<&ResourceType> {
        let name = name.trim_start_matches("::");
        self.type_index
            .get(name)
            .or_else(|| self.type_index.get(&name.to_ascii_lowercase()))
            .and_then(|&i| self.types.get(i))
    }

    /// Whether `name` is a core type of Puppet 7 whose attribute data the
    /// table lacks: the types of the core modules the puppet-agent package
    /// vendors but a distribution's Puppet may not install (the generator
    /// only sees installed modules). Their attributes cannot be checked.
    pub fn is_core_type_without_data(&self, name: &str) -> bool {
        let name = name.trim_start_matches("::").to_ascii_lowercase();
        self.resource_type(&name).is_none() && self.is_vendored_core_type(&name)
    }

    /// Whether `name` is a type of a core module the puppet-agent package
    /// vendors, which a distribution's Puppet may lack.
    pub fn is_vendored_core_type(&self, name: &str) -> bool {
        VENDORED_CORE_TYPES.contains(&name.trim_start_matches("::").to_ascii_lowercase().as_str())
    }

    /// The metaparameter `name`.
    pub fn metaparameter(&self, name: &str) -> Option<&Attribute> {
        self.metaparameters.iter().find(|m| m.name == name)
    }

    /// The attribute `name` of type `type_name`: its own attributes first,
    /// then the metaparameters.
    pub fn attribute(&self, type_name: &str, name: &str) -> Option<&Attribute> {
        self.resource_type(type_name)?
            .own_attribute(name)
            .or_else(|| self.metaparameter(name))
    }

    /// Every attribute valid on `type_name`: its own then the metaparameters.
    pub fn all_attributes<'a>(&'a self, type_name: &str) -> Vec<&'a Attribute> {
        self.resource_type(type_name)
            .map(|t| {
                t.attributes
                    .iter()
                    .chain(self.metaparameters.iter())
                    .collect()
            })
            .unwrap_or_default()
    }

    // ---- functions -----------------------------------------------------

    /// Puppet's own function `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        let name = name.trim_start_matches("::");
        self.function_index
            .get(name)
            .and_then(|&i| self.functions.get(i))
    }

    /// The puppetlabs-stdlib function `name`.
    pub fn stdlib_function(&self, name: &str) -> Option<&Function> {
        let name = name.trim_start_matches("::");
        self.stdlib_index
            .get(name)
            .and_then(|&i| self.stdlib_functions.get(i))
    }

    /// The function a call to `name` resolves to: Puppet's own functions win
    /// (as Puppet's system loader is searched before modules), then stdlib's
    /// when stdlib is on the module path.
    pub fn resolve_function(&self, name: &str, with_stdlib: bool) -> Option<&Function> {
        self.function(name).or_else(|| {
            if with_stdlib {
                self.stdlib_function(name)
            } else {
                None
            }
        })
    }

    /// True when `name` is a statement-style function (`include`, `notice`...).
    pub fn is_statement_function(&self, name: &str) -> bool {
        self.function(name).is_some_and(|f| f.statement)
    }

    // ---- facts ---------------------------------------------------------

    /// The fact entry at a dotted path (`os.family`).
    pub fn fact(&self, path: &str) -> Option<&Fact> {
        self.facts.get(path)
    }

    // ---- suggestions -----------------------------------------------------

    /// Resource type names close to `name`.
    pub fn suggest_type(&self, name: &str) -> Vec<String> {
        suggest(
            name,
            self.types.iter().map(|t| t.name.as_str()),
            SUGGESTIONS,
        )
    }

    /// Attribute names of `type_name` (own and metaparameters) close to `name`.
    pub fn suggest_attribute(&self, type_name: &str, name: &str) -> Vec<String> {
        suggest(
            name,
            self.all_attributes(type_name)
                .into_iter()
                .map(|a| a.name.as_str()),
            SUGGESTIONS,
        )
    }

    /// Allowed values (and aliases) of an attribute close to `value`
    /// (`ensure => runing` suggests `running`).
    pub fn suggest_value(&self, type_name: &str, attribute: &str, value: &str) -> Vec<String> {
        match self.attribute(type_name, attribute) {
            Some(a) => suggest(value, a.value_words(), SUGGESTIONS),
            None => Vec::new(),
        }
    }

    /// Function names close to `name` (stdlib's included when on the path).
    pub fn suggest_function(&self, name: &str, with_stdlib: bool) -> Vec<String> {
        let stdlib = self
            .stdlib_functions
            .iter()
            .filter(|_| with_stdlib)
            .map(|f| f.name.as_str());
        suggest(
            name,
            self.functions.iter().map(|f| f.name.as_str()).chain(stdlib),
            SUGGESTIONS,
        )
    }

    /// Fact paths close to `path` among its siblings (`os.famly` suggests
    /// `os.family`).
    pub fn suggest_fact(&self, path: &str) -> Vec<String> {
        let (parent, leaf) = match path.rsplit_once('.') {
            Some((p, l)) => (Some(p), l),
            None => (None, path),
        };
        let siblings = self.facts.all.iter().filter_map(|f| {
            let (fp, fl) = match f.path.rsplit_once('.') {
                Some((p, l)) => (Some(p), l),
                None => (None, f.path.as_str()),
            };
            (fp == parent && !fl.contains('<')).then_some(fl)
        });
        suggest(leaf, siblings, SUGGESTIONS)
            .into_iter()
            .map(|l| match parent {
                Some(p) => format!("{p}.{l}"),
                None => l,
            })
            .collect()
    }
}
