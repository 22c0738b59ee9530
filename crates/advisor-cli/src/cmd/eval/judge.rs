//! Judging one labelled stop of `advisor eval`.
//!
//! Owns [`Judge`] (the configured reviewer — the rules, or a model or command
//! reviewer — run on one stop point through the real plugin path, the same as
//! `advisor review`), the [`Outcome`] it gives (verdict, the rules that
//! interrupted, notes, error, [`Cost`], what the judge did) and the two
//! reviewer wrappers that observe it: [`Metered`] (tool calls) and
//! [`RecordingRules`] (which rules interrupted). Must not count outcomes or
//! render them ([`report`](super::report) does), nor read label files.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use advisor::AdvisorPlugin;
use advisor::Note;
use advisor::evidence::EvidenceBounds;
use advisor::review::{Review, ReviewError, Reviewer};
use advisor_rules::{RuleNote, RulesReviewer};
use async_trait::async_trait;
use serde_json::json;

use super::labels::{Label, Verdict, stop_text};
use super::recorded::{Counted, JudgeCall};
use crate::finish::review_transcript;
use crate::transcript::parse_transcript;

/// What the reviewer made of one stop point.
pub(super) struct Outcome {
    pub(super) verdict: Verdict,
    /// Rules whose admitted notes interrupted (`model` for a model reviewer).
    pub(super) rules: Vec<String>,
    pub(super) notes: Vec<String>,
    /// The case could not be reviewed (unreadable transcript, reviewer failure): the stop goes through.
    pub(super) error: Option<String>,
    /// What the review cost: tokens (when known), tool calls, wall time.
    pub(super) cost: Cost,
    /// What the judge (a model or command reviewer) did for this stop.
    pub(super) judge: JudgeCall,
    /// Why the reviewer answered from its fallback (the judge could not).
    pub(super) fallback: Option<String>,
}

/// What one stop's review cost.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Cost {
    pub(super) tokens: Option<advisor::usage::Usage>,
    pub(super) tool_calls: u64,
    pub(super) wall: Duration,
}

impl Cost {
    pub(super) fn json(&self) -> serde_json::Value {
        json!({
            "tokens": self.tokens.map(|u| json!({"input": u.input_tokens, "output": u.output_tokens, "estimated": u.estimated})),
            "tool_calls": self.tool_calls,
            "wall_ms": self.wall.as_millis(),
        })
    }
}

/// A reviewer whose last review's tokens and tool calls are remembered.
pub(super) struct Metered {
    pub(super) inner: Arc<dyn Reviewer>,
    pub(super) last: Mutex<(advisor::usage::Usage, u64)>,
}

#[async_trait]
impl Reviewer for Metered {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        let out = self.inner.review(review).await;
        if let Ok(mut last) = self.last.lock() {
            *last = (review.usage.total(), review.usage.tool_calls());
        }
        out
    }

    fn evidence_bounds(&self, configured: EvidenceBounds) -> EvidenceBounds {
        self.inner.evidence_bounds(configured)
    }
}

impl Outcome {
    /// A stop that goes through unreviewed, with why when it is an error.
    pub(super) fn pass(error: Option<String>) -> Outcome {
        Outcome {
            verdict: Verdict::Pass,
            rules: Vec::new(),
            notes: Vec::new(),
            error,
            cost: Cost::default(),
            judge: JudgeCall::default(),
            fallback: None,
        }
    }
}

/// The rules reviewer, remembering which rule raised each note of the review
/// the plugin actually built (bounded evidence included).
pub(super) struct RecordingRules {
    pub(super) rules: RulesReviewer,
    pub(super) seen: Mutex<Vec<RuleNote>>,
}

#[async_trait]
impl Reviewer for RecordingRules {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        let notes = self.rules.check_rules(review);
        let out = notes.iter().map(|r| r.note.clone()).collect();
        if let Ok(mut seen) = self.seen.lock() {
            *seen = notes;
        }
        Ok(out)
    }

    fn evidence_bounds(&self, configured: EvidenceBounds) -> EvidenceBounds {
        self.rules.evidence_bounds(configured)
    }
}

