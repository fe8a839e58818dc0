//! One keystroke in a big manifest, through the database: the edit is
//! applied incrementally, then the file's full diagnostics are computed,
//! as the language server does after each keystroke. The manifest is made
//! the way `../shared/lsp/keystroke_bench.py` makes it (corpus manifests
//! with a class, sorted, concatenated up to N lines), at 10,000 and 50,000
//! lines, so that how the cost grows with the file is visible: both type
//! into the same class, so the difference is what the rest of the file
//! costs.
//!
//! Run: `cargo bench -p puppet-analysis --bench keystroke`

mod common;

use common::percentile;
use puppet_analysis::host::AnalysisHost;
use puppet_syntax::{TextEdit, TextRange, TextSize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Corpus manifests holding a class, in path order, up to `lines` lines.
fn big_manifest(root: &Path, lines: usize) -> String {
    let files: Vec<PathBuf> = puppet_vfs::DiskFs
        .files_under(root, &["pp"])
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("/manifests/"))
        .collect();
    let mut out = String::new();
    let mut count = 0;
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if !text.contains("class ") || text.contains("<<") {
            continue;
        }
        let n = text.matches('\n').count() + 1;
        if !out.is_empty() && count + n > lines {
            break;
        }
        out.push_str(&text);
        if !text.ends_with('\n') {
            out.push('\n');
        }
        count += n;
    }
    out
}

fn main() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let keys: usize = std::env::var("KEYS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(200);
    // `LINES=50000` measures one size only (for profiling).
    let sizes: Vec<usize> = match std::env::var("LINES").ok().and_then(|l| l.parse().ok()) {
        Some(lines) => vec![lines],
        None => vec![10_000, 50_000],
    };
    // The 10,000-line manifest is the start of the 50,000-line one: both
    // edit the same class (near the middle of the first 10,000 lines), so
    // that the difference between sizes is the cost of the rest of the file.
    let anchor = big_manifest(&root, 10_000).len() / 2;
    for lines in sizes {
        let text = big_manifest(&root, lines);
        // A workspace on disk with the manifest as its `site.pp`, discovered
        // as the language server discovers the benchmark's workspace.
        let workspace = std::env::temp_dir().join(format!("puppet-ls-keystroke-{lines}"));
        let path = workspace.join("manifests").join("site.pp");
        std::fs::create_dir_all(workspace.join("manifests")).expect("temporary workspace");
        std::fs::write(&path, &text).expect("temporary manifest");
        let mut host =
            AnalysisHost::from_paths(&puppet_vfs::DiskFs, std::slice::from_ref(&workspace));
        let start = Instant::now();
        let first = host.diagnostics(&path).len();
        let cold = start.elapsed();
        // Type into a quoted string, as the script does.
        let middle = anchor.min(text.len() / 2);
        let quote = text[middle..]
            .match_indices('\'')
            .map(|(i, _)| middle + i)
            .find(|&q| !matches!(text.as_bytes().get(q + 1), Some(b'\'' | b'\n') | None))
            .unwrap_or(middle);
        let mut times = Vec::with_capacity(keys);
        for i in 0..keys {
            let at = TextSize::from((quote + 1 + i) as u32);
            let edit = TextEdit::replace(TextRange::empty(at), "x");
            let start = Instant::now();
            host.edit_file(&path, &[edit]);
            // As the language server asks: the first 500, copied.
            let n = host
                .analysis()
                .diagnostics_where(&path, |_| true, 500)
                .map_or(0, |d| d.len());
            times.push(start.elapsed());
            assert!(n > 0 || first == 0);
        }
        std::fs::remove_dir_all(&workspace).ok();
        times.sort();
        println!(
            "{} lines: first diagnostics {:.1?} ({first}); keystroke to diagnostics p50 {:.2?}, p95 {:.2?}, max {:.2?} over {keys} keys",
            text.matches('\n').count(),
            cold,
            percentile(&times, 0.5),
            percentile(&times, 0.95),
            times[times.len() - 1],
        );
    }
}
