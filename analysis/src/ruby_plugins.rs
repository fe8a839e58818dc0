//! Custom resource types and functions that modules ship in Ruby, found by
//! scanning their source text (no Ruby is run):
//! - `lib/puppet/type/*.rb`: `Puppet::Type.newtype(:name)` with `newparam`,
//!   `newproperty`, `ensurable`, namevars; and Resource API types
//!   (`Puppet::ResourceApi.register_type(name: 'x', attributes: {...})`);
//! - `lib/puppet/functions/**/*.rb`: `Puppet::Functions.create_function(:'mod::f')`
//!   with `dispatch` blocks' parameters (types, names, optional/repeated,
//!   block) for signature help;
//! - `lib/puppet/parser/functions/*.rb`: legacy `newfunction(:f, ...)`;
//! - in a 4.x function, a call to stdlib's `deprecation()` that every call
//!   of the function makes (Puppet 8's `strict = error` turns it into a
//!   failure).

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

/// A 4.x function's call to stdlib's `deprecation(key, message,
/// use_strict_setting = true)` that every call of the function makes: it
/// is a statement of a method a `dispatch` names, not inside a condition
/// or a block (stdlib 8.5's `validate_legacy` deprecates only some values,
/// inside an `if`: not one of these).
///
/// What stdlib's 4.x `deprecation` does with Puppet's `strict` setting
/// (checked with Puppet 8.10 and stdlib 8.5 and 9.4): under `error` it
/// raises `deprecation. <key>. <message>`, under `warning` it logs the
/// message, under `off` nothing; with `false` as the third argument
/// (stdlib 9's forwarders such as `to_json` -> `stdlib::to_json`) it logs
/// the message whatever `strict` is. Legacy 3.x functions' calls
/// (`function_deprecation([key, message])`) reach stdlib's 3.x
/// `deprecation`, which stdlib 8.5 has log only when the environment sets
/// `STDLIB_LOG_DEPRECATIONS=true` (never an error) and stdlib 9.4 no
/// longer has: they are not read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RubyDeprecation {
    /// The uniqueness key (the first argument) when it is a literal.
    pub key: Option<String>,
    /// The message when it is a literal; a line break in it, with the
    /// indentation around it, reads as one space.
    pub message: Option<String>,
    /// Whether the call obeys `strict` (no third argument, or `true`); a
    /// third argument that is not a literal counts as `false`, as the
    /// call cannot be shown to fail.
    pub strict: bool,
}

/// What one Ruby file defines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct RubyPlugins {
    pub types: Vec<RubyType>,
    pub functions: Vec<String>,
    /// The dispatches of the file's 4.x function (by its name).
    pub dispatches: Vec<(String, Vec<RubyDispatch>)>,
    /// The file's 4.x function when every call of it calls `deprecation()`.
    pub deprecations: Vec<(String, RubyDeprecation)>,
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
                if let Some(deprecation) = scan_deprecation(text) {
                    plugins.deprecations.push((name.clone(), deprecation));
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

/// The first call `call_function('deprecation', key, message[, strict])`
/// that is a statement of a method a `dispatch` names: the lines between
/// the method's `def` and the call are indented at least as deeply as the
/// call (so it is in no `if`, `case` or block), and nothing follows it on
/// its line but a comment (no `if` or `unless` modifier).
fn scan_deprecation(text: &str) -> Option<RubyDeprecation> {
    static CALL: OnceLock<Regex> = OnceLock::new();
    static DEF: OnceLock<Regex> = OnceLock::new();
    static TARGET: OnceLock<Regex> = OnceLock::new();
    let call = re(
        &CALL,
        r#"(?m)^([ \t]*)call_function\(\s*['"]deprecation['"]\s*,"#,
    );
    let def = re(&DEF, r"^\s*def\s+(?:self\.)?([[:word:]]+[?!]?)");
    let target = re(&TARGET, r"(?m)^\s*dispatch[\s(]+:([[:word:]]+)");
    let targets: BTreeSet<&str> = target
        .captures_iter(text)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .collect();
    call.captures_iter(text).find_map(|c| {
        let whole = c.get(0)?;
        let indent = c[1].len();
        // The nearest line above indented less than the call encloses it.
        let enclosing = text[..whole.start()].lines().rev().find(|line| {
            let trimmed = line.trim_start();
            !trimmed.is_empty() && !trimmed.starts_with('#') && line.len() - trimmed.len() < indent
        })?;
        let method = def.captures(enclosing)?.get(1)?.as_str();
        if !targets.contains(method) {
            return None;
        }
        let (args, rest) = ruby_arguments(&text[whole.end()..])?;
        let after = rest.split('\n').next().unwrap_or_default().trim();
        if !(after.is_empty() || after.starts_with('#')) {
            return None;
        }
        let literal = |arg: Option<&RubyArg>| match arg {
            Some(RubyArg::String(s) | RubyArg::Symbol(s)) => Some(s.clone()),
            _ => None,
        };
        let strict = match args.get(2) {
            None => true,
            Some(RubyArg::Word(w)) => w == "true",
            Some(_) => false,
        };
        (args.len() >= 2).then(|| RubyDeprecation {
            key: literal(args.first()),
            message: literal(args.get(1)).map(|m| one_line(&m)),
            strict,
        })
    })
}

/// An argument of a Ruby call, as far as the scan reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum RubyArg {
    /// A string literal without interpolation: its value.
    String(String),
    /// A symbol (`:name`).
    Symbol(String),
    /// A bare word (`false`, `nil`, a variable).
    Word(String),
    /// Any other expression.
    Other,
}

