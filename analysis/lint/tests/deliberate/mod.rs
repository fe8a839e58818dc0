//! The deliberate differences from puppet-lint 3 (docs/lint.md, "Deliberate
//! differences"), each as a test on the line where the two disagree. A
//! difference seen on the corpus must be listed here to be set apart from
//! the parity figures; anything else counts against them.

use regex::Regex;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    OnlyPuppetLint,
    OnlyPuppetLs,
}

struct Difference {
    check: &'static str,
    side: Side,
    /// Short name, printed with the figures.
    name: &'static str,
    /// What a line must look like for the difference to explain it (a
    /// regular expression).
    line: &'static str,
}

macro_rules! difference {
    ($check:literal, $side:ident, $name:literal, $pattern:literal) => {
        Difference {
            check: $check,
            side: Side::$side,
            name: $name,
            line: $pattern,
        }
    };
}

static DIFFERENCES: &[Difference] = &[
    // `$x = $fqdn,` in a parameter list: puppet-lint takes any `$var`
    // before `,` or `)` there for a parameter, so the default's variable
    // counts as in scope.
    difference!(
        "variable_scope",
        OnlyPuppetLs,
        "a parameter's default value is a reference, not a parameter",
        r"=.*\$[a-z_]\w*\s*[,)]"
    ),
    // `$facts["a"]["${b}"]`: puppet-lint's lexer swallows an index written
    // right after a variable, strings included, into the variable's name.
    difference!(
        "double_quoted_strings",
        OnlyPuppetLs,
        "strings in an index after a variable are strings",
        r#"\$[\w:]+(\[[^\]]*\])*\[[^\]]*""#
    ),
    difference!(
        "variable_scope",
        OnlyPuppetLs,
        "variables in an index after a variable are variables",
        r"\$[\w:]+(\[[^\]]*\])*\[[^\]]*\$"
    ),
    difference!(
        "only_variable_string",
        OnlyPuppetLs,
        "strings in an index after a variable are strings",
        r#"\$[\w:]+\[[^\]]*""#
    ),
    // `$a-b` is `$a` minus `b` for Puppet, a variable `a-b` for puppet-lint.
    difference!(
        "variable_contains_dash",
        OnlyPuppetLint,
        "Puppet reads $a-b as $a minus b",
        r"\$[\w:]+-\w"
    ),
    difference!(
        "variable_scope",
        OnlyPuppetLint,
        "Puppet reads $a-b as $a minus b",
        r"\$[\w:]+-\w"
    ),
    difference!(
        "only_variable_string",
        OnlyPuppetLint,
        "Puppet reads \"$a-b\" as $a then text",
        r#""\$[\w:]+-\w[^"]*""#
    ),
    // Single quotes would not turn `\r` or `\u263A` into a character.
    difference!(
        "double_quoted_strings",
        OnlyPuppetLint,
        "\\r and \\u escapes need double quotes",
        r#"\\[ru]"#
    ),
    // puppet-lint 3 only reads an array title when its `[` is the file's last.
    difference!(
        "unquoted_resource_title",
        OnlyPuppetLs,
        "bare words in array titles",
        r"\[.*\]\s*:"
    ),
    // puppet-lint 3 does not see parameters typed with a module's type.
    difference!(
        "parameter_order",
        OnlyPuppetLs,
        "parameters with a module's type",
        r"^\s*[A-Z]\w*::"
    ),
    // Attribute names that are keywords are attributes too.
    difference!(
        "duplicate_params",
        OnlyPuppetLs,
        "attributes named by a keyword",
        r"^\s*(unless|if|in|and|or|case|class|define|node|default|undef|true|false)\s*=>"
    ),
];

/// Which documented difference explains that only one side reports `check`
/// on `line` (1-based) of `text`, if any.
pub fn explain(check: &str, text: &str, line: u32, side: Side) -> Option<&'static str> {
    let lines: Vec<&str> = text.split('\n').collect();
    let index = line.checked_sub(1)? as usize;
    let line_text = lines.get(index)?;
    // puppet-lint 3 takes the nearest type name before a parameter, however
    // far back, for its type: an untyped parameter after an `Optional[...]`
    // one counts as optional.
    if check == "parameter_order"
        && side == Side::OnlyPuppetLs
        && untyped_after_optional(&lines, index)
    {
        return Some("an untyped parameter after an Optional one is required");
    }
    DIFFERENCES
        .iter()
        .filter(|d| d.check == check && d.side == side)
        .find(|d| Regex::new(d.line).expect("valid regex").is_match(line_text))
        .map(|d| d.name)
}

/// Whether line `index` declares an untyped parameter and a line above it,
/// in the same parameter list, declares an `Optional[...]` one.
fn untyped_after_optional(lines: &[&str], index: usize) -> bool {
    if !lines[index].trim_start().starts_with('$') {
        return false;
    }
    lines[..index]
        .iter()
        .rev()
        .take_while(|l| !l.contains("class ") && !l.contains("define "))
        .any(|l| l.trim_start().starts_with("Optional["))
}
