//! Finding and reading Puppet sources on disk.

use std::path::{Path, PathBuf};

/// Expands files and directories into the `.pp` and `.epp` files under
/// them, sorted; files given explicitly are kept whatever their extension.
pub fn collect_sources(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, &mut out);
        } else {
            out.push(path.clone());
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("pp" | "epp")
        ) {
            out.push(path);
        }
    }
}

/// Source text read from disk. Bytes that are not UTF-8 are replaced (the
/// tree must be built over a `str`), and reported.
pub struct SourceText {
    pub text: String,
    /// Byte offset of the first invalid byte, if the file was not UTF-8.
    pub invalid_utf8_at: Option<usize>,
}

pub fn read_source(path: &Path) -> std::io::Result<SourceText> {
    let bytes = std::fs::read(path)?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => SourceText {
            text,
            invalid_utf8_at: None,
        },
        Err(err) => {
            let at = err.utf8_error().valid_up_to();
            SourceText {
                text: String::from_utf8_lossy(err.as_bytes()).into_owned(),
                invalid_utf8_at: Some(at),
            }
        }
    })
}
