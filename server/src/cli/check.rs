//! `puppet-ls check`: every syntax, validation and workspace diagnostic of a
//! code base, puppet-lint's style checks and the formatter's verdict, for
//! CI (instead of `puppet parser validate` + `puppet-lint`). `--fix`
//! first applies every safe fix (puppet-lint's fixes, then formatting) and
//! then reports what remains.

use super::problems::{self, Format, Level, Problem, ProblemCode};
use crate::linting::{is_reported_by_analysis, lint_manifest};
use crate::project_config::{self, ProjectConfig, PuppetSettings, SeveritySetting};
use crate::target::{Origin, TargetChoice, VersionSource};
use puppet_analysis::diagnostics::legacy_fact_fix;
use puppet_analysis::host::AnalysisHost;
use puppet_analysis::target::PuppetVersion;
use puppet_analysis::version_detection::detect;
use puppet_analysis::workspace::{add_global_hiera, discover};
use puppet_format::{first_change, format_source, FormatOptions};
use puppet_lint_checks::{apply_fixes, LintConfig, LintDiagnostic, TextEdit};
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use puppet_syntax::Code;
use puppet_syntax::{SourceKind, TextRange, TextSize};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `check` reports and how.
pub struct Options {
    pub format: Format,
    /// Only these codes (all when empty).
    pub select: Vec<ProblemCode>,
    /// Never these codes.
    pub ignore: Vec<ProblemCode>,
    /// Run puppet-lint's checks.
    pub lint: bool,
    /// Report manifests `puppet-ls fmt` would change.
    pub format_check: bool,
    /// Apply the safe fixes before checking.
    pub fix: bool,
    /// `--puppet-version`.
    pub puppet_version: Option<PuppetVersion>,
    /// `--statistics`: the problems by code after them.
    pub statistics: bool,
}

/// What `check` reports after the project's `puppet-ls.toml` (found
/// upwards from the first path) and the command line: `--select` replaces
/// the file's `select`, `--ignore` adds to its `ignore`, `--no-lint` and
/// `--no-format-check` switch those off.
struct Settings {
    project: ProjectConfig,
    format_check: bool,
}

impl Settings {
    fn new(project: Option<ProjectConfig>, options: &Options) -> Settings {
        let cwd = std::env::current_dir().unwrap_or_default();
        let mut project =
            project.unwrap_or_else(|| ProjectConfig::empty(&cwd.join(project_config::FILE_NAME)));
        let names = |codes: &[ProblemCode]| {
            codes
                .iter()
                .map(|c| c.as_str().to_string())
                .collect::<Vec<_>>()
        };
        if !options.select.is_empty() {
            project.diagnostics.select = names(&options.select).into_iter().collect();
        }
        project.diagnostics.ignore.extend(names(&options.ignore));
        project.lint.enabled &= options.lint;
        let format_check = options.format_check && project.format.check;
        Settings {
            project,
            format_check,
        }
    }

    fn reports(&self, code: ProblemCode) -> bool {
        self.project.shows(code.as_str())
    }

    /// The problem with the severity the file sets for its code.
    fn graded(&self, mut problem: Problem) -> Problem {
        match self.project.severity_of(problem.code.as_str()) {
            Some(SeveritySetting::Error) => problem.severity = Level::Error,
            Some(SeveritySetting::Warning) => problem.severity = Level::Warning,
            Some(SeveritySetting::Info) => problem.severity = Level::Info,
            Some(SeveritySetting::Off) | None => {}
        }
        problem
    }
}

