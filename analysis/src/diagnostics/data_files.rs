//! The diagnostics of Hiera's files: YAML syntax, `hiera.yaml`, and
//! interpolations; keys that bind no class parameter of the workspace,
//! and values no class could take. What depends on the target Puppet
//! (`strict`, legacy facts) reads `workspace.target(db)`: Hiera follows
//! `strict`, not `strict_variables`, for the variables it interpolates.

use super::workspace_types::WorkspaceTypes;
use super::Diagnostic;
use crate::builtins::legacy_facts::legacy_facts;
use crate::builtins::suggest;
use crate::db::workspace_builtins;
use crate::db::{DataFile, Workspace};
use crate::hiera::calls::code_lookup_keys;
use crate::hiera::config::PathSpec;
use crate::hiera::data::{data_document, lookup_options, normalize_key, LOOKUP_OPTIONS};
use crate::hiera::interpolation::{interpolations, Expression, Method};
use crate::hiera::layers::{hiera_config, hiera_layers, levels_of};
use crate::hiera::value::to_value;
use crate::hiera::yaml::{YamlNode, YamlValue};
use crate::hiera::{self};
use crate::hir::body::Name;
use crate::index::{lookup, Namespace};
use crate::model::{Type, Value};
use crate::resolve::scope::{class_variable_chain, BUILTIN_VARIABLES, PRESET_VARIABLES};
use crate::target::{Strict, Target};
use crate::values::format::to_programmatic;
use puppet_syntax::{Code, Severity, TextRange, TextSize};
use std::collections::BTreeSet;
use std::path::Path;

/// The problems of a Hiera file: YAML syntax errors (`yaml-syntax`), for
/// `hiera.yaml` what Hiera cannot use (`hiera-config`, a version 3 file
/// as the target's `strict` makes Puppet treat it), interpolations Puppet
/// fails on (`hiera-interpolation`, variables nothing sets included) and
/// legacy facts the target does not receive (`legacy-fact`), data that is
/// not a hash (`hiera-data-not-hash`), and for data the keys of workspace
/// classes that name no parameter (`hiera-unknown-parameter`) or give a
/// value of the wrong type (`hiera-type-mismatch`).
#[salsa::tracked(returns(ref))]
pub fn data_file_diagnostics(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: DataFile,
) -> Vec<Diagnostic> {
    let text = file.text(db);
    let mut out = Vec::new();
    if hiera::is_config(file.path(db)) {
        let config = hiera_config(db, file);
        for e in &config.syntax_errors {
            out.push(Diagnostic::error(
                e.range,
                Code::YamlSyntax,
                e.message.as_str(),
            ));
        }
        let target = workspace.target(db);
        for p in &config.problems {
            if p.version_3 {
                let problem = (p.range, p.message.as_str());
                out.extend(version_3(db, workspace, file, problem, target));
                continue;
            }
            out.push(Diagnostic::new(
                p.range,
                p.severity,
                Code::HieraConfig,
                p.message.as_str(),
            ));
        }
        let scope = Scope {
            db,
            workspace,
            target,
        };
        path_interpolations(text, config, &scope, &mut out);
        return out;
    }
    let doc = data_document(db, file);
    for e in &doc.errors {
        out.push(Diagnostic::error(
            e.range,
            Code::YamlSyntax,
            e.message.as_str(),
        ));
    }
    let Some(root) = &doc.root else {
        return out;
    };
    let read = read_by_layers(db, workspace, file);
    let target = workspace.target(db);
    if let Some(problem) = not_a_hash(file.path(db), root, !read.is_empty(), target) {
        out.push(problem);
        return out;
    }
    let scope = Scope {
        db,
        workspace,
        target,
    };
    for (key_node, value) in root.entries() {
        let looked_up = key_node.as_str().map(normalize_key).is_some_and(|key| {
            key != LOOKUP_OPTIONS
                && read.iter().any(|answers| answers(key))
                && (code_lookup_keys(db, workspace).contains(key)
                    || matches!(class_parameter(db, workspace, key), Some(Ok(_))))
        });
        let entry = Entry {
            key: key_node.as_str().map(normalize_key).unwrap_or_default(),
            looked_up,
        };
        scalar_problems(text, key_node, &entry, &scope, &mut out);
        scalar_problems(text, value, &entry, &scope, &mut out);
    }
    let types = WorkspaceTypes::new(db, workspace);
    // Many keys share a type text: each is resolved once per file.
    let mut resolved: std::collections::HashMap<&str, Option<Type>> = Default::default();
    for (key_node, value) in root.entries() {
        let Some(key) = key_node.as_str().map(normalize_key) else {
            continue;
        };
        if key == LOOKUP_OPTIONS {
            continue;
        }
        match class_parameter(db, workspace, key) {
            Some(Ok(Some(type_text))) if read.iter().any(|answers| answers(key)) => {
                let t = resolved
                    .entry(type_text)
                    .or_insert_with(|| types.resolve(type_text));
                if let Some(t) = t {
                    out.extend(type_mismatch(db, workspace, &types, key, t, value));
                }
            }
            Some(Err(message)) => out.push(Diagnostic::warning(
                key_node.range,
                Code::HieraUnknownParameter,
                message,
            )),
            Some(Ok(_)) | None => {}
        }
    }
    out.sort_by_key(|d| d.range.start());
    out
}

