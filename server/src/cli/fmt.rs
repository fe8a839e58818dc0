//! `puppet-ls fmt`: formats manifests in place, or checks that they are
//! formatted (`--check` lists the files that would change, `--diff`
//! shows how), or formats standard input to standard output (`-`).
//!
//! A file that does not parse (or is not UTF-8) is never written; it is
//! reported and makes the exit status 1, as does any file that would
//! change under `--check` or `--diff`. Templates (`.epp`) are not
//! formatted: their text is output.

use super::source::collect_sources;
use puppet_format::{format_source, FormatOptions, NotFormatted};
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use puppet_syntax::SourceKind;
use rayon::prelude::*;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What to do with the formatted text.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mode {
    /// Write nothing; list the files that would change.
    pub check: bool,
    /// Write nothing; print a unified diff of each change.
    pub diff: bool,
}

impl Mode {
    fn writes(self) -> bool {
        !self.check && !self.diff
    }
}

pub fn run(paths: &[PathBuf], mode: Mode) -> ExitCode {
    let options = FormatOptions::default();
    if paths.len() == 1 && paths[0] == Path::new("-") {
        return stdin(mode, &options);
    }
    let roots = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    // Every file on every core; what is printed comes in the files' order.
    let outcomes: Vec<Result<Outcome, String>> = manifests(&roots)
        .par_iter()
        .map(|path| file(path, mode, &options))
        .collect();
    let mut failed = false;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for outcome in outcomes {
        match outcome {
            Ok(outcome) => {
                failed |= outcome.changed && !mode.writes();
                let _ = out.write_all(outcome.output.as_bytes());
            }
            Err(problem) => {
                let _ = out.flush();
                eprintln!("{problem}");
                failed = true;
            }
        }
    }
    let _ = out.flush();
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The manifests under `roots`: `.pp` files in directories, and files
/// named explicitly (a template named explicitly is reported, then left).
fn manifests(roots: &[PathBuf]) -> Vec<PathBuf> {
    collect_sources(roots)
        .into_iter()
        .filter(|path| {
            let template = SourceKind::from_path(path) == SourceKind::Template;
            if template && roots.contains(path) {
                eprintln!("{}: note: {}", path.display(), NotFormatted::Template);
            }
            !template
        })
        .collect()
}

/// What formatting one file did.
struct Outcome {
    /// It changed (or would).
    changed: bool,
    /// What to print for it (its name under `--check`, its diff).
    output: String,
}

/// Formats one file as `mode` says.
fn file(path: &Path, mode: Mode, options: &FormatOptions) -> Result<Outcome, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("{}: error: cannot read: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: error: not UTF-8 (invalid byte at offset {}): not formatted",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })?;
    let formatted = format_source(&text, SourceKind::Manifest, options)
        .map_err(|why| problem(path, &text, &why))?;
    let mut outcome = Outcome {
        changed: formatted != text,
        output: String::new(),
    };
    if !outcome.changed {
        return Ok(outcome);
    }
    if mode.check {
        outcome.output = format!("{}\n", path.display());
    }
    if mode.diff {
        outcome
            .output
            .push_str(&unified_diff(path, &text, &formatted));
    }
    if mode.writes() {
        std::fs::write(path, &formatted)
            .map_err(|e| format!("{}: error: cannot write: {e}", path.display()))?;
    }
    Ok(outcome)
}

/// `path:line:col: error: ...` for a text that was not formatted.
fn problem(path: &Path, text: &str, why: &NotFormatted) -> String {
    match why {
        NotFormatted::SyntaxErrors { first, .. } => {
            let pos = LineIndex::new(text).line_col(first.range.start(), ColumnEncoding::Utf32);
            format!(
                "{}:{}:{}: error: {} [{}] (not formatted: {why})",
                path.display(),
                pos.line + 1,
                pos.col + 1,
                first.message,
                first.code
            )
        }
        _ => format!("{}: error: not formatted: {why}", path.display()),
    }
}

fn unified_diff(path: &Path, before: &str, after: &str) -> String {
    let shown = path.display().to_string();
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(3)
        .header(&shown, &shown)
        .to_string()
}

/// `fmt -`: standard input to standard output. Text that is not
/// formatted is written back unchanged (and the status is 1).
fn stdin(mode: Mode, options: &FormatOptions) -> ExitCode {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        eprintln!("<stdin>: error: cannot read: {e}");
        return ExitCode::FAILURE;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let Ok(text) = String::from_utf8(bytes.clone()) else {
        eprintln!("<stdin>: error: not UTF-8: not formatted");
        let _ = out.write_all(&bytes);
        return ExitCode::FAILURE;
    };
    let path = Path::new("<stdin>");
    match format_source(&text, SourceKind::Manifest, options) {
        Ok(formatted) => {
            let changed = formatted != text;
            if mode.diff {
                let _ = write!(out, "{}", unified_diff(path, &text, &formatted));
            } else if !mode.check {
                let _ = out.write_all(formatted.as_bytes());
            }
            if changed && !mode.writes() {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(why) => {
            eprintln!("{}", problem(path, &text, &why));
            if mode.writes() {
                let _ = out.write_all(text.as_bytes());
            }
            ExitCode::FAILURE
        }
    }
}
