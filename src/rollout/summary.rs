//! `advisor summarize`: per-arm counts and rates over rollout traces.
//!
//! Owns [`summarize`] and its result. Attempts are grouped by `rollout_id`.
//! Besides reviews and interventions (by action and reason code) it reports
//! the two ways an advised attempt can silently run as a baseline:
//! `effectively_unadvised` (the advisor failed and never intervened) and
//! `advised_without_reviews` (never reviewed at all), and the pass rate per arm
//! when outcomes were recorded. A malformed line is reported with its source
//! and line, never skipped silently. [`summarize_paths`] reads trace files and
//! directories for the CLI and the Python bindings alike. Must not write traces.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::trace::{Arm, EventKind, Outcome, ROLLOUT_TRACE_SCHEMA, RolloutEvent};

/// Counts for one arm.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ArmSummary {
    /// Attempts.
    pub attempts: u32,
    /// Reviews that produced a decision.
    pub reviews: u32,
    /// Cues delivered.
    pub interventions: u32,
    /// Cues by action.
    pub interventions_by_action: BTreeMap<String, u32>,
    /// Cues by reason code.
    pub interventions_by_reason: BTreeMap<String, u32>,
    /// Revisions rejected for calling finish without the tool.
    pub revisions_resampled: u32,
    /// Advisor or revision failures where the draft was kept.
    pub fail_open_events: u32,
    /// Attempts whose advisor failed and that never received a cue.
    pub effectively_unadvised: u32,
    /// Attempts never reviewed at all.
    pub advised_without_reviews: u32,
    /// `effectively_unadvised / attempts`.
    pub effectively_unadvised_rate: Option<f64>,
    /// `advised_without_reviews / attempts`.
    pub advised_without_reviews_rate: Option<f64>,
    /// Attempts with a passed/failed outcome.
    pub graded: u32,
    /// Attempts that passed.
    pub passed: u32,
    /// `passed / graded`.
    pub pass_rate: Option<f64>,
}

/// The summary of a set of traces.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Per arm.
    pub arms: BTreeMap<Arm, ArmSummary>,
    /// `source:line: why` for every line that could not be read.
    pub malformed: Vec<String>,
}

#[derive(Default)]
struct Attempt {
    arm: Option<Arm>,
    gated: u32,
    decisions: u32,
    cues: Vec<(String, String)>,
    resampled: u32,
    fail_open: u32,
    outcome: Option<Outcome>,
}

fn rate(n: u32, d: u32) -> Option<f64> {
    (d > 0).then(|| f64::from(n) / f64::from(d))
}

/// Summarizes trace lines from `(source name, text)` inputs.
pub fn summarize<'a>(inputs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Summary {
    let mut attempts: BTreeMap<String, Attempt> = BTreeMap::new();
    let mut malformed = Vec::new();
    for (source, text) in inputs {
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let event: RolloutEvent = match serde_json::from_str(line) {
                Ok(e) => e,
                Err(e) => {
                    malformed.push(format!(
                        "{source}:{}: not a rollout trace event ({})",
                        i + 1,
                        crate::json::describe_serde_error(&e)
                    ));
                    continue;
                }
            };
            if event.schema != ROLLOUT_TRACE_SCHEMA {
                malformed.push(format!("{source}:{}: schema is not {ROLLOUT_TRACE_SCHEMA}", i + 1));
                continue;
            }
            let a = attempts.entry(event.rollout_id.clone()).or_default();
            a.arm = Some(event.arm);
            match event.kind {
                EventKind::ReviewGated { .. } => a.gated += 1,
                EventKind::Decision { .. } => a.decisions += 1,
                EventKind::CueDelivered { cue, .. } => a
                    .cues
                    .push((cue.action.as_str().to_owned(), cue.reason_code.as_str().to_owned())),
                EventKind::RevisionResampled { .. } => a.resampled += 1,
                EventKind::FailOpen { .. } | EventKind::Failed { .. } => a.fail_open += 1,
                EventKind::AttemptEnd { outcome, .. } => a.outcome = Some(outcome),
                _ => {}
            }
        }
    }
    let mut arms: BTreeMap<Arm, ArmSummary> = BTreeMap::new();
    for a in attempts.values() {
        let Some(arm) = a.arm else { continue };
        let s = arms.entry(arm).or_default();
        s.attempts += 1;
        s.reviews += a.decisions;
        s.interventions += u32::try_from(a.cues.len()).unwrap_or(u32::MAX);
        for (action, reason) in &a.cues {
            *s.interventions_by_action.entry(action.clone()).or_default() += 1;
            *s.interventions_by_reason.entry(reason.clone()).or_default() += 1;
        }
        s.revisions_resampled += a.resampled;
        s.fail_open_events += a.fail_open;
        if arm == Arm::Advised {
            if a.fail_open > 0 && a.cues.is_empty() {
                s.effectively_unadvised += 1;
            }
            if a.gated == 0 {
                s.advised_without_reviews += 1;
            }
        }
        match a.outcome {
            Some(Outcome::Passed) => {
                s.graded += 1;
                s.passed += 1;
            }
            Some(Outcome::Failed) => s.graded += 1,
            _ => {}
        }
    }
    for s in arms.values_mut() {
        s.pass_rate = rate(s.passed, s.graded);
        s.effectively_unadvised_rate = rate(s.effectively_unadvised, s.attempts);
        s.advised_without_reviews_rate = rate(s.advised_without_reviews, s.attempts);
    }
    Summary { arms, malformed }
}

/// A trace path could not be read.
#[derive(Debug)]
pub struct TraceReadError {
    /// The file or directory.
    pub path: PathBuf,
    /// Why.
    pub error: std::io::Error,
}

impl fmt::Display for TraceReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for TraceReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() || p.extension().is_some_and(|e| e == "jsonl") {
                collect(&p, out)?;
            }
        }
    } else {
        out.push(path.to_owned());
    }
    Ok(())
}

/// Summarizes trace files; a directory is searched recursively for `*.jsonl`
/// (in name order). The source of each malformed line is the file's path.
pub fn summarize_paths<P: AsRef<Path>>(paths: &[P]) -> Result<Summary, TraceReadError> {
    let mut files = Vec::new();
    for p in paths {
        let p = p.as_ref();
        collect(p, &mut files).map_err(|error| TraceReadError {
            path: p.to_owned(),
            error,
        })?;
    }
    let mut texts = Vec::new();
    for f in files {
        match std::fs::read_to_string(&f) {
            Ok(t) => texts.push((f.display().to_string(), t)),
            Err(error) => return Err(TraceReadError { path: f, error }),
        }
    }
    Ok(summarize(texts.iter().map(|(n, t)| (n.as_str(), t.as_str()))))
}
