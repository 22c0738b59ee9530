//! When to consult: trigger hashes and the per-run ledger that suppresses a
//! repeated trigger and caps consultations per task.
//!
//! Owns [`normalize_signature`], [`trigger_hash`] and [`ConsultLedger`] (a
//! serializable, per-run record). Only successful consultations are recorded,
//! so a failed one may be retried. Must not call models or touch files.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// Longest normalized signature.
pub const MAX_SIGNATURE_CHARS: usize = 80;
/// Default consultations per task per run.
pub const DEFAULT_MAX_CONSULTS_PER_TASK: u32 = 3;

/// Normalizes a failure signature with the guard's dedupe key
/// ([`normalize_note`](crate::guard::normalize_note): letters and digits of
/// every script, NFKC, lowercase, invisible characters removed), its words
/// joined by `-`, at most 80 characters, `none` if nothing is left.
///
/// ```
/// use advisor::consult::normalize_signature;
/// assert_eq!(normalize_signature("tests/test-cli.sh: FAILED (exit 1)"), "tests-test-cli-sh-failed-exit-1");
/// assert_eq!(normalize_signature("型チェックで失敗"), "型チェックで失敗");
/// assert_eq!(normalize_signature("差分で失敗 (exit 1)"), "差分で失敗-exit-1");
/// assert_eq!(normalize_signature("—"), "none");
/// ```
pub fn normalize_signature(signature: &str) -> String {
    let key = crate::guard::normalize_note(signature);
    let mut out: String = key
        .chars()
        .take(MAX_SIGNATURE_CHARS)
        .map(|c| if c == ' ' { '-' } else { c })
        .collect();
    out.truncate(out.trim_end_matches('-').len());
    if out.is_empty() { "none".to_owned() } else { out }
}

/// `task_id:reason_code:normalized_signature`.
pub fn trigger_hash(task_id: &str, reason_code: &str, signature: &str) -> String {
    format!("{task_id}:{reason_code}:{}", normalize_signature(signature))
}

/// Why a consultation is not allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// This trigger was already consulted in this run.
    Duplicate,
    /// The task used its consultations for this run.
    CapReached,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Refusal::Duplicate => "this trigger was already consulted in this run",
            Refusal::CapReached => "the task used all its consultations for this run",
        })
    }
}

/// A run's consultations: the triggers consulted (in order) and the count per task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsultLedger {
    max_per_task: u32,
    consulted_trigger_hashes: Vec<String>,
    task_consultations: BTreeMap<String, u32>,
}

impl Default for ConsultLedger {
    fn default() -> Self {
        ConsultLedger::new(DEFAULT_MAX_CONSULTS_PER_TASK)
    }
}

impl ConsultLedger {
    /// An empty ledger allowing `max_per_task` consultations per task.
    pub fn new(max_per_task: u32) -> ConsultLedger {
        ConsultLedger {
            max_per_task,
            consulted_trigger_hashes: Vec::new(),
            task_consultations: BTreeMap::new(),
        }
    }

    /// Whether `task_id` may consult for `trigger_hash` now.
    pub fn check(&self, task_id: &str, trigger_hash: &str) -> Result<(), Refusal> {
        if self.consulted_trigger_hashes.iter().any(|h| h == trigger_hash) {
            return Err(Refusal::Duplicate);
        }
        if self.task_consultations.get(task_id).copied().unwrap_or(0) >= self.max_per_task {
            return Err(Refusal::CapReached);
        }
        Ok(())
    }

    /// Records a successful consultation.
    pub fn record(&mut self, task_id: &str, trigger_hash: &str) {
        if !self.consulted_trigger_hashes.iter().any(|h| h == trigger_hash) {
            self.consulted_trigger_hashes.push(trigger_hash.to_owned());
        }
        *self.task_consultations.entry(task_id.to_owned()).or_default() += 1;
    }

    /// The triggers consulted, oldest first.
    pub fn consulted(&self) -> &[String] {
        &self.consulted_trigger_hashes
    }

    /// Consultations `task_id` used.
    pub fn consultations(&self, task_id: &str) -> u32 {
        self.task_consultations.get(task_id).copied().unwrap_or(0)
    }
}
