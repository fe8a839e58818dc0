//! puppet-lint's checks in the editor, off the keystroke's path.
//!
//! Linting is a whole-file pass: cheap on an ordinary manifest, about
//! 10 ms on a 10,000-line one and 70 ms on a 50,000-line one, far more
//! than a keystroke's diagnostics cost. So each file keeps the findings of
//! the last text it was linted at, with what that took. A newer text of an
//! open document that is small, or whose last lint was quick, is linted at
//! once; one whose last lint was slow shows the old findings carried over
//! (those past the edit moved with the text, those touching it dropped)
//! until a lint of the current text, started once typing pauses, replaces
//! them and the editor hears of it. Closed files are linted once per text.

use super::backend::Backend;
use super::diagnostics::{self, Scope};
use super::snapshot::{join_error, Snapshot};
use crate::linting::lint_manifest;
use puppet_lint_checks::{LintConfig, LintDiagnostic};
use puppet_syntax::{SharedText, SourceKind, TextRange, TextSize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A lint that took less than this runs again at once on a new text.
const INLINE_BUDGET: Duration = Duration::from_millis(3);
/// A text this small is linted at once whatever its last lint took
/// (typically well under a millisecond): a slow lint of it was set-up on
/// first use or a loaded machine, not the text.
const ALWAYS_INLINE_BYTES: usize = 16 * 1024;
/// The pause in typing after which a slow file is linted again.
const PAUSE: Duration = Duration::from_millis(200);

/// One file's last lint.
#[derive(Clone)]
struct Linted {
    text: SharedText,
    config: Arc<LintConfig>,
    found: Arc<[LintDiagnostic]>,
    cost: Duration,
}

impl Linted {
    fn is_for(&self, text: &SharedText, config: &Arc<LintConfig>) -> bool {
        Arc::ptr_eq(&self.config, config) && (Arc::ptr_eq(&self.text, text) || self.text == *text)
    }
}

/// The last lint of every file, shared by all snapshots.
#[derive(Default)]
pub struct LintResults {
    files: Mutex<HashMap<PathBuf, Linted>>,
}

impl LintResults {
    fn get(&self, path: &Path) -> Option<Linted> {
        let files = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        files.get(path).cloned()
    }

    fn store(&self, path: &Path, linted: Linted) {
        let mut files = self.files.lock().unwrap_or_else(PoisonError::into_inner);
        files.insert(path.to_path_buf(), linted);
    }
}

/// What to do when a file's findings are not those of its current text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Staleness {
    /// Lint now.
    Lint,
    /// Carry slow files' old findings over (a diagnostics pass).
    CarryOver,
}

/// A file's findings as of its current text.
pub struct Findings {
    found: Arc<[LintDiagnostic]>,
    /// The edit since the text they were found in, when carried over.
    since: Option<Change>,
}

impl Findings {
    fn none() -> Findings {
        Findings {
            found: Arc::from(Vec::new()),
            since: None,
        }
    }

    /// Each finding with its range in the current text (carried-over
    /// findings that touch the edit are left out).
    pub fn iter(&self) -> impl Iterator<Item = (&LintDiagnostic, TextRange)> {
        self.found.iter().filter_map(|d| match &self.since {
            None => Some((d, d.range)),
            Some(change) => Some((d, change.moved(d.range)?)),
        })
    }

    /// The findings of the current text itself, with their fixes (none
    /// when carried over).
    pub fn current(&self) -> &[LintDiagnostic] {
        match self.since {
            None => &self.found,
            Some(_) => &[],
        }
    }
}

