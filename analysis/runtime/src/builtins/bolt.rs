//! The functions Bolt's own modules give to plans (`run_task`,
//! `get_targets`, `ctrl::sleep`, `out::message`...): Bolt loads boltlib,
//! ctrl, dir, file, log, out, prompt and system for every plan it runs, so
//! a plan may call them though no module of the workspace defines them.
//! Only their names and modules are known (`tools/gen_bolt_functions.rb`
//! reads them from a Bolt checkout into `data/bolt_functions.json`); their
//! signatures use Bolt's own types, which are not modelled.

use super::json::{Json, JsonExt};
use puppet_syntax::{SyntaxKind, SyntaxNode};
use std::collections::BTreeMap;
use std::sync::OnceLock;

const DATA: &str = include_str!("../../data/bolt_functions.json");

/// Bolt's functions that catalogs may call too, given by something else
/// than Bolt: `puppetdb_query` by PuppetDB's terminus on Puppet Server.
const ALSO_IN_CATALOGS: &[&str] = &["puppetdb_query"];

/// Bolt's plan functions by name.
#[derive(Debug, Default)]
pub struct BoltFunctions {
    /// The Bolt version the names were read from.
    pub bolt_version: String,
    /// How many the generator recorded (for the completeness test).
    pub recorded: usize,
    modules: BTreeMap<String, String>,
}

impl BoltFunctions {
    fn from_json_text(text: &str) -> Option<BoltFunctions> {
        let j: Json = serde_json::from_str(text).ok()?;
        let modules = j
            .get("functions")
            .map(Json::items)
            .unwrap_or(&[])
            .iter()
            .filter_map(|f| {
                Some((
                    f.str_field("name")?.to_string(),
                    f.str_field("module")?.to_string(),
                ))
            })
            .collect();
        Some(BoltFunctions {
            bolt_version: j.str_field("bolt_version").unwrap_or("").to_string(),
            recorded: j.get("count").and_then(Json::as_u64).unwrap_or(0) as usize,
            modules,
        })
    }

    /// The Bolt module defining the plan function `name`.
    pub fn module_of(&self, name: &str) -> Option<&str> {
        self.modules
            .get(name.trim_start_matches("::"))
            .map(String::as_str)
    }

    /// Whether `name` is a Bolt function nothing gives to catalog code.
    pub fn is_plan_only(&self, name: &str) -> bool {
        self.module_of(name).is_some() && !ALSO_IN_CATALOGS.contains(&name.trim_start_matches("::"))
    }

    /// Every name, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.modules.keys().map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.modules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.modules.is_empty()
    }
}

/// Whether a node is a plan's own code, where Bolt's functions exist:
/// inside a `plan`, not inside one of its `apply` blocks (catalog code,
/// compiled for the targets).
pub fn in_plan_code(node: &SyntaxNode) -> bool {
    node.ancestors()
        .find(|a| matches!(a.kind(), SyntaxKind::PLAN_DEF | SyntaxKind::APPLY_EXPR))
        .is_some_and(|a| a.kind() == SyntaxKind::PLAN_DEF)
}

/// Bolt's plan functions, read on first use.
pub fn bolt_functions() -> &'static BoltFunctions {
    static TABLE: OnceLock<BoltFunctions> = OnceLock::new();
    TABLE.get_or_init(|| BoltFunctions::from_json_text(DATA).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::bolt_functions;

    #[test]
    fn every_recorded_function_is_loaded() {
        let table = bolt_functions();
        assert!(table.recorded >= 50, "{}", table.recorded);
        assert_eq!(table.len(), table.recorded);
        assert_eq!(table.module_of("run_task"), Some("boltlib"));
        assert_eq!(table.module_of("::ctrl::sleep"), Some("ctrl"));
        assert_eq!(table.module_of("out::message"), Some("out"));
        assert_eq!(table.module_of("notice"), None);
        assert!(table.is_plan_only("run_task"));
        assert!(!table.is_plan_only("puppetdb_query"));
    }
}