pub fn run(paths: &[PathBuf], options: &Options) -> ExitCode {
    let paths: Vec<PathBuf> = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    let project = match project_config::discover(&paths[0]) {
        Ok(project) => project,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::from(2);
        }
    };
    let settings = Settings::new(project, options);
    let lint_config = lint_config(&settings.project);
    // Module paths are loaded for reference, not reported.
    let mut loaded = paths.clone();
    loaded.extend(settings.project.workspace.module_paths.iter().cloned());
    let mut discovered = discover(&puppet_vfs::DiskFs, &loaded);
    if let Some(global) = &settings.project.hiera.global {
        add_global_hiera(&puppet_vfs::DiskFs, &mut discovered, global);
    }
    let mut host = AnalysisHost::from_discovered(&puppet_vfs::DiskFs, discovered);
    let target = target_choice(&settings.project, options, &paths);
    host.set_target(target.target, &target.source_text());
    let reported = reported_files(&host, &paths, &settings.project);
    if options.fix {
        // The fixed files are written, and the analysis takes their new
        // texts: the workspace is not loaded again.
        let legacy_facts = legacy_fact_edits(&mut host, &reported, &settings);
        let fixed = fix_files(&host, &reported, &legacy_facts, &settings, &lint_config);
        if !fixed.is_empty() {
            let count = fixed.len();
            eprintln!("fixed {count} file{}", if count == 1 { "" } else { "s" });
            host.set_files(fixed);
        }
    }
    // Plain data for the workers: texts, and trees when style checks run
    // (a database view is for one thread; holding every tree otherwise
    // would only keep them from the database's eviction).
    let styles = settings.project.lint.enabled || settings.format_check;
    let analysis = host.analysis();
    let sources: Vec<_> = reported
        .iter()
        .map(|path| {
            let text = analysis.text(path).unwrap_or_default();
            (text, styles.then(|| analysis.parse(path)).flatten())
        })
        .collect();
    drop(analysis);
    // The analysis and the style checks (lint, formatting) run side by
    // side: the style checks take the cores the analysis leaves idle.
    let (all, styled) = rayon::join(
        || host.diagnostics_of(&reported),
        || {
            reported
                .par_iter()
                .zip(sources.par_iter())
                .map(|(path, (text, parse))| {
                    style(path, text, parse.as_ref(), &settings, &lint_config)
                })
                .collect::<Vec<Style>>()
        },
    );
    let per_file: Vec<Vec<Problem>> = reported
        .par_iter()
        .zip(all.par_iter())
        .zip(styled.into_par_iter())
        .zip(sources.par_iter())
        .map(|(((path, diagnostics), style), (text, _))| {
            let index = &LineIndex::from_shared(text.clone());
            let mut found: Vec<Problem> = diagnostics
                .iter()
                .filter(|d| settings.reports(ProblemCode::Analysis(d.code)))
                .map(|d| settings.graded(with_fix(Problem::new(path, index, d))))
                .collect();
            found.extend(
                style
                    .lint
                    .iter()
                    .filter(|d| !is_reported_by_analysis(d, diagnostics))
                    .map(|d| settings.graded(Problem::lint(path, index, d))),
            );
            found.extend(
                style
                    .first_change
                    .map(|at| settings.graded(unformatted(path, index, at))),
            );
            found.sort_by_key(|p| (p.line, p.column));
            found
        })
        .collect();
    let files_with_problems = per_file.iter().filter(|f| !f.is_empty()).count();
    let problems: Vec<Problem> = per_file.into_iter().flatten().collect();
    let count = |level: Level| problems.iter().filter(|p| p.severity == level).count();
    let (errors, warnings, notes) = (
        count(Level::Error),
        count(Level::Warning),
        count(Level::Info),
    );
    let colour = problems::Colour::for_stdout();
    // Buffered: stdout writes each line on its own otherwise, and a large
    // code base has tens of thousands of lines to print.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let _ = problems::write(options.format, colour, &problems, &mut out);
    if let Some(title) = report_title(options, &target, &paths) {
        let _ = writeln!(out, "\n{title}\n{}", super::statistics::table(&problems));
    }
    let _ = std::io::Write::flush(&mut out);
    drop(out);
    // The summary goes to stderr: stdout stays one problem per line (or
    // one document).
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let notes = if notes > 0 {
        format!(", {notes} note{}", plural(notes))
    } else {
        String::new()
    };
    eprintln!(
        "checked {} files for {target}: {errors} error{}, {warnings} warning{}{notes} in {files_with_problems} file{}",
        reported.len(),
        plural(errors),
        plural(warnings),
        plural(files_with_problems),
    );
    // The process ends here: freeing every tree and result one by one
    // would only delay the exit.
    std::mem::forget(sources);
    std::mem::forget(host);
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The Puppet checked for: `--puppet-version` over `puppet-ls.toml`'s
/// `[puppet]`, over what the checked paths' `metadata.json` or `Gemfile`
/// require.
fn target_choice(project: &ProjectConfig, options: &Options, paths: &[PathBuf]) -> TargetChoice {
    let command_line = PuppetSettings {
        version: options.puppet_version,
        ..PuppetSettings::default()
    };
    let layers = [
        (project.puppet, Origin::ConfigFile(project.path.clone())),
        (command_line, Origin::CommandLine),
    ];
    TargetChoice::choose(&layers, || detect(&puppet_vfs::DiskFs, paths))
}

