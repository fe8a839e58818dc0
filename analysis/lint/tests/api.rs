//! The public API around the checks: the table of checks and its defaults,
//! `.puppet-lint.rc` parsing, control comments, and robustness on any
//! input.

use expect_test::expect;
use puppet_lint_checks::{
    check_info, line_column, lint, parse_rc, rc_file_locations, ErrorLevel, LintConfig, SourceKind,
    CHECKS,
};
use std::path::Path;

fn enabled(config: &LintConfig) -> String {
    config.enabled_checks().collect::<Vec<_>>().join(" ")
}

/// `CHECK LINE` of each diagnostic.
fn lines(text: &str, config: &LintConfig) -> String {
    lint(text, SourceKind::Manifest, config)
        .iter()
        .map(|d| format!("{} {}", d.check, line_column(text, d.range.start()).0))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_table_has_puppet_lints_checks_and_defaults() {
    let names: Vec<&str> = CHECKS.iter().map(|c| c.name).collect();
    let unique: std::collections::BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(unique.len(), names.len(), "a check is listed twice");
    // `puppet-lint --list-checks` (3.0.1) and puppet-lint 4's additions.
    expect![[r#"
        arrow_on_right_operand_line autoloader_layout class_inherits_from_params_class code_on_top_scope inherits_across_namespaces names_containing_dash names_containing_uppercase nested_classes_or_defines parameter_order right_to_left_relationship variable_scope slash_comments star_comments case_without_default selector_inside_resource documentation unquoted_node_name duplicate_params ensure_first_param ensure_not_symlink_target file_mode unquoted_file_mode unquoted_resource_title double_quoted_strings only_variable_string puppet_url_without_modules quoted_booleans single_quote_string_with_variables variables_not_enclosed variable_contains_dash variable_is_lowercase 140chars 2sp_soft_tabs 80chars arrow_alignment hard_tabs trailing_whitespace space_before_arrow legacy_facts top_scope_facts"#]]
    .assert_eq(&names.join(" "));
    let off: Vec<&str> = CHECKS
        .iter()
        .filter(|c| !c.default_enabled)
        .map(|c| c.name)
        .collect();
    expect!["class_inherits_from_params_class code_on_top_scope quoted_booleans 80chars"]
        .assert_eq(&off.join(" "));
    let fixable: Vec<&str> = CHECKS
        .iter()
        .filter(|c| c.fixable)
        .map(|c| c.name)
        .collect();
    expect!["arrow_on_right_operand_line slash_comments star_comments unquoted_node_name ensure_first_param ensure_not_symlink_target file_mode unquoted_file_mode unquoted_resource_title double_quoted_strings variables_not_enclosed arrow_alignment hard_tabs trailing_whitespace space_before_arrow"]
        .assert_eq(&fixable.join(" "));
    assert!(check_info("140chars").is_some_and(|c| c.default_enabled));
    assert!(check_info("80chars").is_some_and(|c| !c.default_enabled));
    assert!(check_info("no_such_check").is_none());
}

#[test]
fn only_fixable_checks_give_fixes() {
    let text = "class a { $x = \"b\"\n\tfile { x: mode => 644, ensure => '/t' }  \n}\n";
    for diagnostic in lint(text, SourceKind::Manifest, &LintConfig::all_enabled()) {
        let info = check_info(diagnostic.check).expect("a known check");
        assert!(
            diagnostic.fix.is_none() || info.fixable,
            "{} gave a fix",
            diagnostic.check
        );
        assert_eq!(diagnostic.severity, info.severity);
    }
}

#[test]
fn rc_files_switch_checks_as_puppet_lint_reads_them() {
    let (config, problems) = parse_rc(
        "--no-140chars-check\n--80chars-check\n# a comment\n  --no-documentation-check\n--relative\n--no-double-quoted-strings\n",
    );
    assert!(problems.is_empty(), "{problems:?}");
    assert!(!config.is_enabled("140chars"));
    assert!(config.is_enabled("80chars"));
    // Indented lines are not options for puppet-lint.
    assert!(config.is_enabled("documentation"));
    // `_` and `-` are the same, and a unique prefix is enough.
    assert!(!config.is_enabled("double_quoted_strings"));
    assert!(config.relative);

    let (config, problems) =
        parse_rc("--only-checks=documentation,trailing_whitespace,some_plugin\n");
    assert!(problems.is_empty());
    expect!["documentation trailing_whitespace"].assert_eq(&enabled(&config));

    // An option's argument may be on the next line (one argument per line).
    let (config, _) = parse_rc("--only-checks\nhard_tabs\n--top-scope-variables=role,site\n--error-level=error\n--fail-on-warnings\n");
    expect!["hard_tabs"].assert_eq(&enabled(&config));
    assert_eq!(config.top_scope_variables, vec!["role", "site"]);
    assert_eq!(config.error_level, ErrorLevel::Error);
    assert!(config.fail_on_warnings);

    // Later options win, as with several rc files read in order.
    let mut config = LintConfig::default();
    config.apply_rc("--no-hard_tabs-check\n");
    config.apply_rc("--only-checks=hard_tabs\n");
    expect!["hard_tabs"].assert_eq(&enabled(&config));
}

#[test]
fn rc_problems_are_reported_and_the_rest_is_read() {
    let (config, problems) = parse_rc(
        "--no-foo-check\n--documentation-check\n--no-documentation-check # why\n--error-level=loud\n--no\n--no-hard_tabs-check\n-c other.rc\n",
    );
    let problems: Vec<String> = problems
        .iter()
        .map(|p| format!("{}: {}", p.line, p.message))
        .collect();
    expect![[r#"
        1: invalid option: --no-foo-check
        2: invalid option: --documentation-check
        3: invalid option: --no-documentation-check # why
        4: invalid argument: --error-level loud
        5: ambiguous option: --no
        7: --config  other.rc: other rc files are not read from an rc file"#]]
    .assert_eq(&problems.join("\n"));
    assert!(!config.is_enabled("hard_tabs"));
    assert!(config.is_enabled("documentation"));
}

#[test]
fn rc_files_are_found_where_puppet_lint_looks() {
    let locations = rc_file_locations(Some(Path::new("/home/me")), Path::new("/repo"));
    let locations: Vec<String> = locations.iter().map(|p| p.display().to_string()).collect();
    expect!["/etc/puppet-lint.rc /home/me/.puppet-lint.rc /repo/.puppet-lint.rc"]
        .assert_eq(&locations.join(" "));
}

#[test]
fn control_comments_silence_blocks_lines_and_several_checks() {
    let config = LintConfig::all_enabled();
    let text = r#"# lint:ignore:double_quoted_strings
$a = "block from the first line"
# lint:endignore
$b = "reported"
$c = "same line" # lint:ignore:double_quoted_strings
$d = "two" # lint:ignore:quoted_booleans lint:ignore:double_quoted_strings reason words
  # lint:ignore:unknown_plugin_check lint:ignore:variable_is_lowercase
  $E = "only the known name matters"
  # lint:endignore
/* lint:ignore:double_quoted_strings */
$f = "a block comment opens a block too"
/* lint:endignore */
$g = "after" # lint:endignore without a block
$h = "unclosed block follows"
# lint:ignore:double_quoted_strings
$i = "never closed: not silenced"
"#;
    let only = |check: &str| {
        let mut config = config.clone();
        config.only([check]);
        lines(text, &config)
    };
    expect![[r#"
        double_quoted_strings 4
        double_quoted_strings 8
        double_quoted_strings 13
        double_quoted_strings 14
        double_quoted_strings 16"#]]
    .assert_eq(&only("double_quoted_strings"));
    expect![""].assert_eq(&only("variable_is_lowercase"));
}

#[test]
fn templates_are_not_linted() {
    assert!(lint(
        "<% $x = \"a\" %>\t \n",
        SourceKind::Template,
        &LintConfig::all_enabled()
    )
    .is_empty());
}

#[test]
fn any_input_is_linted_without_panicking() {
    let config = LintConfig::all_enabled();
    let deep =
        |open: &str, close: &str| format!("$x = {}1{}", open.repeat(5000), close.repeat(5000));
    let inputs = [
        String::new(),
        "\u{0}\u{ffff}\r\r\n\t \u{a0}$".to_string(),
        deep("[", "]"),
        deep("{a => ", "}"),
        deep("(", ")"),
        "class a { file { x: ensure =>".to_string(),
        "\"${".repeat(2000),
        "/* unterminated".to_string(),
        "node www.".to_string(),
        "@(END)\n  text\n".to_string(),
        "case $x { 'a': {".to_string(),
        "file { '/x': mode => }".to_string(),
        "$x = \"$".to_string(),
        "class { 'a': } -> \n".to_string(),
        "define a::b-c($x = , $) {".to_string(),
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut random = Vec::new();
    let alphabet: Vec<char> = "{}[]()$\"'=>,:;|#/*\\\n\t -~<@ABCxyz019.?"
        .chars()
        .collect();
    for _ in 0..300 {
        let text: String = (0..200)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                alphabet[(seed % alphabet.len() as u64) as usize]
            })
            .collect();
        random.push(text);
    }
    for text in inputs.iter().chain(&random) {
        let path = Path::new("/modules/a/manifests/init.pp");
        for diagnostic in puppet_lint_checks::lint_path(path, text, SourceKind::Manifest, &config) {
            assert!(usize::from(diagnostic.range.end()) <= text.len());
            for edit in diagnostic.fix.iter().flat_map(|f| &f.edits) {
                assert!(text.is_char_boundary(edit.delete.start().into()));
                assert!(text.is_char_boundary(edit.delete.end().into()));
            }
        }
    }
}

#[test]
fn deep_access_chains_and_selectors_do_not_overflow() {
    let config = LintConfig::all_enabled();
    let chain = format!(
        "file {{ '/x': mode => $x{} ? {{ default => 1 }} }}\n",
        "[1]".repeat(20_000)
    );
    let nested = format!(
        "$y = {}1{}\n",
        "$x ? { default => ".repeat(3_000),
        " }".repeat(3_000)
    );
    for text in [chain, nested] {
        lint(&text, SourceKind::Manifest, &config);
    }
}
