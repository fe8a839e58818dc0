//! The README's table of codes and `docs/diagnostics.md` are generated
//! from the catalogue: this test fails when they are stale, and rewrites
//! them with `UPDATE_EXPECT=1`.

use puppet_codes::{Code, Layer};
use std::collections::HashSet;
use std::path::PathBuf;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn updating() -> bool {
    std::env::var_os("UPDATE_EXPECT").is_some()
}

/// Markdown text of a code's explanation in a table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn readme_table() -> String {
    let mut out = String::from("| code | severity | meaning |\n| --- | --- | --- |\n");
    for &code in Code::ALL {
        out.push_str(&format!(
            "| [`{code}`]({}) | {} | {} |\n",
            code.documentation(),
            code.reported().as_str(),
            cell(code.explanation())
        ));
    }
    out
}

fn diagnostics_page() -> String {
    let mut out = String::from(
        "# Diagnostic codes\n\n\
         Generated from `analysis/codes/src/lib.rs` (`UPDATE_EXPECT=1 cargo test -p puppet-codes`).\n\
         Every diagnostic carries one of these codes; `diagnostics.ignore` in the editor settings\n\
         takes them.\n",
    );
    for (layer, title) in [
        (
            Layer::Syntax,
            "Syntax and Puppet's validation rules (one file alone)",
        ),
        (
            Layer::Semantic,
            "The workspace (names, types, values, flow)",
        ),
    ] {
        out.push_str(&format!("\n## {title}\n"));
        for &code in Code::ALL.iter().filter(|c| c.info().layer == layer) {
            let enabled = if code.enabled_by_default() {
                "on"
            } else {
                "off"
            };
            out.push_str(&format!(
                "\n### {code}\n\n{} ({}; {enabled} by default).\n",
                capitalized(code.explanation()),
                code.reported().as_str(),
            ));
        }
    }
    out
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

const START: &str = "<!-- codes:start -->\n";
const END: &str = "<!-- codes:end -->";

#[test]
fn the_readme_table_lists_every_code() {
    let path = repository().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme
        .find(START)
        .expect("README has the codes:start marker")
        + START.len();
    let end = readme.find(END).expect("README has the codes:end marker");
    let table = readme_table();
    if readme[start..end] != table {
        if updating() {
            let updated = format!("{}{table}{}", &readme[..start], &readme[end..]);
            std::fs::write(&path, updated).unwrap();
        } else {
            panic!("README.md's table of codes is stale: run UPDATE_EXPECT=1 cargo test -p puppet-codes");
        }
    }
}

#[test]
fn the_diagnostics_page_documents_every_code() {
    let path = repository().join("docs/diagnostics.md");
    let page = diagnostics_page();
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current != page {
        if updating() {
            std::fs::write(&path, page).unwrap();
        } else {
            panic!("docs/diagnostics.md is stale: run UPDATE_EXPECT=1 cargo test -p puppet-codes");
        }
    }
}

#[test]
fn names_are_unique_kebab_case_and_round_trip() {
    let mut seen = HashSet::new();
    for &code in Code::ALL {
        let name = code.as_str();
        assert!(seen.insert(name), "{name} twice");
        assert!(
            name.split('-').all(|w| !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())),
            "{name} is not kebab-case"
        );
        assert_eq!(name.parse::<Code>(), Ok(code));
        assert!(!code.explanation().is_empty() && !code.explanation().ends_with('.'));
    }
    assert!("no-such-code".parse::<Code>().is_err());
}
