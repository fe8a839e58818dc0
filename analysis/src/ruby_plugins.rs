//! Custom resource types and functions that modules ship in Ruby, found by
//! scanning their source text (no Ruby is run):
//! - `lib/puppet/type/*.rb`: `Puppet::Type.newtype(:name)` with `newparam`,
//!   `newproperty`, `ensurable`, namevars; and Resource API types
//!   (`Puppet::ResourceApi.register_type(name: 'x', attributes: {...})`);
//! - `lib/puppet/functions/**/*.rb`: `Puppet::Functions.create_function(:'mod::f')`
//!   with `dispatch` blocks' parameters (types, names, optional/repeated,
//!   block) for signature help;
//! - `lib/puppet/parser/functions/*.rb`: legacy `newfunction(:f, ...)`.

use crate::builtins::ParamKind;
use crate::db::{RubyFile, Workspace};
use puppet_syntax::{TextRange, TextSize};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

/// A resource type defined in Ruby.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RubyType {
    pub name: String,
    /// Parameters and properties (including `ensure` for `ensurable`).
    pub attributes: Vec<String>,
    pub namevars: Vec<String>,
    /// Attributes may also come from code the scan does not follow
    /// (mixins via `extend`/`include`, helper methods): then the list is
    /// not complete and unknown attributes cannot be reported.
    pub open: bool,
}

/// A parameter of a Ruby function's `dispatch`: `param 'String', :name`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RubyParam {
    pub name: String,
    /// The type string as written (`Any` when not given, for blocks
    /// `Callable`).
    pub type_text: String,
    /// Required, optional or repeated; for the block, required or optional.
    pub kind: ParamKind,
}

/// One `dispatch` block of a 4.x Ruby function, in Puppet's order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RubyDispatch {
    pub params: Vec<RubyParam>,
    pub block: Option<RubyParam>,
    pub return_type: Option<String>,
}

/// What one Ruby file defines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct RubyPlugins {
    pub types: Vec<RubyType>,
    pub functions: Vec<String>,
    /// The dispatches of the file's 4.x function (by its name).
    pub dispatches: Vec<(String, Vec<RubyDispatch>)>,
}

/// A regex compiled once. Ruby source is matched the ASCII way Ruby reads
/// identifiers (`[[:word:]]`, `(?-u:\b)`): a Unicode `\w` or `\b` makes
/// each such regex megabytes large.
pub(crate) fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("valid pattern"))
}

/// A Ruby symbol or string literal's content: `:name`, `:'a::b'`, `"x"`.
const SYMBOL: &str = r#"(?::["']?|["'])([A-Za-z_][[:word:]:]*)"#;

/// Scans a Ruby file's text (its path decides what to look for).
pub fn scan(path: &str, text: &str) -> RubyPlugins {
    let mut plugins = RubyPlugins::default();
    if path.contains("/lib/puppet/type/") {
        plugins.types.extend(scan_newtype(text));
        plugins.types.extend(scan_resource_api(text));
    }
    if let Some(pattern) = function_pattern(path) {
        plugins
            .functions
            .extend(pattern.captures_iter(text).map(|c| c[1].to_lowercase()));
        if path.contains("/lib/puppet/functions/") {
            if let Some(name) = plugins.functions.first() {
                let dispatches = scan_dispatches(text);
                if !dispatches.is_empty() {
                    plugins.dispatches.push((name.clone(), dispatches));
                }
            }
        }
    }
    plugins
}

/// The pattern naming the functions a Ruby file defines, by its place:
/// `create_function(:'mod::f'` (modern API) or `newfunction(:f` (legacy).
fn function_pattern(path: &str) -> Option<&'static Regex> {
    static CREATE: OnceLock<Regex> = OnceLock::new();
    static NEWFUNCTION: OnceLock<Regex> = OnceLock::new();
    if path.contains("/lib/puppet/functions/") {
        Some(re(&CREATE, &format!(r"create_function\(\s*{SYMBOL}")))
    } else if path.contains("/lib/puppet/parser/functions/") {
        Some(re(&NEWFUNCTION, &format!(r"newfunction\(\s*{SYMBOL}")))
    } else {
        None
    }
}