/// The findings for a file at the snapshot's revision: none for templates,
/// files the analysis does not know, or with lint off.
pub fn findings(snap: &Snapshot, path: &Path, stale: Staleness) -> Findings {
    let Some(config) = snap.config.lint.clone() else {
        return Findings::none();
    };
    if SourceKind::from_path(path) != SourceKind::Manifest {
        return Findings::none();
    }
    let Some(text) = snap.analysis.text(path) else {
        return Findings::none();
    };
    let last = snap.lint.get(path);
    if let Some(last) = last {
        if last.is_for(&text, &config) {
            return Findings {
                found: last.found,
                since: None,
            };
        }
        let slow = is_slow(last.cost, text.len());
        let same_config = Arc::ptr_eq(&last.config, &config);
        if stale == Staleness::CarryOver && slow && same_config && snap.is_open(path) {
            return Findings {
                since: Some(Change::between(&last.text, &text)),
                found: last.found,
            };
        }
    }
    let Some(parse) = snap.analysis.parse(path) else {
        return Findings::none();
    };
    let started = Instant::now();
    let found: Arc<[LintDiagnostic]> =
        Arc::from(lint_manifest(path, &text, &parse.syntax_node(), &config));
    let linted = Linted {
        text,
        config,
        found: found.clone(),
        cost: started.elapsed(),
    };
    snap.lint.store(path, linted);
    Findings { found, since: None }
}

/// Whether linting a file's new text (of `len` bytes) would hold up the
/// keystroke, by what its last lint took.
fn is_slow(last_cost: Duration, len: usize) -> bool {
    last_cost >= INLINE_BUDGET && len > ALWAYS_INLINE_BYTES
}

/// Whether the findings of the file's current text are known.
fn is_fresh(snap: &Snapshot, path: &Path) -> bool {
    let (Some(config), Some(text)) = (&snap.config.lint, snap.analysis.text(path)) else {
        return true;
    };
    snap.lint
        .get(path)
        .is_none_or(|last| last.is_for(&text, config))
        || SourceKind::from_path(path) != SourceKind::Manifest
}

/// After an edit of an open document: once typing pauses (the document
/// still at `version`), lints its text if the diagnostics carried old
/// findings over, and has the editor show the new ones.
pub fn after_edit(backend: &Backend, path: PathBuf, version: i32) {
    let backend = backend.clone();
    tokio::spawn(async move {
        tokio::time::sleep(PAUSE).await;
        if diagnostics::current_version(&backend, &path) != Some(version) {
            return;
        }
        let snapshot = backend.snapshot();
        let task = tokio::task::spawn_blocking(move || {
            if is_fresh(&snapshot, &path) {
                return false;
            }
            findings(&snapshot, &path, Staleness::Lint);
            true
        });
        match task.await {
            Ok(true) => diagnostics::show_again(&backend, Scope::Open).await,
            Ok(false) => {}
            Err(e) => tracing::error!("lint: {:?}", join_error(e)),
        }
    });
}

/// Where two texts differ: one changed span, between their common prefix
/// and their common suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Change {
    /// Length of the common prefix.
    start: TextSize,
    /// End of the changed span in the old text.
    old_end: TextSize,
    /// End of the changed span in the new text.
    new_end: TextSize,
}

impl Change {
    fn between(old: &str, new: &str) -> Change {
        let (old, new) = (old.as_bytes(), new.as_bytes());
        let start = common_prefix(old, new);
        let most = old.len().min(new.len()) - start;
        let suffix = common_suffix(&old[start..], &new[start..]).min(most);
        let size = |n: usize| TextSize::try_from(n).unwrap_or(TextSize::from(u32::MAX));
        Change {
            start: size(start),
            old_end: size(old.len() - suffix),
            new_end: size(new.len() - suffix),
        }
    }

    /// `range` of the old text in the new one, unless it touches the change.
    fn moved(&self, range: TextRange) -> Option<TextRange> {
        if range.end() < self.start {
            return Some(range);
        }
        if range.start() > self.old_end {
            let shift = |at: TextSize| at - self.old_end + self.new_end;
            return Some(TextRange::new(shift(range.start()), shift(range.end())));
        }
        None
    }
}

