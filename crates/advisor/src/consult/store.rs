//! Where consultations are kept: request/response pairs on disk, written so
//! that only a completed pair is ever visible.
//!
//! Owns [`ConsultStore`]: [`begin`](ConsultStore::begin) writes the request as
//! `…advisor-request.pending.json`; [`PendingConsult::complete`] writes the
//! response atomically and only then renames the request to its final name, so
//! a crash in between leaves no completed pair. [`ConsultStore::restore`]
//! returns the newest completed pair of the same task and the same `run_id`
//! whose trigger was consulted. Nothing is opened through a symbolic link:
//! a store directory that is a link is refused, the pair files are created
//! new and renamed into place (a rename replaces a link, never its target),
//! and a linked or oversized pair file is skipped when restoring. Must not
//! call models.

use std::io;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use super::request::AdvisorRequest;
use super::response::{AdvisorResponse, validate_response};
use crate::io::write_atomic;

const PENDING: &str = ".advisor-request.pending.json";
const REQUEST: &str = ".advisor-request.json";
const RESPONSE: &str = ".advisor-response.json";

/// Largest pair file read back (a request or a response is a few KiB).
const MAX_PAIR_BYTES: u64 = 256 * 1024;

/// Creates `dir` when missing; refuses it when it is a symbolic link.
fn open_dir(dir: &std::path::Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    if std::fs::symlink_metadata(dir)?.file_type().is_symlink() {
        return Err(io::Error::other(format!(
            "{} is a symbolic link, which the store does not follow",
            dir.display()
        )));
    }
    Ok(())
}

/// A pair file's text: regular files only (a link is not followed), bounded.
fn read_pair_file(path: &std::path::Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_file() {
        return None;
    }
    crate::io::read_file_to_string(path, MAX_PAIR_BYTES).ok()
}

/// A directory of consultation pairs.
#[derive(Debug, Clone)]
pub struct ConsultStore {
    dir: PathBuf,
}

/// A request written and awaiting its response.
#[derive(Debug)]
pub struct PendingConsult {
    dir: PathBuf,
    stem: String,
}

fn safe(s: &str) -> String {
    let keep = |c: char| c.is_ascii_alphanumeric() || c == '.' || c == '-';
    s.chars().map(|c| if keep(c) { c } else { '_' }).take(64).collect()
}

impl ConsultStore {
    /// A store in `dir` (created on first write).
    pub fn new(dir: impl Into<PathBuf>) -> ConsultStore {
        ConsultStore { dir: dir.into() }
    }

    /// Writes `request` as pending; refused when the store's directory is a
    /// symbolic link.
    pub fn begin(&self, request: &AdvisorRequest) -> io::Result<PendingConsult> {
        open_dir(&self.dir)?;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let stem = format!(
            "{}.{}.{nanos:020}-{}",
            safe(&request.task_id),
            safe(request.reason_code.as_str()),
            std::process::id()
        );
        let body = serde_json::to_vec_pretty(request).map_err(io::Error::other)?;
        write_atomic(&self.dir.join(format!("{stem}{PENDING}")), &body)?;
        Ok(PendingConsult {
            dir: self.dir.clone(),
            stem,
        })
    }

    /// The newest completed pair for `task_id` in `run_id` whose trigger is in
    /// `consulted` (the ledger's order decides "newest"; files break ties).
    /// Pairs of other runs, pending requests, invalid responses and pair files
    /// that are links or larger than 256 KiB are ignored; a store directory
    /// that is a link holds nothing.
    pub fn restore(
        &self,
        task_id: &str,
        run_id: Option<&str>,
        consulted: &[String],
    ) -> io::Result<Option<(AdvisorRequest, AdvisorResponse, PathBuf)>> {
        match std::fs::symlink_metadata(&self.dir) {
            Ok(m) if m.file_type().is_symlink() => return Ok(None),
            _ => {}
        }
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut best: Option<(usize, String, AdvisorRequest, AdvisorResponse, PathBuf)> = None;
        for entry in entries {
            let name = entry?.file_name().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(REQUEST) else {
                continue;
            };
            let req_path = self.dir.join(&name);
            let resp_path = self.dir.join(format!("{stem}{RESPONSE}"));
            let (Some(req_text), Some(resp_text)) = (read_pair_file(&req_path), read_pair_file(&resp_path)) else {
                continue;
            };
            let Ok(req) = AdvisorRequest::parse(&req_text) else {
                continue;
            };
            if req.task_id != task_id || req.run_id.as_deref() != run_id {
                continue;
            }
            let Some(rank) = consulted.iter().position(|h| *h == req.trigger_hash) else {
                continue;
            };
            let Ok(resp) = validate_response(&resp_text) else {
                continue;
            };
            let newer = best.as_ref().is_none_or(|(r, s, ..)| (rank, stem) > (*r, s.as_str()));
            if newer {
                best = Some((rank, stem.to_owned(), req, resp, resp_path));
            }
        }
        Ok(best.map(|(_, _, req, resp, path)| (req, resp, path)))
    }
}

impl PendingConsult {
    /// Stores `response` and completes the pair: the response is written
    /// atomically first, then the request is renamed from pending.
    pub fn complete(self, response: &AdvisorResponse) -> io::Result<(PathBuf, PathBuf)> {
        let req = self.dir.join(format!("{}{REQUEST}", self.stem));
        let resp = self.dir.join(format!("{}{RESPONSE}", self.stem));
        let body = serde_json::to_vec_pretty(response).map_err(io::Error::other)?;
        write_atomic(&resp, &body)?;
        std::fs::rename(self.dir.join(format!("{}{PENDING}", self.stem)), &req)?;
        Ok((req, resp))
    }

    /// Drops the pending request (the consultation failed).
    pub fn abandon(self) -> io::Result<()> {
        std::fs::remove_file(self.dir.join(format!("{}{PENDING}", self.stem)))
    }
}
