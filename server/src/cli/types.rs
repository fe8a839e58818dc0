//! `puppet-ls types`: the inferred type of every variable reference, one
//! JSON line each, for tools that check the inference against Puppet
//! (`tools/soundness/`).

use crate::project_config::PuppetSettings;
use crate::target::{Origin, TargetChoice};
use puppet_analysis::host::AnalysisHost;
use puppet_analysis::target::PuppetVersion;
use puppet_analysis::version_detection::detect;
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Prints `{"path","line","column","name","type"}` (1-based line and
/// column in characters) for each reference in the files under `paths`;
/// `libraries` (modules such as stdlib) are loaded but not reported. The
/// types are those of `puppet_version`, else of the version the paths'
/// `metadata.json` or `Gemfile` requires, else of Puppet 8 (as `check`
/// chooses, without a `puppet-ls.toml`), named on stderr.
pub fn run(
    paths: &[PathBuf],
    libraries: &[PathBuf],
    puppet_version: Option<PuppetVersion>,
) -> ExitCode {
    let all: Vec<PathBuf> = paths.iter().chain(libraries).cloned().collect();
    let mut host = AnalysisHost::from_paths(&puppet_vfs::DiskFs, &all);
    let command_line = PuppetSettings {
        version: puppet_version,
        ..PuppetSettings::default()
    };
    let choice = TargetChoice::choose(&[(command_line, Origin::CommandLine)], || {
        detect(&puppet_vfs::DiskFs, paths)
    });
    host.set_target(choice.target, &choice.source_text());
    eprintln!("types for {choice}");
    let analysis = puppet_ide::snapshot(&host);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let reported = analysis
        .paths()
        .filter(|p| crate::reporting::is_reported(p, paths))
        .map(Path::to_path_buf)
        .collect::<Vec<_>>();
    for path in reported {
        let Ok(references) = analysis.variable_types(&path) else {
            return ExitCode::FAILURE;
        };
        let text = host.text(&path).unwrap_or_default();
        let index = LineIndex::new(&text);
        for r in references {
            let start = index.line_col(r.range.start(), ColumnEncoding::Utf32);
            let record = serde_json::json!({
                "path": path.display().to_string(),
                "line": start.line + 1,
                "column": start.col + 1,
                "name": r.name,
                "type": r.ty,
            });
            if writeln!(out, "{record}").is_err() {
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