/// Compared a block at a time: `==` on slices is a `memcmp`.
const BLOCK: usize = 64;

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a_end, b_end) = (a.len(), b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[a_end - i - BLOCK..a_end - i] == b[b_end - i - BLOCK..b_end - i] {
        i += BLOCK;
    }
    while i < n && a[a_end - i - 1] == b[b_end - i - 1] {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use puppet_lint_checks::{lint, SourceKind};

    fn lint_text(text: &str) -> Vec<LintDiagnostic> {
        lint(text, SourceKind::Manifest, &LintConfig::default())
    }

    /// `found` (in `old`) as carried over to `new`: check and range.
    fn carry_over(
        old: &str,
        new: &str,
        found: Vec<LintDiagnostic>,
    ) -> Vec<(&'static str, TextRange)> {
        let findings = Findings {
            found: Arc::from(found),
            since: Some(Change::between(old, new)),
        };
        findings.iter().map(|(d, range)| (d.check, range)).collect()
    }

    #[test]
    fn only_big_files_whose_last_lint_was_slow_wait_for_a_pause() {
        let slow = INLINE_BUDGET * 5;
        let quick = INLINE_BUDGET / 2;
        assert!(is_slow(slow, 200_000));
        assert!(!is_slow(quick, 200_000));
        // A small file's slow lint was set-up or load: it is linted at once.
        assert!(!is_slow(slow, 2_000));
        assert!(!is_slow(slow, ALWAYS_INLINE_BYTES));
    }

    #[test]
    fn the_changed_span_lies_between_common_prefix_and_suffix() {
        let long = "a".repeat(300);
        for (old, new, start, old_end, new_end) in [
            ("abc", "abc", 3, 3, 3),
            ("abc", "abXc", 2, 2, 3),
            ("abXc", "abc", 2, 3, 2),
            ("", "x", 0, 0, 1),
            ("aaa", "aaaa", 3, 3, 4),
            (
                &format!("{long}x{long}"),
                &format!("{long}yy{long}"),
                300,
                301,
                302,
            ),
        ] {
            let change = Change::between(old, new);
            assert_eq!(
                (change.start, change.old_end, change.new_end),
                (start.into(), old_end.into(), new_end.into()),
                "{old:?} -> {new:?}"
            );
        }
    }

    /// Carried over, the findings away from an edit are what linting the
    /// new text finds there.
    #[test]
    fn findings_away_from_the_edit_move_with_the_text() {
        let block = "file { '/a':\n  ensure => present,\n  mode => \"0644\",\n}\n";
        let old = format!("{block}{block}{block}");
        let new = format!("{block}{}{block}", block.replace("'/a'", "'/abc'"));
        let before = lint_text(&old);
        let after = lint_text(&new);
        let carried = carry_over(&old, &new, before);
        assert!(!carried.is_empty());
        for d in &carried {
            assert!(
                after.iter().any(|a| (a.check, a.range) == *d),
                "{d:?} is not found in the new text"
            );
        }
        let lines = |ranges: Vec<TextRange>, text: &str| {
            ranges
                .iter()
                .map(|r| text[..usize::from(r.start())].matches('\n').count())
                .collect::<Vec<_>>()
        };
        // The middle block's findings touch the edit only where they
        // include it: the first and last block's are all there.
        let carried_lines = lines(carried.iter().map(|c| c.1).collect(), &new);
        for line in lines(after.iter().map(|a| a.range).collect(), &new) {
            if !(4..8).contains(&line) {
                assert!(carried_lines.contains(&line), "line {line} lost");
            }
        }
    }

    #[test]
    fn findings_touching_the_edit_are_dropped_and_fixes_are_not_carried() {
        let old = "$a = \"x\"\n$b = \"y\"\n";
        let new = "$a = \"xz\"\n$b = \"y\"\n";
        let before = lint_text(old);
        assert_eq!(before.len(), 2, "{before:?}");
        let carried = carry_over(old, new, before.clone());
        assert_eq!(carried.len(), 1);
        assert_eq!(&new[std::ops::Range::from(carried[0].1)], "\"y\"");
        let findings = Findings {
            found: Arc::from(before),
            since: Some(Change::between(old, new)),
        };
        assert!(findings.current().is_empty(), "fixes are for current texts");
    }
}
