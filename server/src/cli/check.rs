//! `puppet-ls check`: every syntax, validation and workspace diagnostic of a
//! code base, for CI (instead of `puppet parser validate` + `puppet-lint`).

use super::problems::{self, Format, Problem};
use puppet_analysis::host::AnalysisHost;
use puppet_syntax::line_index::LineIndex;
use puppet_syntax::{Code, Severity};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `check` reports and how.
pub struct Options {
    pub format: Format,
    /// Only these codes (all when empty).
    pub select: Vec<Code>,
    /// Never these codes.
    pub ignore: Vec<Code>,
}

impl Options {
    fn reports(&self, code: Code) -> bool {
        (self.select.is_empty() || self.select.contains(&code)) && !self.ignore.contains(&code)
    }
}

pub fn run(paths: &[PathBuf], options: &Options) -> ExitCode {
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
    let mut problems = Vec::new();
    let mut files_with_problems = 0usize;
    let all = host.diagnostics_of(&reported);
    for (path, diagnostics) in reported.iter().zip(all) {
        let mut kept = diagnostics
            .iter()
            .filter(|d| options.reports(d.code))
            .peekable();
        if kept.peek().is_none() {
            continue;
        }
        files_with_problems += 1;
        let text = host.text(path).unwrap_or_default();
        let index = LineIndex::new(&text);
        problems.extend(kept.map(|d| Problem::new(path, &index, d)));
    }
    let errors = problems
        .iter()
        .filter(|p| p.severity == Severity::Error)
        .count();
    let warnings = problems.len() - errors;
    let colour = problems::Colour::for_stdout();
    let _ = problems::write(
        options.format,
        colour,
        &problems,
        &mut std::io::stdout().lock(),
    );
    // The summary goes to stderr: stdout stays one problem per line (or
    // one document).
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
