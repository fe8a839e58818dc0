//! Fixture helpers shared by the IDE feature tests: a multi-file fixture
//! with a `$0` cursor marker, and ranges rendered as `path:line:col 'text'`.
#![allow(dead_code)]

use puppet_analysis::host::{parse_fixture, AnalysisHost};
use puppet_ide::{FilePosition, FileRange};
use puppet_syntax::{TextRange, TextSize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The workspace and cursor of a fixture, with the texts for rendering.
pub struct Fixture {
    pub host: AnalysisHost,
    pub position: FilePosition,
    pub texts: BTreeMap<PathBuf, String>,
}

pub fn fixture(text: &str) -> Fixture {
    fixture_with(text, AnalysisHost::from_files)
}

/// A fixture discovered as on disk with `root` as the workspace's root
/// (environments and their Hiera layers are found).
pub fn fixture_at(root: &str, text: &str) -> Fixture {
    fixture_with(text, |files| AnalysisHost::discover_files(root, files))
}

fn fixture_with(text: &str, host: impl FnOnce(Vec<(PathBuf, String)>) -> AnalysisHost) -> Fixture {
    let mut position = None;
    let mut files = parse_fixture(text);
    for (path, text) in &mut files {
        if let Some(offset) = text.find("$0") {
            text.replace_range(offset..offset + 2, "");
            position = Some(FilePosition {
                path: path.clone(),
                offset: TextSize::new(offset as u32),
            });
        }
    }
    let texts = files.iter().cloned().collect();
    Fixture {
        host: host(files),
        position: position.expect("a $0 cursor marker"),
        texts,
    }
}

impl Fixture {
    pub fn render(&self, path: &std::path::Path, range: TextRange) -> String {
        let text = &self.texts[path];
        let start = usize::from(range.start()).min(text.len());
        let end = usize::from(range.end()).min(text.len());
        let before = &text[..start];
        let line = before.matches('\n').count() + 1;
        let col = start - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        format!("{}:{line}:{col} '{}'", path.display(), &text[start..end])
    }

    pub fn render_ranges(&self, ranges: &[FileRange]) -> String {
        ranges
            .iter()
            .map(|r| self.render(&r.path, r.range) + "\n")
            .collect()
    }
}
