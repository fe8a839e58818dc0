//! The IDE features follow the one rule for stdlib's functions
//! (`puppet_analysis::stdlib`): the workspace's stdlib sources when it has
//! them, else the bundled table of the target's version. Fixtures: the
//! analysis crate's abridged stdlib copies (`test_data/stdlib/`).

mod common;

use common::{fixture, Fixture};
use puppet_analysis::target::{PuppetVersion, Target};
use puppet_ide::modifiers;

const STDLIB9: &str = include_str!("../../test_data/stdlib/stdlib9.fixture");

/// A module `stdlib` without Ruby sources: the bundled table stands for it.
const BUNDLED: &str = "#- /ws/modules/stdlib/manifests/init.pp\nclass stdlib {}\n";

fn at(stdlib: &str, manifest: &str, version: PuppetVersion) -> Fixture {
    let mut f = fixture(&format!(
        "{stdlib}#- /ws/modules/app/manifests/init.pp\n{manifest}"
    ));
    f.host.set_target(Target::of(version), "the test");
    f
}

fn labels(f: &Fixture) -> Vec<String> {
    puppet_ide::snapshot(&f.host)
        .completions(&f.position)
        .unwrap()
        .into_iter()
        .map(|i| i.label)
        .collect()
}

fn hover(f: &Fixture) -> String {
    puppet_ide::snapshot(&f.host)
        .hover(&f.position)
        .unwrap()
        .map(|h| h.markdown)
        .unwrap_or_default()
}

#[test]
fn completion_offers_the_functions_that_exist() {
    let has = |labels: &[String], name: &str| labels.iter().any(|l| l == name);
    // stdlib 9's sources, even under Puppet 7 (whose table is 8.5's).
    let sources = labels(&at(STDLIB9, "$x = $0\n", PuppetVersion::V7));
    assert!(has(&sources, "pick") && has(&sources, "stdlib::to_json"));
    assert!(!has(&sources, "has_key") && !has(&sources, "is_string"));
    // No sources: the table of the target's version.
    let seven = labels(&at(BUNDLED, "$x = $0\n", PuppetVersion::V7));
    assert!(has(&seven, "has_key") && !has(&seven, "stdlib::to_json"));
    let eight = labels(&at(BUNDLED, "$x = $0\n", PuppetVersion::V8));
    assert!(!has(&eight, "has_key") && has(&eight, "stdlib::to_json"));
}

#[test]
fn hover_shows_the_table_only_for_a_function_that_exists() {
    let call = "class app { notice(has_k$0ey({}, 'k')) }\n";
    let bundled = hover(&at(BUNDLED, call, PuppetVersion::V7));
    assert!(
        bundled.contains("Function of puppetlabs-stdlib."),
        "{bundled}"
    );
    let sources = hover(&at(STDLIB9, call, PuppetVersion::V7));
    assert!(!sources.contains("puppetlabs-stdlib"), "{sources}");
    // A Ruby function that deprecates itself says so.
    let legacy = hover(&at(
        STDLIB9,
        "class app { validate_le$0gacy(String, 'validate_string', 'x') }\n",
        PuppetVersion::V8,
    ));
    assert!(
        legacy.contains(
            "Deprecated: This method is deprecated, please use Puppet data types to validate parameters"
        ),
        "{legacy}"
    );
}

#[test]
fn signature_help_uses_the_table_only_when_it_stands_for_stdlib() {
    let call = "class app { notice(has_key($0)) }\n";
    let help = |f: &Fixture| {
        puppet_ide::snapshot(&f.host)
            .signature_help(&f.position)
            .unwrap()
    };
    assert!(help(&at(BUNDLED, call, PuppetVersion::V7)).is_some());
    assert!(help(&at(STDLIB9, call, PuppetVersion::V7)).is_none());
}

#[test]
fn semantic_tokens_mark_stdlib_and_deprecated_functions() {
    let f = at(
        STDLIB9,
        "class app { notice(pick(1), has_key({}, 'k'), to_json([1])) }\n$0",
        PuppetVersion::V8,
    );
    let path = std::path::Path::new("/ws/modules/app/manifests/init.pp");
    let text = &f.texts[path];
    let tokens = puppet_ide::snapshot(&f.host)
        .semantic_tokens(path, None)
        .unwrap();
    let modifiers_of = |name: &str| {
        tokens
            .iter()
            .find(|t| &text[t.range] == name)
            .map(|t| t.modifiers)
            .unwrap()
    };
    assert_eq!(modifiers_of("notice"), modifiers::DEFAULT_LIBRARY);
    assert_eq!(modifiers_of("pick"), modifiers::DEFAULT_LIBRARY);
    assert_eq!(modifiers_of("has_key"), 0);
    assert_eq!(
        modifiers_of("to_json"),
        modifiers::DEFAULT_LIBRARY | modifiers::DEPRECATED
    );
}
