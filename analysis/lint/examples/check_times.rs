//! Time of each check alone over a corpus of `.pp` files, to find slow
//! checks: `cargo run --release -p puppet-lint-checks --example check_times [DIR]`.
//!
//! With a second argument (a check's name, `none`, `default` or `all`) it
//! lints with that configuration only, for `perf stat` (instruction counts
//! do not depend on the machine's load).

#[path = "../tests/corpus/mod.rs"]
mod corpus;

use puppet_lint_checks::{lint_tree, LintConfig, SourceKind, CHECKS};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() {
    let root = std::env::args()
        .nth(1)
        .unwrap_or_else(|| corpus::ROOT.to_string());
    let files: Vec<(PathBuf, String)> = corpus::manifests(Path::new(&root))
        .into_iter()
        .filter_map(|p| {
            Some((
                p.clone(),
                String::from_utf8_lossy(&std::fs::read(&p).ok()?).into_owned(),
            ))
        })
        .collect();
    let trees: Vec<_> = files
        .iter()
        .map(|(_, t)| puppet_syntax::parse(t, SourceKind::Manifest).syntax_node())
        .collect();
    // The best of three runs: the machine is shared.
    let time = |config: &LintConfig| {
        (0..3)
            .map(|_| {
                let start = Instant::now();
                for ((path, text), tree) in files.iter().zip(&trees) {
                    std::hint::black_box(lint_tree(tree, text, Some(path), config));
                }
                start.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let start = Instant::now();
    let mut count = 0usize;
    for tree in &trees {
        count += tree
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .count();
    }
    println!(
        "{:>8.1} ms  (walking {count} tokens)",
        start.elapsed().as_secs_f64() * 1e3
    );
    let start = Instant::now();
    let mut count = 0usize;
    for tree in &trees {
        count += tree.descendants().count();
    }
    println!(
        "{:>8.1} ms  (walking {count} nodes)",
        start.elapsed().as_secs_f64() * 1e3
    );
    let mut none = LintConfig::default();
    none.only([]);
    if let Some(which) = std::env::args().nth(2) {
        let config = match which.as_str() {
            "none" => none,
            "default" => LintConfig::default(),
            "all" => LintConfig::all_enabled(),
            check => {
                let mut config = LintConfig::default();
                config.only([check]);
                config
            }
        };
        println!("{:>8.1} ms  {which}", time(&config).as_secs_f64() * 1e3);
        return;
    }
    println!(
        "{:>8.1} ms  (no check: tokens and control comments)",
        time(&none).as_secs_f64() * 1e3
    );
    println!(
        "{:>8.1} ms  (default checks)",
        time(&LintConfig::default()).as_secs_f64() * 1e3
    );
    println!(
        "{:>8.1} ms  (all checks)",
        time(&LintConfig::all_enabled()).as_secs_f64() * 1e3
    );
    for info in CHECKS {
        let mut config = LintConfig::default();
        config.only([info.name]);
        println!(
            "{:>8.1} ms  {}",
            time(&config).as_secs_f64() * 1e3,
            info.name
        );
    }
}
