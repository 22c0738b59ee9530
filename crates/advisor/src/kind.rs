//! The tags a review record carries: when the review happened
//! ([`ReviewKind`]: at a finish, or periodically mid-run) and, when it failed,
//! how ([`ReviewErrorKind`]).
//!
//! On the library's ground floor, so the guard's gate, rendering, traces and
//! the plugin's report name them without reaching up to the reviewers. Owns
//! only the tags; it must not carry behaviour.

use serde::{Deserialize, Serialize};

wire_enum! {
    /// When a review happens.
    #[derive(Default)]
    ReviewKind {
        /// The agent is about to finish; the reviewer sees its final answer.
        #[default]
        Finish => "finish",
        /// A turn boundary mid-run; there is no answer yet.
        Periodic => "periodic",
    }
}

/// What kind of failure a [`ReviewError`](crate::review::ReviewError) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ReviewErrorKind {
    /// The reviewer could not do its work (provider down, quota).
    Failed,
    /// The reviewer answered with something that is not notes.
    Unusable,
    /// The review did not finish within the timeout.
    Timeout,
    /// The reviewer panicked.
    Panicked,
}
