//! `puppet-ls check`: every syntax, validation and workspace diagnostic of a
//! code base, for CI (instead of `puppet parser validate` + `puppet-lint`).

use puppet_analysis::diagnostics::Diagnostic;
use puppet_analysis::host::AnalysisHost;
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use puppet_syntax::Severity;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// How `check` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `path:line:col: severity: message [code]`
    Human,
    /// One JSON array of diagnostics with 1-based positions.
    Json,
}

pub fn run(paths: &[PathBuf], format: Format) -> ExitCode {
    let paths: Vec<PathBuf> = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    let mut host = AnalysisHost::from_paths(&puppet_vfs::DiskFs, &paths);
    // Report on the files under the given paths; modules found through a
    // module path or test fixtures are dependencies.
    let reported: Vec<PathBuf> = host
        .paths()
        .filter(|p| crate::reporting::is_reported(p, &paths))
        .map(Path::to_path_buf)
        .collect();
    let mut errors = 0usize;
    let mut warnings = 0usize;
    let mut files_with_problems = 0usize;
    let mut records = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let all = host.diagnostics_of(&reported);
    for (path, diagnostics) in reported.iter().zip(all) {
        if diagnostics.is_empty() {
            continue;
        }
        files_with_problems += 1;
        let text = host.text(path).unwrap_or_default();
        let index = LineIndex::new(&text);
        for d in &diagnostics {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            match format {
                Format::Human => {
                    let start = index.line_col(d.range.start(), ColumnEncoding::Utf32);
                    let _ = writeln!(
                        out,
                        "{}:{}:{}: {}: {} [{}]",
                        path.display(),
                        start.line + 1,
                        start.col + 1,
                        d.severity.as_str(),
                        d.message,
                        d.code
                    );
                }
                Format::Json => records.push(json_record(path, &index, d)),
            }
        }
    }
    if format == Format::Json {
        let _ = writeln!(out, "{}", serde_json::Value::Array(records));
    }
    // The summary goes to stderr: stdout stays one problem per line (or JSON).
    eprintln!(
        "checked {} files: {errors} error{}, {warnings} warning{} in {files_with_problems} file{}",
        reported.len(),
        if errors == 1 { "" } else { "s" },
        if warnings == 1 { "" } else { "s" },
        if files_with_problems == 1 { "" } else { "s" },
    );
    // The process ends here: freeing every tree and result one by one
    // would only delay the exit.
    std::mem::forget(host);
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn json_record(path: &Path, index: &LineIndex, d: &Diagnostic) -> serde_json::Value {
    let start = index.line_col(d.range.start(), ColumnEncoding::Utf32);
    let end = index.line_col(d.range.end(), ColumnEncoding::Utf32);
    serde_json::json!({
        "path": path.display().to_string(),
        "line": start.line + 1,
        "column": start.col + 1,
        "endLine": end.line + 1,
        "endColumn": end.col + 1,
        "severity": d.severity.as_str(),
        "code": d.code.as_str(),
        "message": &*d.message,
    })
}