fn newtype_pattern() -> &'static Regex {
    static NEWTYPE: OnceLock<Regex> = OnceLock::new();
    re(&NEWTYPE, &format!(r"newtype\(\s*{SYMBOL}"))
}

fn register_type_pattern() -> &'static Regex {
    static REGISTER: OnceLock<Regex> = OnceLock::new();
    re(
        &REGISTER,
        r#"register_type\(\s*name:\s*['"]([[:word:]:]+)['"]"#,
    )
}

/// Whether a Ruby definition site is a resource type or a function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RubySiteKind {
    Type,
    Function,
}

/// Where a Ruby file names a type or function it defines (for navigation):
/// the range of the name inside `newtype(:name`, `name: 'x'` of the
/// Resource API, `create_function(:'mod::f'` or `newfunction(:f`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RubySite {
    pub kind: RubySiteKind,
    /// Lower-cased, as in [`RubyPlugins`].
    pub name: String,
    pub range: TextRange,
}

/// The definition sites of a Ruby file, found with the same patterns as
/// [`scan`].
pub fn sites(path: &str, text: &str) -> Vec<RubySite> {
    let site = |kind, m: regex::Match| RubySite {
        kind,
        name: m.as_str().to_lowercase(),
        range: TextRange::new(
            TextSize::new(m.start() as u32),
            TextSize::new(m.end() as u32),
        ),
    };
    let mut out = Vec::new();
    if path.contains("/lib/puppet/type/") {
        for pattern in [newtype_pattern(), register_type_pattern()] {
            if let Some(m) = pattern.captures(text).and_then(|c| c.get(1)) {
                out.push(site(RubySiteKind::Type, m));
            }
        }
    }
    if let Some(pattern) = function_pattern(path) {
        out.extend(
            pattern
                .captures_iter(text)
                .filter_map(|c| c.get(1))
                .map(|m| site(RubySiteKind::Function, m)),
        );
    }
    out
}

#[salsa::tracked(returns(ref))]
pub fn ruby_file_sites(db: &dyn salsa::Database, file: RubyFile) -> Vec<RubySite> {
    sites(&file.path(db).to_string_lossy(), file.text(db))
}

/// The `dispatch :m do ... end` blocks of a function file: each block's
/// lines up to its `end`, read for parameter declarations.
fn scan_dispatches(text: &str) -> Vec<RubyDispatch> {
    static DISPATCH: OnceLock<Regex> = OnceLock::new();
    static PARAM: OnceLock<Regex> = OnceLock::new();
    let dispatch = re(&DISPATCH, r"^\s*dispatch[\s(]+:[[:word:]]+\)?\s+do(?-u:\b)");
    let param = re(
        &PARAM,
        r#"^\s*(param|required_param|optional_param|repeated_param|optional_repeated_param|required_repeated_param|block_param|required_block_param|optional_block_param|return_type)(?-u:\b)[\s(]*(?:'([^']*)'|"([^"]*)")?\s*,?\s*(?::([[:word:]]+))?"#,
    );
    let mut out = Vec::new();
    let mut current: Option<RubyDispatch> = None;
    for line in text.lines() {
        if dispatch.is_match(line) {
            out.extend(current.take());
            current = Some(RubyDispatch {
                params: Vec::new(),
                block: None,
                return_type: None,
            });
            continue;
        }
        let Some(dispatch) = current.as_mut() else {
            continue;
        };
        if line.trim() == "end" {
            out.extend(current.take());
            continue;
        }
        let Some(c) = param.captures(line) else {
            continue;
        };
        let method = &c[1];
        let type_text = c.get(2).or(c.get(3)).map(|m| m.as_str().to_string());
        let name = c.get(4).map_or("block", |m| m.as_str()).to_string();
        let block = |kind| RubyParam {
            name: name.clone(),
            type_text: type_text.clone().unwrap_or_else(|| "Callable".to_string()),
            kind,
        };
        let kind = match method {
            "return_type" => {
                dispatch.return_type = type_text.clone();
                continue;
            }
            "block_param" | "required_block_param" => {
                dispatch.block = Some(block(ParamKind::Required));
                continue;
            }
            "optional_block_param" => {
                dispatch.block = Some(block(ParamKind::Optional));
                continue;
            }
            "optional_param" => ParamKind::Optional,
            "repeated_param" | "optional_repeated_param" | "required_repeated_param" => {
                ParamKind::Repeated
            }
            _ => ParamKind::Required,
        };
        dispatch.params.push(RubyParam {
            name,
            type_text: type_text.unwrap_or_else(|| "Any".to_string()),
            kind,
        });
    }
    out.extend(current);
    out
}

