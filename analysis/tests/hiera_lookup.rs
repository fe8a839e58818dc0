//! Hiera lookups checked against Puppet 7.23: `test_data/hiera_lookup/`
//! holds a control repository (environment and module layers, node, OS,
//! glob, mapped-paths and JSON levels, `lookup_options`, every kind of
//! interpolation) and `cases.json` the answers `puppet lookup` gave for
//! each key, node and merge (see `regenerate.sh` there). Every case must
//! give the same value, hash order included, or fail where Puppet failed.

use puppet_analysis::hiera::lookup::{
    explain, facts_from_text, lookup, DeepOptions, LookupError, Node, Strategy,
};
use puppet_analysis::hiera::value::to_json;
use puppet_analysis::host::AnalysisHost;
use puppet_analysis::target::{PuppetVersion, Target};
use puppet_syntax::Severity;
use std::path::{Path, PathBuf};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/hiera_lookup")
}

/// The merge a case asks for, with its command-line deep options.
fn strategy(case: &serde_json::Value) -> Option<Strategy> {
    let name = case["merge"].as_str()?;
    let strategy = Strategy::from_name(name).expect("a known strategy");
    let options = case["options"].as_str().unwrap_or("");
    match strategy {
        Strategy::Deep(_) => Some(Strategy::Deep(DeepOptions {
            knockout_prefix: options
                .strip_prefix("--knock-out-prefix ")
                .map(|p| p.trim().to_string()),
            sort_merged_arrays: options.contains("--sort-merged-arrays"),
            merge_hash_arrays: options.contains("--merge-hash-arrays"),
        })),
        other => Some(other),
    }
}

