//! Incremental reparsing versus a full parse, for single-character edits in
//! a 10,000-line manifest built from corpus files (the modules' manifests,
//! in path order, until 10,000 lines).
//!
//! Run: `cargo bench -p puppet-syntax --bench reparse`
//! Prints median and p99 of each, and which strategy fired how often.

use puppet_syntax::{
    parse, ReparseStrategy, SourceKind, SyntaxKind, TextEdit, TextRange, TextSize,
};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const LINES: usize = 10_000;
const EDITS: usize = 2_000;

/// The `.pp` files in a `manifests` directory under `dir`, in path order.
fn manifests(dir: &Path) -> Vec<PathBuf> {
    puppet_vfs::DiskFs
        .files_under(dir, &["pp"])
        .into_iter()
        .filter(|p| p.components().any(|c| c.as_os_str() == "manifests"))
        .collect()
}

/// Corpus manifests concatenated up to `LINES` lines, or the repository's
/// golden inputs when the corpus is not installed.
fn big_manifest() -> (String, &'static str) {
    let mut files = manifests(Path::new("/usr/share/puppet/modules"));
    let source = if files.is_empty() {
        files = manifests(&Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/parser/ok"));
        "the repository's golden inputs (corpus not installed)"
    } else {
        "corpus manifests"
    };
    let mut text = String::new();
    let mut lines = 0;
    'outer: loop {
        for file in &files {
            let Ok(content) = std::fs::read_to_string(file) else {
                continue;
            };
            text.push_str(&content);
            if !text.ends_with('\n') {
                text.push('\n');
            }
            lines += content.lines().count();
            if lines >= LINES {
                break 'outer;
            }
        }
        if files.is_empty() {
            break;
        }
    }
    (text, source)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn main() {
    let (text, source) = big_manifest();
    let base = parse(&text, SourceKind::Manifest);
    // Single-character edits where a user types: inside names, variables,
    // strings, comments and whitespace.
    let root = base.syntax_node();
    let spots: Vec<TextSize> = root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| {
            matches!(
                t.kind(),
                SyntaxKind::NAME
                    | SyntaxKind::VARIABLE
                    | SyntaxKind::SQ_STRING
                    | SyntaxKind::COMMENT
                    | SyntaxKind::WHITESPACE
            ) && t.text().len() > 2
        })
        .map(|t| t.text_range().start() + TextSize::from(1))
        .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut incremental = Vec::with_capacity(EDITS);
    let mut full = Vec::with_capacity(EDITS);
    let mut counts = [0usize; 3];
    let mut by_strategy: [Vec<Duration>; 3] = Default::default();
    // PROFILE_REPARSE=1 runs only the reparses (for a profiler), many times.
    let profile_reparse_only = std::env::var_os("PROFILE_REPARSE").is_some();
    let edits = if profile_reparse_only {
        EDITS * 20
    } else {
        EDITS
    };
    for i in 0..edits {
        let at = spots[(rng.next() % spots.len() as u64) as usize];
        // Alternate typing a character and deleting one.
        let edit = if i % 2 == 0 {
            TextEdit::replace(TextRange::empty(at), "x")
        } else {
            TextEdit::replace(TextRange::at(at, TextSize::from(1)), "")
        };
        let start = Instant::now();
        let (reparsed, strategy) = base.reparse_with_strategy(&edit);
        let elapsed = start.elapsed();
        incremental.push(elapsed);
        by_strategy[strategy as usize].push(elapsed);
        counts[strategy as usize] += 1;
        if profile_reparse_only {
            continue;
        }
        let edited = edit.apply(&text);
        let start = Instant::now();
        let fresh = parse(&edited, SourceKind::Manifest);
        full.push(start.elapsed());
        assert_eq!(
            reparsed.green(),
            fresh.green(),
            "reparse differs from a full parse"
        );
    }
    if profile_reparse_only {
        return;
    }
    incremental.sort();
    full.sort();
    let lines = text.lines().count();
    println!(
        "manifest: {lines} lines, {} bytes, from {source}",
        text.len()
    );
    println!("{EDITS} single-character edits (insert 'x' / delete one character)");
    println!(
        "reparse:    median {:>9.1?}  p99 {:>9.1?}",
        percentile(&incremental, 0.5),
        percentile(&incremental, 0.99)
    );
    println!(
        "full parse: median {:>9.1?}  p99 {:>9.1?}",
        percentile(&full, 0.5),
        percentile(&full, 0.99)
    );
    println!(
        "speed-up at the median: {:.0}x",
        percentile(&full, 0.5).as_secs_f64() / percentile(&incremental, 0.5).as_secs_f64()
    );
    println!(
        "strategies: token {}, block {}, full {}",
        counts[ReparseStrategy::Token as usize],
        counts[ReparseStrategy::Block as usize],
        counts[ReparseStrategy::Full as usize]
    );
    for (strategy, times) in [
        ReparseStrategy::Token,
        ReparseStrategy::Block,
        ReparseStrategy::Full,
    ]
    .iter()
    .zip(by_strategy.iter_mut())
    {
        if times.is_empty() {
            continue;
        }
        times.sort();
        println!(
            "  {strategy:?}: median {:>9.1?}  p99 {:>9.1?}",
            percentile(times, 0.5),
            percentile(times, 0.99)
        );
    }
}