fn scan_newtype(text: &str) -> Option<RubyType> {
    static ATTR: OnceLock<Regex> = OnceLock::new();
    static NAMEVAR: OnceLock<Regex> = OnceLock::new();
    static ISNAMEVAR: OnceLock<Regex> = OnceLock::new();
    static ENSURABLE: OnceLock<Regex> = OnceLock::new();
    let name = newtype_pattern().captures(text)?[1].to_lowercase();
    // `newparam(:x)` or `newparam :x do`.
    let attr = re(&ATTR, &format!(r"new(?:param|property)[\s(]+{SYMBOL}"));
    let mut attributes: Vec<String> = attr.captures_iter(text).map(|c| c[1].to_string()).collect();
    if re(&ENSURABLE, r"(?m)^\s*ensurable(?-u:\b)").is_match(text) {
        attributes.push("ensure".to_string());
    }
    let namevar = re(
        &NAMEVAR,
        &format!(r"newparam[\s(]+{SYMBOL}[^)\n]*namevar\s*(?:=>|:)\s*true"),
    );
    let mut namevars: Vec<String> = namevar
        .captures_iter(text)
        .map(|c| c[1].to_string())
        .collect();
    // `isnamevar` inside a `newparam(:x) do ... end` block.
    let isnamevar = re(
        &ISNAMEVAR,
        &format!(r"newparam[\s(]+{SYMBOL}[^\n]*\n(?:[^\n]*\n){{0,6}}?\s*isnamevar(?-u:\b)"),
    );
    namevars.extend(isnamevar.captures_iter(text).map(|c| c[1].to_string()));
    if namevars.is_empty() && attributes.iter().any(|a| a == "name") {
        namevars.push("name".to_string());
    }
    // Puppet adds `provider` to every type that has providers.
    attributes.push("provider".to_string());
    attributes.sort();
    attributes.dedup();
    namevars.sort();
    namevars.dedup();
    // Anything that can add attributes the scan does not see: mixins,
    // blocks evaluated in the type (`instance_eval(&SHARED)`), parameters
    // named by an expression (`newparam(name)` in a loop), the type passed
    // to a helper (`add_params(self)`), metaprogramming.
    static MIXIN: OnceLock<Regex> = OnceLock::new();
    let mixin = re(
        &MIXIN,
        r#"(?m)^\s*(?:extend|include)\s+[A-Z]|^\s*create_parameters(?-u:\b)|(?-u:\b)(?:instance_eval|class_eval|module_eval|instance_exec|class_exec|define_method|public_send|send)(?-u:\b)|(?-u:\b)new(?:param|property)[\s(]+[^:"'\s(]|[(,]\s*self\s*[),]"#,
    );
    Some(RubyType {
        name,
        attributes,
        namevars,
        open: mixin.is_match(text),
    })
}

