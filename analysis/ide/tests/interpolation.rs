//! A variable inside a string or heredoc (`"${x}"`, `"$x"`, `"${x['k']}"`)
//! is the same variable as `$x` outside it: every navigation request on a
//! variable gives the same answer on each written form.

use expect_test::expect;
use puppet_analysis::host::{parse_fixture, AnalysisHost};
use puppet_ide::{Analysis, FilePosition};
use puppet_syntax::{TextRange, TextSize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const WORKSPACE: &str = r#"
#- /ws/modules/web/types/port.pp
type Web::Port = Integer[1, 65535]
#- /ws/modules/web/types/settings.pp
type Web::Settings = Hash[String, Web::Port]
#- /ws/modules/web/manifests/init.pp
class web(Web::Port $listen_port = 8080, Web::Settings $settings = {}) {
  $bare = [$listen_port, $settings]
  $braced = "${listen_port}"
  $short = "port $listen_port"
  $access = "${settings['k']}"
  $local = 'x'
  $locals = "${local} $local"
  $doc = @("END")
    listen ${listen_port}
    short $listen_port
    with ${settings['k']} and $local
    | END
  $config = @(END)
    not interpolated $listen_port
    | END
  notice($local)
}
#- /ws/site.pp
class { 'web': listen_port => 80 }
notice($web::listen_port)
notice("${web::listen_port} $web::listen_port")
"#;

const CLASS: &str = "/ws/modules/web/manifests/init.pp";
const SITE: &str = "/ws/site.pp";

/// The workspace's snapshot and texts.
struct Workspace {
    analysis: Analysis,
    texts: BTreeMap<PathBuf, String>,
}

fn workspace() -> Workspace {
    let files = parse_fixture(WORKSPACE);
    let texts = files.iter().cloned().collect();
    let host = AnalysisHost::from_files(files);
    Workspace {
        analysis: puppet_ide::snapshot(&host),
        texts,
    }
}

impl Workspace {
    /// The position `skip` bytes into the `nth` (0-based) mention of
    /// `needle` in the file at `path`.
    fn at(&self, path: &str, needle: &str, nth: usize, skip: usize) -> FilePosition {
        let start = self.texts[Path::new(path)]
            .match_indices(needle)
            .nth(nth)
            .unwrap_or_else(|| panic!("mention {nth} of {needle}"))
            .0;
        FilePosition {
            path: PathBuf::from(path),
            offset: TextSize::new((start + skip) as u32),
        }
    }

    /// `line:col 'text'`, the path first for another file than the class's.
    fn render(&self, path: &Path, range: TextRange) -> String {
        let text = &self.texts[path];
        let start = usize::from(range.start());
        let line = text[..start].matches('\n').count() + 1;
        let col = start - text[..start].rfind('\n').map_or(0, |i| i + 1) + 1;
        let place = if path == Path::new(CLASS) {
            String::new()
        } else {
            format!("{}:", path.display())
        };
        format!(
            "{place}{line}:{col} '{}'",
            &text[start..usize::from(range.end())]
        )
    }
}

/// Every request's answer at a position, rendered.
fn answers(ws: &Workspace, pos: &FilePosition) -> Vec<(&'static str, String)> {
    let analysis = &ws.analysis;
    let targets = |t: Vec<puppet_ide::NavigationTarget>| {
        t.iter()
            .map(|t| format!("{} {:?}", ws.render(&t.path, t.focus_range), t.kind))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let definition = targets(analysis.goto_definition(pos).unwrap());
    let type_definition = targets(analysis.goto_type_definition(pos).unwrap());
    let references = analysis
        .find_references(pos, true)
        .unwrap()
        .iter()
        .map(|r| ws.render(&r.path, r.range))
        .collect::<Vec<_>>()
        .join(", ");
    let highlight = analysis
        .highlight(pos)
        .unwrap()
        .iter()
        .map(|(r, kind)| format!("{} {kind:?}", ws.render(&pos.path, *r)))
        .collect::<Vec<_>>()
        .join(", ");
    let rename = match analysis.rename(pos, "renamed").unwrap() {
        Ok(change) => change
            .edits
            .iter()
            .flat_map(|(path, edits)| edits.iter().map(|e| ws.render(path, e.range)))
            .collect::<Vec<_>>()
            .join(", "),
        Err(e) => format!("error: {e}"),
    };
    let hover = analysis
        .hover(pos)
        .unwrap()
        .map(|h| h.markdown)
        .unwrap_or_else(|| "no hover".into());
    vec![
        ("definition", definition),
        ("type definition", type_definition),
        ("references", references),
        ("rename", rename),
        ("highlight", highlight),
        ("hover", hover),
    ]
}

/// A variable written bare (`$x`) and the same variable in strings and
/// heredocs.
struct Case {
    what: &'static str,
    bare: FilePosition,
    forms: Vec<(&'static str, FilePosition)>,
}

/// Each interpolated form answers every request as the bare `$x` does, and
/// the bare answers are real (not empty).
#[test]
fn every_request_answers_the_same_inside_strings_and_heredocs() {
    let ws = workspace();
    let cases = [
        Case {
            what: "$listen_port",
            bare: ws.at(CLASS, "$listen_port,", 0, 3),
            forms: vec![
                ("\"${listen_port}\"", ws.at(CLASS, "${listen_port}", 0, 4)),
                ("\"$listen_port\"", ws.at(CLASS, "port $listen_port", 0, 8)),
                (
                    "heredoc ${listen_port}",
                    ws.at(CLASS, "${listen_port}", 1, 4),
                ),
                (
                    "heredoc $listen_port",
                    ws.at(CLASS, "short $listen_port", 0, 8),
                ),
            ],
        },
        Case {
            what: "$settings",
            bare: ws.at(CLASS, "$settings]", 0, 3),
            forms: vec![
                (
                    "\"${settings['k']}\"",
                    ws.at(CLASS, "${settings['k']}", 0, 4),
                ),
                (
                    "heredoc ${settings['k']}",
                    ws.at(CLASS, "${settings['k']}", 1, 4),
                ),
            ],
        },
        Case {
            what: "$local",
            bare: ws.at(CLASS, "notice($local)", 0, 9),
            forms: vec![
                ("\"${local}\"", ws.at(CLASS, "${local}", 0, 3)),
                ("\"$local\"", ws.at(CLASS, " $local\"", 0, 3)),
                ("heredoc $local", ws.at(CLASS, "and $local", 0, 6)),
            ],
        },
        Case {
            what: "$web::listen_port",
            bare: ws.at(SITE, "($web::listen_port)", 0, 9),
            forms: vec![
                (
                    "\"${web::listen_port}\"",
                    ws.at(SITE, "{web::listen_port}", 0, 8),
                ),
                (
                    "\"$web::listen_port\"",
                    ws.at(SITE, " $web::listen_port", 0, 9),
                ),
            ],
        },
    ];
    let mut summary = String::new();
    let mut differences = Vec::new();
    for Case { what, bare, forms } in &cases {
        let expected = answers(&ws, bare);
        for (request, answer) in &expected {
            // Hover is always there; the others must be too, except the
            // type definition of an untyped local.
            let untyped = *what == "$local" && *request == "type definition";
            assert_eq!(
                answer.is_empty(),
                untyped,
                "{request} on {what}: {answer:?}"
            );
        }
        for (form, pos) in forms {
            let got = answers(&ws, pos);
            for ((request, want), (_, answer)) in expected.iter().zip(&got) {
                if answer != want {
                    differences.push(format!(
                        "{request} on {form}: {answer:?}, on {what}: {want:?}"
                    ));
                }
            }
        }
        for (request, answer) in &expected {
            if *request != "hover" {
                summary += &format!("{what} {request}: {answer}\n");
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    expect![[r#"
        $listen_port definition: 1:21 '$listen_port' Parameter
        $listen_port type definition: /ws/modules/web/types/port.pp:1:6 'Web::Port' TypeAlias
        $listen_port references: 1:21 '$listen_port', 2:12 '$listen_port', 3:16 'listen_port', 4:18 '$listen_port', 9:14 'listen_port', 10:11 '$listen_port', /ws/site.pp:1:16 'listen_port', /ws/site.pp:2:8 '$web::listen_port', /ws/site.pp:3:11 'web::listen_port', /ws/site.pp:3:29 '$web::listen_port'
        $listen_port rename: 1:22 'listen_port', 2:13 'listen_port', 3:16 'listen_port', 4:19 'listen_port', 9:14 'listen_port', 10:12 'listen_port', /ws/site.pp:1:16 'listen_port', /ws/site.pp:2:14 'listen_port', /ws/site.pp:3:16 'listen_port', /ws/site.pp:3:35 'listen_port'
        $listen_port highlight: 1:21 '$listen_port' Write, 2:12 '$listen_port' Read, 3:16 'listen_port' Read, 4:18 '$listen_port' Read, 9:14 'listen_port' Read, 10:11 '$listen_port' Read
        $settings definition: 1:56 '$settings' Parameter
        $settings type definition: /ws/modules/web/types/settings.pp:1:6 'Web::Settings' TypeAlias
        $settings references: 1:56 '$settings', 2:26 '$settings', 5:16 'settings', 11:12 'settings'
        $settings rename: 1:57 'settings', 2:27 'settings', 5:16 'settings', 11:12 'settings'
        $settings highlight: 1:56 '$settings' Write, 2:26 '$settings' Read, 5:16 'settings' Read, 11:12 'settings' Read
        $local definition: 6:3 '$local' Variable
        $local type definition: 
        $local references: 6:3 '$local', 7:16 'local', 7:23 '$local', 11:31 '$local', 16:10 '$local'
        $local rename: 6:4 'local', 7:16 'local', 7:24 'local', 11:32 'local', 16:11 'local'
        $local highlight: 6:3 '$local' Write, 7:16 'local' Read, 7:23 '$local' Read, 11:31 '$local' Read, 16:10 '$local' Read
        $web::listen_port definition: 1:21 '$listen_port' Parameter
        $web::listen_port type definition: /ws/modules/web/types/port.pp:1:6 'Web::Port' TypeAlias
        $web::listen_port references: 1:21 '$listen_port', 2:12 '$listen_port', 3:16 'listen_port', 4:18 '$listen_port', 9:14 'listen_port', 10:11 '$listen_port', /ws/site.pp:1:16 'listen_port', /ws/site.pp:2:8 '$web::listen_port', /ws/site.pp:3:11 'web::listen_port', /ws/site.pp:3:29 '$web::listen_port'
        $web::listen_port rename: 1:22 'listen_port', 2:13 'listen_port', 3:16 'listen_port', 4:19 'listen_port', 9:14 'listen_port', 10:12 'listen_port', /ws/site.pp:1:16 'listen_port', /ws/site.pp:2:14 'listen_port', /ws/site.pp:3:16 'listen_port', /ws/site.pp:3:35 'listen_port'
        $web::listen_port highlight: /ws/site.pp:1:16 'listen_port' Read, /ws/site.pp:2:8 '$web::listen_port' Read, /ws/site.pp:3:11 'web::listen_port' Read, /ws/site.pp:3:29 '$web::listen_port' Read
    "#]].assert_eq(&summary);
}

/// `$x` in a heredoc without interpolation (`@(END)`) is text: no variable.
#[test]
fn a_variable_in_a_literal_heredoc_is_text() {
    let ws = workspace();
    let pos = ws.at(CLASS, "interpolated $listen_port", 0, 16);
    assert_eq!(ws.analysis.goto_definition(&pos).unwrap(), Vec::new());
    assert!(ws.analysis.highlight(&pos).unwrap().is_empty());
}
