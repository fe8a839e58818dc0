//! What `check` found, as plain records, and the formats it prints them in:
//! one line per problem for people, JSON for tools, GitHub workflow
//! commands (annotations on a pull request) and SARIF 2.1.0 (code-scanning
//! dashboards).

use puppet_codes::Reported;
use puppet_syntax::line_index::{ColumnEncoding, LineIndex};
use puppet_syntax::{Code, Severity};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One problem, with 1-based lines and columns counted in characters.
pub struct Problem {
    pub path: PathBuf,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub severity: Severity,
    pub code: Code,
    pub message: String,
}

impl Problem {
    pub fn new(
        path: &Path,
        index: &LineIndex,
        d: &puppet_analysis::diagnostics::Diagnostic,
    ) -> Self {
        let start = index.line_col(d.range.start(), ColumnEncoding::Utf32);
        let end = index.line_col(d.range.end(), ColumnEncoding::Utf32);
        Problem {
            path: path.to_path_buf(),
            line: start.line + 1,
            column: start.col + 1,
            end_line: end.line + 1,
            end_column: end.col + 1,
            severity: d.severity,
            code: d.code,
            message: d.message.to_string(),
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

pub fn write(format: Format, problems: &[Problem], out: &mut impl Write) -> std::io::Result<()> {
    match format {
        Format::Human => problems.iter().try_for_each(|p| human(p, out)),
        Format::Github => problems.iter().try_for_each(|p| github(p, out)),
        Format::Json => {
            let records: Vec<_> = problems.iter().map(json).collect();
            writeln!(out, "{}", serde_json::Value::Array(records))
        }
        Format::Sarif => writeln!(out, "{:#}", sarif(problems)),
    }
}

fn human(p: &Problem, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{}:{}:{}: {}: {} [{}]",
        p.path.display(),
        p.line,
        p.column,
        p.severity.as_str(),
        p.message,
        p.code
    )
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
        p.severity.as_str(),
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
    let mut codes: Vec<Code> = problems.iter().map(|p| p.code).collect();
    codes.sort();
    codes.dedup();
    let rules: Vec<_> = codes
        .iter()
        .map(|code| {
            serde_json::json!({
                "id": code.as_str(),
                "shortDescription": { "text": code.explanation() },
                "help": { "text": format!("see {} in puppet-ls", code.documentation()) },
                "defaultConfiguration": { "level": default_level(*code) },
            })
        })
        .collect();
    let results: Vec<_> = problems
        .iter()
        .map(|p| {
            serde_json::json!({
                "ruleId": p.code.as_str(),
                "ruleIndex": codes.binary_search(&p.code).unwrap_or_default(),
                "level": p.severity.as_str(),
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

/// A rule's level when nothing says otherwise: the worse one it can have.
fn default_level(code: Code) -> &'static str {
    match code.reported() {
        Reported::Warning => "warning",
        Reported::Error | Reported::ErrorOrWarning => "error",
    }
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
