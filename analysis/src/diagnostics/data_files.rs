//! The diagnostics of Hiera's files: YAML syntax and `hiera.yaml`, each
//! file alone, and keys that bind no class parameter of the workspace.

use super::Diagnostic;
use crate::builtins::suggest;
use crate::db::{DataFile, Workspace};
use crate::hiera;
use crate::index::{lookup, Namespace};
use puppet_syntax::{Code, Severity};
use std::sync::Arc;

/// The problems of a Hiera file: YAML syntax errors (`yaml-syntax`), for
/// `hiera.yaml` what Hiera cannot use (`hiera-config`), and for data the
/// keys of workspace classes that name no parameter
/// (`hiera-unknown-parameter`).
#[salsa::tracked(returns(ref))]
pub fn data_file_diagnostics(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: DataFile,
) -> Vec<Diagnostic> {
    let text = file.text(db);
    let diagnostic = |code: Code, severity, range, message: &str| Diagnostic {
        range,
        severity,
        code,
        message: Arc::from(message),
        related: None,
    };
    let error =
        |code: Code, range, message: &str| diagnostic(code, Severity::Error, range, message);
    if hiera::is_config(file.path(db)) {
        let config = hiera::config::parse(text);
        let syntax = config
            .syntax_errors
            .iter()
            .map(|e| error(Code::YamlSyntax, e.range, &e.message));
        let problems = config
            .problems
            .iter()
            .map(|p| diagnostic(Code::HieraConfig, p.severity, p.range, &p.message));
        return syntax.chain(problems).collect();
    }
    let doc = hiera::yaml::parse(text);
    let syntax = doc
        .errors
        .iter()
        .map(|e| error(Code::YamlSyntax, e.range, &e.message));
    let keys = doc.root.iter().flat_map(|root| root.entries());
    let unknown = keys.filter_map(|(key, _)| {
        let message = unknown_parameter(db, workspace, key.as_str()?)?;
        Some(diagnostic(
            Code::HieraUnknownParameter,
            Severity::Warning,
            key.range,
            &message,
        ))
    });
    syntax.chain(unknown).collect()
}

/// Why a key `module::class::param` binds nothing, when its class is in
/// the workspace without that parameter.
fn unknown_parameter(db: &dyn salsa::Database, workspace: Workspace, key: &str) -> Option<String> {
    let (class, param) = key.trim_start_matches("::").rsplit_once("::")?;
    if class.is_empty() || param.is_empty() {
        return None;
    }
    let found = lookup(db, workspace, Namespace::Class, class).first()?;
    let params = &found.definition.params;
    if params.iter().any(|p| p.name == param) {
        return None;
    }
    let hint = suggest::suggest(param, params.iter().map(|p| p.name.as_str()), 1)
        .first()
        .map(|s| format!(": did you mean '{class}::{s}'?"))
        .unwrap_or_default();
    Some(format!(
        "class '{class}' has no parameter '{param}': automatic parameter lookup never reads this key{hint}"
    ))
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
