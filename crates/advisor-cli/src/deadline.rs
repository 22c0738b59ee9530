//! The hard deadline of `advisor hook` (and the grace `advisor mcp` gives
//! each request): the process answers and exits within its review timeout
//! plus [`GRACE`], counted from its start — reading stdin and the transcript
//! included — whatever a reviewer, a tool, a child or a grandchild does.
//!
//! Owns the process's start ([`mark_start`], the first thing `main` does)
//! and [`Watchdog`]: a thread of its own that, at start + budget + [`GRACE`],
//! runs its expiry action once — for the hook ([`arm_hook`]) that kills
//! every child's process group ([`advisor::io::kill_process_groups`]), says
//! on one line of stderr that the stop goes through, and exits 0 (the
//! host's "let it through"; nothing is written on stdout), without waiting
//! for any other thread, pipe or child. The budget is the default review
//! timeout until the workspace's `timeout_secs` is known
//! ([`set_hook_budget`]); the review gets what is left of it
//! ([`hook_remaining`]), so the normal path answers first and [`disarm_hook`]s
//! the watchdog. Must not decide a verdict, and must not be armed for the
//! commands a person types (`review`, `eval`).

use std::io::Write;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// Time past the budget the process has to answer and exit before the
/// watchdog ends it (the hook must be gone within the budget plus 1 s).
pub(crate) const GRACE: Duration = Duration::from_millis(500);

/// How long the watchdog waits for its stderr line before it exits anyway
/// (a host that does not read stderr must not hold it).
const SAY_WITHIN: Duration = Duration::from_millis(100);

static STARTED: OnceLock<Instant> = OnceLock::new();
static HOOK: OnceLock<Watchdog> = OnceLock::new();

/// Records the process's start; later calls keep the first.
pub(crate) fn mark_start() -> Instant {
    *STARTED.get_or_init(Instant::now)
}

/// Whether the watchdog is still waiting, was stood down, or has fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Armed,
    Disarmed,
    Fired,
}

#[derive(Debug)]
struct Shared {
    started: Instant,
    budget: Duration,
    state: State,
}

impl Shared {
    fn due(&self) -> Instant {
        let at = self.started.checked_add(self.budget).unwrap_or(self.started);
        at.checked_add(GRACE).unwrap_or(at)
    }
}

/// A deadline at `started + budget + GRACE`, kept by a thread of its own.
#[derive(Debug)]
pub(crate) struct Watchdog {
    shared: Arc<(Mutex<Shared>, Condvar)>,
}