#[test]
fn lookups_give_what_puppet_lookup_gave() {
    let env = data_dir().join("env");
    let host = AnalysisHost::from_paths(&puppet_vfs::DiskFs, std::slice::from_ref(&env));
    let text = std::fs::read_to_string(data_dir().join("cases.json")).expect("cases.json");
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).expect("valid JSON");
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let key = case["key"].as_str().expect("a key");
        let facts_path = env.join(case["facts"].as_str().expect("a facts file"));
        let facts = facts_from_text(&std::fs::read_to_string(&facts_path).expect("facts"))
            .expect("facts parse");
        let node = Node {
            name: case["node"].as_str().expect("a node").to_string(),
            facts,
            environment: "production".to_string(),
        };
        let result = lookup(host.db(), host.workspace(), &node, key, strategy(case));
        // Compared as texts (serde_json keeps the order of hash keys), so
        // the merge order must be Puppet's too.
        let expected = case["found"]
            .as_bool()
            .expect("found")
            .then(|| case["value"].to_string());
        let actual = result.as_ref().ok().map(|found| to_json(&found.value));
        if expected != actual {
            failures.push(format!(
                "{key} for {} (merge {:?}): Puppet {expected:?}, puppet-ls {:?}",
                node.name,
                case["merge"],
                result.map(|f| to_json(&f.value))
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether Puppet's failure is one a reader of the text alone can see (an
/// unknown method, `alias` inside text, a malformed interpolation, a
/// method in a hierarchy path), rather than one of the data (recursion,
/// digging into a string).
fn is_syntactic(error: &str) -> bool {
    [
        "Unknown interpolation method",
        "'alias' interpolation is only permitted",
        "Syntax error in string",
        "method syntax is not allowed",
    ]
    .iter()
    .any(|m| error.contains(m))
}

#[test]
fn interpolation_errors_are_reported_where_puppet_fails_on_the_text() {
    let text = std::fs::read_to_string(data_dir().join("interpolation.json")).expect("file");
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).expect("valid JSON");
    assert!(cases.len() >= 40, "{} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let value = case["value"].as_str().expect("a value");
        let in_path = case["where"].as_str() == Some("hierarchy path");
        // A JSON string is a YAML double-quoted scalar.
        let quoted = serde_json::Value::String(value.to_string()).to_string();
        let (hiera, data) = if in_path {
            (
                format!("version: 5\nhierarchy:\n  - name: Case\n    path: {quoted}\n"),
                "k: 1\n".to_string(),
            )
        } else {
            (
                "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n".to_string(),
                format!("k: {quoted}\n"),
            )
        };
        let host = AnalysisHost::discover_files(
            "/env",
            vec![
                (
                    PathBuf::from("/env/manifests/site.pp"),
                    "notice(1)\n".into(),
                ),
                (
                    PathBuf::from("/env/modules/m/manifests/init.pp"),
                    "class m {}\n".into(),
                ),
                (PathBuf::from("/env/hiera.yaml"), hiera),
                (PathBuf::from("/env/data/common.yaml"), data),
            ],
        );
        let file = if in_path {
            "/env/hiera.yaml"
        } else {
            "/env/data/common.yaml"
        };
        let reported = host
            .diagnostics(Path::new(file))
            .iter()
            .any(|d| d.code.as_str() == "hiera-interpolation" && d.severity == Severity::Error);
        let error = case["error"].as_str().unwrap_or_default();
        let puppet_fails = case["outcome"] == "error" && is_syntactic(error);
        let puppet_accepts = case["outcome"] != "error";
        if (puppet_fails && !reported) || (puppet_accepts && reported) {
            failures.push(format!(
                "{value:?} ({}): Puppet {}, puppet-ls {}",
                if in_path { "path" } else { "data" },
                if puppet_accepts { "accepts" } else { error },
                if reported {
                    "reports an error"
                } else {
                    "reports none"
                }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The JSON of a key's value for the node `n1.example.com`, which has no
/// facts.
fn value_for_n1(
    host: &AnalysisHost,
    key: &str,
    merge: Option<Strategy>,
) -> Result<String, LookupError> {
    let node = Node {
        name: "n1.example.com".into(),
        facts: Default::default(),
        environment: "production".into(),
    };
    lookup(host.db(), host.workspace(), &node, key, merge).map(|f| to_json(&f.value))
}

/// The global layer (Puppet's `hiera_config`) comes before the
/// environment's. Puppet 7.23's answers, from
/// `puppet lookup --hiera_config /g/hiera.yaml --environmentpath ENVS
/// --environment production --node n1.example.com --facts F [--merge
/// unique] KEY`: `k::a` "global", `k::b` "environment", `k::list` with
/// unique ["g","e"].
#[test]
fn the_global_layer_comes_before_the_environment() {
    let fs: puppet_vfs::MemoryFs = [
        (
            "/g/hiera.yaml",
            "version: 5\nhierarchy:\n  - name: Global\n    path: common.yaml\n",
        ),
        ("/g/data/common.yaml", "k::a: global\nk::list: [g]\n"),
        ("/env/manifests/site.pp", "notice(1)\n"),
        (
            "/env/hiera.yaml",
            "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n",
        ),
        (
            "/env/data/common.yaml",
            "k::a: environment\nk::b: environment\nk::list: [e]\n",
        ),
    ]
    .into_iter()
    .collect();
    let mut discovered = puppet_analysis::workspace::discover(&fs, &[PathBuf::from("/env")]);
    puppet_analysis::workspace::add_global_hiera(&fs, &mut discovered, Path::new("/g/hiera.yaml"));
    let host = AnalysisHost::from_discovered(&fs, discovered);
    let value = |key: &str, merge: Option<Strategy>| value_for_n1(&host, key, merge);
    assert_eq!(value("k::a", None), Ok("\"global\"".to_string()));
    assert_eq!(value("k::b", None), Ok("\"environment\"".to_string()));
    assert_eq!(
        value("k::list", Some(Strategy::Unique)),
        Ok("[\"g\",\"e\"]".to_string())
    );
}

/// The files `puppet lookup --explain` says it read for the key (not for
/// `lookup_options`), in order, each with whether it had the key: the
/// `Path "..."` lines of the key's search whose file exists.
fn puppet_explained_reads(text: &str, key: &str) -> Vec<(String, bool)> {
    let header = format!("Searching for \"{key}\"");
    let Some(start) = text.find(&header) else {
        return Vec::new();
    };
    let lines: Vec<&str> = text[start..].lines().collect();
    let mut reads = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(path) = line.trim().strip_prefix("Path \"") else {
            continue;
        };
        let path = path.trim_end_matches('"');
        let path = path
            .strip_prefix("$ENVPATH/production/")
            .unwrap_or(path)
            .to_string();
        // The verdict follows, after an "Original path" line.
        let verdict = lines[i + 1..]
            .iter()
            .map(|l| l.trim())
            .find(|l| !l.starts_with("Original path"))
            .unwrap_or_default();
        if verdict.starts_with(&format!("Found key: \"{key}\"")) {
            reads.push((path, true));
        } else if verdict.starts_with(&format!("No such key: \"{key}\"")) {
            reads.push((path, false));
        }
    }
    reads
}

/// `--explain`: the files a lookup reads, and which had the key, are the
/// ones Puppet 7.23 listed (`test_data/hiera_lookup/explain/`, with the
/// command on each file's first line), a first-found lookup stopping at
/// its answer, a merge reading every level, the module layer last.
#[test]
fn explain_reads_the_files_puppet_reads() {
    let env = data_dir().join("env");
    let host = AnalysisHost::from_paths(&puppet_vfs::DiskFs, std::slice::from_ref(&env));
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir().join("explain"))
        .expect("explain/")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut compared = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).expect("explain text");
        let command: Vec<&str> = text.lines().next().unwrap_or_default().split(' ').collect();
        let argument = |flag: &str| {
            let at = command.iter().position(|w| *w == flag)?;
            command.get(at + 1).copied()
        };
        let key = command.last().copied().expect("a key");
        let facts_path = data_dir().join(argument("--facts").expect("--facts"));
        let facts = facts_from_text(&std::fs::read_to_string(&facts_path).expect("facts"))
            .expect("facts parse");
        let node = Node {
            name: argument("--node").expect("--node").to_string(),
            facts,
            environment: "production".to_string(),
        };
        let merge = argument("--merge").map(|m| Strategy::from_name(m).expect("strategy"));
        let explained = explain(host.db(), host.workspace(), &node, key, merge);
        let ours: Vec<(String, bool)> = explained
            .steps
            .iter()
            .filter(|step| step.key == key)
            .map(|step| {
                let path = step.path.strip_prefix(&env).unwrap_or(&step.path);
                (path.to_string_lossy().into_owned(), step.found)
            })
            .collect();
        let puppets = puppet_explained_reads(&text, key);
        assert_eq!(ours, puppets, "{}", file.display());
        compared += ours.len();
    }
    assert!(compared >= 30, "{compared} reads compared");
}

/// A first-found lookup reads no file after its answer, so what a later
/// file holds cannot fail it; a merge reads them all. Puppet 7.23's
/// answers (`puppet lookup --environmentpath ENVS --environment production
/// --node n1.example.com --facts F --render-as json [--merge unique] KEY`,
/// with the two files below): `k::a` "first", `k::list` ["n"], and with
/// `--merge unique` `k::list` fails.
#[test]
fn a_first_found_lookup_reads_no_file_after_its_answer() {
    let fs: puppet_vfs::MemoryFs = [
        ("/env/manifests/site.pp", "notice(1)\n"),
        (
            "/env/hiera.yaml",
            "version: 5\nhierarchy:\n  - name: Node\n    path: node.yaml\n  - name: Common\n    path: common.yaml\n",
        ),
        ("/env/data/node.yaml", "k::a: first\nk::list: [n]\n"),
        (
            "/env/data/common.yaml",
            "k::a: \"%{nope('x')}\"\nk::list: [\"%{nope('x')}\"]\n",
        ),
    ]
    .into_iter()
    .collect();
    let discovered = puppet_analysis::workspace::discover(&fs, &[PathBuf::from("/env")]);
    let host = AnalysisHost::from_discovered(&fs, discovered);
    let value = |key: &str, merge: Option<Strategy>| value_for_n1(&host, key, merge);
    assert_eq!(value("k::a", None), Ok("\"first\"".to_string()));
    assert_eq!(value("k::list", None), Ok("[\"n\"]".to_string()));
    assert!(value("k::list", Some(Strategy::Unique)).is_err());
}

/// Failures that depend on the machine or on values rendered at run time,
/// not on the text: a missing gem, a function the environment may
/// provide, JSON rendering of `.inf`, a merge strategy in data.
fn depends_on_the_run(error: &str) -> bool {
    [
        "hiera-eyaml",
        "eyaml_lookup_key",
        "Unable to find 'data_hash' function",
        "Infinity not allowed",
        "Unknown merge strategy",
    ]
    .iter()
    .any(|m| error.contains(m))
}

#[test]
fn configuration_and_data_errors_are_reported_where_puppet_fails() {
    let text = std::fs::read_to_string(data_dir().join("config_cases.json")).expect("file");
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).expect("valid JSON");
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let mut files = vec![
            (
                PathBuf::from("/env/manifests/site.pp"),
                "notice(1)\n".to_string(),
            ),
            (
                PathBuf::from("/env/modules/m/manifests/init.pp"),
                "class m {}\n".to_string(),
            ),
            (
                PathBuf::from("/env/hiera.yaml"),
                case["hiera_yaml"].as_str().unwrap_or_default().to_string(),
            ),
        ];
        for (path, text) in case["files"].as_object().into_iter().flatten() {
            files.push((
                PathBuf::from("/env").join(path),
                text.as_str().unwrap_or_default().into(),
            ));
        }
        let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
        // `puppet lookup` 7.23's verdicts: checked for Puppet 7.
        let mut host = AnalysisHost::discover_files("/env", files);
        host.set_target(Target::of(PuppetVersion::V7), "test");
        let errors: Vec<String> = paths
            .iter()
            .flat_map(|p| host.diagnostics(p))
            .filter(|d| d.severity == Severity::Error)
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        let error = case["error"].as_str().unwrap_or_default();
        if depends_on_the_run(error) {
            continue;
        }
        let puppet_fails = case["outcome"] == "error";
        let reported = !errors.is_empty();
        if puppet_fails != reported {
            failures.push(format!(
                "{name}: Puppet {}, puppet-ls {errors:?}",
                if puppet_fails { error } else { "accepts" }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
