//! Hiera lookups checked against Puppet 7.23: `test_data/hiera_lookup/`
//! holds a control repository (environment and module layers, node, OS,
//! glob, mapped-paths and JSON levels, `lookup_options`, every kind of
//! interpolation) and `cases.json` the answers `puppet lookup` gave for
//! each key, node and merge (see `regenerate.sh` there). Every case must
//! give the same value, hash order included, or fail where Puppet failed.

use puppet_analysis::hiera::lookup::{facts_from_text, lookup, DeepOptions, Node, Strategy};
use puppet_analysis::hiera::value::to_json;
use puppet_analysis::host::AnalysisHost;
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
