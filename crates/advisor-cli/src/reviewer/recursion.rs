//! The recursion marker of the command reviewer: an `advisor hook` started
//! inside a review (the reviewer CLI fires its own Stop hooks) lets its stop
//! through at once.
//!
//! Owns [`ReviewNonce`] and [`marker_lets_through`]. Each review run by a
//! command reviewer gets a fresh random nonce; it is written as a file of
//! the user's own state directory (`$XDG_STATE_HOME/advisor/reviews/`, else
//! `~/.local/state/advisor/reviews/`; `0600` in a `0700` directory) and
//! handed to the child as [`MARKER_VAR`]. A hook that finds the variable lets
//! the stop through only when the file for that exact nonce exists, is a
//! regular file (no link followed), is owned by the user and is younger than
//! [`MAX_NONCE_AGE`], and the state directory is not inside the workspace —
//! so a repository's host config that sets the variable (or `HOME`) cannot
//! switch the advisor off. Must not decide anything else about the hook.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The environment variable the reviewer's child inherits.
pub(crate) const MARKER_VAR: &str = "ADVISOR_REVIEW_NONCE";
/// How long a nonce file counts (a review never lasts this long).
pub(crate) const MAX_NONCE_AGE: Duration = Duration::from_secs(3600);

/// The directory nonce files live in, from the environment the process has.
fn nonce_dir() -> Option<PathBuf> {
    let state = std::env::var_os("XDG_STATE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .map(|h| h.join(".local/state"))
        })?;
    Some(state.join("advisor/reviews"))
}

/// 128 random bits as 32 hex digits, from the standard library's randomly
/// seeded hasher (two independent seeds).
fn random_hex() -> String {
    use std::hash::{BuildHasher, Hasher};
    let word = || {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.write_u32(std::process::id());
        h.finish()
    };
    format!("{:016x}{:016x}", word(), word())
}

fn well_formed(nonce: &str) -> bool {
    nonce.len() == 32 && nonce.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// A live review's nonce; its file is removed when dropped.
#[derive(Debug)]
pub(crate) struct ReviewNonce {
    value: String,
    file: PathBuf,
}

impl ReviewNonce {
    /// A fresh nonce, recorded in the user's state.
    pub(crate) fn issue() -> std::io::Result<ReviewNonce> {
        let dir = nonce_dir().ok_or_else(|| std::io::Error::other("neither XDG_STATE_HOME nor HOME is set"))?;
        advisor::io::create_dir_private(&dir, true)?;
        let value = random_hex();
        let file = dir.join(&value);
        advisor::io::stage_private(&file, b"advisor review\n")?.commit()?;
        Ok(ReviewNonce { value, file })
    }

    /// The value the child gets in [`MARKER_VAR`].
    pub(crate) fn value(&self) -> &str {
        &self.value
    }
}

impl Drop for ReviewNonce {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.file);
    }
}

/// What the marker in this process's environment says about a hook in
/// `workspace`: `None` without one, `Some(true)` when it names a live review
/// of this user (let the stop through), `Some(false)` when it is forged or
/// stale (review as usual).
pub(crate) fn marker_lets_through(workspace: &Path) -> Option<bool> {
    let nonce = std::env::var(MARKER_VAR).ok()?;
    Some(valid(&nonce, workspace))
}

fn valid(nonce: &str, workspace: &Path) -> bool {
    if !well_formed(nonce) {
        return false;
    }
    let Some(dir) = nonce_dir() else { return false };
    let inside = |p: &Path| {
        let p = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let w = std::fs::canonicalize(workspace).unwrap_or_else(|_| workspace.to_path_buf());
        p.starts_with(w)
    };
    if inside(&dir) {
        return false;
    }
    let Ok(root) = advisor::io::Beneath::open(&dir) else {
        return false;
    };
    let Ok(file) = root.open_file(Path::new(nonce)) else {
        return false;
    };
    let Ok(meta) = file.metadata() else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != rustix::process::getuid().as_raw() {
            return false;
        }
    }
    meta.modified()
        .ok()
        .and_then(|m| m.elapsed().ok())
        .is_some_and(|age| age < MAX_NONCE_AGE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonces_are_long_random_and_lowercase_hex() {
        let (a, b) = (random_hex(), random_hex());
        assert!(well_formed(&a) && well_formed(&b), "{a} {b}");
        assert_ne!(a, b);
        assert!(!well_formed("../../etc/passwd"));
        assert!(!well_formed(&a.to_uppercase()));
    }
}