/// For each layer whose levels read the file, whether it answers a key
/// (a module's layer only its own namespace).
fn read_by_layers(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: DataFile,
) -> Vec<impl Fn(&str) -> bool + '_> {
    let layers = hiera_layers(db, workspace);
    levels_of(db, workspace, file)
        .into_iter()
        .map(move |(layer, _)| move |key: &str| layers[layer].answers(key))
        .collect()
}

/// For a key `module::class::param` whose class is in the workspace:
/// `Ok` with the parameter's declared type as written (`None` when
/// untyped), or `Err` with why the key binds nothing. `None` for other
/// keys, and for keys the code looks up itself (`lookup('icinga::repos')`).
fn class_parameter<'db>(
    db: &'db dyn salsa::Database,
    workspace: Workspace,
    key: &str,
) -> Option<Result<Option<&'db str>, String>> {
    let (class, param) = key.rsplit_once("::")?;
    if class.is_empty() || param.is_empty() {
        return None;
    }
    let found = lookup(db, workspace, Namespace::Class, class).first()?;
    let params = &found.definition.params;
    if let Some(p) = params.iter().find(|p| p.name == param) {
        return Some(Ok(p.type_text.as_deref()));
    }
    if code_lookup_keys(db, workspace).contains(key) {
        return None;
    }
    let hint = suggest::suggest(param, params.iter().map(|p| p.name.as_str()), 1)
        .first()
        .map(|s| format!(": did you mean '{class}::{s}'?"))
        .unwrap_or_default();
    Some(Err(format!(
        "class '{class}' has no parameter '{param}': automatic parameter lookup never reads this key{hint}"
    )))
}

/// A value the parameter's declared type rejects. Values merged with
/// others (`lookup_options` with a merge) or converted (`convert_to`) are
/// not judged alone, nor values that depend on the node.
fn type_mismatch(
    db: &dyn salsa::Database,
    workspace: Workspace,
    types: &WorkspaceTypes,
    key: &str,
    t: &Type,
    value: &YamlNode,
) -> Option<Diagnostic> {
    let v = to_value(value);
    if v == Value::Undef {
        return None;
    }
    if !types.rejects(t, &v) {
        return None;
    }
    // Only a rejected value asks for the options (they cost a scan of
    // every level's `lookup_options`).
    if let Some((options, _)) = lookup_options(db, workspace, key) {
        let merges = options
            .get("merge")
            .is_some_and(|m| !matches!(m.as_str(), Some("first")));
        if merges || options.get("convert_to").is_some() {
            return None;
        }
    }
    Some(Diagnostic::error(
        value.range,
        Code::HieraTypeMismatch,
        format!(
            "'{key}' binds a parameter of type {}, but this value is {}",
            types.describe(t),
            to_programmatic(&v)
        ),
    ))
}

