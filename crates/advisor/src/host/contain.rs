//! Panic containment for hooks: a panicking hook counts as no opinion.
//!
//! Owns the two wrappers the dispatcher uses; must not decide what "no
//! opinion" means for a given hook.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::task::Poll;

/// Runs `f`, returning `None` if it panicked.
pub(crate) fn contain<T>(f: impl FnOnce() -> T) -> Option<T> {
    catch_unwind(AssertUnwindSafe(f)).ok()
}

/// Awaits `fut`, returning `None` if any poll of it panicked.
pub(crate) async fn contain_async<F: Future>(fut: F) -> Option<F::Output> {
    let mut fut = std::pin::pin!(fut);
    std::future::poll_fn(
        move |cx| match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
            Ok(Poll::Ready(v)) => Poll::Ready(Some(v)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(_) => Poll::Ready(None),
        },
    )
    .await
}
