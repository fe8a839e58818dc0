//! Formatter throughput over the real-world corpus (see docs/benchmarks.md).
//!
//!     cargo bench -p puppet-format --bench format
//!
//! Every `.pp` file under /usr/share/puppet/modules (or `PUPPET_CORPUS`),
//! read into memory before timing. Each pass formats every file, including
//! the check that the result parses into the same program; without the
//! corpus the bench prints a message and does nothing.

use criterion::{Criterion, Throughput};
use puppet_format::{format_document, format_source, FormatOptions};
use puppet_syntax::SourceKind;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

const LARGE_FILE: &str = "oci/manifests/controller.pp";

fn main() {
    let root = PathBuf::from(
        std::env::var("PUPPET_CORPUS").unwrap_or_else(|_| "/usr/share/puppet/modules".into()),
    );
    let paths = puppet_vfs::DiskFs.files_under(&root, &["pp"]);
    if paths.is_empty() {
        println!("corpus not installed at {}: skipped", root.display());
        return;
    }
    let texts: Vec<String> = paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let options = FormatOptions::default();
    let mut criterion = Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .configure_from_args();

    let mut group = criterion.benchmark_group("format");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function(format!("corpus ({} files)", texts.len()), |b| {
        b.iter(|| {
            for text in &texts {
                let _ = black_box(format_source(text, SourceKind::Manifest, &options));
            }
        })
    });
    if let Ok(large) = std::fs::read_to_string(root.join(LARGE_FILE)) {
        group.throughput(Throughput::Bytes(large.len() as u64));
        group.bench_function(LARGE_FILE, |b| {
            b.iter(|| black_box(format_source(&large, SourceKind::Manifest, &options)))
        });
        // What format-on-save does: the text, then line edits, checked.
        group.bench_function(format!("{LARGE_FILE}, editor edits"), |b| {
            b.iter(|| black_box(format_document(&large, SourceKind::Manifest, &options)))
        });
    }
    group.finish();
    criterion.final_summary();
}