/// What Puppet fails on in the scalars of a data file's top-level key or
/// its value: interpolations of every string (keys and values), and
/// values its YAML loader refuses (dates, symbols).
fn scalar_problems(
    text: &str,
    node: &YamlNode,
    entry: &Entry,
    scope: &Scope,
    out: &mut Vec<Diagnostic>,
) {
    node.for_each_scalar(&mut |node, is_key| {
        if let YamlValue::String(s) = &node.value {
            check_interpolations(text, node.range, s, Some(entry), scope, out);
        }
        if is_key {
            return;
        }
        if let Some(message) = crate::hiera::yaml::refused_by_puppet(text, node) {
            out.push(Diagnostic::error(node.range, Code::YamlSyntax, message));
        }
    });
}

/// A data file whose top level is not a hash of keys. Puppet's
/// `yaml_data` (and `eyaml_lookup_key`) warns "PATH: file does not contain
/// a valid yaml hash" and reads nothing, unless `strict = error` (Puppet
/// 8's default), where the lookup fails; an empty file (or `null`) only
/// warns. `json_data`'s result must be a hash: any lookup reading a JSON
/// array fails ("... has wrong type, expects a Hash value, got Tuple").
/// Only a file some level reads can fail.
fn not_a_hash(path: &Path, root: &YamlNode, read: bool, target: Target) -> Option<Diagnostic> {
    let what = match &root.value {
        YamlValue::Mapping(_) | YamlValue::Null | YamlValue::Unsupported => return None,
        YamlValue::Sequence(_) => "a list",
        _ => "a single value",
    };
    let json = path.extension().is_some_and(|e| e == "json");
    let fails = read && (json || target.strict_errors());
    let message = if json {
        format!("the file is {what}, not an object of keys: every lookup that reads it fails (the value of `json_data` must be a hash)")
    } else if target.strict_errors() {
        format!("the file is {what}, not a hash of keys: Puppet {} fails every lookup that reads it (strict = error: 'file does not contain a valid yaml hash')", target.version)
    } else {
        format!("the file is {what}, not a hash of keys: Puppet ignores it with a warning ('file does not contain a valid yaml hash'), and fails every lookup that reads it under strict = error (Puppet 8's default)")
    };
    let severity = if fails {
        Severity::Error
    } else {
        Severity::Warning
    };
    Some(Diagnostic::new(
        root.range,
        severity,
        Code::HieraDataNotHash,
        message,
    ))
}

/// A version 3 `hiera.yaml`, which only the global layer may use. At an
/// environment's or module's root Puppet warns "hiera.yaml version 3
/// found at the environment root was ignored" (or "at module root"), or
/// under `strict = error` (Puppet 8's default) fails every lookup with
/// "hiera.yaml version 3 cannot be used in an environment" (or "in a
/// module"). In the global layer it is deprecated. Elsewhere (no layer)
/// the reader's warning stands.
fn version_3(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: DataFile,
    (range, message): (TextRange, &str),
    target: Target,
) -> Option<Diagnostic> {
    let layout = workspace.layout(db);
    let path = file.path(db);
    let root = path.parent()?;
    let (place, found_at) = if layout.global_hiera.as_deref() == Some(path.as_path()) {
        return Some(Diagnostic::warning(
            range,
            Code::HieraConfig,
            "hiera.yaml version 3 is deprecated: convert it to version 5",
        ));
    } else if layout.environments.iter().any(|e| e == root) {
        ("an environment", "the environment root")
    } else if layout.modules.iter().any(|m| m.root == root) {
        ("a module", "module root")
    } else {
        return Some(Diagnostic::warning(range, Code::HieraConfig, message));
    };
    Some(if target.strict_errors() {
        Diagnostic::error(
            range,
            Code::HieraConfig,
            format!("hiera.yaml version 3 cannot be used in {place}: Puppet {} fails every lookup (strict = error); convert it to version 5", target.version),
        )
    } else {
        Diagnostic::warning(
            range,
            Code::HieraConfig,
            format!("hiera.yaml version 3 found at {found_at} was ignored: Puppet reads none of its data, with a warning, and fails every lookup under strict = error (Puppet 8's default); convert it to version 5"),
        )
    })
}

