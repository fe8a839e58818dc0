//! The file system as the analysis sees it. The semantic layers never touch
//! the disk themselves: workspace discovery, loading and Puppet's installed
//! documentation read through a [`FileSystem`] that the server and the CLI
//! own ([`DiskFs`]) and that tests replace ([`MemoryFs`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Read-only access to files and directories. Every answer for a path that
/// does not exist, or cannot be read, is "nothing" (`None`, empty, `false`):
/// the analysis treats an unreadable file like an absent one.
pub trait FileSystem: Send + Sync {
    /// A file's bytes.
    fn read(&self, path: &Path) -> Option<Vec<u8>>;
    /// A directory's entries (files and directories), sorted by path.
    fn read_dir(&self, dir: &Path) -> Vec<PathBuf>;
    fn is_file(&self, path: &Path) -> bool;
    fn is_dir(&self, path: &Path) -> bool;
    /// The path with symbolic links and `.`/`..` resolved.
    fn canonicalize(&self, path: &Path) -> Option<PathBuf>;

    /// A file's text, when it is UTF-8.
    fn read_to_string(&self, path: &Path) -> Option<String> {
        String::from_utf8(self.read(path)?).ok()
    }
}

/// The real file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiskFs;

impl FileSystem for DiskFs {
    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        std::fs::read(path).ok()
    }

    fn read_dir(&self, dir: &Path) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        paths
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn is_dir(&self, path: &Path) -> bool {
        path.is_dir()
    }

    fn canonicalize(&self, path: &Path) -> Option<PathBuf> {
        path.canonicalize().ok()
    }
}

impl DiskFs {
    /// Every file under `root` with one of `extensions`, following symbolic
    /// links (Debian's module directories are links), in path order.
    pub fn files_under(&self, root: &Path, extensions: &[&str]) -> Vec<PathBuf> {
        walkdir::WalkDir::new(root)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|entry| {
                entry.file_type().is_file()
                    && entry
                        .path()
                        .extension()
                        .and_then(|e| e.to_str())
                        .is_some_and(|e| extensions.contains(&e))
            })
            .map(walkdir::DirEntry::into_path)
            .collect()
    }
}

/// Files held in memory, by absolute path; a directory exists when a file
/// is under it. For tests and for fixtures that never touch the disk.
#[derive(Debug, Clone, Default)]
pub struct MemoryFs {
    files: BTreeMap<PathBuf, Vec<u8>>,
}

impl MemoryFs {
    pub fn new() -> MemoryFs {
        MemoryFs::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: impl Into<PathBuf>, contents: impl Into<Vec<u8>>) {
        self.files.insert(path.into(), contents.into());
    }

    /// The files under a directory, in path order.
    fn under<'a>(&'a self, dir: &'a Path) -> impl Iterator<Item = &'a PathBuf> + 'a {
        self.files
            .range(dir.to_path_buf()..)
            .map(|(path, _)| path)
            .take_while(move |path| path.starts_with(dir))
            .filter(move |path| path.as_path() != dir)
    }
}

impl<P: Into<PathBuf>, C: Into<Vec<u8>>> FromIterator<(P, C)> for MemoryFs {
    fn from_iter<I: IntoIterator<Item = (P, C)>>(files: I) -> MemoryFs {
        let mut fs = MemoryFs::new();
        for (path, contents) in files {
            fs.insert(path, contents);
        }
        fs
    }
}

impl FileSystem for MemoryFs {
    fn read(&self, path: &Path) -> Option<Vec<u8>> {
        self.files.get(path).cloned()
    }

    fn read_dir(&self, dir: &Path) -> Vec<PathBuf> {
        let mut entries: Vec<PathBuf> = self
            .under(dir)
            .filter_map(|path| {
                let first = path.strip_prefix(dir).ok()?.components().next()?;
                Some(dir.join(first))
            })
            .collect();
        entries.dedup();
        entries
    }

    fn is_file(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }

    fn is_dir(&self, path: &Path) -> bool {
        !self.is_file(path) && self.under(path).next().is_some()
    }

    fn canonicalize(&self, path: &Path) -> Option<PathBuf> {
        let mut out = PathBuf::new();
        for component in path.components() {
            match component {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir => {
                    out.pop();
                }
                other => out.push(other),
            }
        }
        (self.is_file(&out) || self.is_dir(&out)).then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fs() -> MemoryFs {
        [
            ("/ws/modules/a/manifests/init.pp", "class a {}"),
            ("/ws/modules/a/manifests/x/y.pp", "class a::x::y {}"),
            ("/ws/modules/ab/metadata.json", "{}"),
            ("/ws/site.pp", ""),
        ]
        .into_iter()
        .collect()
    }

    #[test]
    fn directories_are_implied_by_their_files() {
        let fs = fs();
        assert!(fs.is_dir(Path::new("/ws/modules")));
        assert!(fs.is_dir(Path::new("/ws/modules/a/manifests/x")));
        assert!(!fs.is_dir(Path::new("/ws/site.pp")));
        assert!(fs.is_file(Path::new("/ws/site.pp")));
        assert!(!fs.is_dir(Path::new("/ws/modules/a/manifests/init.pp/x")));
        // `/ws/modules/a` is not a prefix of `/ws/modules/ab` as a path.
        assert_eq!(
            fs.read_dir(Path::new("/ws/modules/a")),
            vec![PathBuf::from("/ws/modules/a/manifests")]
        );
        assert_eq!(
            fs.read_dir(Path::new("/ws/modules")),
            vec![
                PathBuf::from("/ws/modules/a"),
                PathBuf::from("/ws/modules/ab")
            ]
        );
        assert_eq!(
            fs.read_dir(Path::new("/ws")),
            vec![PathBuf::from("/ws/modules"), PathBuf::from("/ws/site.pp")]
        );
        assert!(fs.read_dir(Path::new("/nowhere")).is_empty());
    }

    #[test]
    fn reads_and_resolves() {
        let fs = fs();
        assert_eq!(
            fs.read_to_string(Path::new("/ws/modules/a/manifests/init.pp"))
                .as_deref(),
            Some("class a {}")
        );
        assert_eq!(fs.read(Path::new("/ws/missing.pp")), None);
        assert_eq!(
            fs.canonicalize(Path::new("/ws/modules/./a/../ab")),
            Some(PathBuf::from("/ws/modules/ab"))
        );
        assert_eq!(fs.canonicalize(Path::new("/ws/none")), None);
    }
}
