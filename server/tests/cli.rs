//! The command-line interface, run as a user runs it.

use std::path::Path;
use std::process::Command;

fn puppet_ls(args: &[&str]) -> (i32, String) {
    let (status, stdout, _) = puppet_ls_with_stderr(args);
    (status, stdout)
}

fn puppet_ls_with_stderr(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_puppet-ls"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .output()
        .expect("run puppet-ls");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn parse_reports_every_error_and_fails() {
    let (status, out) = puppet_ls(&["parse", "examples/manifests"]);
    assert_eq!(status, 1);
    assert!(
        out.contains(
            "broken.pp:5:5: error: syntax error: expected ',' between attributes [syntax-error]"
        ),
        "{out}"
    );
    assert!(out.contains("broken.pp:8:3: error:"), "{out}");
    assert!(!out.contains("site.pp"), "{out}");
}

#[test]
fn parse_succeeds_on_valid_code_and_prints_trees() {
    let (status, out) = puppet_ls(&["parse", "--tree", "examples/manifests/site.pp"]);
    assert_eq!(status, 0, "{out}");
    assert!(out.starts_with("SOURCE_FILE@0.."), "{out}");
    assert!(out.contains("HEREDOC_BODY@"), "{out}");
}

/// A workspace with one unknown class and one definition in the wrong
/// file; removed when dropped.
struct TwoProblems(std::path::PathBuf);

impl TwoProblems {
    fn new(name: &str) -> TwoProblems {
        let dir = std::env::temp_dir().join(format!("puppet-ls-{name}-{}", std::process::id()));
        let manifests = dir.join("modules/app/manifests");
        std::fs::create_dir_all(&manifests).unwrap();
        std::fs::write(
            manifests.join("init.pp"),
            "class app {\n  include app::missing\n}\n",
        )
        .unwrap();
        std::fs::write(manifests.join("wrong.pp"), "class app::right { }\n").unwrap();
        TwoProblems(dir)
    }

    fn check(&self, args: &[&str]) -> (i32, String, String) {
        let mut all = vec!["check"];
        all.extend(args);
        all.push(self.0.to_str().unwrap());
        puppet_ls_with_stderr(&all)
    }
}

impl Drop for TwoProblems {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

#[test]
fn check_finds_workspace_problems_as_json() {
    let (status, out, err) = TwoProblems::new("check-json").check(&["--format", "json"]);
    assert_eq!(
        err.trim(),
        "checked 2 files: 2 errors, 0 warnings in 2 files"
    );
    assert_eq!(status, 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("json output");
    let codes: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["unknown-class", "definition-location"], "{out}");
    assert_eq!(json[0]["line"], 2);
    assert_eq!(json[0]["column"], 11);
}

#[test]
fn eval_prints_value_and_type() {
    let (status, out) = puppet_ls(&["eval", "$port = 8000 + 80\n$port"]);
    assert_eq!(status, 0);
    assert_eq!(out, "8080\nInteger[8080, 8080]\n");
    let (status, out) = puppet_ls(&["eval", "1 / 0"]);
    assert_eq!(status, 1);
    assert!(out.starts_with("error:"), "{out}");
}

#[test]
fn check_selects_and_ignores_codes() {
    let ws = TwoProblems::new("check-select");
    let (status, out, err) = ws.check(&["--select", "unknown-class,syntax-error"]);
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("[unknown-class]"), "{out}");
    assert!(!out.contains("[definition-location]"), "{out}");
    assert_eq!(err.trim(), "checked 2 files: 1 error, 0 warnings in 1 file");
    let (status, out, err) = ws.check(&[
        "--ignore",
        "unknown-class",
        "--ignore",
        "definition-location",
    ]);
    assert_eq!(status, 0, "{out}");
    assert_eq!(out, "");
    assert_eq!(
        err.trim(),
        "checked 2 files: 0 errors, 0 warnings in 0 files"
    );
    let (status, _, err) = ws.check(&["--select", "unknown-clas"]);
    assert_eq!(status, 2);
    assert!(
        err.contains("'unknown-clas' is not a puppet-ls diagnostic code"),
        "{err}"
    );
}

#[test]
fn check_writes_github_workflow_commands() {
    let (status, out, _) = puppet_ls_with_stderr(&["check", "--format", "github", "examples"]);
    assert_eq!(status, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "::error file=examples/manifests/broken.pp,line=5,col=5,endLine=5,endColumn=9,title=syntax-error::syntax error: expected ',' between attributes",
            "::error file=examples/manifests/broken.pp,line=8,col=3,endLine=8,endColumn=5,title=syntax-error::expected ',' or ']' in the array, found '$1'",
        ]
    );
}

#[test]
fn check_writes_sarif_with_a_rule_per_code() {
    let ws = TwoProblems::new("check-sarif");
    let (status, out, _) = ws.check(&["--format", "sarif"]);
    assert_eq!(status, 1);
    let log: serde_json::Value = serde_json::from_str(&out).expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "puppet-ls");
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["definition-location", "unknown-class"]);
    for rule in rules {
        assert!(!rule["shortDescription"]["text"]
            .as_str()
            .unwrap()
            .is_empty());
        assert_eq!(rule["defaultConfiguration"]["level"], "error");
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for result in results {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(result["ruleId"], rules[index]["id"]);
        assert_eq!(result["level"], "error");
        let location = &result["locations"][0]["physicalLocation"];
        assert!(location["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .ends_with(".pp"));
    }
    let unknown = &results[0];
    assert_eq!(unknown["ruleId"], "unknown-class");
    let region = &unknown["locations"][0]["physicalLocation"]["region"];
    assert_eq!(
        (region["startLine"].as_u64(), region["startColumn"].as_u64()),
        (Some(2), Some(11))
    );
}
