//! Lint time over the real-world corpus (see docs/benchmarks.md).
//!
//!     cargo bench -p puppet-lint-checks --bench lint
//!
//! The corpus is every `.pp` file under /usr/share/puppet/modules (or
//! `PUPPET_CORPUS=/some/dir`); without it the benchmark says so and does
//! nothing. Trees are parsed before timing for the `lint_tree` rows, as a
//! caller holding the tree (the analysis) would lint.

use criterion::{Criterion, Throughput};
use puppet_lint_checks::{lint_tree, LintConfig, SourceKind};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

const DEFAULT_CORPUS: &str = "/usr/share/puppet/modules";

fn main() {
    let root = std::env::var_os("PUPPET_CORPUS")
        .map_or_else(|| PathBuf::from(DEFAULT_CORPUS), PathBuf::from);
    let paths = puppet_vfs::DiskFs.files_under(&root, &["pp"]);
    let files: Vec<(PathBuf, String)> = paths
        .into_iter()
        .filter_map(|p| {
            let text = String::from_utf8_lossy(&std::fs::read(&p).ok()?).into_owned();
            Some((p, text))
        })
        .collect();
    if files.is_empty() {
        eprintln!(
            "lint bench: no .pp files under {}; skipping",
            root.display()
        );
        return;
    }
    let bytes: u64 = files.iter().map(|(_, t)| t.len() as u64).sum();
    eprintln!(
        "lint bench: {} files, {bytes} bytes from {}",
        files.len(),
        root.display()
    );
    let trees: Vec<_> = files
        .iter()
        .map(|(_, text)| puppet_syntax::parse(text, SourceKind::Manifest).syntax_node())
        .collect();

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5))
        .configure_from_args();
    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::BytesDecimal(bytes));
    for (name, config) in [
        ("default checks", LintConfig::default()),
        ("all checks", LintConfig::all_enabled()),
    ] {
        group.bench_function(format!("lint_tree, {name}"), |b| {
            b.iter(|| {
                for ((path, text), tree) in files.iter().zip(&trees) {
                    black_box(lint_tree(tree, text, Some(path), &config));
                }
            })
        });
    }
    group.bench_function("parse + lint_path, default checks", |b| {
        let config = LintConfig::default();
        b.iter(|| {
            for (path, text) in &files {
                black_box(puppet_lint_checks::lint_path(
                    path,
                    text,
                    SourceKind::Manifest,
                    &config,
                ));
            }
        })
    });
    group.finish();
    c.final_summary();
}
