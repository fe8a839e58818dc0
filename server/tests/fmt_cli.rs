//! `puppet-ls fmt`, run as a user runs it, on files in a scratch directory.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const UNFORMATTED: &str = "file {'/x': ensure=>file, mode=>\"0644\"}\n";
const FORMATTED: &str = "file { '/x':\n  ensure => file,\n  mode   => '0644',\n}\n";
const BROKEN: &str = "file { '/x':\n  ensure => file\n  mode => '0644',\n}\n";

fn puppet_ls(args: &[&str], dir: &Path, stdin: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_puppet-ls"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run puppet-ls");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A scratch module: one unformatted manifest, one formatted, one broken,
/// one template.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let manifests = dir.path().join("mod/manifests");
    std::fs::create_dir_all(&manifests).unwrap();
    std::fs::write(manifests.join("ugly.pp"), UNFORMATTED).unwrap();
    std::fs::write(manifests.join("tidy.pp"), FORMATTED).unwrap();
    std::fs::write(manifests.join("broken.pp"), BROKEN).unwrap();
    std::fs::create_dir_all(dir.path().join("mod/templates")).unwrap();
    std::fs::write(dir.path().join("mod/templates/t.epp"), "<%= $x  %>\n").unwrap();
    dir
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join("mod").join(file)).unwrap()
}

#[test]
fn formats_in_place_recursively_from_the_current_directory() {
    let dir = scratch();
    let (status, out, err) = puppet_ls(&["fmt"], dir.path(), None);
    assert_eq!(status, 1, "the broken file makes the status 1: {out}{err}");
    assert_eq!(read(dir.path(), "manifests/ugly.pp"), FORMATTED);
    assert_eq!(read(dir.path(), "manifests/tidy.pp"), FORMATTED);
    assert_eq!(read(dir.path(), "manifests/broken.pp"), BROKEN, "untouched");
    assert_eq!(read(dir.path(), "templates/t.epp"), "<%= $x  %>\n");
    assert!(
        err.contains("broken.pp:3:3: error: syntax error: expected ',' between attributes"),
        "{err}"
    );
    assert!(!err.contains("ugly.pp"), "{err}");
}

#[test]
fn succeeds_when_every_file_formats() {
    let dir = scratch();
    std::fs::remove_file(dir.path().join("mod/manifests/broken.pp")).unwrap();
    let (status, _, err) = puppet_ls(&["fmt", "mod"], dir.path(), None);
    assert_eq!(status, 0, "{err}");
    let (status, out, _) = puppet_ls(&["fmt", "--check", "mod"], dir.path(), None);
    assert_eq!((status, out.as_str()), (0, ""));
}

#[test]
fn check_lists_what_would_change_and_writes_nothing() {
    let dir = scratch();
    let (status, out, _) = puppet_ls(&["fmt", "--check", "mod/manifests"], dir.path(), None);
    assert_eq!(status, 1);
    assert_eq!(out.trim(), "mod/manifests/ugly.pp");
    assert_eq!(read(dir.path(), "manifests/ugly.pp"), UNFORMATTED);
}

#[test]
fn diff_prints_a_unified_diff_and_writes_nothing() {
    let dir = scratch();
    let (status, out, _) = puppet_ls(
        &["fmt", "--diff", "mod/manifests/ugly.pp"],
        dir.path(),
        None,
    );
    assert_eq!(status, 1);
    assert!(
        out.starts_with("--- mod/manifests/ugly.pp\n+++ mod/manifests/ugly.pp\n@@ -1 +1,4 @@\n"),
        "{out}"
    );
    assert!(
        out.contains("-file {'/x': ensure=>file, mode=>\"0644\"}\n+file { '/x':\n"),
        "{out}"
    );
    assert_eq!(read(dir.path(), "manifests/ugly.pp"), UNFORMATTED);
}

#[test]
fn dash_formats_standard_input_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let (status, out, _) = puppet_ls(&["fmt", "-"], dir.path(), Some(UNFORMATTED));
    assert_eq!((status, out.as_str()), (0, FORMATTED));
    let (status, out, err) = puppet_ls(&["fmt", "-"], dir.path(), Some(BROKEN));
    assert_eq!(status, 1);
    assert_eq!(out, BROKEN, "unparsable input comes back unchanged");
    assert!(err.contains("<stdin>:3:3: error:"), "{err}");
}

#[test]
fn a_file_that_is_not_utf8_is_reported_and_left() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.pp");
    std::fs::write(&path, b"$a  = '\xe9'\n").unwrap();
    let (status, _, err) = puppet_ls(&["fmt", "latin1.pp"], dir.path(), None);
    assert_eq!(status, 1);
    assert!(err.contains("latin1.pp: error: not UTF-8"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), b"$a  = '\xe9'\n");
}
