//! Variable resolution and its diagnostics: scopes, flow order,
//! inheritance, qualified names, templates, match variables, reassignment
//! and unused variables, on multi-file fixtures.

use puppet_analysis::host::{parse_fixture, AnalysisHost};
use puppet_analysis::scopes::{variable_resolution, Target};
use std::path::Path;

const CODES: &[&str] = &[
    "unknown-variable",
    "unused-variable",
    "unused-parameter",
    "reassigned-variable",
];

/// Renders the variable diagnostics of a fixture as
/// `path:line severity [code] `snippet` message`.
fn check(fixture: &str) -> String {
    let host = AnalysisHost::from_files(parse_fixture(fixture));
    let mut out = String::new();
    for path in host.paths().map(Path::to_path_buf).collect::<Vec<_>>() {
        let text = host.text(&path).unwrap();
        for d in host.diagnostics(&path) {
            if !CODES.contains(&d.code) {
                continue;
            }
            let line = text[..u32::from(d.range.start()) as usize]
                .matches('\n')
                .count()
                + 1;
            out.push_str(&format!(
                "{}:{line} {} [{}] `{}` {}\n",
                path.display(),
                d.severity.as_str(),
                d.code,
                &text[d.range],
                d.message
            ));
        }
    }
    out
}

/// Every reference of one file as `name@line -> target`.
fn resolve(fixture: &str, path: &str) -> String {
    let host = AnalysisHost::from_files(parse_fixture(fixture));
    let file = host.file(Path::new(path)).unwrap();
    let text = host.text(Path::new(path)).unwrap();
    let line = |offset: u32| text[..offset as usize].matches('\n').count() + 1;
    let resolution = variable_resolution(host.db(), host.workspace(), file);
    let mut out = String::new();
    for r in &resolution.references {
        let target = match &r.target {
            Target::Local(defs) => {
                let lines: Vec<String> = defs
                    .iter()
                    .map(|&d| {
                        let def = &resolution.definitions[d];
                        format!("{:?}@{}", def.kind, line(def.range.start().into()))
                    })
                    .collect();
                lines.join(" | ")
            }
            other => format!("{other:?}"),
        };
        out.push_str(&format!(
            "${}@{} -> {target}\n",
            r.name,
            line(r.range.start().into())
        ));
    }
    out
}

#[test]
fn smoke() {
    let out = check(
        r#"
#- /ws/site.pp
$x = 1
notice($x, $y)
"#,
    );
    expect_test::expect![[r#"
        /ws/site.pp:2 warning [unknown-variable] `$y` unknown variable '$y'
    "#]]
    .assert_eq(&out);
}
