use super::*;
use expect_test::{expect, Expect};
use puppet_analysis::target::{PuppetVersion, Strict};
use puppet_syntax::Code;
use std::fs;

const EXAMPLE: &str = r#"
[diagnostics]
select = ["unknown-class", "arrow_alignment"]
ignore = ["140chars", "unknown-variable"]
[diagnostics.severity]
"unknown-function" = "error"
documentation = "off"
[lint]
enabled = true
rc = false
top_scope_variables = ["role"]
relative = true
[format]
check = false
[workspace]
module_paths = ["site", "modules", "/opt/puppet/modules"]
exclude = ["spec/fixtures/**", "vendor"]
[puppet]
version = 7
strict = "error"
strict_variables = true
"#;

fn parse_at(text: &str) -> Result<ProjectConfig, ConfigError> {
    parse(text, Path::new("/repo/puppet-ls.toml"))
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

#[test]
fn parses_every_key() {
    let config = parse_at(EXAMPLE).unwrap();
    assert_eq!(config.path, PathBuf::from("/repo/puppet-ls.toml"));
    assert_eq!(config.dir, PathBuf::from("/repo"));
    assert_eq!(
        config.diagnostics.select,
        set(&["unknown-class", "arrow_alignment"])
    );
    assert_eq!(
        config.diagnostics.ignore,
        set(&["140chars", "unknown-variable"])
    );
    assert_eq!(
        config.diagnostics.severity,
        BTreeMap::from([
            ("unknown-function".to_string(), SeveritySetting::Error),
            ("documentation".to_string(), SeveritySetting::Off),
        ])
    );
    assert_eq!(
        config.lint,
        LintSettings {
            enabled: true,
            rc: false,
            top_scope_variables: vec!["role".to_string()],
            relative: true,
        }
    );
    assert_eq!(config.format, FormatSettings { check: false });
    assert_eq!(
        config.workspace.module_paths,
        vec![
            PathBuf::from("/repo/site"),
            PathBuf::from("/repo/modules"),
            PathBuf::from("/opt/puppet/modules"),
        ]
    );
    assert_eq!(
        config.workspace.exclude.patterns,
        vec!["spec/fixtures/**".to_string(), "vendor".to_string()]
    );
    assert_eq!(
        config.puppet,
        PuppetSettings {
            version: Some(PuppetVersion::V7),
            strict: Some(Strict::Error),
            strict_variables: Some(true),
        }
    );
}

#[test]
fn an_empty_file_gives_the_defaults() {
    let empty = parse_at("").unwrap();
    assert_eq!(
        empty,
        ProjectConfig::empty(Path::new("/repo/puppet-ls.toml"))
    );
    assert_eq!(
        parse_at("# nothing\n[diagnostics]\n[lint]\n[format]\n[workspace]\n").unwrap(),
        empty
    );
    assert!(empty.diagnostics.select.is_empty());
    assert!(empty.diagnostics.ignore.is_empty());
    assert!(empty.diagnostics.severity.is_empty());
    assert!(empty.lint.enabled && empty.lint.rc && !empty.lint.relative);
    assert!(empty.lint.top_scope_variables.is_empty());
    assert!(empty.format.check);
    assert!(empty.workspace.module_paths.is_empty());
    assert_eq!(empty.puppet, PuppetSettings::default());
    assert!(!empty.excludes(Path::new("/repo/spec/fixtures/x.pp")));
    // Shown: the codes on by default and every lint check; not the codes
    // off by default.
    assert!(empty.shows("unknown-class"));
    assert!(empty.shows("unknown-variable"));
    assert!(empty.shows("arrow_alignment"));
    let off_by_default = Code::ALL.iter().find(|c| !c.enabled_by_default());
    if let Some(code) = off_by_default {
        assert!(!empty.shows(code.as_str()));
    }
    assert!(!empty.shows("no-such-code"));
}

#[test]
fn a_relative_file_path_keeps_a_usable_directory() {
    assert_eq!(
        parse("", Path::new("puppet-ls.toml")).unwrap().dir,
        PathBuf::from(".")
    );
    assert_eq!(
        parse(
            "[workspace]\nmodule_paths = [\"site\"]",
            Path::new("a/puppet-ls.toml")
        )
        .unwrap()
        .workspace
        .module_paths,
        vec![PathBuf::from("a/site")]
    );
}

#[test]
fn shows_follows_select_ignore_and_severity() {
    let config = parse_at(EXAMPLE).unwrap();
    assert!(config.shows("unknown-class"), "selected");
    assert!(config.shows("arrow_alignment"), "selected lint check");
    assert!(!config.shows("syntax-error"), "not selected");
    assert!(!config.shows("140chars"), "ignored");
    assert!(!config.shows("documentation"), "off");
    assert_eq!(
        config.severity_of("unknown-function"),
        Some(SeveritySetting::Error)
    );
    assert_eq!(
        config.severity_of("documentation"),
        Some(SeveritySetting::Off)
    );
    assert_eq!(config.severity_of("unknown-class"), None);

    let config = parse_at(
        "[diagnostics]\nignore = [\"unknown-class\"]\n[diagnostics.severity]\n\"trailing_whitespace\" = \"off\"\n",
    )
    .unwrap();
    assert!(!config.shows("unknown-class"));
    assert!(!config.shows("trailing_whitespace"));
    assert!(config.shows("unknown-type"));
    assert!(config.shows("unknown-variable"));

    let config = parse_at("[puppet]\nstrict_variables = false\n[lint]\nenabled = false").unwrap();
    assert!(
        config.shows("unknown-variable"),
        "a warning now, not hidden"
    );
    assert!(!config.shows("arrow_alignment"), "lint disabled");
    assert!(config.shows("unknown-class"));
}

#[test]
fn a_severity_switches_on_a_code_off_by_default() {
    let Some(code) = Code::ALL.iter().find(|c| !c.enabled_by_default()) else {
        return;
    };
    let text = format!("[diagnostics.severity]\n\"{code}\" = \"info\"\n");
    let config = parse_at(&text).unwrap();
    assert!(config.shows(code.as_str()));
    assert_eq!(
        config.severity_of(code.as_str()),
        Some(SeveritySetting::Info)
    );
}

#[test]
fn excludes_matches_globs_below_the_files_directory() {
    let config = parse_at(
        "[workspace]\nexclude = [\"spec/fixtures/**\", \"vendor\", \"**/*.epp\", \"./build/*.pp\"]",
    )
    .unwrap();
    for excluded in [
        "/repo/spec/fixtures/modules/foo/manifests/init.pp",
        "/repo/vendor/mod/manifests/init.pp",
        "/repo/vendor",
        "/repo/site/profile/templates/x.epp",
        "/repo/build/a.pp",
        "spec/fixtures/x.pp",
        "./vendor/x.pp",
    ] {
        assert!(config.excludes(Path::new(excluded)), "{excluded}");
    }
    for kept in [
        "/repo/site/profile/manifests/init.pp",
        "/repo/spec/classes/x_spec.rb",
        "/repo/build/sub/a.pp",
        "/elsewhere/vendor/x.pp",
        "/repo",
        "site/x.pp",
    ] {
        assert!(!config.excludes(Path::new(kept)), "{kept}");
    }
}

fn check_error(text: &str, expect: Expect) {
    match parse_at(text) {
        Ok(_) => panic!("no error for {text:?}"),
        Err(error) => expect.assert_eq(&error.to_string()),
    }
}

#[test]
fn error_unknown_top_level_key() {
    check_error(
        "[diagnostic]\nselect = []\n",
        expect!["/repo/puppet-ls.toml:1:2: unknown field `diagnostic`, expected one of `diagnostics`, `lint`, `format`, `workspace`, `hiera`, `puppet`"],
    );
}

#[test]
fn error_unknown_nested_key() {
    check_error(
        "[lint]\nenabled = true\nrelativ = true\n",
        expect![[
            r#"/repo/puppet-ls.toml:3:1: unknown field `relativ`, expected one of `enabled`, `rc`, `top_scope_variables`, `relative`"#
        ]],
    );
    check_error(
        "[workspace]\nmodulepaths = []\n",
        expect!["/repo/puppet-ls.toml:2:1: unknown field `modulepaths`, expected `module_paths` or `exclude`"],
    );
}

#[test]
fn puppet_settings_are_checked() {
    check_error(
        "[puppet]\nversion = 6\n",
        expect![[
            r#"/repo/puppet-ls.toml:2:11: puppet.version: unknown Puppet version '6': expected 7 or 8"#
        ]],
    );
    check_error(
        "[puppet]\nstrict = \"eror\"\n",
        expect![[
            r#"/repo/puppet-ls.toml:2:10: puppet.strict: unknown strict mode 'eror': expected off, warning or error"#
        ]],
    );
    let config = parse_at("[puppet]\nversion = \"8.10.0\"\n").unwrap();
    assert_eq!(config.puppet.version, Some(PuppetVersion::V8));
}

#[test]
fn error_wrong_types() {
    check_error(
        "[lint]\nenabled = \"yes\"\n",
        expect![[r#"/repo/puppet-ls.toml:2:11: invalid type: string "yes", expected a boolean"#]],
    );
    check_error(
        "[diagnostics]\nselect = \"unknown-class\"\n",
        expect![[
            r#"/repo/puppet-ls.toml:2:10: invalid type: string "unknown-class", expected a sequence"#
        ]],
    );
    check_error(
        "[diagnostics]\nignore = [1]\n",
        expect![[r#"/repo/puppet-ls.toml:2:11: invalid type: integer `1`, expected a string"#]],
    );
    check_error(
        "format = 3\n",
        expect![[
            r#"/repo/puppet-ls.toml:1:10: invalid type: integer `3`, expected struct RawFormat"#
        ]],
    );
}

#[test]
fn error_invalid_toml() {
    check_error(
        "[diagnostics\n",
        expect![[r#"/repo/puppet-ls.toml:1:13: unclosed table, expected `]`"#]],
    );
    check_error(
        "[lint]\nenabled = true\nenabled = false\n",
        expect![[r#"/repo/puppet-ls.toml:3:1: duplicate key"#]],
    );
}

#[test]
fn error_unknown_codes_with_suggestions() {
    check_error(
        "[diagnostics]\nselect = [\"unknown-clas\"]\n",
        expect![[
            r#"/repo/puppet-ls.toml:2:11: diagnostics.select: unknown diagnostic code 'unknown-clas' (did you mean 'unknown-class'?): expected an analysis code (docs/diagnostics.md) or a puppet-lint check name (docs/lint.md)"#
        ]],
    );
    check_error(
        "[diagnostics]\nignore = [\"140chars\", \"arrow_alignmnt\"]\n",
        expect![[
            r#"/repo/puppet-ls.toml:2:23: diagnostics.ignore: unknown diagnostic code 'arrow_alignmnt' (did you mean 'arrow_alignment'?): expected an analysis code (docs/diagnostics.md) or a puppet-lint check name (docs/lint.md)"#
        ]],
    );
    check_error(
        "[diagnostics.severity]\nzzzzzzzzzzzzzzzzzzzzzz = \"error\"\n",
        expect![[
            r#"/repo/puppet-ls.toml:2:1: diagnostics.severity: unknown diagnostic code 'zzzzzzzzzzzzzzzzzzzzzz': expected an analysis code (docs/diagnostics.md) or a puppet-lint check name (docs/lint.md)"#
        ]],
    );
}

#[test]
fn error_unknown_severity() {
    check_error(
        "[diagnostics.severity]\n\"unknown-class\" = \"eror\"\n",
        expect![[
            r#"/repo/puppet-ls.toml:2:19: diagnostics.severity: unknown severity 'eror' (did you mean 'error'?): expected one of error, warning, info, off"#
        ]],
    );
    check_error(
        "[diagnostics.severity]\n\"unknown-class\" = true\n",
        expect![[r#"/repo/puppet-ls.toml:2:19: invalid type: boolean `true`, expected a string"#]],
    );
}

#[test]
fn error_bad_glob() {
    check_error(
        "[workspace]\nexclude = [\"ok/**\", \"bad/[x\"]\n",
        expect![[
            r#"/repo/puppet-ls.toml:2:21: workspace.exclude: invalid glob 'bad/[x': unclosed character class; missing ']'"#
        ]],
    );
}

#[test]
fn error_columns_count_characters() {
    check_error(
        "# é\n[workspace]\nexclude = [\"é/**\", \"bad/[x\"]\n",
        expect![[
            r#"/repo/puppet-ls.toml:3:20: workspace.exclude: invalid glob 'bad/[x': unclosed character class; missing ']'"#
        ]],
    );
}

#[test]
fn error_display_without_position() {
    let error = ConfigError {
        path: PathBuf::from("/x/puppet-ls.toml"),
        line: None,
        column: None,
        message: "cannot read: gone".to_string(),
    };
    expect![[r#"/x/puppet-ls.toml: cannot read: gone"#]].assert_eq(&error.to_string());
}

#[test]
fn severity_words_round_trip() {
    for setting in SeveritySetting::ALL {
        assert_eq!(setting.as_str().parse::<SeveritySetting>(), Ok(setting));
    }
    assert!("Error".parse::<SeveritySetting>().is_err());
}

#[test]
fn every_code_name_is_accepted() {
    let names: Vec<&str> = code_names().collect();
    // The analysis codes, puppet-lint's checks and `unformatted`.
    assert_eq!(names.len(), Code::ALL.len() + CHECKS.len() + 1);
    let text = format!(
        "[diagnostics]\nselect = [{}]\n",
        names
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert_eq!(
        parse_at(&text).unwrap().diagnostics.select.len(),
        names.len()
    );
}

#[test]
fn lint_config_layers_rc_files_under_the_file() {
    let rc = "--no-140chars-check\n--80chars-check\n--top-scope-variables=from_rc\n";
    let config = parse_at("").unwrap();
    let (lint, problems) = config.lint_config([rc]);
    assert!(problems.is_empty());
    assert!(!lint.is_enabled("140chars"));
    assert!(lint.is_enabled("80chars"));

    let config = parse_at("[lint]\nrc = false\n").unwrap();
    let (lint, _) = config.lint_config([rc]);
    assert!(lint.is_enabled("140chars"), "rc files not read");
    assert!(!lint.is_enabled("80chars"));

    let config = parse_at(
        "[diagnostics]\nignore = [\"80chars\"]\n[diagnostics.severity]\n\"140chars\" = \"warning\"\n[lint]\ntop_scope_variables = [\"role\"]\nrelative = true\n",
    )
    .unwrap();
    let (lint, _) = config.lint_config([rc]);
    assert!(
        lint.is_enabled("140chars"),
        "a severity switches a check on"
    );
    assert!(!lint.is_enabled("80chars"), "ignore wins over the rc file");
    assert_eq!(lint.top_scope_variables, vec!["role".to_string()]);
    assert!(lint.relative);

    let config =
        parse_at("[diagnostics]\nselect = [\"arrow_alignment\", \"unknown-class\"]\n").unwrap();
    let (lint, _) = config.lint_config([]);
    assert_eq!(
        lint.enabled_checks().collect::<Vec<_>>(),
        vec!["arrow_alignment"]
    );

    let config = parse_at("[lint]\nenabled = false\n").unwrap();
    let (lint, _) = config.lint_config([rc]);
    assert_eq!(lint.enabled_checks().count(), 0);
}

#[test]
fn garbage_never_panics() {
    let mut rng = fastrand::Rng::with_seed(7);
    let pieces = [
        "[",
        "]",
        "[[",
        "]]",
        "=",
        "\"",
        "'",
        "\n",
        " ",
        "#",
        "{",
        "}",
        ",",
        ".",
        "diagnostics",
        "lint",
        "format",
        "workspace",
        "select",
        "ignore",
        "severity",
        "exclude",
        "module_paths",
        "\"unknown-class\"",
        "\"140chars\"",
        "true",
        "1",
        "-1.5e9",
        "\"off\"",
        "\"[\"",
        "\"**\"",
        "\u{0}",
        "é",
        "\\u",
        "\"\"\"",
        "1979-05-27",
        "inf",
        "nan",
    ];
    for _ in 0..3000 {
        let mut text = String::new();
        for _ in 0..rng.usize(0..40) {
            text.push_str(pieces[rng.usize(0..pieces.len())]);
        }
        let _ = parse_at(&text);
    }
    // Every prefix and every one-byte deletion of a valid file.
    for end in 0..=EXAMPLE.len() {
        if EXAMPLE.is_char_boundary(end) {
            let _ = parse_at(&EXAMPLE[..end]);
            let mut without = EXAMPLE.to_string();
            if end < EXAMPLE.len() && EXAMPLE.is_char_boundary(end + 1) {
                without.remove(end);
                let _ = parse_at(&without);
            }
        }
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
            if let Err(error) = parse_at(&text) {
                prop_assert!(error.line.is_none() || error.line.unwrap() >= 1);
                let _ = error.to_string();
            }
        }

        #[test]
        fn arbitrary_strings_in_every_list_never_panic(word in "\\PC{0,20}") {
            let quoted = toml::Value::String(word.clone()).to_string();
            for text in [
                format!("[diagnostics]\nselect = [{quoted}]"),
                format!("[diagnostics.severity]\n{quoted} = {quoted}"),
                format!("[workspace]\nexclude = [{quoted}]\nmodule_paths = [{quoted}]"),
            ] {
                if let Ok(config) = parse_at(&text) {
                    let _ = config.excludes(Path::new(&word));
                    let _ = config.shows(&word);
                }
            }
        }
    }
}

// Files on disk.

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

#[test]
fn discovers_from_a_file_and_from_a_nested_directory() {
    let root = tempfile::tempdir().unwrap();
    let root = root.path();
    write(
        &root.join(FILE_NAME),
        "[workspace]\nmodule_paths = [\"site\"]\n",
    );
    let manifest = root.join("site/profile/manifests/init.pp");
    write(&manifest, "class profile {}\n");

    let from_file = discover(&manifest).unwrap().unwrap();
    assert_eq!(from_file.path, root.join(FILE_NAME));
    assert_eq!(from_file.dir, root);
    assert_eq!(from_file.workspace.module_paths, vec![root.join("site")]);

    let from_dir = discover(&root.join("site/profile")).unwrap().unwrap();
    assert_eq!(from_dir, from_file);
    assert_eq!(discover(root).unwrap().unwrap(), from_file);
    // A path that does not exist (yet) is looked up from its directory.
    assert_eq!(
        discover(&root.join("site/new.pp")).unwrap().unwrap(),
        from_file
    );
}

#[test]
fn the_nearest_file_wins() {
    let root = tempfile::tempdir().unwrap();
    let root = root.path();
    write(&root.join(FILE_NAME), "[format]\ncheck = false\n");
    write(&root.join("modules/nginx").join(FILE_NAME), "");
    let manifest = root.join("modules/nginx/manifests/init.pp");
    write(&manifest, "");

    let nearest = discover(&manifest).unwrap().unwrap();
    assert_eq!(nearest.path, root.join("modules/nginx").join(FILE_NAME));
    assert!(nearest.format.check, "files are not merged");
    let outer = discover(&root.join("modules")).unwrap().unwrap();
    assert_eq!(outer.path, root.join(FILE_NAME));
    assert!(!outer.format.check);
}

#[test]
fn a_directory_named_like_the_file_is_skipped() {
    let root = tempfile::tempdir().unwrap();
    let root = root.path();
    write(&root.join(FILE_NAME), "");
    fs::create_dir_all(root.join("a").join(FILE_NAME)).unwrap();
    let found = discover(&root.join("a")).unwrap().unwrap();
    assert_eq!(found.path, root.join(FILE_NAME));
}

#[test]
fn discovery_reports_the_invalid_file_it_finds() {
    let root = tempfile::tempdir().unwrap();
    let root = root.path();
    write(&root.join(FILE_NAME), "[lint]\nenabled = 1\n");
    let error = discover(&root.join("x.pp")).unwrap_err();
    assert_eq!(error.path, root.join(FILE_NAME));
    assert_eq!((error.line, error.column), (Some(2), Some(11)));
    assert_eq!(
        error.message,
        "invalid type: integer `1`, expected a boolean"
    );
}

#[test]
fn load_reads_and_reports_missing_files() {
    let root = tempfile::tempdir().unwrap();
    let path = root.path().join(FILE_NAME);
    let error = load(&path).unwrap_err();
    assert_eq!(error.path, path);
    assert_eq!(error.line, None);
    assert!(
        error.message.starts_with("cannot read: "),
        "{}",
        error.message
    );

    write(&path, EXAMPLE);
    let config = load(&path).unwrap();
    assert_eq!(config, parse(EXAMPLE, &path).unwrap());
}

#[test]
fn read_lint_config_reads_the_rc_file_beside_the_toml() {
    let root = tempfile::tempdir().unwrap();
    let root = root.path();
    write(&root.join(FILE_NAME), "");
    write(
        &root.join(".puppet-lint.rc"),
        "--no-140chars-check\n--bogus\n",
    );
    let config = load(&root.join(FILE_NAME)).unwrap();
    let (lint, problems) = config.read_lint_config(None);
    assert!(!lint.is_enabled("140chars"));
    // Only the project's rc file: a machine's /etc/puppet-lint.rc may add more.
    let ours: Vec<_> = problems
        .iter()
        .filter(|(path, _)| *path == root.join(".puppet-lint.rc"))
        .collect();
    assert_eq!(ours.len(), 1);
    assert_eq!(ours[0].1.line, 2);

    write(&root.join(FILE_NAME), "[lint]\nrc = false\n");
    let config = load(&root.join(FILE_NAME)).unwrap();
    let (lint, problems) = config.read_lint_config(None);
    assert!(lint.is_enabled("140chars"), "rc files not read");
    assert!(problems.is_empty());
}

#[test]
fn discovery_without_a_file_finds_none_below_the_start() {
    let root = tempfile::tempdir().unwrap();
    let nested = root.path().join("a/b");
    fs::create_dir_all(&nested).unwrap();
    // Nothing in the temporary tree; a file further up (outside it) may
    // exist on some machine, never one inside.
    if let Some(found) = discover(&nested).unwrap() {
        assert!(!found.path.starts_with(root.path()));
    }
}

#[test]
fn hiera_settings_are_read_relative_to_the_file() {
    let config = parse_at(
        "[hiera]\nnode = \"web01.example.com\"\nfacts = \"facts/web01.yaml\"\nglobal = \"etc/hiera.yaml\"\n",
    )
    .unwrap();
    assert_eq!(config.hiera.node.as_deref(), Some("web01.example.com"));
    assert_eq!(
        config.hiera.facts,
        Some(PathBuf::from("/repo/facts/web01.yaml"))
    );
    assert_eq!(
        config.hiera.global,
        Some(PathBuf::from("/repo/etc/hiera.yaml"))
    );
    let error = parse_at("[hiera]\nglobal = \"etc/global.yml\"\n").unwrap_err();
    assert!(error.to_string().contains("named hiera.yaml"), "{error}");
}
