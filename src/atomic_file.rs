//! Writing a file so that readers see the old content or the new, never a mix.
//!
//! Owns [`write_atomic`], used by the consultation store and the hook's session
//! state: the bytes go to a uniquely named temporary file beside the target
//! (process id, time and a counter, so concurrent writers never share one),
//! which is then renamed over it. [`stage`] splits the two steps for a caller
//! that must know the write can succeed before it acts, and may still call it
//! off. Must not know what the bytes mean.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A write prepared by [`stage`]: the bytes are on disk beside the target;
/// [`commit`](Staged::commit) renames them over it, dropping it removes them.
#[derive(Debug)]
pub struct Staged {
    tmp: Option<PathBuf>,
    path: PathBuf,
}

impl Staged {
    /// Renames the staged bytes over the target.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(tmp) = self.tmp.take() else {
            return Ok(());
        };
        std::fs::rename(&tmp, &self.path).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

/// Writes `bytes` to a temporary file beside `path` (creating the parent
/// directory), ready to be committed.
pub fn stage(path: &Path, bytes: &[u8]) -> io::Result<Staged> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let tmp = dir.join(format!(
        ".{}.{}.{nanos}.{}.tmp",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("file"),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let staged = Staged {
        tmp: Some(tmp.clone()),
        path: path.to_path_buf(),
    };
    std::fs::write(&tmp, bytes)?;
    Ok(staged)
}

/// Writes `bytes` to `path` atomically, creating the parent directory. On
/// failure the temporary file is removed and `path` is left as it was.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    stage(path, bytes)?.commit()
}
