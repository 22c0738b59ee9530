//! Per-session hook state on disk: the advisor's checkpoint plus the
//! identity of the request and compaction it was taken at, and what the user
//! was already told this session (each note and notice once).
//!
//! Owns the state file's shape, its bounded read and its location: one file
//! per session (and per sub-agent), named by an injective encoding of the ids
//! so that `sess/1`, `sess.1`, `sess:1` and two ids sharing a long prefix never
//! share a file. Writes are staged through [`advisor::io::stage`] so
//! the hook knows the save will succeed before it answers. A corrupt or
//! oversized file is reported and treated as fresh, never a crash. Must not
//! decide what the hook answers.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::finish::Prior;

/// The state file format version.
const STATE_VERSION: u32 = 2;

/// Longest prompt or compaction identity kept, in characters.
const MAX_ID_CHARS: usize = 512;

/// Most keys of what the user was told kept per session (the oldest go).
const MAX_TOLD: usize = 256;
/// Longest key of what the user was told, in characters.
const MAX_TOLD_CHARS: usize = 160;

/// Longest session or agent id accepted, in bytes.
const MAX_SESSION_ID_BYTES: usize = 1024;

/// Longest file or directory name the encoding produces, in bytes.
const MAX_NAME_BYTES: usize = 200;

/// Largest state file read: the largest checkpoint plus the identities.
pub(crate) const MAX_STATE_BYTES: u64 = advisor::plugin::MAX_CHECKPOINT_BYTES as u64 + 16 * 1024;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SessionState {
    version: u32,
    checkpoint: serde_json::Value,
    #[serde(default)]
    last_prompt: Option<String>,
    #[serde(default)]
    last_compaction: Option<String>,
    /// Keys of what the user was told this session (a note's dedupe key, a
    /// notice's name), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    told: Vec<String>,
}

fn clamp_id(id: Option<&str>) -> Option<String> {
    id.map(|s| s.chars().take(MAX_ID_CHARS).collect())
}

/// A key of what the user was told, as kept.
pub(crate) fn told_key(key: &str) -> String {
    key.chars().take(MAX_TOLD_CHARS).collect()
}

impl SessionState {
    pub(crate) fn new(
        checkpoint: serde_json::Value,
        last_prompt: Option<&str>,
        last_compaction: Option<&str>,
        told: &[String],
    ) -> SessionState {
        let skip = told.len().saturating_sub(MAX_TOLD);
        SessionState {
            version: STATE_VERSION,
            checkpoint,
            last_prompt: clamp_id(last_prompt),
            last_compaction: clamp_id(last_compaction),
            told: told.iter().skip(skip).map(|k| told_key(k)).collect(),
        }
    }

    /// The prior state the finish path reads, and what the user was told.
    pub(crate) fn into_prior(self) -> (Prior, Vec<String>) {
        let prior = Prior {
            checkpoint: Some(self.checkpoint),
            last_prompt: self.last_prompt,
            last_compaction: self.last_compaction,
            rejected: None,
        };
        let skip = self.told.len().saturating_sub(MAX_TOLD);
        (prior, self.told.into_iter().skip(skip).collect())
    }
}

/// Encodes an id as file-name text, injectively and the same on
/// case-insensitive file systems: `a`–`z`, `0`–`9` and `-` stand for
/// themselves, every other byte is `_` and two lowercase hex digits.
fn encode(id: &str, out: &mut String) {
    for b in id.bytes() {
        if b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("_{b:02x}"));
        }
    }
}

/// The state file of a session (and sub-agent) under `dir`, relative path
/// segments of at most [`MAX_NAME_BYTES`] each. `Err` when an id is too long.
pub(crate) fn state_path(dir: &Path, session_id: &str, agent_id: Option<&str>) -> Result<PathBuf, String> {
    if session_id.len() > MAX_SESSION_ID_BYTES || agent_id.is_some_and(|a| a.len() > MAX_SESSION_ID_BYTES) {
        return Err(format!(
            "the session id is longer than {MAX_SESSION_ID_BYTES} bytes; its state cannot be kept"
        ));
    }
    let mut name = String::new();
    encode(session_id, &mut name);
    if let Some(agent) = agent_id {
        // `~` never appears in an encoded id: the split is unambiguous
        name.push('~');
        encode(agent, &mut name);
    }
    // long names become nested directories of fixed-size pieces; a piece is
    // never a file name (those end in ".json", and `.` is always encoded)
    let mut path = dir.to_path_buf();
    let bytes = name.as_bytes();
    let mut start = 0;
    while bytes.len() - start > MAX_NAME_BYTES {
        path.push(&name[start..start + MAX_NAME_BYTES]);
        start += MAX_NAME_BYTES;
    }
    path.push(format!("{}.json", &name[start..]));
    Ok(path)
}

/// Loads a session's state: `Ok(None)` when there is none, `Err` (with a
/// reason to report) when the file is unreadable, oversized or corrupt.
pub(crate) fn load(path: &Path) -> Result<Option<SessionState>, String> {
    let text = match advisor::io::read_file_to_string(path, MAX_STATE_BYTES) {
        Ok(t) => t,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(format!("the session state {e}")),
    };
    // by position only: serde's message could quote the file's text
    let state: SessionState = serde_json::from_str(&text).map_err(|e| {
        format!(
            "the session state {} is corrupt (line {}, column {})",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    if state.version != STATE_VERSION {
        return Err(format!(
            "the session state {} has version {}, this advisor reads {STATE_VERSION}",
            path.display(),
            state.version
        ));
    }
    Ok(Some(state))
}

/// Writes `state` beside its file, ready to be committed: `0600`, in a
/// `0700` directory when it creates one (another local user must not read or
/// pre-create it).
pub(crate) fn stage(path: &Path, state: &SessionState) -> std::io::Result<advisor::io::Staged> {
    let body = serde_json::to_vec(state).map_err(std::io::Error::other)?;
    advisor::io::stage_private(path, &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_map_to_file_names_injectively() {
        let dir = Path::new("d");
        let ids = [
            "sess/1", "sess.1", "sess:1", "sess_1", "Sess-1", "sess-1", "..", "", "~",
        ];
        let mut paths: Vec<PathBuf> = ids.iter().map(|id| state_path(dir, id, None).unwrap()).collect();
        paths.push(state_path(dir, "sess", Some("1")).unwrap());
        let long_a = format!("{}a", "x".repeat(300));
        let long_b = format!("{}b", "x".repeat(300));
        paths.push(state_path(dir, &long_a, None).unwrap());
        paths.push(state_path(dir, &long_b, None).unwrap());
        let mut unique = paths.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), paths.len(), "{paths:?}");
        for p in &paths {
            assert!(p.starts_with(dir));
            assert!(p.components().all(|c| c.as_os_str().len() <= MAX_NAME_BYTES + 5));
            assert!(
                p.components()
                    .skip(1)
                    .all(|c| matches!(c, std::path::Component::Normal(_)))
            );
        }
        assert!(state_path(dir, &"x".repeat(2000), None).is_err());
    }

    proptest::proptest! {
        #[test]
        fn different_ids_never_share_a_file(a in ".{0,300}", b in ".{0,300}") {
            proptest::prop_assume!(a != b);
            let dir = Path::new("d");
            proptest::prop_assert_ne!(state_path(dir, &a, None).unwrap(), state_path(dir, &b, None).unwrap());
        }
    }
}
