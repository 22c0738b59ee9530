//! The per-session advisory lock that serialises concurrent hooks of one
//! session, so `max_rounds` holds however many stops arrive at once.
//!
//! Owns [`SessionLock`]: an exclusive `fd-lock` lock (`flock` on Unix,
//! `LockFileEx` on Windows) on a `.lock` file beside the session's state
//! file — created `0600` in a `0700` directory — held while its guard lives
//! and released when the process ends whatever happens. Waiting for it is
//! bounded ([`LOCK_WAIT`]): anyone who can open the file can hold the lock, so
//! a hook that cannot get it in time gives up and the caller lets the stop
//! through. Advisory: it orders advisor hooks, nothing else. Must not read or
//! write the state itself.

use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::Path;
use std::time::{Duration, Instant};

use fd_lock::{RwLock, RwLockWriteGuard};

/// How long a hook waits for the lock before it gives up.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(2);
/// How often it tries again meanwhile.
const LOCK_POLL: Duration = Duration::from_millis(20);

/// The lock file of one session's state.
pub(crate) struct SessionLock {
    file: RwLock<File>,
}

impl SessionLock {
    /// Opens (creating if needed) the lock file of the state file `state`.
    pub(crate) fn open(state: &Path) -> std::io::Result<SessionLock> {
        if let Some(dir) = state.parent() {
            advisor::io::create_dir_private(dir, true)?;
        }
        let mut options = OpenOptions::new();
        options.create(true).truncate(false).write(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let file = options.open(state.with_extension("lock"))?;
        Ok(SessionLock {
            file: RwLock::new(file),
        })
    }

    /// Takes the lock, waiting at most `wait` for other hooks of the same
    /// session (or whoever else holds it); a `TimedOut` error after that.
    pub(crate) fn hold_within(&mut self, wait: Duration) -> std::io::Result<RwLockWriteGuard<'_, File>> {
        let deadline = Instant::now() + wait;
        loop {
            match self.file.try_write() {
                // free: taken again below (a guard cannot leave this loop)
                Ok(_) => break,
                Err(e) if e.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                    std::thread::sleep(LOCK_POLL);
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    return Err(std::io::Error::new(
                        ErrorKind::TimedOut,
                        format!("another process held the lock for {} s", wait.as_secs()),
                    ));
                }
                Err(e) => return Err(e),
            }
        }
        // another hook may take it in between: that is one more wait refused, never a wait without end
        self.file.try_write()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_given_up_on_within_its_wait_and_files_are_private() {
        let dir = std::env::temp_dir().join(format!("advisor-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let state = dir.join("state").join("s.json");
        let mut first = SessionLock::open(&state).unwrap();
        let _held = first.hold_within(LOCK_WAIT).unwrap();
        let mut second = SessionLock::open(&state).unwrap();
        let started = Instant::now();
        let err = second.hold_within(Duration::from_millis(100)).map(|_| ()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::TimedOut);
        assert!(started.elapsed() < Duration::from_secs(2), "bounded");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&state.with_extension("lock")), 0o600);
            assert_eq!(mode(state.parent().unwrap()), 0o700);
        }
        drop(_held);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