/// How the eval reviews one stop.
pub(super) struct Judge {
    pub(super) reviewer: Option<Arc<dyn Reviewer>>,
    pub(super) rules: Option<RulesReviewer>,
    pub(super) label: String,
    pub(super) max_notes: usize,
    pub(super) timeout: Duration,
    pub(super) interrupt: advisor::Severity,
    /// The model or command reviewer, counted.
    pub(super) counted: Option<Arc<Counted>>,
}

impl Judge {
    /// The outcome of one stop; a case that cannot be reviewed passes with its error.
    pub(super) async fn judge(&self, label: &Label) -> Outcome {
        let start = std::time::Instant::now();
        let mut out = self.try_judge(label).await.unwrap_or_else(|e| Outcome::pass(Some(e)));
        out.cost.wall = start.elapsed();
        out
    }

    async fn try_judge(&self, label: &Label) -> Result<Outcome, String> {
        let text = stop_text(label)?;
        let (transcript, _) = parse_transcript(&label.id, &text, None).map_err(|e| e.to_string())?;
        let Some(answer) = transcript.last_answer().map(str::to_owned) else {
            return Ok(Outcome::pass(None));
        };
        let recorder = self.rules.clone().map(|rules| {
            Arc::new(RecordingRules {
                rules,
                seen: Mutex::new(Vec::new()),
            })
        });
        let inner: Arc<dyn Reviewer> = match (&recorder, &self.reviewer) {
            (Some(r), _) => r.clone(),
            (None, Some(m)) => m.clone(),
            (None, None) => return Err("no reviewer".into()),
        };
        let metered = Arc::new(Metered {
            inner,
            last: Mutex::new((advisor::usage::Usage::default(), 0)),
        });
        let reviewer: Arc<dyn Reviewer> = metered.clone();
        let builder = AdvisorPlugin::builder()
            .shared_reviewer(reviewer)
            .max_notes_per_review(self.max_notes)
            .interrupt(self.interrupt)
            .timeout(self.timeout);
        if let Some(c) = &self.counted {
            c.take();
        }
        let finish = review_transcript(builder, &transcript, &answer, None, None, None, &mut |_| {})
            .await
            .map_err(|e| e.to_string())?;
        let record = finish.record().ok_or("no review ran")?;
        let verdict = if finish.advice.interrupts() {
            Verdict::Block
        } else {
            Verdict::Pass
        };
        let interrupting: Vec<&advisor::Note> = record
            .decisions
            .iter()
            .filter(|d| d.reason == advisor::guard::Reason::Accepted && d.severity >= self.interrupt)
            .filter_map(|d| record.notes.get(d.note))
            .collect();
        let mut rules: Vec<String> = Vec::new();
        match &recorder {
            _ if verdict == Verdict::Pass => {}
            None if record.fallback.is_some() => rules.push("rules (the judge could not answer)".to_owned()),
            None if self.label.starts_with("claims") => rules.push("judge".to_owned()),
            None => rules.push("model".to_owned()),
            Some(r) => {
                let seen = r.seen.lock().map(|s| s.clone()).unwrap_or_default();
                for rn in seen
                    .iter()
                    .filter(|rn| interrupting.iter().any(|n| n.text == rn.note.text))
                {
                    if !rules.iter().any(|n| n == rn.rule.as_str()) {
                        rules.push(rn.rule.as_str().to_owned());
                    }
                }
            }
        }
        Ok(Outcome {
            verdict,
            rules,
            notes: record
                .notes
                .iter()
                .map(|n| format!("[{}] {}", n.severity, n.text))
                .collect(),
            error: record.error.as_ref().map(|e| e.message.clone()),
            cost: {
                let (usage, tool_calls) = metered.last.lock().map(|l| *l).unwrap_or_default();
                Cost {
                    tokens: (!usage.is_zero()).then_some(usage),
                    tool_calls,
                    wall: Duration::ZERO,
                }
            },
            judge: self.counted.as_ref().map(|c| c.take()).unwrap_or_default(),
            fallback: record.fallback.clone(),
        })
    }
}