/// The arguments of a call from just after a `(` or `,` to the closing
/// `)`, and the text after it.
fn ruby_arguments(mut text: &str) -> Option<(Vec<RubyArg>, &str)> {
    let mut args = Vec::new();
    loop {
        let (arg, rest) = ruby_argument(text.trim_start())?;
        args.push(arg);
        let rest = rest.trim_start();
        match rest.as_bytes().first()? {
            b',' => text = &rest[1..],
            b')' => return Some((args, &rest[1..])),
            _ => return None,
        }
    }
}

/// One argument and the text after it.
fn ruby_argument(text: &str) -> Option<(RubyArg, &str)> {
    let bytes = text.as_bytes();
    match bytes.first()? {
        quote @ (b'\'' | b'"') => {
            let (value, len) = ruby_string(text, *quote)?;
            let arg = value.map_or(RubyArg::Other, RubyArg::String);
            Some((arg, &text[len..]))
        }
        b':' if bytes
            .get(1)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_') =>
        {
            let len = 1 + text[1..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(text.len() - 1);
            Some((RubyArg::Symbol(text[1..len].to_string()), &text[len..]))
        }
        _ => {
            // An expression: up to a `,` or `)` outside brackets.
            let mut depth = 0usize;
            let mut end = text.len();
            for (i, b) in bytes.iter().enumerate() {
                match b {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' if depth > 0 => depth -= 1,
                    b',' | b')' if depth == 0 => {
                        end = i;
                        break;
                    }
                    b'\'' | b'"' => return None,
                    _ => {}
                }
            }
            let expr = text[..end].trim();
            let arg = if !expr.is_empty()
                && expr.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                RubyArg::Word(expr.to_string())
            } else {
                RubyArg::Other
            };
            Some((arg, &text[end..]))
        }
    }
}

/// A Ruby string literal at the start of `text`: its value (`None` when a
/// double-quoted string interpolates) and its length with the quotes.
fn ruby_string(text: &str, quote: u8) -> Option<(Option<String>, usize)> {
    let mut value = String::new();
    let mut literal = true;
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                let (_, next) = chars.next()?;
                match (quote, next) {
                    (b'\'', '\\' | '\'') => value.push(next),
                    (b'\'', _) => {
                        value.push('\\');
                        value.push(next);
                    }
                    (_, 'n') => value.push('\n'),
                    (_, 't') => value.push('\t'),
                    (_, _) => value.push(next),
                }
            }
            '#' if quote == b'"' && text[i + 1..].starts_with('{') => {
                literal = false;
                value.push(c);
            }
            _ if c as u32 == u32::from(quote) => {
                return Some((literal.then_some(value), i + 1));
            }
            _ => value.push(c),
        }
    }
    None
}

