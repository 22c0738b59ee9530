//! The advisor's own files inside a workspace are never reached through a
//! symbolic link.
//!
//! A repository can commit `.advisor/state` or `.advisor/consultations` as a
//! link to any directory; following it would write the advisor's files (or
//! read them back) wherever it points. Owns [`first_link`], the one check the
//! hook (for `.advisor`, the state directory, the state and lock files) and
//! `advisor mcp` (for `.advisor` and the consultation store) make before they
//! open anything there, and [`refusal`], the one line they say. Must not
//! decide what the caller does next: each lets its stop or command go
//! through without the linked store.

use std::path::{Path, PathBuf};

/// The first of `paths` that is a symbolic link (not followed: a dangling
/// link counts; what does not exist yet is no link).
pub(crate) fn first_link(paths: impl IntoIterator<Item = PathBuf>) -> Option<PathBuf> {
    let is_link = |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
    paths.into_iter().find(|p| is_link(p))
}

/// What the advisor says about `link` when it refuses it for `what` (its
/// state, its consultation store).
pub(crate) fn refusal(link: &Path, what: &str) -> String {
    format!(
        "{} is a symbolic link, which the advisor does not follow for {what}",
        link.display()
    )
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_dangling_link_counts_and_a_missing_path_does_not() {
        let dir = std::env::temp_dir().join(format!("advisor-no-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let link = dir.join("l");
        std::os::unix::fs::symlink(dir.join("nowhere"), &link).unwrap();
        assert_eq!(first_link([dir.join("missing"), dir.clone()]), None);
        assert_eq!(first_link([dir.join("missing"), link.clone()]), Some(link));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
