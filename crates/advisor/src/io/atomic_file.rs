//! Writing a file so that readers see the old content or the new, never a mix.
//!
//! Owns [`write_atomic`], used by the consultation store and, through
//! [`advisor::io`](crate::io), by the CLI (the user config, `advisor init
//! --force` and the hook's session state): the bytes go to a uniquely named temporary file beside the target
//! (process id, time and a counter, so concurrent writers never share one),
//! fsynced, then renamed over it, and the directory is fsynced. [`stage`]
//! splits the two steps for a caller that must know the write can succeed
//! before it acts, and may still call it off. Must not know what the bytes
//! mean.

use std::io::{self, Write};
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
    /// Renames the staged bytes over the target and flushes the directory
    /// entry; on failure the temporary file is removed.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(tmp) = self.tmp.take() else {
            return Ok(());
        };
        if let Err(e) = std::fs::rename(&tmp, &self.path) {
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        sync_dir(parent_dir(&self.path))
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = std::fs::remove_file(tmp);
        }
    }
}

fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Writes `bytes` durably to a new temporary file beside `path` (creating
/// the parent directory), ready to be committed.
pub fn stage(path: &Path, bytes: &[u8]) -> io::Result<Staged> {
    stage_with(path, bytes, false)
}

/// Like [`stage`], for a file only its owner may read: on Unix the file is
/// created `0600` and a parent directory it creates `0700` (state, locks).
pub fn stage_private(path: &Path, bytes: &[u8]) -> io::Result<Staged> {
    stage_with(path, bytes, true)
}

/// Creates `dir` and its missing parents, `0700` on Unix when `private`.
pub fn create_dir_private(dir: &Path, private: bool) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

fn stage_with(path: &Path, bytes: &[u8], private: bool) -> io::Result<Staged> {
    let dir = parent_dir(path);
    create_dir_private(dir, private)?;
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
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&tmp)?;
    // from here on, dropping `staged` removes the temporary file
    let staged = Staged {
        tmp: Some(tmp),
        path: path.to_path_buf(),
    };
    file.write_all(bytes)?;
    file.sync_all()?;
    Ok(staged)
}

/// Writes `bytes` to `path` atomically and durably, creating the parent
/// directory: the temporary file is fsynced before the rename and the
/// directory after it. If the write or the rename fails, the temporary file is
/// removed and `path` is left as it was; if only the directory sync fails, the
/// new content is in place but the rename may not survive a crash.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    stage(path, bytes)?.commit()
}

/// Flushes the directory entry of the rename, so the new name survives a crash.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Directories cannot be opened for syncing here; the rename is as durable as
/// the platform makes it.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("advisor-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn replaces_the_file_and_leaves_no_temp_behind() {
        let d = scratch("ok");
        let p = d.join("state.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_dropped_stage_removes_its_temp_file_and_keeps_the_target() {
        let d = scratch("drop");
        let p = d.join("state.json");
        write_atomic(&p, b"old").unwrap();
        drop(stage(&p, b"new").unwrap());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_failed_rename_removes_the_temp_file_and_keeps_the_target() {
        let d = scratch("fail");
        // the target is a non-empty directory: the rename fails after the temp file was written
        let p = d.join("target");
        std::fs::create_dir_all(p.join("inside")).unwrap();
        assert!(write_atomic(&p, b"new").is_err());
        let names: Vec<_> = std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("target")]);
        assert!(p.join("inside").is_dir());
        let _ = std::fs::remove_dir_all(&d);
    }
}