/// The heading of the table of problems by code, when it is printed:
/// asked for with `--statistics` (human output only), or unasked when
/// `--puppet-version` picks another major than the code base's files
/// require (the upgrade report).
fn report_title(options: &Options, target: &TargetChoice, paths: &[PathBuf]) -> Option<String> {
    if options.format != Format::Human {
        return None;
    }
    let detected = match &target.version_source {
        VersionSource::Set(Origin::CommandLine) => {
            detect(&puppet_vfs::DiskFs, paths).filter(|d| d.version != target.target.version)
        }
        _ => None,
    };
    match detected {
        Some(d) => Some(format!(
            "Upgrade report: what fails on Puppet {} in a code base that targets Puppet {} ({}: {}), by code; `check --fix --puppet-version {}` applies the fixes:",
            target.target.version,
            d.version,
            d.file.display(),
            d.requirement,
            target.target.version
        )),
        None => options.statistics.then(|| "Problems by code:".to_string()),
    }
}

/// An analysis problem with the fix `check --fix` applies for its code
/// (legacy facts: in manifests, as [`legacy_fact_edits`] rewrites them;
/// Hiera data's `%{::fact}` has a suggestion but no rewrite).
fn with_fix(mut problem: Problem) -> Problem {
    if problem.code == ProblemCode::Analysis(Code::LegacyFact) && is_manifest(&problem.path) {
        if let Some((_, instead)) = problem.message.rsplit_once("; use ") {
            problem.fix = Some(format!("Replace with {instead}"));
        }
    }
    problem
}

/// The files under the given paths that the project does not exclude;
/// modules found through a module path or test fixtures are dependencies,
/// not reported.
fn reported_files(host: &AnalysisHost, paths: &[PathBuf], project: &ProjectConfig) -> Vec<PathBuf> {
    host.paths()
        .filter(|p| crate::reporting::is_reported(p, paths))
        .filter(|p| {
            let absolute = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
            !project.excludes(&absolute)
        })
        .map(Path::to_path_buf)
        .collect()
}

/// What the style checks found in one file, with its line index.
struct Style {
    /// puppet-lint's reported findings.
    lint: Vec<LintDiagnostic>,
    /// Where formatting would first change the file, when `unformatted`
    /// is reported.
    first_change: Option<TextSize>,
}

/// The style checks of one file: puppet-lint's and the formatter's, for
/// manifests that the analysis parsed.
fn style(
    path: &Path,
    text: &str,
    parse: Option<&puppet_syntax::Parse>,
    settings: &Settings,
    config: &LintConfig,
) -> Style {
    let mut style = Style {
        lint: Vec::new(),
        first_change: None,
    };
    let Some(parse) = parse.filter(|_| is_manifest(path)) else {
        return style;
    };
    let root = parse.syntax_node();
    if settings.project.lint.enabled {
        style.lint = lint_manifest(path, text, &root, config);
        style
            .lint
            .retain(|d| settings.reports(ProblemCode::Lint(d.check)));
    }
    let parsed = parse.errors().is_empty();
    if parsed && settings.format_check && settings.reports(ProblemCode::Format) {
        style.first_change = first_change(&root, text, &FormatOptions::default())
            .ok()
            .flatten()
            .and_then(|offset| TextSize::try_from(offset).ok());
    }
    style
}

fn is_manifest(path: &Path) -> bool {
    SourceKind::from_path(path) == SourceKind::Manifest
}

/// puppet-lint's configuration as puppet-lint finds it (its defaults, then
/// `/etc/puppet-lint.rc`, `~/.puppet-lint.rc` and the `.puppet-lint.rc`
/// beside `puppet-ls.toml`, or in the current directory without one), then
/// the file's `[lint]` settings. Options puppet-ls cannot use are reported.
fn lint_config(project: &ProjectConfig) -> LintConfig {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let (config, problems) = project.read_lint_config(home.as_deref());
    for (rc, problem) in problems {
        eprintln!(
            "{}:{}: warning: {}",
            rc.display(),
            problem.line,
            problem.message
        );
    }
    config
}

