//! Parser throughput over the real-world corpus (see docs/benchmarks.md).
//!
//!     cargo bench -p puppet-syntax --bench parse
//!
//! The corpus is every `.pp` and `.epp` file under /usr/share/puppet/modules
//! (installed by /work/shared/corpus/install-corpus.sh, or set
//! `PUPPET_CORPUS=/some/dir`); without it the benchmark prints a message and
//! does nothing.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use puppet_syntax::SourceKind;

const DEFAULT_CORPUS: &str = "/usr/share/puppet/modules";
const LARGE_FILE: &str = "oci/manifests/controller.pp";

struct Source {
    text: String,
    kind: SourceKind,
}

fn load(paths: &[PathBuf]) -> Vec<Source> {
    paths
        .iter()
        .filter_map(|path| {
            let bytes = std::fs::read(path).ok()?;
            Some(Source {
                text: String::from_utf8_lossy(&bytes).into_owned(),
                kind: SourceKind::from_path(path),
            })
        })
        .collect()
}

fn total_bytes(sources: &[Source]) -> u64 {
    sources.iter().map(|s| s.text.len() as u64).sum()
}

fn main() {
    let root = std::env::var_os("PUPPET_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_CORPUS));
    let paths = puppet_vfs::DiskFs.files_under(&root, &["pp", "epp"]);
    let corpus = load(&paths);
    if corpus.is_empty() {
        eprintln!(
            "parse bench: no .pp/.epp files under {} (install the corpus with \
             /work/shared/corpus/install-corpus.sh or set PUPPET_CORPUS); skipping",
            root.display()
        );
        return;
    }
    let bytes = total_bytes(&corpus);
    eprintln!(
        "parse bench: {} files, {} bytes from {}",
        corpus.len(),
        bytes,
        root.display()
    );

    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(10))
        .configure_from_args();

    {
        let mut group = c.benchmark_group("corpus");
        group.throughput(Throughput::BytesDecimal(bytes));
        group.bench_function("lex", |b| {
            b.iter(|| {
                for s in &corpus {
                    black_box(puppet_syntax::lex(black_box(&s.text), s.kind));
                }
            })
        });
        group.bench_function("parse", |b| {
            b.iter(|| {
                for s in &corpus {
                    black_box(puppet_syntax::parse(black_box(&s.text), s.kind));
                }
            })
        });
        group.bench_function("parse+validate", |b| {
            b.iter(|| {
                for s in &corpus {
                    black_box(puppet_syntax::parse_and_validate(
                        black_box(&s.text),
                        s.kind,
                    ));
                }
            })
        });
        group.finish();
    }

    let large = root.join(LARGE_FILE);
    match std::fs::read_to_string(&large) {
        Ok(text) => {
            let mut group = c.benchmark_group("controller.pp");
            group.throughput(Throughput::BytesDecimal(text.len() as u64));
            group.bench_function("parse", |b| {
                b.iter(|| black_box(puppet_syntax::parse(black_box(&text), SourceKind::Manifest)))
            });
            group.bench_function("parse+validate", |b| {
                b.iter(|| {
                    black_box(puppet_syntax::parse_and_validate(
                        black_box(&text),
                        SourceKind::Manifest,
                    ))
                })
            });
            group.finish();
        }
        Err(e) => eprintln!("parse bench: {}: {e}; skipping", large.display()),
    }

    c.final_summary();
}
