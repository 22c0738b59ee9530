//! Per-session hook state on disk: the advisor's checkpoint plus what the
//! transcript held at the last review.
//!
//! Owns the state file's shape and its location (one file per session, so
//! hooks of different sessions never touch the same file); writes go through
//! [`advisor::atomic_file::write_atomic`]. A corrupt file is
//! reported and treated as fresh, never a crash.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::finish::Prior;

/// The state file format version.
const STATE_VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SessionState {
    version: u32,
    checkpoint: serde_json::Value,
    user_prompts: usize,
    compactions: usize,
}

impl SessionState {
    pub(crate) fn new(checkpoint: serde_json::Value, user_prompts: usize, compactions: usize) -> SessionState {
        SessionState {
            version: STATE_VERSION,
            checkpoint,
            user_prompts,
            compactions,
        }
    }

    pub(crate) fn into_prior(self) -> Prior {
        Prior {
            checkpoint: Some(self.checkpoint),
            user_prompts: self.user_prompts,
            compactions: self.compactions,
        }
    }
}

/// The state file of `session_id` in `dir`; the id is reduced to a safe file name.
pub(crate) fn state_path(dir: &Path, session_id: &str) -> PathBuf {
    let safe: String = session_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(128)
        .collect();
    let safe = if safe.is_empty() { "session".to_owned() } else { safe };
    dir.join(format!("{safe}.json"))
}

/// Loads a session's state: `Ok(None)` when there is none, `Err` (with a
/// reason to report) when the file is unreadable or corrupt.
pub(crate) fn load(path: &Path) -> Result<Option<SessionState>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let state: SessionState = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{} is corrupt ({})",
            path.display(),
            advisor::json::describe_serde_error(&e)
        )
    })?;
    if state.version != STATE_VERSION {
        return Err(format!(
            "{} has state version {}, expected {STATE_VERSION}",
            path.display(),
            state.version
        ));
    }
    Ok(Some(state))
}

/// Writes `state` atomically.
pub(crate) fn save(path: &Path, state: &SessionState) -> std::io::Result<()> {
    let body = serde_json::to_vec_pretty(state).map_err(std::io::Error::other)?;
    advisor::atomic_file::write_atomic(path, &body)
}
