//! The per-session advisory lock that serialises concurrent hooks of one
//! session, so `max_rounds` holds however many stops arrive at once.
//!
//! Owns [`SessionLock`]: an exclusive `fd-lock` lock (`flock` on Unix,
//! `LockFileEx` on Windows) on a `.lock` file beside the session's state
//! file, held while its guard lives and released when the process ends
//! whatever happens. Advisory: it orders advisor hooks, nothing else. Must
//! not read or write the state itself.

use std::fs::{File, OpenOptions};
use std::path::Path;

use fd_lock::{RwLock, RwLockWriteGuard};

/// The lock file of one session's state.
pub(crate) struct SessionLock {
    file: RwLock<File>,
}

impl SessionLock {
    /// Opens (creating if needed) the lock file of the state file `state`.
    pub(crate) fn open(state: &Path) -> std::io::Result<SessionLock> {
        if let Some(dir) = state.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(state.with_extension("lock"))?;
        Ok(SessionLock {
            file: RwLock::new(file),
        })
    }

    /// Takes the lock, waiting for other hooks of the same session.
    pub(crate) fn hold(&mut self) -> std::io::Result<RwLockWriteGuard<'_, File>> {
        self.file.write()
    }
}