fn scan_resource_api(text: &str) -> Option<RubyType> {
    static ATTR: OnceLock<Regex> = OnceLock::new();
    let name = register_type_pattern().captures(text)?[1].to_lowercase();
    let start = text.find("attributes:")?;
    // Attribute entries: `name: {` or `'name' => {` inside the attributes hash.
    let attr = re(&ATTR, r#"(?m)^\s*['"]?([[:word:]]+)['"]?\s*(?::|=>)\s*\{"#);
    let attributes: Vec<String> = attr
        .captures_iter(&text[start..])
        .map(|c| c[1].to_string())
        .filter(|a| a != "attributes")
        .collect();
    let namevars = if attributes.iter().any(|a| a == "name") {
        vec!["name".to_string()]
    } else {
        Vec::new()
    };
    Some(RubyType {
        name,
        attributes,
        namevars,
        open: false,
    })
}

#[salsa::tracked(returns(ref))]
pub fn ruby_file_plugins(db: &dyn salsa::Database, file: RubyFile) -> RubyPlugins {
    scan(&file.path(db).to_string_lossy(), file.text(db))
}

/// The custom types and functions of the whole workspace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginIndex {
    pub types: BTreeMap<String, RubyType>,
    pub functions: BTreeSet<String>,
}

#[salsa::tracked(returns(ref))]
pub fn plugin_index(db: &dyn salsa::Database, workspace: Workspace) -> PluginIndex {
    let mut index = PluginIndex::default();
    for &file in workspace.ruby_files(db) {
        let plugins = ruby_file_plugins(db, file);
        // Two modules may define a type of the same name: accept what
        // either accepts (which one Puppet loads depends on the module path).
        for t in &plugins.types {
            let entry = index
                .types
                .entry(t.name.clone())
                .or_insert_with(|| t.clone());
            if entry != t {
                entry.attributes.extend(t.attributes.iter().cloned());
                entry.attributes.sort();
                entry.attributes.dedup();
                entry.open |= t.open;
            }
        }
        index.functions.extend(plugins.functions.iter().cloned());
    }
    index
}

/// The dispatches of the workspace's 4.x Ruby functions, by lower-cased
/// name. Apart from [`plugin_index`] so that editing a signature does not
/// invalidate the checks that only need the names.
#[salsa::tracked(returns(ref))]
pub fn ruby_function_dispatches(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> BTreeMap<String, Vec<RubyDispatch>> {
    let mut out = BTreeMap::new();
    for &file in workspace.ruby_files(db) {
        for (name, dispatches) in &ruby_file_plugins(db, file).dispatches {
            out.entry(name.clone())
                .or_insert_with(|| dispatches.clone());
        }
    }
    out
}

/// The modules (lower-cased names) whose Ruby files define each type and
/// function, by lower-cased name: whom code using them depends on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginOwners {
    pub types: BTreeMap<String, BTreeSet<String>>,
    pub functions: BTreeMap<String, BTreeSet<String>>,
}

#[salsa::tracked(returns(ref))]
pub fn plugin_owners(db: &dyn salsa::Database, workspace: Workspace) -> PluginOwners {
    let layout = workspace.layout(db);
    let mut owners = PluginOwners::default();
    for &file in workspace.ruby_files(db) {
        let Some((module, _)) = layout.module_of(file.path(db)) else {
            continue;
        };
        let module = module.name.to_lowercase();
        let plugins = ruby_file_plugins(db, file);
        for t in &plugins.types {
            let entry = owners.types.entry(t.name.clone()).or_default();
            entry.insert(module.clone());
        }
        for f in &plugins.functions {
            let entry = owners.functions.entry(f.clone()).or_default();
            entry.insert(module.clone());
        }
    }
    owners
}

