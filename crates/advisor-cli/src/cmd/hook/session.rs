//! The hook's session: where its state lives, the lock that serialises the
//! hooks of one session, the state saved at the last review, and the commit
//! of the next.
//!
//! Owns [`SessionFiles`] (the state and lock files, refused when the
//! workspace's `.advisor`, the state directory or a file is a symbolic link)
//! and [`Session`] (the prior state, why it cannot be kept, the staged next
//! state). It also owns the one "already continuing" policy: when the session
//! state cannot be loaded or saved, a stop the host marks as already
//! continuing (`stop_hook_active`, Cursor's `loop_count`) goes through — the
//! cap holds whatever the file system does. A state that cannot be read, or
//! that the plugin rejects, makes the advisor sit out the request (never a
//! refilled allowance). Must not review anything or decide the reply.

use std::fs::File;
use std::path::{Path, PathBuf};

use fd_lock::RwLockWriteGuard;

use super::input::{HookEvent, HookInput};
use super::lock::{LOCK_WAIT, SessionLock};
use super::state::{SessionState, load, stage, state_path, told_key};
use super::{LetThrough, say};
use crate::finish::{Finish, Prior};

/// Where one session's (or sub-agent's) state and lock files are.
pub(super) struct SessionFiles {
    dir: PathBuf,
    /// The state file; `Err` when the session id is too long to keep one.
    path: Result<PathBuf, String>,
}

/// A session with its prior state loaded.
pub(super) struct Session {
    path: Option<PathBuf>,
    /// Why the state cannot be kept, when it cannot: the cap then rests on
    /// the host's own loop flag.
    problem: Option<String>,
    prior: Option<Prior>,
    /// Keys of what the user was told this session.
    told: Vec<String>,
    staged: Option<advisor::io::Staged>,
}

impl SessionFiles {
    /// The files of `input`'s session under `state_dir` (default
    /// `<workspace>/.advisor/state`); a symbolic link on the way is refused
    /// (a committed `.advisor/state` link would send the files wherever it
    /// points) and the stop is not reviewed.
    pub(super) fn locate(state_dir: Option<&Path>, workspace: &Path, input: &HookInput) -> Result<Self, LetThrough> {
        let dir = state_dir.map_or_else(|| workspace.join(".advisor").join("state"), Path::to_path_buf);
        let agent = match input.event {
            HookEvent::SubagentStop => Some(input.agent_id.as_deref().unwrap_or("agent")),
            HookEvent::Stop => None,
        };
        let path = state_path(&dir, &input.session_id, agent);
        let mut candidates = vec![workspace.join(".advisor"), dir.clone()];
        if let Ok(s) = &path {
            candidates.extend([s.clone(), s.with_extension("lock")]);
        }
        if let Some(link) = crate::no_links::first_link(candidates) {
            let why = crate::no_links::refusal(&link, "its state");
            return Err(LetThrough::Said(format!("{why}; not reviewed")));
        }
        Ok(SessionFiles { dir, path })
    }

    /// Whether `name` is news in this workspace: the first call for it in
    /// the state folder leaves a marker there and says yes; later ones, or
    /// a folder that cannot be written, say no (a repeat is better than a
    /// line every stop, and a marker that cannot be written is not retried).
    pub(super) fn first_time_in_workspace(&self, name: &str) -> bool {
        if advisor::io::create_dir_private(&self.dir, true).is_err() {
            return false;
        }
        let marker = self.dir.join(format!("told-{name}"));
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(marker)
            .is_ok()
    }

    fn locking(&self, e: std::io::Error) -> String {
        format!("cannot lock the session state in {}: {e}", self.dir.display())
    }

    /// The session's lock file, opened (or why it cannot be).
    pub(super) fn lock(&self) -> Result<SessionLock, String> {
        (self.path.clone()).and_then(|p| SessionLock::open(&p).map_err(|e| self.locking(e)))
    }

