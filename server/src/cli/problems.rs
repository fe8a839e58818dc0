//! What `check` found, as plain records, and the formats it prints them in:
//! one line per problem for people, JSON for tools, GitHub workflow
//! commands (annotations on a pull request) and SARIF 2.1.0 (code-scanning
//! dashboards).

pub use crate::codes::ProblemCode;
use puppet_lint_checks::{LintDiagnostic, LintSeverity};
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use puppet_syntax::{Severity, TextRange};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How serious a reported problem is: the finding's own severity, or the
/// one `[diagnostics.severity]` gives its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Info,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "info",
        }
    }

    /// SARIF's word (`note` for information).
    fn sarif(self) -> &'static str {
        match self {
            Level::Info => "note",
            _ => self.as_str(),
        }
    }

    /// GitHub's workflow command (`notice` for information).
    fn github(self) -> &'static str {
        match self {
            Level::Info => "notice",
            _ => self.as_str(),
        }
    }
}

impl From<Severity> for Level {
    fn from(severity: Severity) -> Level {
        match severity {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        }
    }
}

/// One problem, with 1-based lines and columns counted in characters.
pub struct Problem {
    pub path: PathBuf,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub severity: Level,
    pub code: ProblemCode,
    pub message: String,
    /// The text of the first line the problem covers (for code frames).
    pub source_line: String,
    /// What the fix `check --fix` applies does, when there is one.
    pub fix: Option<String>,
}

impl Problem {
    pub fn new(
        path: &Path,
        index: &LineIndex,
        d: &puppet_analysis::diagnostics::Diagnostic,
    ) -> Self {
        let mut problem = Problem::at(path, index, d.range, ProblemCode::Analysis(d.code));
        problem.severity = d.severity.into();
        problem.message = d.message.to_string();
        problem
    }

    /// A problem one of puppet-lint's checks found.
    pub fn lint(path: &Path, index: &LineIndex, d: &LintDiagnostic) -> Self {
        let mut problem = Problem::at(path, index, d.range, ProblemCode::Lint(d.check));
        problem.severity = match d.severity {
            LintSeverity::Error => Level::Error,
            LintSeverity::Warning => Level::Warning,
        };
        problem.message = d.message.clone();
        problem.fix = d.fix.as_ref().map(|f| f.label.clone());
        problem
    }

    /// A warning with `code` over `range`, its message to be filled in.
    pub fn at(path: &Path, index: &LineIndex, range: TextRange, code: ProblemCode) -> Self {
        let start = index.line_col(range.start(), ColumnEncoding::Utf32);
        let end = index.line_col(range.end(), ColumnEncoding::Utf32);
        Problem {
            path: path.to_path_buf(),
            line: start.line + 1,
            column: start.col + 1,
            end_line: end.line + 1,
            end_column: end.col + 1,
            severity: Level::Warning,
            code,
            message: String::new(),
            source_line: index.line_text(start.line).to_string(),
            fix: None,
        }
    }
}

/// How `check` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// `path:line:col: severity: message [code]`
    Human,
    /// One JSON array of diagnostics with 1-based positions.
    Json,
    /// GitHub Actions workflow commands (`::error file=...,line=...::message`).
    Github,
    /// SARIF 2.1.0, with a rule for every code reported.
    Sarif,
}

/// Whether human output is coloured (a terminal, and `NO_COLOR` unset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    Always,
    Never,
}

impl Colour {
    /// Colour for a terminal, unless `NO_COLOR` is set (no-color.org).
    pub fn for_stdout() -> Colour {
        use std::io::IsTerminal;
        if std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
            Colour::Always
        } else {
            Colour::Never
        }
    }
}

pub fn write(
    format: Format,
    colour: Colour,
    problems: &[Problem],
    out: &mut impl Write,
) -> std::io::Result<()> {
    match format {
        Format::Human => problems.iter().try_for_each(|p| human(p, colour, out)),
        Format::Github => problems.iter().try_for_each(|p| github(p, out)),
        Format::Json => {
            let records: Vec<_> = problems.iter().map(json).collect();
            writeln!(out, "{}", serde_json::Value::Array(records))
        }
        Format::Sarif => writeln!(out, "{:#}", sarif(problems)),
    }
}

/// `path:line:col: severity: message [code]`, then a code frame: the line
/// and a caret under the range (to the line's end when it goes on).
fn human(p: &Problem, colour: Colour, out: &mut impl Write) -> std::io::Result<()> {
    let style = match (colour, p.severity) {
        (Colour::Never, _) => anstyle::Style::new(),
        (Colour::Always, Level::Error) => anstyle::AnsiColor::Red.on_default().bold(),
        (Colour::Always, Level::Warning) => anstyle::AnsiColor::Yellow.on_default().bold(),
        (Colour::Always, Level::Info) => anstyle::AnsiColor::Cyan.on_default().bold(),
    };
    let gutter = match colour {
        Colour::Never => anstyle::Style::new(),
        Colour::Always => anstyle::AnsiColor::Blue.on_default().bold(),
    };
    writeln!(
        out,
        "{}:{}:{}: {style}{}{style:#}: {} [{}]",
        p.path.display(),
        p.line,
        p.column,
        p.severity.as_str(),
        p.message,
        p.code
    )?;
    let number = p.line.to_string();
    let pad = " ".repeat(number.len());
    let (shown, caret_at, caret_len) = frame_line(p);
    writeln!(out, "{pad} {gutter}|{gutter:#}")?;
    writeln!(out, "{gutter}{number} |{gutter:#} {shown}")?;
    writeln!(
        out,
        "{pad} {gutter}|{gutter:#} {}{style}{}{style:#}",
        " ".repeat(caret_at),
        "^".repeat(caret_len)
    )?;
    match &p.fix {
        Some(fix) => writeln!(out, "{pad} {gutter}={gutter:#} fix: {fix} (`check --fix`)"),
        None => Ok(()),
    }
}

