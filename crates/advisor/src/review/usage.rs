//! Charging a reviewer's token usage to the run that caused it.
//!
//! Owns [`UsageMeter`]: a shared counter a reviewer adds every model attempt's
//! usage (and every workspace tool call it ran) to — failed retries and fallbacks included — and the plugin reads
//! after the review, even one that failed or timed out. Must not decide
//! anything.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use crate::usage::Usage;

/// Where a reviewer reports the tokens it used (and the workspace tool calls
/// it made). Clones share the count.
#[derive(Debug, Clone, Default)]
pub struct UsageMeter(Arc<(Mutex<Usage>, AtomicU64)>);

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
