//! The two moments a review happens: at a finish, or periodically mid-run.
//!
//! Owns only the [`ReviewKind`] tag; it must not carry behaviour.

use std::fmt;

use serde::{Deserialize, Serialize};

/// When a review happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ReviewKind {
    /// The agent is about to finish; the reviewer sees its final answer.
    #[default]
    Finish,
    /// A turn boundary mid-run; there is no answer yet.
    Periodic,
}

impl ReviewKind {
    /// `finish` or `periodic`.
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewKind::Finish => "finish",
            ReviewKind::Periodic => "periodic",
        }
    }
}

impl fmt::Display for ReviewKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
