//! Calling a reviewer under a deadline.
//!
//! Owns the one place a review future runs. The review is spawned as its own
//! Tokio task and awaited with a timeout; on timeout (or when the caller drops
//! the stop hook) the task is aborted. A reviewer that ignores cancellation is
//! therefore dropped at its next await point, and even one that blocks its
//! thread cannot hold the run past the timeout on a multi-threaded runtime. A
//! panic in the reviewer is an error, never a crash. This module must not
//! interpret notes.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::AbortHandle;

use crate::kind::ReviewErrorKind;
use crate::note::Note;
use crate::review::{Review, ReviewError, Reviewer};

/// Aborts the review task when dropped, so a cancelled stop hook never leaves a
/// reviewer running.
struct AbortOnDrop(AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Runs `reviewer` on `review`, giving up after `timeout`.
pub(crate) async fn call_reviewer(
    reviewer: Arc<dyn Reviewer>,
    review: Review,
    timeout: Duration,
) -> Result<Vec<Note>, ReviewError> {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return Err(ReviewError::new(
            "the advisor must be driven by a Tokio runtime (with timers enabled)",
        ));
    };
    let task = runtime.spawn(async move { reviewer.review(&review).await });
    let _guard = AbortOnDrop(task.abort_handle());
    match tokio::time::timeout(timeout, task).await {
        Ok(Ok(result)) => result,
        Ok(Err(join)) if join.is_panic() => Err(ReviewError::with_kind(
            ReviewErrorKind::Panicked,
            "the reviewer panicked",
        )),
        Ok(Err(_)) => Err(ReviewError::new("the review task was cancelled")),
        Err(_) => Err(ReviewError::with_kind(
            ReviewErrorKind::Timeout,
            format!("the reviewer did not answer within {}", shown(timeout)),
        )),
    }
}

/// `timeout` for a person: whole seconds, rounded up, from one second on
/// (a host that gives the review what is left of its own deadline passes
/// 1.98 s for a 2 s setting), as it is below.
fn shown(timeout: Duration) -> String {
    if timeout < Duration::from_secs(1) {
        return format!("{timeout:?}");
    }
    format!("{}s", timeout.as_secs() + u64::from(timeout.subsec_nanos() > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_is_shown_in_whole_seconds_from_one_second_on() {
        assert_eq!(shown(Duration::from_millis(1980)), "2s");
        assert_eq!(shown(Duration::from_secs(30)), "30s");
        assert_eq!(shown(Duration::from_millis(250)), "250ms");
    }
}
