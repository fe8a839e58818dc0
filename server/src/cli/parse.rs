//! `puppet-ls parse`: syntax and validation problems of files, as Puppet's
//! `puppet parser validate` would report them (but all of them, not the
//! first one).

use super::source::{collect_sources, read_source};
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use puppet_syntax::{parse_and_validate, Severity, SourceKind, SyntaxError, TextRange, TextSize};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(paths: &[PathBuf], print_tree: bool) -> ExitCode {
    let files = collect_sources(paths);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut errors = 0usize;
    for path in &files {
        let source = match read_source(path) {
            Ok(source) => source,
            Err(err) => {
                let _ = writeln!(
                    out,
                    "{}: error: cannot read: {err} [io-error]",
                    path.display()
                );
                errors += 1;
                continue;
            }
        };
        let (parse, mut problems) = parse_and_validate(&source.text, SourceKind::from_path(path));
        if let Some(at) = source.invalid_utf8_at {
            let at = TextSize::from(at as u32);
            problems.insert(
                0,
                SyntaxError::error(
                    TextRange::empty(at),
                    "the file is not valid UTF-8 (invalid bytes were replaced)",
                    puppet_syntax::Code::InvalidUtf8,
                ),
            );
        }
        if print_tree {
            let _ = write!(out, "{}", parse.debug_tree());
        }
        let index = LineIndex::new(&source.text);
        for problem in &problems {
            let pos = index.line_col(problem.range.start(), ColumnEncoding::Utf32);
            let _ = writeln!(
                out,
                "{}:{}:{}: {}: {} [{}]",
                path.display(),
                pos.line + 1,
                pos.col + 1,
                problem.severity.as_str(),
                problem.message,
                problem.code
            );
            if problem.severity == Severity::Error {
                errors += 1;
            }
        }
    }
    if errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