/// The dispatches of the 4.x Ruby functions that one file of the
/// workspace alone defines: the signatures calls are checked against.
/// A function two files define is left out (which one Puppet loads
/// depends on the module path).
#[salsa::tracked(returns(ref))]
pub fn unambiguous_ruby_dispatches(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> BTreeMap<String, Vec<RubyDispatch>> {
    let mut definitions: BTreeMap<&str, usize> = BTreeMap::new();
    for &file in workspace.ruby_files(db) {
        for name in &ruby_file_plugins(db, file).functions {
            *definitions.entry(name).or_default() += 1;
        }
    }
    ruby_function_dispatches(db, workspace)
        .iter()
        .filter(|(name, _)| definitions.get(name.as_str()) == Some(&1))
        .map(|(name, dispatches)| (name.clone(), dispatches.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newtype_with_params_properties_and_namevar() {
        let text = r#"
Puppet::Type.newtype(:ini_setting) do
  ensurable do
    defaultvalues
  end
  newparam(:name, :namevar => true) do
  end
  newparam :section do
  end
  newproperty(:value) do
  end
end
"#;
        let plugins = scan("m/lib/puppet/type/ini_setting.rb", text);
        assert_eq!(
            plugins.types,
            vec![RubyType {
                name: "ini_setting".into(),
                attributes: vec![
                    "ensure".into(),
                    "name".into(),
                    "provider".into(),
                    "section".into(),
                    "value".into()
                ],
                namevars: vec!["name".into()],
                open: false,
            }]
        );
    }

    #[test]
    fn types_with_mixins_are_open() {
        let text = "Puppet::Type.newtype(:keystone_domain_config) do\n  extend PuppetX::Ini\n  create_parameters\nend\n";
        assert!(scan("m/lib/puppet/type/x.rb", text).types[0].open);
    }

    #[test]
    fn resource_api_and_functions() {
        let text = "Puppet::ResourceApi.register_type(\n  name: 'dsc_thing',\n  attributes: {\n    ensure: {\n      type: 'Enum[present]',\n    },\n    name: {\n      type: 'String',\n    },\n  },\n)\n";
        let plugins = scan("m/lib/puppet/type/dsc_thing.rb", text);
        assert_eq!(plugins.types[0].attributes, vec!["ensure", "name"]);
        let f = scan(
            "m/lib/puppet/functions/stdlib/to_json.rb",
            "Puppet::Functions.create_function(:'stdlib::to_json') do\nend",
        );
        assert_eq!(f.functions, vec!["stdlib::to_json"]);
        let legacy = scan(
            "m/lib/puppet/parser/functions/pick.rb",
            "newfunction(:pick, :type => :rvalue) do |args|\nend",
        );
        assert_eq!(legacy.functions, vec!["pick"]);
        let site = &sites(
            "m/lib/puppet/parser/functions/pick.rb",
            "newfunction(:pick)",
        )[0];
        assert_eq!(
            (site.name.as_str(), u32::from(site.range.start())),
            ("pick", 13)
        );
    }

    #[test]
    fn dispatch_parameters() {
        let text = "Puppet::Functions.create_function(:'m::pick') do\n  dispatch :one do\n    param 'String', :a\n    optional_param \"Enum['x']\", :b\n    repeated_param 'Any', :rest\n    optional_block_param :blk\n    return_type 'String'\n  end\n\n  dispatch(:two) do\n    required_param 'Integer', :n\n  end\n  def one(*a); end\nend\n";
        let plugins = scan("m/lib/puppet/functions/m/pick.rb", text);
        let (name, dispatches) = &plugins.dispatches[0];
        assert_eq!(name, "m::pick");
        let rendered: Vec<String> = dispatches
            .iter()
            .map(|d| {
                let params: Vec<String> = d
                    .params
                    .iter()
                    .chain(&d.block)
                    .map(|p| format!("{:?} {} {}", p.kind, p.type_text, p.name))
                    .collect();
                format!("{} >> {:?}", params.join(", "), d.return_type)
            })
            .collect();
        assert_eq!(
            rendered,
            vec![
                "Required String a, Optional Enum['x'] b, Repeated Any rest, Optional Callable blk >> Some(\"String\")",
                "Required Integer n >> None",
            ]
        );
    }
}
