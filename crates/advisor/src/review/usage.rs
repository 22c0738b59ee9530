//! Charging a reviewer's token usage to the run that caused it.
//!
//! Owns [`UsageMeter`]: a shared counter a reviewer adds every model attempt's
//! usage (and every workspace tool call it ran) to — failed retries and fallbacks included — and the plugin reads
//! after the review, even one that failed or timed out; and the one line a
//! reviewer leaves when it answered from its fallback because a part of it
//! could not run (a two-stage reviewer whose judge failed). Must not decide
//! anything.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::usage::Usage;

/// Where a reviewer reports the tokens it used (and the workspace tool calls
/// it made). Clones share the count.
#[derive(Debug, Clone, Default)]
pub struct UsageMeter(Arc<(Mutex<Usage>, AtomicU64, Mutex<Option<String>>)>);

impl UsageMeter {
    /// A meter at zero.
    pub fn new() -> UsageMeter {
        UsageMeter::default()
    }

    /// Adds one attempt's usage.
    pub fn charge(&self, usage: Usage) {
        *self.0.0.lock().unwrap_or_else(PoisonError::into_inner) += usage;
    }

    /// Counts `n` workspace tool calls the reviewer ran.
    pub fn add_tool_calls(&self, n: u64) {
        self.0.1.fetch_add(n, Ordering::Relaxed);
    }

    /// Workspace tool calls counted so far.
    pub fn tool_calls(&self) -> u64 {
        self.0.1.load(Ordering::Relaxed)
    }

    /// Records that the reviewer answered from its fallback, and why (one
    /// line, no secrets: it reaches the trace and, once per session, the
    /// user). The first reason is kept.
    pub fn fall_back(&self, why: impl Into<String>) {
        let mut slot = self.0.2.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(why.into());
        }
    }

    /// Why the reviewer answered from its fallback, if it did.
    pub fn fallback(&self) -> Option<String> {
        self.0.2.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Everything charged so far.
    pub fn total(&self) -> Usage {
        *self.0.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Meters are bookkeeping, not evidence: any two compare equal.
impl PartialEq for UsageMeter {
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Eq for UsageMeter {}
