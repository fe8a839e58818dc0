//! The command-line interface, run as a user runs it.

use std::path::Path;
use std::process::Command;

fn puppet_ls(args: &[&str]) -> (i32, String) {
    let (status, stdout, _) = puppet_ls_with_stderr(args);
    (status, stdout)
}

/// Writes `text` to `root/rel`, creating its directories.
fn write_file(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
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
    let (status, out) = puppet_ls(&["parse", "examples"]);
    assert_eq!(status, 1);
    assert!(
        out.contains(
            "broken.pp:6:5: error: syntax error: expected ',' between attributes [syntax-error]"
        ),
        "{out}"
    );
    assert!(out.contains("broken.pp:9:3: error:"), "{out}");
    assert!(!out.contains("site.pp"), "{out}");
    assert!(!out.contains("web.pp"), "{out}");
}

#[test]
fn parse_succeeds_on_valid_code_and_prints_trees() {
    let (status, out) = puppet_ls(&["parse", "--tree", "examples/site/profile/manifests/web.pp"]);
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
    let (status, out, err) = TwoProblems::new("check-json").check(&[
        "--format",
        "json",
        "--no-lint",
        "--no-format-check",
    ]);
    assert_eq!(
        err.trim(),
        "checked 2 files for Puppet 8 (strict = error, strict_variables = true; version the default): 2 errors, 0 warnings in 2 files"
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
    assert_eq!(err.trim(), "checked 2 files for Puppet 8 (strict = error, strict_variables = true; version the default): 1 error, 0 warnings in 1 file");
    // puppet-lint's `autoloader_layout` says what `definition-location`
    // says: only the latter is reported. Lint names select and ignore too.
    let (_, out, _) = ws.check(&["--select", "definition-location,autoloader_layout"]);
    assert!(out.contains("[definition-location]"), "{out}");
    assert!(!out.contains("[autoloader_layout]"), "{out}");
    let (_, out, _) = ws.check(&["--select", "documentation"]);
    assert_eq!(out.matches("[documentation]").count(), 2, "{out}");
    let (status, out, err) = ws.check(&[
        "--ignore",
        "unknown-class",
        "--ignore",
        "definition-location,documentation,unformatted",
    ]);
    assert_eq!(status, 0, "{out}");
    assert_eq!(out, "");
    assert_eq!(
        err.trim(),
        "checked 2 files for Puppet 8 (strict = error, strict_variables = true; version the default): 0 errors, 0 warnings in 0 files"
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
    let (status, out, _) = puppet_ls_with_stderr(&[
        "check",
        "--format",
        "github",
        "--no-lint",
        "--no-format-check",
        "examples",
    ]);
    assert_eq!(status, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "::error file=examples/site/profile/manifests/broken.pp,line=6,col=5,endLine=6,endColumn=9,title=syntax-error::syntax error: expected ',' between attributes",
            "::error file=examples/site/profile/manifests/broken.pp,line=9,col=3,endLine=9,endColumn=5,title=syntax-error::expected ',' or ']' in the array, found '$1'",
            "::error file=examples/site/profile/manifests/broken.pp,line=13,col=7,endLine=13,endColumn=32,title=definition-location::the class 'profile::after_the_errors' cannot be autoloaded from this file: this file may only define 'profile::broken'",
        ]
    );
}

#[test]
fn check_writes_sarif_with_a_rule_per_code() {
    let ws = TwoProblems::new("check-sarif");
    let (status, out, _) = ws.check(&["--format", "sarif", "--no-lint", "--no-format-check"]);
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

/// A module with style problems puppet-lint reports and fixes.
fn untidy_module(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("puppet-ls-{name}-{}", std::process::id()));
    let manifests = dir.join("modules/app/manifests");
    std::fs::create_dir_all(&manifests).unwrap();
    std::fs::write(
        manifests.join("init.pp"),
        "# @summary The app.\nclass app {\n  file { '/tmp/x':\n    ensure => \"file\",\n    mode => '0644',\n  }\n}\n",
    )
    .unwrap();
    dir
}

#[test]
fn check_runs_puppet_lint_and_the_formatting_check() {
    let dir = untidy_module("check-lint");
    let (status, out, err) = puppet_ls_with_stderr(&["check", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(status, 0, "warnings only: {out}");
    let codes: Vec<&str> = out
        .lines()
        .filter_map(|l| l.rsplit_once(" [").map(|(_, c)| c.trim_end_matches(']')))
        .collect();
    assert_eq!(
        codes,
        ["unformatted", "double_quoted_strings", "arrow_alignment"],
        "{out}"
    );
    // Fixable problems say how in their frame.
    assert!(out.contains("= fix: "), "{out}");
    assert_eq!(
        err.trim(),
        "checked 1 files for Puppet 8 (strict = error, strict_variables = true; version the default): 0 errors, 3 warnings in 1 file"
    );
}

#[test]
fn check_fix_applies_lint_fixes_and_formatting() {
    let dir = untidy_module("check-fix");
    let (status, out, err) = puppet_ls_with_stderr(&["check", "--fix", dir.to_str().unwrap()]);
    let fixed = std::fs::read_to_string(dir.join("modules/app/manifests/init.pp")).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(status, 0, "{out}");
    assert_eq!(
        fixed,
        "# @summary The app.\nclass app {\n  file { '/tmp/x':\n    ensure => 'file',\n    mode   => '0644',\n  }\n}\n"
    );
    assert_eq!(out, "", "nothing remains");
    assert_eq!(
        err.trim(),
        "fixed 1 file\nchecked 1 files for Puppet 8 (strict = error, strict_variables = true; version the default): 0 errors, 0 warnings in 0 files"
    );
}

#[test]
fn check_reads_puppet_ls_toml_upwards_under_the_command_line() {
    let ws = TwoProblems::new("check-toml");
    std::fs::write(
        ws.0.join("puppet-ls.toml"),
        "[diagnostics]\nignore = [\"documentation\", \"unformatted\"]\n\n[diagnostics.severity]\n\"unknown-class\" = \"warning\"\n",
    )
    .unwrap();
    // Found from a directory below the file: the unknown class is only a
    // warning now; the wrong file is still an error.
    let module = ws.0.join("modules/app");
    let (status, out, err) = puppet_ls_with_stderr(&["check", module.to_str().unwrap()]);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains("warning: unknown class 'app::missing'"),
        "{out}"
    );
    assert!(!out.contains("[documentation]"), "{out}");
    assert_eq!(err.trim(), "checked 2 files for Puppet 8 (strict = error, strict_variables = true; version the default): 1 error, 1 warning in 2 files");
    // The command line adds to the file's `ignore`.
    let (status, _, err) = ws.check(&["--ignore", "definition-location"]);
    assert_eq!(status, 0);
    assert_eq!(err.trim(), "checked 2 files for Puppet 8 (strict = error, strict_variables = true; version the default): 0 errors, 1 warning in 1 file");
    // `info` is its own level in every format, and no failure.
    std::fs::write(
        ws.0.join("puppet-ls.toml"),
        "[diagnostics]\nignore = [\"documentation\", \"unformatted\", \"definition-location\"]\n\n[diagnostics.severity]\n\"unknown-class\" = \"info\"\n",
    )
    .unwrap();
    let (status, out, err) = ws.check(&[]);
    assert_eq!(status, 0, "{out}");
    assert!(
        out.contains(": info: unknown class 'app::missing'"),
        "{out}"
    );
    assert_eq!(
        err.trim(),
        "checked 2 files for Puppet 8 (strict = error, strict_variables = true; version the default): 0 errors, 0 warnings, 1 note in 1 file"
    );
    for (format, expected) in [
        ("json", "\"severity\":\"info\""),
        ("github", "::notice file="),
        ("sarif", "\"level\": \"note\""),
    ] {
        let (_, out, _) = ws.check(&["--format", format]);
        assert!(out.contains(expected), "{format}: {out}");
    }
    // An invalid file stops the check with its position.
    std::fs::write(
        ws.0.join("puppet-ls.toml"),
        "[diagnostics]\nignore = [\"unknown-clas\"]\n",
    )
    .unwrap();
    let (status, _, err) = ws.check(&[]);
    assert_eq!(status, 2);
    assert!(err.contains("puppet-ls.toml:2:"), "{err}");
    assert!(err.contains("did you mean 'unknown-class'"), "{err}");
}

#[test]
fn check_reports_hiera_files_with_puppets_severities() {
    let dir = std::env::temp_dir().join(format!("puppet-ls-hiera-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::create_dir_all(dir.join("manifests")).unwrap();
    std::fs::write(dir.join("manifests/site.pp"), "# Site.\nnotice('x')\n").unwrap();
    std::fs::write(
        dir.join("hiera.yaml"),
        "version: 5\nhierarchy:\n  - name: Common\n",
    )
    .unwrap();
    std::fs::write(dir.join("data/common.yaml"), "ntp::servers: [a\n").unwrap();
    std::fs::write(dir.join("data/nodes.json"), "{\"ntp::servers\": []}\n").unwrap();
    let (status, out, err) = puppet_ls_with_stderr(&["check", dir.to_str().unwrap()]);
    let lines: Vec<&str> = out.lines().filter(|l| l.contains(": error: ")).collect();
    assert_eq!(status, 1, "{out}");
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("data/common.yaml:") && lines[0].ends_with("[yaml-syntax]"));
    assert!(lines[1].contains("hiera.yaml:3:") && lines[1].ends_with("[hiera-config]"));
    assert!(err.contains("checked 4 files for Puppet 8 (strict = error, strict_variables = true; version the default): 2 errors"), "{err}");
    // Version 4: Puppet 7 reads it with a deprecation warning.
    std::fs::write(dir.join("hiera.yaml"), "version: 4\ndatadir: data\n").unwrap();
    std::fs::write(dir.join("data/common.yaml"), "ntp::servers: [a]\n").unwrap();
    let (status, out, _) = puppet_ls_with_stderr(&["check", dir.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(status, 0, "{out}");
    assert!(
        out.contains(": warning: hiera.yaml version 4 is deprecated"),
        "{out}"
    );
}

#[test]
fn check_reports_every_hiera_diagnostic_of_a_control_repository_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, text: &str| write_file(root, rel, text);
    write("environment.conf", "modulepath = modules\n");
    write("manifests/site.pp", "# Site.\ninclude ntp\n");
    write(
        "hiera.yaml",
        "version: 5\nhierarchy:\n  - name: Nodes\n    path: \"nodes/%{scope('x')}.yaml\"\n  - name: Common\n    path: common.yaml\n",
    );
    write(
        "data/common.yaml",
        "ntp::servers: a.pool\nntp::serverz: []\nmotd: \"%{nope('x')}\"\n",
    );
    write("data/broken.yaml", "a: [\n");
    write(
        "modules/ntp/hiera.yaml",
        "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n",
    );
    write("modules/ntp/data/common.yaml", "ntp::servers: []\n");
    write(
        "modules/ntp/manifests/init.pp",
        "# Time.\nclass ntp(Array[String] $servers) {\n  notice($servers)\n}\n",
    );
    let (status, out, _) = puppet_ls_with_stderr(&[
        "check",
        "--no-lint",
        "--no-format-check",
        "--format",
        "json",
        root.to_str().unwrap(),
    ]);
    assert_eq!(status, 1, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let problems = report
        .as_array()
        .or_else(|| report["problems"].as_array())
        .expect("a list of problems");
    let mut found: Vec<String> = problems
        .iter()
        .map(|p| {
            let path = p["path"].as_str().unwrap_or_default();
            let relative = path.strip_prefix(root.to_str().unwrap()).unwrap_or(path);
            format!(
                "{relative}:{} {} {}",
                p["line"],
                p["severity"].as_str().unwrap_or_default(),
                p["code"].as_str().unwrap_or_default()
            )
        })
        .collect();
    found.sort();
    expect_test::expect![[r#"
        [
            "/data/broken.yaml:2 error yaml-syntax",
            "/data/common.yaml:1 error hiera-type-mismatch",
            "/data/common.yaml:2 warning hiera-unknown-parameter",
            "/data/common.yaml:3 error hiera-interpolation",
            "/hiera.yaml:4 error hiera-interpolation",
        ]
    "#]]
    .assert_debug_eq(&found);
}

#[test]
fn check_reports_metadata_problems_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let write = |rel: &str, text: &str| write_file(root, rel, text);
    write(
        "modules/app/metadata.json",
        "{\n  \"name\": \"acme-app\",\n  \"version\": \"1.0.0\",\n  \"author\": \"acme\",\n  \"summary\": \"App\",\n  \"license\": \"Apache-2.0\",\n  \"dependencies\": [\n    {\"name\": \"puppetlabs/stdlib\", \"version_requirement\": \">= 4.0.0 < 9.0.0\"}\n  ]\n}\n",
    );
    write(
        "modules/app/manifests/init.pp",
        "# The app.\nclass app {\n  include other\n}\n",
    );
    write(
        "modules/stdlib/metadata.json",
        "{\"name\": \"puppetlabs-stdlib\", \"version\": \"9.4.1\", \"author\": \"puppetlabs\", \"summary\": \"Stdlib\", \"license\": \"Apache-2.0\", \"source\": \"x\", \"dependencies\": []}\n",
    );
    write(
        "modules/other/manifests/init.pp",
        "# Other.\nclass other {}\n",
    );
    let check = |format: &str| {
        let (status, out, err) = puppet_ls_with_stderr(&[
            "check",
            "--no-lint",
            "--no-format-check",
            "--format",
            format,
            root.to_str().unwrap(),
        ]);
        assert_eq!(status, 1, "{out}{err}");
        out.replace(root.to_str().unwrap(), "")
    };
    let json: serde_json::Value = serde_json::from_str(&check("json")).expect("JSON");
    let found: Vec<String> = json
        .as_array()
        .expect("a list of problems")
        .iter()
        .map(|p| {
            format!(
                "{}:{}:{} {} {}",
                p["path"].as_str().unwrap_or_default(),
                p["line"],
                p["column"],
                p["severity"].as_str().unwrap_or_default(),
                p["code"].as_str().unwrap_or_default()
            )
        })
        .collect();
    expect_test::expect![[r#"
        [
            "/modules/app/manifests/init.pp:3:11 warning undeclared-dependency",
            "/modules/app/metadata.json:1:1 error metadata-schema",
            "/modules/app/metadata.json:8:58 warning unmet-dependency",
        ]
    "#]]
    .assert_debug_eq(&found);
    let human = check("human");
    assert!(
        human.contains("/modules/app/metadata.json:8:58: warning: the workspace's module 'stdlib' is version 9.4.1, outside '>= 4.0.0 < 9.0.0'")
            && human.contains("[unmet-dependency]")
            && human.contains("no `source`: Puppet refuses the module"),
        "{human}"
    );
    let github = check("github");
    assert!(
        github.contains("::error file=/modules/app/metadata.json,line=1,col=1,endLine=1,endColumn=2,title=metadata-schema::no `source`")
            && github.contains("title=undeclared-dependency::'other' is a class of module 'other'"),
        "{github}"
    );
    let sarif: serde_json::Value = serde_json::from_str(&check("sarif")).expect("SARIF");
    let rules: Vec<&str> = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "metadata-schema",
            "unmet-dependency",
            "undeclared-dependency"
        ]
    );
}

/// A module whose metadata.json requires Puppet 7, with legacy facts and an
/// unknown variable: checked for Puppet 7 unless told otherwise; with
/// `--puppet-version 8`, the upgrade report; `--fix` rewrites the legacy
/// facts.
#[test]
fn puppet_8_upgrade_report_and_fixes() {
    let base = std::env::temp_dir().join(format!("puppet-ls-upgrade-{}", std::process::id()));
    std::fs::remove_dir_all(&base).ok();
    let dir = base.join("app");
    write_file(
        &dir,
        "metadata.json",
        r#"{"name": "me-app", "version": "1.0.0", "author": "me", "license": "Apache-2.0", "summary": "An app.", "source": "https://example.com/app", "dependencies": [], "requirements": [{"name": "puppet", "version_requirement": ">= 6.0.0 < 8.0.0"}]}"#,
    );
    let manifest = "# @summary The app.\nclass app {\n  notice(\"${::fqdn} ${facts['osfamily']}\")\n  notice($nope)\n}\n";
    write_file(&dir, "manifests/init.pp", manifest);
    let path = dir.to_str().unwrap();
    let (status, _, err) = puppet_ls_with_stderr(&["check", "--no-lint", path]);
    assert_eq!(status, 0, "{err}");
    let metadata = dir.join("metadata.json");
    assert!(
        err.contains(&format!(
            "for Puppet 7 (strict = warning, strict_variables = false; version from {} (puppet >= 6.0.0 < 8.0.0)): 0 errors",
            metadata.display()
        )),
        "{err}"
    );
    let (status, out, err) =
        puppet_ls_with_stderr(&["check", "--no-lint", "--puppet-version", "8", path]);
    assert_eq!(status, 1, "{err}");
    let report = out
        .split_once("\nUpgrade report: ")
        .map(|(_, report)| report)
        .unwrap_or_else(|| panic!("no upgrade report:\n{out}"));
    expect_test::expect![[r#"
        what fails on Puppet 8 in a code base that targets Puppet 7 (METADATA: puppet >= 6.0.0 < 8.0.0), by code; `check --fix --puppet-version 8` applies the fixes:
        code              errors  warnings  notes  fixable
        legacy-fact            1         1      0        2
        unknown-variable       1         0      0        0"#]]
    .assert_eq(report.replace(&metadata.display().to_string(), "METADATA").trim_end());
    let (_, out, err) = puppet_ls_with_stderr(&[
        "check",
        "--no-lint",
        "--no-format-check",
        "--fix",
        "--puppet-version",
        "8",
        path,
    ]);
    let fixed = std::fs::read_to_string(dir.join("manifests/init.pp")).unwrap();
    std::fs::remove_dir_all(&base).ok();
    assert_eq!(
        fixed,
        "# @summary The app.\nclass app {\n  notice(\"${facts['networking']['fqdn']} ${facts['os']['family']}\")\n  notice($nope)\n}\n"
    );
    assert!(err.starts_with("fixed 1 file\n"), "{err}");
    assert!(
        out.contains("[unknown-variable]") && !out.contains("[legacy-fact]"),
        "{out}"
    );
}

#[test]
fn types_infers_for_the_chosen_puppet_version() {
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("app");
    write_file(
        &module,
        "manifests/init.pp",
        "class app(Integer $n) {\n  notice($n)\n}\n",
    );
    let path = module.to_str().unwrap();
    let types = |extra: &[&str]| {
        let mut args = vec!["types", path];
        args.extend(extra);
        puppet_ls_with_stderr(&args)
    };
    let (status, out, err) = types(&[]);
    assert_eq!(status, 0, "{err}");
    assert!(out.contains(r#""name":"n","type":"Integer""#), "{out}");
    assert_eq!(
        err.trim(),
        "types for Puppet 8 (strict = error, strict_variables = true; version the default)"
    );
    // Detected from the module's metadata.json, as `check` detects it.
    write_file(
        &module,
        "metadata.json",
        r#"{"name": "me-app", "version": "1.0.0", "requirements": [{"name": "puppet", "version_requirement": ">= 6.0.0 < 8.0.0"}]}"#,
    );
    let (status, _, err) = types(&[]);
    assert_eq!(status, 0, "{err}");
    assert!(
        err.trim().starts_with(
            "types for Puppet 7 (strict = warning, strict_variables = false; version from "
        ),
        "{err}"
    );
    // The command line wins.
    let (status, _, err) = types(&["--puppet-version", "8"]);
    assert_eq!(status, 0, "{err}");
    assert!(err.contains("Puppet 8 ("), "{err}");
    assert!(
        err.trim().ends_with("version set by --puppet-version)"),
        "{err}"
    );
    let (status, _, err) = types(&["--puppet-version", "6"]);
    assert_eq!(status, 2, "{err}");
}