/// The problem's first line as printed (tabs as four spaces), where its
/// caret starts on it and how long it is, in printed columns.
fn frame_line(p: &Problem) -> (String, usize, usize) {
    let width = |c: char| if c == '\t' { 4 } else { 1 };
    let chars: Vec<char> = p.source_line.chars().collect();
    let start = (p.column as usize - 1).min(chars.len());
    let end = if p.end_line == p.line {
        (p.end_column as usize - 1).clamp(start, chars.len())
    } else {
        chars.len()
    };
    let shown = p.source_line.replace('\t', "    ");
    let caret_at = chars[..start].iter().map(|&c| width(c)).sum();
    let caret_len = chars[start..end]
        .iter()
        .map(|&c| width(c))
        .sum::<usize>()
        .max(1);
    (shown, caret_at, caret_len)
}

fn json(p: &Problem) -> serde_json::Value {
    serde_json::json!({
        "path": p.path.display().to_string(),
        "line": p.line,
        "column": p.column,
        "endLine": p.end_line,
        "endColumn": p.end_column,
        "severity": p.severity.as_str(),
        "code": p.code.as_str(),
        "message": p.message,
    })
}

/// A workflow command; GitHub shows it as an annotation on the line.
fn github(p: &Problem, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "::{} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        p.severity.github(),
        github_property(&p.path.display().to_string()),
        p.line,
        p.column,
        p.end_line,
        p.end_column,
        github_property(p.code.as_str()),
        github_data(&p.message),
    )
}

/// Escapes a command's message as the runner expects.
fn github_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command's property value (which also ends at `,` and `:`).
fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One SARIF log with one run: the rules are the codes reported (with
/// their explanation and documentation), each result points at its rule.
fn sarif(problems: &[Problem]) -> serde_json::Value {
    let mut codes: Vec<ProblemCode> = problems.iter().map(|p| p.code).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<_> = codes
        .iter()
        .map(|code| {
            serde_json::json!({
                "id": code.as_str(),
                "shortDescription": { "text": code.explanation() },
                "help": { "text": code.help() },
                "defaultConfiguration": { "level": code.default_level() },
            })
        })
        .collect();
    let results: Vec<_> = problems
        .iter()
        .map(|p| {
            serde_json::json!({
                "ruleId": p.code.as_str(),
                "ruleIndex": codes.binary_search(&p.code).unwrap_or_default(),
                "level": p.severity.sarif(),
                "message": { "text": p.message },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": { "uri": sarif_uri(&p.path) },
                        "region": {
                            "startLine": p.line,
                            "startColumn": p.column,
                            "endLine": p.end_line,
                            "endColumn": p.end_column,
                        }
                    }
                }]
            })
        })
        .collect();
    serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "puppet-ls",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    })
}

/// A path as a SARIF artifact URI: relative paths stay relative (resolved
/// against the repository by code-scanning tools), with `/` separators.
fn sarif_uri(path: &Path) -> String {
    let text = path.display().to_string().replace('\\', "/");
    let text = text.strip_prefix("./").unwrap_or(&text).to_string();
    text.replace('%', "%25").replace(' ', "%20")
}

#[cfg(test)]
mod tests {
    use super::*;
    use puppet_syntax::Code;

    fn problem(line: &str, column: u32, end: (u32, u32)) -> Problem {
        Problem {
            path: PathBuf::from("m/init.pp"),
            line: 3,
            column,
            end_line: end.0,
            end_column: end.1,
            severity: Level::Warning,
            code: ProblemCode::Analysis(Code::UnknownClass),
            message: "unknown class 'x'".into(),
            source_line: line.into(),
            fix: None,
        }
    }

    fn human_text(p: &Problem, colour: Colour) -> String {
        let mut out = Vec::new();
        human(p, colour, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn frames_put_the_caret_under_the_range() {
        let plain = human_text(&problem("  include x", 11, (3, 12)), Colour::Never);
        assert_eq!(
            plain,
            "m/init.pp:3:11: warning: unknown class 'x' [unknown-class]\n  |\n3 |   include x\n  |           ^\n"
        );
        // Tabs print as four columns; characters count once, whatever
        // their bytes; a range that goes on marks the rest of the line.
        let (shown, at, len) = frame_line(&problem("\t$a = 'é' + [", 7, (4, 2)));
        assert_eq!(shown, "    $a = 'é' + [");
        assert_eq!((at, len), (9, 7));
        // An empty range still gets one caret.
        assert_eq!(frame_line(&problem("x", 2, (3, 2))), ("x".into(), 1, 1));
    }

    #[test]
    fn colour_marks_the_severity_and_the_caret() {
        let coloured = human_text(&problem("include x", 9, (3, 10)), Colour::Always);
        assert!(
            coloured.contains("\u{1b}[1m\u{1b}[33mwarning\u{1b}[0m"),
            "{coloured:?}"
        );
        assert!(!human_text(&problem("include x", 9, (3, 10)), Colour::Never).contains('\u{1b}'));
    }

    #[test]
    fn workflow_commands_escape_what_ends_them() {
        assert_eq!(github_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(github_property("a:b,c%"), "a%3Ab%2Cc%25");
    }

    #[test]
    fn sarif_uris_are_relative_with_forward_slashes() {
        assert_eq!(sarif_uri(Path::new("./a b/c%.pp")), "a%20b/c%25.pp");
        assert_eq!(sarif_uri(Path::new("/abs/x.pp")), "/abs/x.pp");
    }
}
