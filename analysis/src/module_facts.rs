//! Custom facts that modules ship in `lib/facter/*.rb`, read from the
//! source text (never run): `Facter.add(:name)` and what its `setcode`
//! gives when that is obvious (a literal, or a shell command whose output
//! is a string).
//!
//! Every such fact may be missing (a `confine` that does not hold, a
//! command that fails, a condition around `Facter.add`), so its type is
//! always `Optional`; a fact whose value the scan cannot see is `Any`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::Regex;

use crate::db::{RubyFile, Workspace};
use crate::model::Type;
use crate::ruby_plugins::re;

/// What a fact's resolutions are known to give.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FactValue {
    String,
    Boolean,
    Integer,
    /// Computed by Ruby code the scan does not follow.
    Unknown,
}

impl FactValue {
    /// The type of `$facts['name']` (or `$::name`) for such a fact.
    pub fn fact_type(self) -> Type {
        match self {
            FactValue::String => Type::optional(Type::string()),
            FactValue::Boolean => Type::optional(Type::boolean()),
            FactValue::Integer => Type::optional(Type::integer()),
            FactValue::Unknown => Type::Any,
        }
    }

    /// Two resolutions of the same fact: the same kind, or unknown.
    fn join(self, other: FactValue) -> FactValue {
        if self == other {
            self
        } else {
            FactValue::Unknown
        }
    }
}

/// The facts one Ruby file adds, by lower-cased name.
pub fn scan(path: &str, text: &str) -> Vec<(String, FactValue)> {
    static ADD: OnceLock<Regex> = OnceLock::new();
    if !path.contains("/lib/facter/") {
        return Vec::new();
    }
    let add = re(
        &ADD,
        r#"Facter\.add\(\s*(?::["']?|["'])([A-Za-z_][\w-]*)["']?\s*(,[^)]*)?\)"#,
    );
    let starts: Vec<_> = add.captures_iter(text).collect();
    let mut facts = Vec::new();
    for (i, add) in starts.iter().enumerate() {
        let whole = add.get(0).expect("match");
        let end = starts
            .get(i + 1)
            .map_or(text.len(), |next| next.get(0).expect("match").start());
        let options = add.get(2).map_or("", |m| m.as_str());
        let value = if options.contains("aggregate") {
            FactValue::Unknown
        } else {
            setcode_value(&text[whole.end()..end])
        };
        facts.push((add[1].to_ascii_lowercase(), value));
    }
    facts
}

/// What the first `setcode` of a `Facter.add` block gives.
fn setcode_value(block: &str) -> FactValue {
    static COMMAND: OnceLock<Regex> = OnceLock::new();
    static LITERAL: OnceLock<Regex> = OnceLock::new();
    let Some(at) = block.find("setcode") else {
        return FactValue::Unknown;
    };
    let rest = &block[at..];
    // `setcode 'uname -r'`: the command's output, a string.
    let command = re(&COMMAND, r#"^setcode\s*\(?\s*['"]"#);
    if command.is_match(rest) {
        return FactValue::String;
    }
    // `setcode do 'value' end` / `setcode { true }`: one literal.
    let literal = re(
        &LITERAL,
        r#"^setcode\s*(?:do|\{)\s*(?:'[^'\\]*'|"[^"\\]*"|(true|false)|(-?\d+))\s*(?:end|\})"#,
    );
    match literal.captures(rest) {
        Some(c) if c.get(1).is_some() => FactValue::Boolean,
        Some(c) if c.get(2).is_some() => FactValue::Integer,
        Some(_) => FactValue::String,
        None => FactValue::Unknown,
    }
}

#[salsa::tracked(returns(ref))]
pub fn ruby_file_facts(db: &dyn salsa::Database, file: RubyFile) -> Vec<(String, FactValue)> {
    scan(&file.path(db).to_string_lossy(), file.text(db))
}

/// The custom facts of every module of the workspace.
#[salsa::tracked(returns(ref))]
pub fn module_facts(db: &dyn salsa::Database, workspace: Workspace) -> BTreeMap<String, FactValue> {
    let mut facts: BTreeMap<String, FactValue> = BTreeMap::new();
    for &file in workspace.ruby_files(db) {
        for (name, value) in ruby_file_facts(db, file) {
            facts
                .entry(name.clone())
                .and_modify(|known| *known = known.join(*value))
                .or_insert(*value);
        }
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(text: &str) -> Vec<(String, FactValue)> {
        scan("m/lib/facter/x.rb", text)
    }

    #[test]
    fn literal_and_command_facts_are_typed() {
        let text = r#"
if Puppet::Util::Package.versioncmp(Facter.value(:facterversion), '2.0.1') < 0
  Facter.add('os_service_default') do
    setcode do
      '<SERVICE DEFAULT>'
    end
  end
end
Facter.add(:kernel_full) do
  confine kernel: 'Linux'
  setcode 'uname -a'
end
Facter.add("is_vagrant") { setcode { false } }
Facter.add(:workers) do
  setcode do
    Facter.value(:processors)['count'] * 2
  end
end
Facter.add(:mixed, :type => :aggregate) do
  chunk(:a) { 'x' }
end
"#;
        assert_eq!(
            facts(text),
            vec![
                ("os_service_default".into(), FactValue::String),
                ("kernel_full".into(), FactValue::String),
                ("is_vagrant".into(), FactValue::Boolean),
                ("workers".into(), FactValue::Unknown),
                ("mixed".into(), FactValue::Unknown),
            ]
        );
    }

    #[test]
    fn only_lib_facter_adds_facts() {
        assert!(scan("m/lib/puppet/type/x.rb", "Facter.add(:x) { setcode { 1 } }").is_empty());
        assert_eq!(
            facts(r#"Facter.add(:n) { setcode { "a#{b}" } }"#),
            vec![("n".into(), FactValue::String)]
        );
        assert_eq!(
            facts("Facter.add(:n) { setcode { `hostname -f`.chomp } }"),
            vec![("n".into(), FactValue::Unknown)]
        );
    }
}