/// What the interpolations of a file are judged against.
struct Scope<'a> {
    db: &'a dyn salsa::Database,
    workspace: Workspace,
    target: Target,
}

/// The top-level key of a data file a string belongs to.
struct Entry<'a> {
    key: &'a str,
    /// Whether code looks the key up (a `lookup()` call, or automatic
    /// parameter lookup of a workspace class's parameter) through a level
    /// that reads the file: then an interpolation Puppet fails on fails
    /// the compilation.
    looked_up: bool,
}

/// What a variable interpolated by Hiera is, for the target Puppet.
enum HieraVariable {
    /// Something sets it (or may: a class's variable, a fact, an ENC).
    Known,
    /// Nothing in the workspace sets it, nor Puppet, nor Facter.
    Unknown,
    /// A legacy fact read as a variable (`%{::osfamily}`), which the
    /// target does not receive; with its structured replacement.
    LegacyFact(String, Option<String>),
    /// A legacy fact read through `facts` (`%{facts.osfamily}`): empty.
    LegacyFactsKey(String, Option<String>),
}

/// Scope variables Hiera 3's scope adds. Data an environment's or a
/// module's layer reads does not have them (Puppet fails on
/// `%{calling_module}` there as on any unknown variable), but the global
/// layer's does: they are taken as known.
const HIERA_VARIABLES: [&str; 3] = ["calling_class", "calling_class_path", "calling_module"];

impl Scope<'_> {
    /// Judges a variable interpolation (`segments[0]` the variable, the
    /// rest keys into it).
    fn variable(&self, segments: &[String]) -> HieraVariable {
        let Some(root) = segments.first() else {
            return HieraVariable::Known;
        };
        let root = root.trim_start_matches("::");
        if let Some((class, leaf)) = root.rsplit_once("::") {
            let Some(chain) = class_variable_chain(self.db, self.workspace, class) else {
                return HieraVariable::Known;
            };
            let key = crate::hir::body::name(leaf);
            let found = chain.classes.iter().any(|(_, vars)| vars.contains(&key));
            return if found || !chain.complete || PRESET_VARIABLES.contains(&leaf) {
                HieraVariable::Known
            } else {
                HieraVariable::Unknown
            };
        }
        if let Some(fact) = hiera::unreceived_legacy_fact(self.db, self.workspace, segments) {
            let replacement = legacy_facts()
                .structured_path(fact)
                .map(|path| format!("%{{facts.{}}}", hiera_key_path(&path)));
            return if root == "facts" {
                HieraVariable::LegacyFactsKey(fact.to_string(), replacement)
            } else {
                HieraVariable::LegacyFact(fact.to_string(), replacement)
            };
        }
        if root == "facts"
            || BUILTIN_VARIABLES.contains(&root)
            || HIERA_VARIABLES.contains(&root)
            || root.chars().all(|c| c.is_ascii_digit())
        {
            return HieraVariable::Known;
        }
        let known = crate::module_facts::module_facts(self.db, self.workspace).contains_key(root)
            || workspace_builtins(self.db, self.workspace)
                .fact(root)
                .is_some()
            || hiera_scope_names(self.db, self.workspace).contains(&crate::hir::body::name(root));
        if known {
            HieraVariable::Known
        } else {
            HieraVariable::Unknown
        }
    }
}