fn lock(m: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Watchdog {
    /// Starts the thread; at the deadline it runs `on_expiry` with the
    /// budget of the moment, once, unless [`disarm`](Self::disarm)ed first.
    /// `None` when no thread could be started.
    pub(crate) fn start(
        started: Instant,
        budget: Duration,
        on_expiry: impl FnOnce(Duration) + Send + 'static,
    ) -> Option<Watchdog> {
        let shared = Arc::new((
            Mutex::new(Shared {
                started,
                budget,
                state: State::Armed,
            }),
            Condvar::new(),
        ));
        let inner = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("advisor-deadline".into())
            .spawn(move || {
                let (m, cv) = &*inner;
                let mut g = lock(m);
                loop {
                    if g.state != State::Armed {
                        return;
                    }
                    let now = Instant::now();
                    let due = g.due();
                    if now >= due {
                        g.state = State::Fired;
                        let budget = g.budget;
                        drop(g);
                        on_expiry(budget);
                        return;
                    }
                    g = cv.wait_timeout(g, due - now).map_or_else(|e| e.into_inner().0, |r| r.0);
                }
            })
            .ok()?;
        Some(Watchdog { shared })
    }

    /// Moves the deadline to `started + budget + GRACE`.
    pub(crate) fn set_budget(&self, budget: Duration) {
        let (m, cv) = &*self.shared;
        lock(m).budget = budget;
        cv.notify_all();
    }

    /// What is left of the budget now (zero once it is spent).
    pub(crate) fn remaining(&self) -> Duration {
        let g = lock(&self.shared.0);
        let end = g.started.checked_add(g.budget).unwrap_or(g.started);
        end.saturating_duration_since(Instant::now())
    }

    /// Stands the watchdog down: `false` when it has already fired (its
    /// action is running; the caller must leave the exit to it).
    pub(crate) fn disarm(&self) -> bool {
        let (m, cv) = &*self.shared;
        let mut g = lock(m);
        if g.state == State::Fired {
            return false;
        }
        g.state = State::Disarmed;
        cv.notify_all();
        true
    }
}

/// Arms the hook's watchdog, counted from [`mark_start`], with the default
/// review timeout until [`set_hook_budget`].
pub(crate) fn arm_hook() {
    let started = mark_start();
    if HOOK.get().is_none() {
        if let Some(w) = Watchdog::start(started, advisor::plugin::DEFAULT_REVIEW_TIMEOUT, expire_hook) {
            let _ = HOOK.set(w);
        }
    }
}

/// The hook's budget once the workspace's `timeout_secs` is known.
pub(crate) fn set_hook_budget(budget: Duration) {
    if let Some(w) = HOOK.get() {
        w.set_budget(budget);
    }
}

/// What is left of the hook's budget (`None` when no watchdog is armed).
pub(crate) fn hook_remaining() -> Option<Duration> {
    HOOK.get().map(Watchdog::remaining)
}

/// Stands the hook's watchdog down before the process exits; `false` when
/// it has fired and is ending the process itself.
pub(crate) fn disarm_hook() -> bool {
    HOOK.get().is_none_or(Watchdog::disarm)
}

/// The hook's deadline passed: every child's group killed, one line on
/// stderr (not waited for long), exit 0 — the stop goes through.
fn expire_hook(budget: Duration) {
    advisor::io::kill_process_groups();
    let line = format!(
        "advisor hook: no answer within {} s of the hook's start (timeout_secs); the stop goes through\n",
        budget.as_secs()
    );
    let (said, heard) = std::sync::mpsc::channel();
    let _ = std::thread::Builder::new()
        .name("advisor-deadline-say".into())
        .spawn(move || {
            let _ = std::io::stderr().write_all(line.as_bytes());
            let _ = said.send(());
        });
    let _ = heard.recv_timeout(SAY_WITHIN);
    std::process::exit(0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn watchdog(budget: Duration) -> (Watchdog, mpsc::Receiver<(Duration, Instant)>) {
        let (tx, rx) = mpsc::channel();
        let w = Watchdog::start(Instant::now(), budget, move |b| {
            let _ = tx.send((b, Instant::now()));
        })
        .unwrap_or_else(|| panic!("no thread"));
        (w, rx)
    }

    #[test]
    fn it_fires_once_at_the_budget_plus_the_grace() {
        let start = Instant::now();
        let (w, rx) = watchdog(Duration::from_millis(100));
        let (budget, at) = rx
            .recv_timeout(Duration::from_secs(5))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(budget, Duration::from_millis(100));
        let took = at - start;
        assert!(
            took >= Duration::from_millis(600) && took < Duration::from_secs(3),
            "{took:?}"
        );
        assert!(rx.recv_timeout(Duration::from_millis(200)).is_err(), "fired twice");
        assert!(!w.disarm(), "disarmed after firing");
    }

    #[test]
    fn a_new_budget_moves_the_deadline_and_disarming_stops_it() {
        let start = Instant::now();
        let (w, rx) = watchdog(Duration::from_secs(30));
        w.set_budget(Duration::ZERO);
        let (_, at) = rx
            .recv_timeout(Duration::from_secs(5))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(at - start < Duration::from_secs(3));
        let (w, rx) = watchdog(Duration::from_millis(50));
        assert!(w.disarm());
        assert!(rx.recv_timeout(Duration::from_secs(1)).is_err(), "fired after disarm");
        let (w, _rx) = watchdog(Duration::from_secs(2));
        let left = w.remaining();
        assert!(
            left <= Duration::from_secs(2) && left > Duration::from_secs(1),
            "{left:?}"
        );
        assert!(w.disarm());
    }
}
