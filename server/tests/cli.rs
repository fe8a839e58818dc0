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

#[test]
fn check_finds_workspace_problems_as_json() {
    let dir = std::env::temp_dir().join(format!("puppet-ls-check-{}", std::process::id()));
    let manifests = dir.join("modules/app/manifests");
    std::fs::create_dir_all(&manifests).unwrap();
    std::fs::write(
        manifests.join("init.pp"),
        "class app {\n  include app::missing\n}\n",
    )
    .unwrap();
    std::fs::write(manifests.join("wrong.pp"), "class app::right { }\n").unwrap();
    let (status, out, err) =
        puppet_ls_with_stderr(&["check", "--format", "json", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
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
