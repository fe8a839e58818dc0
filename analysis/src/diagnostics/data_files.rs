//! The diagnostics of Hiera's files: each alone, as a parser reports on a
//! manifest.

use super::Diagnostic;
use crate::db::DataFile;
use crate::hiera;
use puppet_syntax::{Code, Severity};
use std::sync::Arc;

/// The problems of a Hiera file: YAML syntax errors (`yaml-syntax`), and
/// for `hiera.yaml` what Hiera 5 cannot use (`hiera-config`).
#[salsa::tracked(returns(ref))]
pub fn data_file_diagnostics(db: &dyn salsa::Database, file: DataFile) -> Vec<Diagnostic> {
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
    hiera::yaml::parse(text)
        .errors
        .iter()
        .map(|e| error(Code::YamlSyntax, e.range, &e.message))
        .collect()
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
             #- /env/manifests/site.pp\nnotice(1)\n",
        ));
        let config = found(&host, "/env/hiera.yaml");
        let codes: Vec<&str> = config.iter().map(|(c, _, _)| c.as_str()).collect();
        assert_eq!(codes, ["hiera-config"; 2], "{config:?}");
        assert_eq!((config[0].1, config[1].1), (2, 3), "{config:?}");
        let data = found(&host, "/env/data/common.yaml");
        assert_eq!(data.len(), 1, "{data:?}");
        assert_eq!(data[0].0, "yaml-syntax");
        assert!(found(&host, "/env/data/nodes/web.json").is_empty());
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
