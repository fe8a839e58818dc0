//! Which files a check reports on (the CLI's `check` and the language
//! server's workspace diagnostics agree): files under the given roots,
//! except test fixtures, which are dependencies. Modules found through a
//! module path are loaded for reference but not reported.

use std::path::{Path, PathBuf};

pub fn is_reported(path: &Path, roots: &[PathBuf]) -> bool {
    roots
        .iter()
        .any(|root| path.starts_with(root) || path == root)
        && !path.components().any(|c| c.as_os_str() == "fixtures")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_without_fixtures() {
        let roots = [PathBuf::from("/ws")];
        assert!(is_reported(
            Path::new("/ws/modules/a/manifests/init.pp"),
            &roots
        ));
        assert!(!is_reported(Path::new("/elsewhere/init.pp"), &roots));
        assert!(!is_reported(
            Path::new("/ws/spec/fixtures/modules/b/manifests/init.pp"),
            &roots
        ));
    }
}
