//! A trust grant that no longer matches, told to the user once.
//!
//! When a workspace's `[reviewer]` table — or a workspace file its command
//! names — changed since the user trusted it, nothing runs and every stop
//! goes through. Owns [`untrusted`]: the first stop for that grant shows
//! the user why, with the command to re-trust (the hook's `systemMessage`);
//! the later ones say it on stderr only, until the user trusts again (a new
//! grant is told afresh). What was told is a marker file named by a hash of
//! the workspace and the grant, in the user's state directory
//! (`$XDG_STATE_HOME/advisor/told/`, else `~/.local/state/advisor/told/`;
//! `0600` in `0700`), and never one inside the workspace: a repository that
//! points `HOME` there is told every time. A table never trusted is shown at
//! every stop, as before. Must not decide trust (`config::resolve` does).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::LetThrough;
use crate::config::UserConfig;

/// The directory of the markers, from the environment the process has.
fn told_dir() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    let state = (std::env::var_os("XDG_STATE_HOME").and_then(absolute)).or_else(|| {
        std::env::var_os("HOME")
            .and_then(absolute)
            .map(|h| h.join(".local/state"))
    })?;
    Some(state.join("advisor/told"))
}

/// The grant the user recorded for `workspace`, when there is one.
fn recorded_grant(workspace: &Path) -> Option<String> {
    let (user, _) = UserConfig::load_for(workspace).ok()?;
    user.grant(workspace)?.trusted_reviewer.clone()
}

/// Whether `grant` of `workspace` is told for the first time (and records
/// that it was). Anything unclear counts as a first time.
fn first_time(workspace: &Path, grant: &str) -> bool {
    let Some(dir) = told_dir() else { return true };
    let root = std::fs::canonicalize(workspace).unwrap_or_else(|_| workspace.to_path_buf());
    let parent = dir.parent().map(std::fs::canonicalize).and_then(Result::ok);
    if dir.starts_with(&root) || parent.is_some_and(|p| p.starts_with(&root)) {
        return true;
    }
    let key = Sha256::digest(format!("{}\n{grant}", root.display()).as_bytes());
    let name: String = key.iter().take(16).map(|b| format!("{b:02x}")).collect();
    let marker = dir.join(name);
    if std::fs::symlink_metadata(&marker).is_ok() {
        return false;
    }
    let _ = advisor::io::create_dir_private(&dir, true)
        .and_then(|()| advisor::io::stage_private(&marker, b"advisor: told\n")?.commit());
    true
}

/// How the hook lets a stop through when `workspace`'s advisor cannot be
/// loaded (`e`): a grant that no longer matches is shown once, then said.
pub(super) fn untrusted(workspace: &Path, e: advisor::Error) -> LetThrough {
    if e.kind() != advisor::ErrorKind::Untrusted {
        return LetThrough::shown(e);
    }
    match recorded_grant(workspace) {
        Some(grant) if !first_time(workspace, &grant) => LetThrough::said(e),
        _ => LetThrough::shown(e),
    }
}
