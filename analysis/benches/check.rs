//! Whole-workspace checking through the database: a cold check of the
//! corpus (every file's diagnostics), then re-checks after one-character
//! edits inside class bodies (what the language server does per keystroke).
//!
//! Run: `cargo bench -p puppet-analysis --bench check`

mod common;

use common::percentile;
use puppet_analysis::host::AnalysisHost;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let start = Instant::now();
    let mut host = AnalysisHost::from_paths(&puppet_vfs::DiskFs, std::slice::from_ref(&root));
    let loaded = start.elapsed();
    let paths: Vec<PathBuf> = host.paths().map(Path::to_path_buf).collect();
    let diagnostics: usize = paths.iter().map(|p| host.diagnostics(p).len()).sum();
    let cold = start.elapsed();
    println!(
        "cold check: {} files, {diagnostics} diagnostics: {:.0?} (discovery and reading {:.0?}), peak RSS {:.0} MiB",
        paths.len(),
        cold,
        loaded,
        peak_rss_mib()
    );

    // Edits: append a character to a variable name inside a class body.
    let targets: Vec<(PathBuf, usize)> = paths
        .iter()
        .filter_map(|p| {
            let text = host.text(p)?;
            let at = text.find("\n  $")? + 4;
            Some((p.clone(), at))
        })
        .step_by(20)
        .take(100)
        .collect();
    let mut times = Vec::new();
    let mut single = Vec::new();
    for (path, at) in &targets {
        let text = host.text(path).unwrap().to_string();
        let edited = format!("{}x{}", &text[..*at], &text[*at..]);
        let start = Instant::now();
        host.set_file(path, edited);
        std::hint::black_box(host.diagnostics(path).len());
        single.push(start.elapsed());
        host.set_file(path, text);
        host.diagnostics(path);
    }
    single.sort();
    println!(
        "edited file's diagnostics after a one-character edit ({} edits): median {:.2?}, p95 {:.2?}",
        single.len(),
        percentile(&single, 0.5),
        percentile(&single, 0.95)
    );
    paths.iter().for_each(|p| {
        host.diagnostics(p);
    });
    for (path, at) in &targets {
        let text = host.text(path).unwrap().to_string();
        let edited = format!("{}x{}", &text[..*at], &text[*at..]);
        let start = Instant::now();
        host.set_file(path, edited);
        let count: usize = paths.iter().map(|p| host.diagnostics(p).len()).sum();
        times.push(start.elapsed());
        std::hint::black_box(count);
        host.set_file(path, text);
        paths.iter().for_each(|p| {
            host.diagnostics(p);
        });
    }
    times.sort();
    println!(
        "re-check of all {} files after a one-character edit ({} edits): median {:.2?}, p95 {:.2?}",
        paths.len(),
        times.len(),
        percentile(&times, 0.5),
        percentile(&times, 0.95)
    );
}
