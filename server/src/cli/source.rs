//! Finding and reading Puppet sources on disk.

use std::path::{Path, PathBuf};

/// Expands files and directories into the `.pp` and `.epp` files under
/// them (following symbolic links, as Debian's module directories are),
/// sorted; files given explicitly are kept whatever their extension.
pub fn collect_sources(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            out.extend(puppet_vfs::DiskFs.files_under(path, &["pp", "epp"]));
        } else {
            out.push(path.clone());
        }
    }
    out
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