/// A fact's path as Hiera's dotted keys write it (a segment with a dot
/// quoted).
fn hiera_key_path(path: &[String]) -> String {
    path.iter()
        .map(|segment| {
            if segment.contains('.') {
                format!("\"{segment}\"")
            } else {
                segment.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// Every variable a Hiera interpolation may find in the scope of some
/// lookup: top- and node-scope variables, and each class's, define's and
/// other definition's parameters and variables (a lookup sees the scope
/// of the code calling it).
#[salsa::tracked(returns(ref))]
fn hiera_scope_names(db: &dyn salsa::Database, workspace: Workspace) -> BTreeSet<Name> {
    workspace
        .files(db)
        .iter()
        .flat_map(|&file| file.items(db).iter())
        .flat_map(|&item| item.published(db).variables.iter().copied())
        .collect()
}

/// Interpolations of a `hiera.yaml`'s paths (variables only).
fn path_interpolations(
    text: &str,
    config: &hiera::config::HieraConfig,
    scope: &Scope,
    out: &mut Vec<Diagnostic>,
) {
    let specs = config
        .hierarchy
        .iter()
        .chain(&config.default_hierarchy)
        .flat_map(|level| level.paths.iter().map(move |p| (level, p)));
    for (level, spec) in specs {
        let template = match spec {
            PathSpec::Mapped { template, .. } => template,
            other => other.template(),
        };
        // The path is written after the level's name.
        let after_name = TextRange::new(level.name_range.start(), TextSize::of(text));
        check_interpolations(text, after_name, template, None, scope, out);
        legacy_facts_in_path(text, after_name, template, &level.name, scope, out);
    }
}

/// A legacy fact in a hierarchy path, under a Puppet that does not
/// receive them: the path interpolates an empty string, so the level
/// never finds the node's data. Puppet 8 warns "Interpolation failed with
/// '::osfamily', but compilation continuing" for a variable, and says
/// nothing for `%{facts.osfamily}`.
fn legacy_facts_in_path(
    text: &str,
    range: TextRange,
    template: &str,
    level: &str,
    scope: &Scope,
    out: &mut Vec<Diagnostic>,
) {
    for found in interpolations(template) {
        let Ok(Expression::Variable(segments)) = &found.expression else {
            continue;
        };
        let written = &template[found.range.clone()];
        let (fact, replacement) = match scope.variable(segments) {
            HieraVariable::LegacyFact(fact, replacement)
            | HieraVariable::LegacyFactsKey(fact, replacement) => (fact, replacement),
            _ => continue,
        };
        let instead = replacement
            .map(|r| format!("; use {r}"))
            .unwrap_or_default();
        out.push(Diagnostic::warning(
            locate(text, range, written),
            Code::LegacyFact,
            format!(
                "'{fact}' is a legacy fact, which Puppet {} no longer receives: `{written}` interpolates an empty string, so level '{level}' never finds the node's data{instead}",
                scope.target.version
            ),
        ));
    }
}

/// Reports what Puppet's lookup fails on in one string, at the
/// interpolation's text when it can be found in `range` of the file: of
/// a data file's `entry`, or of a hierarchy path (`None`: variables only,
/// and judged apart).
fn check_interpolations(
    text: &str,
    range: TextRange,
    value: &str,
    entry: Option<&Entry>,
    scope: &Scope,
    out: &mut Vec<Diagnostic>,
) {
    let methods_allowed = entry.is_some();
    for found in interpolations(value) {
        let written = &value[found.range.clone()];
        let at = locate(text, range, written);
        let problem = match &found.expression {
            Err(message) => Some((Severity::Error, format!("{message}: Puppet's lookup fails"))),
            Ok(Expression::Call { method, .. }) if !methods_allowed => Some((
                Severity::Error,
                format!(
                    "`{}` is a method call: a hierarchy path may only interpolate variables",
                    method_name(*method)
                ),
            )),
            Ok(Expression::Call {
                method: Method::Alias,
                ..
            }) if found.range != (0..value.len()) => Some((
                Severity::Error,
                "`alias` must be the whole string (it keeps the value's type): Puppet's lookup fails".to_string(),
            )),
            Ok(Expression::Variable(segments)) if segments[0].contains('(') => {
                let what = format!(
                    "`{}` is not a method call (`name('key')`), so it is read as a variable of that name, which never exists",
                    segments.join(".")
                );
                match entry {
                    Some(entry) => {
                        let code = Code::HieraInterpolation;
                        out.extend(undefined_variable(at, code, what, written, entry, scope.target));
                        None
                    }
                    // A path's interpolation fails only with a warning.
                    None => Some((Severity::Warning, format!("{what}: it interpolates nothing"))),
                }
            }
            Ok(Expression::Variable(segments)) => {
                variable_in_data(at, written, segments, entry, scope, out);
                None
            }
            Ok(Expression::Call {
                method: Method::Scope,
                argument,
            }) => {
                if let Some(segments) = crate::hiera::interpolation::split_key(argument) {
                    variable_in_data(at, written, &segments, entry, scope, out);
                }
                None
            }
            _ => None,
        };
        if let Some((severity, message)) = problem {
            out.push(Diagnostic::new(
                at,
                severity,
                Code::HieraInterpolation,
                message,
            ));
        }
    }
}

/// A variable interpolated by a data value: nothing sets it, or it is a
/// legacy fact the target does not receive (hierarchy paths are judged by
/// [`legacy_facts_in_path`]).
fn variable_in_data(
    at: TextRange,
    written: &str,
    segments: &[String],
    entry: Option<&Entry>,
    scope: &Scope,
    out: &mut Vec<Diagnostic>,
) {
    let Some(entry) = entry else {
        return;
    };
    let target = scope.target;
    let found = match scope.variable(segments) {
        HieraVariable::Known => None,
        HieraVariable::Unknown => undefined_variable(
            at,
            Code::HieraInterpolation,
            match segments[0].trim_start_matches("::").rsplit_once("::") {
                Some((class, leaf)) => {
                    format!("class '{class}' has no parameter or variable '{leaf}'")
                }
                None => format!(
                    "variable '{}' is set nowhere in the workspace (no top-scope, node or class variable, no fact)",
                    segments[0]
                ),
            },
            written,
            entry,
            target,
        ),
        HieraVariable::LegacyFact(fact, replacement) => {
            let instead = replacement
                .map(|r| format!(" (use {r})"))
                .unwrap_or_default();
            undefined_variable(
                at,
                Code::LegacyFact,
                format!(
                    "'{fact}' is a legacy fact, which Puppet {} no longer receives{instead}",
                    target.version
                ),
                written,
                entry,
                target,
            )
        }
        HieraVariable::LegacyFactsKey(fact, replacement) => {
            let instead = replacement
                .map(|r| format!("; use {r}"))
                .unwrap_or_default();
            Some(Diagnostic::warning(
                at,
                Code::LegacyFact,
                format!(
                    "'{fact}' is a legacy fact, which Puppet {} no longer receives: `{written}` interpolates an empty string{instead}",
                    target.version
                ),
            ))
        }
    };
    out.extend(found);
}

/// A data value interpolating a variable Puppet does not find. Hiera's
/// scope (`Hiera::Scope`, whatever `strict_variables` says) follows
/// `strict`: silent under `off`, "Undefined variable 'x'" as a warning
/// under `warning` (the interpolation is empty), and as an error failing
/// the lookup under `error` (Puppet 8's default), even a `lookup()` with a
/// default. An error where code looks the key up, a warning otherwise.
fn undefined_variable(
    at: TextRange,
    code: Code,
    what: String,
    written: &str,
    entry: &Entry,
    target: Target,
) -> Option<Diagnostic> {
    let variable = written
        .trim_start_matches("%{")
        .trim_end_matches('}')
        .trim();
    let variable = variable
        .strip_prefix("scope(")
        .map(|v| {
            v.trim_end_matches(')')
                .trim_matches(|c| c == '\'' || c == '"')
        })
        .unwrap_or(variable);
    let undefined = format!("Undefined variable '{variable}'");
    let key = entry.key;
    match target.strict {
        Strict::Off => None,
        Strict::Warning => Some(Diagnostic::warning(
            at,
            code,
            format!("{what}: it interpolates an empty string, with a warning ({undefined}); under strict = error (Puppet 8's default) the lookup of '{key}' fails"),
        )),
        Strict::Error if entry.looked_up => Some(Diagnostic::error(
            at,
            code,
            format!("{what}: Puppet {} fails the lookup of '{key}' (strict = error: {undefined}), even a lookup() with a default", target.version),
        )),
        Strict::Error => Some(Diagnostic::warning(
            at,
            code,
            format!("{what}: Puppet {} fails any lookup of '{key}' (strict = error: {undefined}); no code of the workspace looks it up", target.version),
        )),
    }
}

fn method_name(method: Method) -> &'static str {
    match method {
        Method::Lookup => "lookup",
        Method::Hiera => "hiera",
        Method::Alias => "alias",
        Method::Literal => "literal",
        Method::Scope => "scope",
    }
}

/// The range of `written` inside `range` of the text, else `range`.
fn locate(text: &str, range: TextRange, written: &str) -> TextRange {
    let start = usize::from(range.start()).min(text.len());
    let end = usize::from(range.end()).clamp(start, text.len());
    match text.get(start..end).and_then(|slice| slice.find(written)) {
        Some(offset) => {
            let from = TextSize::from((start + offset) as u32);
            TextRange::new(from, from + TextSize::of(written))
        }
        None => range,
    }
}

#[cfg(test)]
mod tests {
    use crate::host::{parse_fixture, AnalysisHost};
    use std::path::Path;

    /// (code, line of the range's start, message) of a file's diagnostics.
    fn found(host: &AnalysisHost, path: &str) -> Vec<(String, usize, String)> {
        let text = host.analysis().text(Path::new(path)).unwrap();
        host.diagnostics(Path::new(path))
            .iter()
            .map(|d| {
                let line = text[..usize::from(d.range.start())].matches('\n').count();
                (d.code.to_string(), line, d.message.to_string())
            })
            .collect()
    }

    #[test]
    fn hiera_files_report_yaml_syntax_and_configuration_problems() {
        let host = AnalysisHost::from_files(parse_fixture(
            "#- /env/hiera.yaml\nversion: 5\nhierarchy:\n  - name: Common\n  - path: common.yaml\n\
             #- /env/data/common.yaml\nntp::servers:\n  - a\n  b: [\n\
             #- /env/data/nodes/web.json\n{\"ntp::servers\": [\"x\"]}\n\
             #- /env/manifests/site.pp\nnotice(1)\n\
             #- /env/modules/ntp/manifests/init.pp\nclass ntp(Array $servers = []) {}\n\
             #- /env/data/nodes/db.yaml\nntp::serverz: []\nntp::servers: []\nother::key: 1\nntp: 1\n",
        ));
        let config = found(&host, "/env/hiera.yaml");
        let codes: Vec<&str> = config.iter().map(|(c, _, _)| c.as_str()).collect();
        assert_eq!(codes, ["hiera-config"; 2], "{config:?}");
        assert_eq!((config[0].1, config[1].1), (2, 3), "{config:?}");
        let data = found(&host, "/env/data/common.yaml");
        assert_eq!(data.len(), 1, "{data:?}");
        assert_eq!(data[0].0, "yaml-syntax");
        assert!(found(&host, "/env/data/nodes/web.json").is_empty());
        let keys = found(&host, "/env/data/nodes/db.yaml");
        assert_eq!(keys.len(), 1, "{keys:?}");
        assert_eq!(keys[0].0, "hiera-unknown-parameter");
        assert_eq!(keys[0].1, 0);
        assert!(
            keys[0].2.ends_with("did you mean 'ntp::servers'?"),
            "{keys:?}"
        );
        let paths: Vec<&Path> = host.paths().collect();
        assert!(paths.contains(&Path::new("/env/data/common.yaml")));
        // The snapshot the language server reads answers the same.
        let analysis = host.analysis();
        let pulled = analysis
            .diagnostics(Path::new("/env/data/common.yaml"))
            .unwrap();
        assert_eq!(pulled.len(), 1);
        assert!(analysis.line_index(Path::new("/env/hiera.yaml")).is_some());
    }
}

#[cfg(test)]
mod value_tests {
    use crate::host::AnalysisHost;
    use crate::target::{PuppetVersion, Target};
    use std::path::Path;

    /// `line: severity code: message` of each diagnostic of a file.
    fn report(host: &AnalysisHost, path: &str) -> String {
        let text = host.analysis().text(Path::new(path)).unwrap();
        host.diagnostics(Path::new(path))
            .iter()
            .map(|d| {
                let line = text[..usize::from(d.range.start())].matches('\n').count() + 1;
                let shown = &text[d.range];
                format!(
                    "{line}: {:?} {} `{shown}`: {}\n",
                    d.severity, d.code, d.message
                )
            })
            .collect()
    }

    const WORKSPACE: &str = "#- /env/manifests/site.pp\ninclude ntp\n\
        #- /env/hiera.yaml\nversion: 5\nhierarchy:\n  - name: Nodes\n    path: \"nodes/%{lookup('x')}.yaml\"\n  - name: Common\n    path: common.yaml\n\
        #- /env/types/port.pp\ntype Env::Port = Integer[1, 65535]\n\
        #- /env/modules/ntp/manifests/init.pp\nclass ntp(Array[String] $servers, Env::Port $port, Sensitive[String] $secret, Hash $settings = {}, $anything = 1) {\n  $x = lookup('ntp::extra')\n}\n";

    #[test]
    fn values_of_the_wrong_type_and_bad_interpolations() {
        let data = "ntp::servers: a.pool\nntp::port: 70000\nntp::secret: plain\nntp::settings:\n  a: 1\nntp::anything: [1]\nntp::extra: 1\nntp::serverz: []\n\
            other: \"%{foo('x')} %{lookup()} %{facts.os.family}\"\nlist: \"x %{alias('other')}\"\nfine: \"%{alias('other')}\"\n";
        // Puppet 7's verdicts.
        let mut host = AnalysisHost::discover_fixture(
            "/env",
            &format!("{WORKSPACE}#- /env/data/common.yaml\n{data}"),
        );
        host.set_target(Target::of(PuppetVersion::V7), "test");
        expect_test::expect![[r#"
            1: Error hiera-type-mismatch `a.pool`: 'ntp::servers' binds a parameter of type Array[String], but this value is 'a.pool'
            2: Error hiera-type-mismatch `70000`: 'ntp::port' binds a parameter of type Env::Port (Integer[1, 65535]), but this value is 70000
            3: Error hiera-type-mismatch `plain`: 'ntp::secret' binds a parameter of type Sensitive[String], but this value is 'plain'
            8: Warning hiera-unknown-parameter `ntp::serverz`: class 'ntp' has no parameter 'serverz': automatic parameter lookup never reads this key: did you mean 'ntp::servers'?
            9: Error hiera-interpolation `%{foo('x')}`: unknown interpolation method 'foo': Puppet's lookup fails
            9: Warning hiera-interpolation `%{lookup()}`: `lookup()` is not a method call (`name('key')`), so it is read as a variable of that name, which never exists: it interpolates an empty string, with a warning (Undefined variable 'lookup()'); under strict = error (Puppet 8's default) the lookup of 'other' fails
            10: Error hiera-interpolation `%{alias('other')}`: `alias` must be the whole string (it keeps the value's type): Puppet's lookup fails
        "#]]
        .assert_eq(&report(&host, "/env/data/common.yaml"));
        expect_test::expect![[r#"
            4: Error hiera-interpolation `%{lookup('x')}`: `lookup` is a method call: a hierarchy path may only interpolate variables
        "#]]
        .assert_eq(&report(&host, "/env/hiera.yaml"));
    }

    #[test]
    fn values_no_level_reads_or_merged_values_are_not_judged() {
        let data = "lookup_options:\n  ntp::servers:\n    merge: unique\nntp::servers: a.pool\n";
        let host = AnalysisHost::discover_fixture(
            "/env",
            &format!("{WORKSPACE}#- /env/data/common.yaml\n{data}#- /env/data/old/unused.yaml\nntp::port: 0\n"),
        );
        assert_eq!(report(&host, "/env/data/common.yaml"), "");
        assert_eq!(report(&host, "/env/data/old/unused.yaml"), "");
    }
}
