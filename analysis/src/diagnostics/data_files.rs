//! The diagnostics of Hiera's files: YAML syntax, `hiera.yaml`, and
//! interpolations, each file alone; keys that bind no class parameter of
//! the workspace, and values no class could take.

use super::workspace_types::WorkspaceTypes;
use super::Diagnostic;
use crate::builtins::suggest;
use crate::db::{DataFile, Workspace};
use crate::hiera::calls::code_lookup_keys;
use crate::hiera::config::PathSpec;
use crate::hiera::data::{data_document, lookup_options, normalize_key, LOOKUP_OPTIONS};
use crate::hiera::interpolation::{interpolations, Expression, Method};
use crate::hiera::layers::{hiera_config, hiera_layers, levels_of};
use crate::hiera::value::to_value;
use crate::hiera::yaml::{YamlNode, YamlValue};
use crate::hiera::{self};
use crate::index::{lookup, Namespace};
use crate::model::{Type, Value};
use crate::values::format::to_programmatic;
use puppet_syntax::{Code, Severity, TextRange, TextSize};

/// The problems of a Hiera file: YAML syntax errors (`yaml-syntax`), for
/// `hiera.yaml` what Hiera cannot use (`hiera-config`), interpolations
/// Puppet fails on (`hiera-interpolation`), and for data the keys of
/// workspace classes that name no parameter (`hiera-unknown-parameter`)
/// or give a value of the wrong type (`hiera-type-mismatch`).
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
        for p in &config.problems {
            out.push(Diagnostic::new(
                p.range,
                p.severity,
                Code::HieraConfig,
                p.message.as_str(),
            ));
        }
        path_interpolations(text, config, &mut out);
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
    scalar_problems(text, root, &mut out);
    let read = read_by_layers(db, workspace, file);
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

/// What Puppet fails on in a data file's scalars: interpolations of
/// every string (keys and values), and values its YAML loader refuses
/// (dates, symbols).
fn scalar_problems(text: &str, root: &YamlNode, out: &mut Vec<Diagnostic>) {
    root.for_each_scalar(&mut |node, is_key| {
        if let YamlValue::String(s) = &node.value {
            check_interpolations(text, node.range, s, true, out);
        }
        if is_key {
            return;
        }
        if let Some(message) = crate::hiera::yaml::refused_by_puppet(text, node) {
            out.push(Diagnostic::error(node.range, Code::YamlSyntax, message));
        }
    });
}

/// Interpolations of a `hiera.yaml`'s paths (variables only).
fn path_interpolations(text: &str, config: &hiera::config::HieraConfig, out: &mut Vec<Diagnostic>) {
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
        check_interpolations(text, after_name, template, false, out);
    }
}

/// Reports what Puppet's lookup fails on in one string, at the
/// interpolation's text when it can be found in `range` of the file.
fn check_interpolations(
    text: &str,
    range: TextRange,
    value: &str,
    methods_allowed: bool,
    out: &mut Vec<Diagnostic>,
) {
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
            Ok(Expression::Variable(segments)) if segments[0].contains('(') => Some((
                Severity::Warning,
                format!(
                    "`{}` is not a method call (`name('key')`), so it is read as a variable of that name, which never exists: it interpolates nothing",
                    segments.join(".")
                ),
            )),
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
        let host = AnalysisHost::discover_fixture(
            "/env",
            &format!("{WORKSPACE}#- /env/data/common.yaml\n{data}"),
        );
        expect_test::expect![[r#"
            1: Error hiera-type-mismatch `a.pool`: 'ntp::servers' binds a parameter of type Array[String], but this value is 'a.pool'
            2: Error hiera-type-mismatch `70000`: 'ntp::port' binds a parameter of type Env::Port (Integer[1, 65535]), but this value is 70000
            3: Error hiera-type-mismatch `plain`: 'ntp::secret' binds a parameter of type Sensitive[String], but this value is 'plain'
            8: Warning hiera-unknown-parameter `ntp::serverz`: class 'ntp' has no parameter 'serverz': automatic parameter lookup never reads this key: did you mean 'ntp::servers'?
            9: Error hiera-interpolation `%{foo('x')}`: unknown interpolation method 'foo': Puppet's lookup fails
            9: Warning hiera-interpolation `%{lookup()}`: `lookup()` is not a method call (`name('key')`), so it is read as a variable of that name, which never exists: it interpolates nothing
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