/// `unformatted`, on the line where formatting would first change the
/// file.
fn unformatted(path: &Path, index: &LineIndex, first_change: TextSize) -> Problem {
    let line = index.line_col(first_change, ColumnEncoding::Utf8).line;
    let end_of_text = TextRange::empty(TextSize::of(index.text()));
    let range = index.line_range(line).unwrap_or(end_of_text);
    let mut problem = Problem::at(path, index, range, ProblemCode::Format);
    problem.message = format!(
        "not formatted: `puppet-ls fmt` would change this file, first on line {}",
        line + 1
    );
    problem.fix = Some("format the file".to_string());
    problem
}

/// Applies puppet-lint's fixes (those of reported checks) and then the
/// formatter to every reported manifest that parses, and writes the files
/// that changed; gives those back with their new texts. A file whose fixed
/// text no longer parses is left as it was.
/// The fixes of the analysis' fixable diagnostics (`legacy-fact`: the
/// structured fact for a legacy one), per file, as edits of its text.
fn legacy_fact_edits(
    host: &mut AnalysisHost,
    files: &[PathBuf],
    settings: &Settings,
) -> HashMap<PathBuf, Vec<TextEdit>> {
    if !settings.reports(ProblemCode::Analysis(Code::LegacyFact)) {
        return HashMap::new();
    }
    let manifests: Vec<PathBuf> = files.iter().filter(|p| is_manifest(p)).cloned().collect();
    let diagnostics = host.diagnostics_of(&manifests);
    let analysis = host.analysis();
    manifests
        .into_iter()
        .zip(diagnostics)
        .filter_map(|(path, diagnostics)| {
            let ranges: Vec<TextRange> = diagnostics
                .iter()
                .filter(|d| d.code == Code::LegacyFact)
                .map(|d| d.range)
                .collect();
            if ranges.is_empty() {
                return None;
            }
            let root = analysis.parse(&path)?.syntax_node();
            let edits = ranges
                .into_iter()
                .filter_map(|range| legacy_fact_fix(&root, range))
                .map(|(delete, insert)| TextEdit { delete, insert })
                .collect();
            Some((path, edits))
        })
        .collect()
}

fn fix_files(
    host: &AnalysisHost,
    files: &[PathBuf],
    analysis_edits: &HashMap<PathBuf, Vec<TextEdit>>,
    settings: &Settings,
    config: &LintConfig,
) -> Vec<(PathBuf, String)> {
    let analysis = host.analysis();
    let sources: Vec<_> = files
        .iter()
        .filter(|path| is_manifest(path))
        .filter_map(|path| Some((path, analysis.text(path)?, analysis.parse(path)?)))
        .collect();
    sources
        .par_iter()
        .filter_map(|(path, text, parse)| {
            if !parse.errors().is_empty() {
                return None;
            }
            let mut fixed = text.to_string();
            // The analysis' fixes first; lint then reads the fixed text.
            let mut tree = parse.syntax_node();
            if let Some(edits) = analysis_edits.get(*path) {
                fixed = apply_fixes(text, &edits.iter().collect::<Vec<_>>());
                let reparsed = puppet_syntax::parse(&fixed, SourceKind::Manifest);
                if !reparsed.errors().is_empty() {
                    return None;
                }
                tree = reparsed.syntax_node();
            }
            if settings.project.lint.enabled {
                let current = fixed.clone();
                let found = lint_manifest(path, &current, &tree, config);
                let edits: Vec<&TextEdit> = found
                    .iter()
                    .filter(|d| settings.reports(ProblemCode::Lint(d.check)))
                    .filter_map(|d| d.fix.as_ref())
                    .flat_map(|fix| &fix.edits)
                    .collect();
                fixed = apply_fixes(&current, &edits);
            }
            if settings.format_check && settings.reports(ProblemCode::Format) {
                if let Ok(formatted) =
                    format_source(&fixed, SourceKind::Manifest, &FormatOptions::default())
                {
                    fixed = formatted;
                }
            }
            let parses = puppet_syntax::parse(&fixed, SourceKind::Manifest)
                .errors()
                .is_empty();
            let written = fixed != **text && parses && std::fs::write(path, &fixed).is_ok();
            written.then(|| (path.to_path_buf(), fixed))
        })
        .collect()
}