/// A message written over several lines, as one: a line break with the
/// blanks around it reads as one space.
fn one_line(text: &str) -> String {
    text.split('\n')
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
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

/// The deprecations of the workspace's 4.x Ruby functions, by lower-cased
/// name: those of functions one 4.x file alone defines (Puppet's loader
/// prefers a 4.x function to a 3.x one of the same name; with two 4.x
/// definitions, which one Puppet loads depends on the module path).
#[salsa::tracked(returns(ref))]
pub fn ruby_function_deprecations(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> BTreeMap<String, RubyDeprecation> {
    let mut definitions: BTreeMap<&str, usize> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for &file in workspace.ruby_files(db) {
        if !file
            .path(db)
            .to_string_lossy()
            .contains("/lib/puppet/functions/")
        {
            continue;
        }
        let plugins = ruby_file_plugins(db, file);
        for name in &plugins.functions {
            *definitions.entry(name).or_default() += 1;
        }
        for (name, deprecation) in &plugins.deprecations {
            out.insert(name.clone(), deprecation.clone());
        }
    }
    out.retain(|name: &String, _| definitions.get(name.as_str()) == Some(&1));
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

    /// The deprecation a 4.x function file makes on every call.
    fn deprecation(text: &str) -> Option<RubyDeprecation> {
        let plugins = scan("m/lib/puppet/functions/f.rb", text);
        plugins.deprecations.first().map(|(_, d)| d.clone())
    }

    #[test]
    fn unconditional_deprecations_in_dispatched_methods() {
        // stdlib 8.5's is_string.rb (abridged).
        let is_string = "Puppet::Functions.create_function(:is_string) do\n  dispatch :deprecation_gen do\n    param 'Any', :scope\n    repeated_param 'Any', :args\n  end\n  def call(scope, *args)\n    manipulated_args = [scope] + args\n    self.class.dispatcher.dispatch(self, scope, manipulated_args)\n  end\n\n  def deprecation_gen(scope, *args)\n    call_function('deprecation', 'is_string', 'This method is deprecated, please use match expressions with Stdlib::Compat::String instead.')\n    scope.send('function_is_string', args)\n  end\nend\n";
        assert_eq!(
            deprecation(is_string),
            Some(RubyDeprecation {
                key: Some("is_string".into()),
                message: Some(
                    "This method is deprecated, please use match expressions with Stdlib::Compat::String instead.".into()
                ),
                strict: true,
            })
        );
        // stdlib 9's forwarders opt out of `strict`.
        let to_json = "Puppet::Functions.create_function(:to_json) do\n  dispatch :deprecation_gen do\n    repeated_param 'Any', :args\n  end\n  def deprecation_gen(*args)\n    call_function('deprecation', 'to_json', 'This function is deprecated, please use stdlib::to_json instead.', false)\n    call_function('stdlib::to_json', *args)\n  end\nend\n";
        let d = deprecation(to_json).unwrap();
        assert!(!d.strict);
        assert_eq!(d.key.as_deref(), Some("to_json"));
        // A message over two lines (stdlib 8.5's validate_string.rb), a
        // symbol key, a double-quoted string.
        let multiline = "Puppet::Functions.create_function(:v) do\n  dispatch :v do\n  end\n  def v(*args)\n    x = 1\n    call_function(\"deprecation\", :v, 'Use the stdlib validate_legacy function,\n                    with Stdlib::Compat::String.', true) # why\n  end\nend\n";
        let d = deprecation(multiline).unwrap();
        assert_eq!(
            (d.key.as_deref(), d.message.as_deref(), d.strict),
            (
                Some("v"),
                Some("Use the stdlib validate_legacy function, with Stdlib::Compat::String."),
                true
            )
        );
        let interpolated = "Puppet::Functions.create_function(:v) do\n  dispatch :v do\n  end\n  def v(x)\n    call_function('deprecation', 'v', \"#{x} is old\", flag)\n  end\nend\n";
        let d = deprecation(interpolated).unwrap();
        assert_eq!((d.message, d.strict), (None, false));
    }

    #[test]
    fn conditional_deprecations_are_not_read() {
        // stdlib 8.5's validate_legacy.rb deprecates only some values.
        let nested = "Puppet::Functions.create_function(:validate_legacy) do\n  dispatch :validate_legacy do\n    param 'Type', :target_type\n  end\n  def validate_legacy(scope, target_type, function_name, value, *prev_args)\n    if assert_type(target_type, value)\n      x\n    else\n      if previous_validation(scope, function_name, value, *prev_args)\n        call_function('deprecation', 'validate_legacy', error_msg)\n      end\n    end\n  end\nend\n";
        assert_eq!(deprecation(nested), None);
        let modifier = "Puppet::Functions.create_function(:m) do\n  dispatch :m do\n  end\n  def m(x)\n    call_function('deprecation', 'm', 'old') if x\n  end\nend\n";
        assert_eq!(deprecation(modifier), None);
        let helper = "Puppet::Functions.create_function(:h) do\n  dispatch :h do\n  end\n  def h(x)\n    x\n  end\n\n  def helper\n    call_function('deprecation', 'h', 'old')\n  end\nend\n";
        assert_eq!(deprecation(helper), None);
        // A statement after a closed `if` block still runs every time.
        let after_if = "Puppet::Functions.create_function(:a) do\n  dispatch :a do\n  end\n  def a(x)\n    if x\n      y\n    end\n    call_function('deprecation', 'a', 'old')\n  end\nend\n";
        assert!(deprecation(after_if).is_some());
        // Legacy functions are not read.
        let legacy = scan(
            "m/lib/puppet/parser/functions/is_integer.rb",
            "newfunction(:is_integer) do |args|\n  function_deprecation([:is_integer, 'old'])\nend\n",
        );
        assert!(legacy.deprecations.is_empty());
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