    /// Takes the lock: `Ok(Err(why))` when it cannot be taken (the session
    /// goes on with that problem); a lock another process holds past
    /// [`LOCK_WAIT`] lets the stop through unreviewed.
    pub(super) fn hold<'a>(
        &self,
        lock: &'a mut Result<SessionLock, String>,
    ) -> Result<Result<RwLockWriteGuard<'a, File>, String>, LetThrough> {
        match lock {
            Ok(l) => match l.hold_within(LOCK_WAIT) {
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {
                    Err(LetThrough::Said(format!("{}; not reviewed", self.locking(e))))
                }
                other => Ok(other.map_err(|e| self.locking(e))),
            },
            Err(e) => Ok(Err(e.clone())),
        }
    }

    /// The session with the state saved at its last review; `problem` is why
    /// the lock could not be taken, if it could not. A saved state that is
    /// there but cannot be trusted makes the advisor sit the request out.
    pub(super) fn load(self, problem: Option<String>) -> Session {
        let mut session = Session {
            path: self.path.ok(),
            problem,
            prior: None,
            told: Vec::new(),
            staged: None,
        };
        let Some(path) = session.path.as_deref() else {
            return session;
        };
        match load(path) {
            Ok(Some(state)) => {
                let (prior, told) = state.into_prior();
                (session.prior, session.told) = (Some(prior), told);
            }
            Ok(None) => {}
            Err(why) if path.is_file() => {
                say(format!("{why}; the advisor sits out this request"));
                session.problem = Some(why.clone());
                session.prior = Some(Prior {
                    rejected: Some(why),
                    ..Prior::default()
                });
            }
            Err(why) => {
                say(format!("{why}; treating the session as fresh"));
                session.problem = Some(why);
            }
        }
        session
    }
}

impl Session {
    /// The state saved at the last review, if any.
    pub(super) fn prior(&self) -> Option<&Prior> {
        self.prior.as_ref()
    }

    /// The "already continuing" policy: with a state the hook cannot keep, a
    /// stop the host marks as already continuing goes through.
    pub(super) fn cap_holds(&self, input: &HookInput) -> Result<(), LetThrough> {
        match &self.problem {
            Some(why) if input.continuing() => Err(LetThrough::Said(format!(
                "{why}, and a stop hook already sent the agent back"
            ))),
            _ => Ok(()),
        }
    }

    /// Before a reply that sends the agent back: the policy again (the new
    /// state may not have been staged), else say why the state is not kept.
    pub(super) fn before_reopening(&self, reopens: bool, input: &HookInput) -> Result<(), LetThrough> {
        if let Some(why) = self.problem.as_ref().filter(|_| reopens) {
            self.cap_holds(input)?;
            say(why);
        }
        Ok(())
    }

    /// Stages the state after `finish` beside the state file (committed only
    /// once the reply is out): the advisor's checkpoint, the request it was
    /// for (else the last one), the transcript's last compaction.
    pub(super) fn stage(&mut self, finish: &Finish, request: Option<String>, compaction: Option<&str>) {
        let last_prompt = request.or_else(|| self.prior.as_ref().and_then(|p| p.last_prompt.clone()));
        let state = SessionState::new(
            finish.checkpoint.clone(),
            last_prompt.as_deref(),
            compaction,
            &self.told,
        );
        let Some(path) = self.path.as_deref() else { return };
        match stage(path, &state) {
            Ok(staged) => self.staged = Some(staged),
            Err(e) => self.problem = Some(format!("cannot save the session state to {}: {e}", path.display())),
        }
    }

    /// Whether `key` is news to the user this session; it is not any more.
    pub(super) fn first_time(&mut self, key: &str) -> bool {
        let key = told_key(key);
        if self.told.contains(&key) {
            return false;
        }
        self.told.push(key);
        true
    }

    /// Commits the staged state, saying so when it cannot be saved.
    pub(super) fn commit(self) {
        if let Some(Err(e)) = self.staged.map(advisor::io::Staged::commit) {
            say(format!("cannot save the session state: {e}"));
        }
    }
}
