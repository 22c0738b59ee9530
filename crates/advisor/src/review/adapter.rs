//! Closure adapters for [`Reviewer`].
//!
//! Owns [`from_fn`] (async closures) and [`from_sync_fn`] (plain closures).
//! They add no behaviour of their own.

use std::future::Future;

use async_trait::async_trait;

use super::{Review, ReviewError, Reviewer};
use crate::note::Note;

/// A [`Reviewer`] made from an async closure; see [`from_fn`].
#[derive(Clone)]
pub struct FnReviewer<F>(F);

impl<F> std::fmt::Debug for FnReviewer<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FnReviewer")
    }
}

/// Adapts an async closure that takes the [`Review`] by value.
///
/// ```
/// use advisor::{Note, review::{self, ReviewError}};
/// let reviewer = review::from_fn(|r: review::Review| async move {
///     Ok::<_, ReviewError>(if r.round == 0 { vec![Note::concern("check the join")] } else { vec![] })
/// });
/// # let _ = reviewer;
/// ```
pub fn from_fn<F, Fut>(f: F) -> FnReviewer<F>
where
    F: Fn(Review) -> Fut + Send + Sync,
    Fut: Future<Output = Result<Vec<Note>, ReviewError>> + Send,
{
    FnReviewer(f)
}

#[async_trait]
impl<F, Fut> Reviewer for FnReviewer<F>
where
    F: Fn(Review) -> Fut + Send + Sync,
    Fut: Future<Output = Result<Vec<Note>, ReviewError>> + Send,
{
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        (self.0)(review.clone()).await
    }
}

/// A [`Reviewer`] made from a plain closure; see [`from_sync_fn`].
#[derive(Clone)]
pub struct SyncFnReviewer<F>(F);

impl<F> std::fmt::Debug for SyncFnReviewer<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SyncFnReviewer")
    }
}

/// Adapts a plain closure over `&Review`. It runs on the async runtime, so it
/// must not block for long.
///
/// ```
/// use advisor::{Note, review};
/// let reviewer = review::from_sync_fn(|r: &review::Review| {
///     Ok(if r.final_answer.as_deref() == Some("42") { vec![] } else { vec![Note::concern("re-check the sum")] })
/// });
/// # let _ = reviewer;
/// ```
pub fn from_sync_fn<F>(f: F) -> SyncFnReviewer<F>
where
    F: Fn(&Review) -> Result<Vec<Note>, ReviewError> + Send + Sync,
{
    SyncFnReviewer(f)
}

#[async_trait]
impl<F> Reviewer for SyncFnReviewer<F>
where
    F: Fn(&Review) -> Result<Vec<Note>, ReviewError> + Send + Sync,
{
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        (self.0)(review)
    }
}
