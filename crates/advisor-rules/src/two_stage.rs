//! The two-stage review: the rules find the evidence, a judge decides only
//! the contested claims.
//!
//! Owns [`TwoStage`], one [`Reviewer`] over two: stage 1, the offline
//! [`RulesReviewer`] and the [`contest`](crate::contest_of) it leaves — every
//! failure no later step cleared, quoted, and the rules' own notes; stage 2,
//! the judge (any model-backed reviewer: a [`ModelReviewer`] or a
//! [`CommandReviewer`], presets included), asked one question about a
//! contested stop through [`Review::contest`]. A stop nothing contests passes
//! with no judge call. With the judge's answer, the judge decides: its notes
//! are the review's, the rules' notes follow as nits (recorded, never
//! re-opening). When the judge cannot answer — an error, a timeout, an
//! unusable answer — the rules' own verdict stands, exactly as with no
//! judge, and the review's [`UsageMeter::fallback`] says why (the plugin's
//! trace records it; the hook tells the user once a session). Must not judge
//! anything itself or decide what reaches the agent (the gate does).
//!
//! [`ModelReviewer`]: advisor::review::ModelReviewer
//! [`CommandReviewer`]: advisor::review::CommandReviewer
//! [`UsageMeter::fallback`]: advisor::review::UsageMeter::fallback
//!
//! # Token effect
//!
//! None on an uncontested stop; on a contested one, one judge call with the
//! judge's short prompt (the request, the quoted failures, what the turn
//! wrote, the answer: a few hundred tokens typically, under 3 000 at most).

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;

use advisor::evidence::EvidenceBounds;
use advisor::kind::ReviewErrorKind;
use advisor::note::{Note, Severity};
use advisor::review::{Review, ReviewError, Reviewer};

use crate::RulesReviewer;
use crate::contest::contest_of;

/// A reviewer in two stages: the offline rules, then a judge on contested
/// stops only.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// use std::sync::Arc;
/// use advisor::host::ToolTrace;
/// use advisor::review::{Review, Reviewer, from_sync_fn};
/// use advisor::{Note, Severity};
/// use advisor_rules::{RulesReviewer, TwoStage};
///
/// let judge = from_sync_fn(|r: &Review| {
///     let contest = r.contest.as_deref().expect("the judge sees the contest");
///     Ok(vec![Note::blocker("claims green over a red run").with_evidence(contest.failures[0].quote.clone())])
/// });
/// let reviewer = TwoStage::new(RulesReviewer::new(), Arc::new(judge));
/// let red = Review {
///     final_answer: Some("Tous les tests passent.".into()),
///     tools: vec![ToolTrace {
///         name: "Bash".into(),
///         args: r#"{"command":"pytest -q"}"#.into(),
///         output: "1 failed, 2 passed in 0.1s".into(),
///         exit_code: Some(1),
///         ..ToolTrace::default()
///     }],
///     ..Review::default()
/// };
/// let notes = reviewer.review(&red).await.unwrap();
/// assert_eq!(notes[0].severity, Severity::Blocker);
/// let quiet = Review { final_answer: Some("Done.".into()), ..Review::default() };
/// assert!(reviewer.review(&quiet).await.unwrap().is_empty(), "nothing to contest: no judge call");
/// # });
/// ```
#[derive(Clone)]
pub struct TwoStage {
    rules: RulesReviewer,
    judge: Arc<dyn Reviewer>,
    judge_timeout: Option<Duration>,
}

impl std::fmt::Debug for TwoStage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TwoStage")
            .field("rules", &self.rules)
            .field("judge_timeout", &self.judge_timeout)
            .finish_non_exhaustive()
    }
}

impl TwoStage {
    /// The rules as stage 1 and `judge` as stage 2, the judge bounded only
    /// by the caller's own timeout.
    pub fn new(rules: RulesReviewer, judge: Arc<dyn Reviewer>) -> TwoStage {
        TwoStage {
            rules,
            judge,
            judge_timeout: None,
        }
    }

    /// The longest the judge may take; past it the rules' verdict stands.
    /// Set it below the review's own timeout (the plugin's, the hook's
    /// `timeout_secs`), or that timeout drops both stages and the stop goes
    /// through unreviewed.
    pub fn judge_timeout(mut self, timeout: Duration) -> TwoStage {
        self.judge_timeout = Some(timeout);
        self
    }

    /// The rules of stage 1.
    pub fn rules(&self) -> &RulesReviewer {
        &self.rules
    }

    /// Asks the judge, within its timeout.
    async fn judge(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        match self.judge_timeout {
            None => self.judge.review(review).await,
            Some(t) => tokio::time::timeout(t, self.judge.review(review))
                .await
                .unwrap_or_else(|_| {
                    Err(ReviewError::with_kind(
                        ReviewErrorKind::Timeout,
                        format!("the judge did not answer within {} s", t.as_secs_f32()),
                    ))
                }),
        }
    }
}

/// Why the judge could not answer, in words the user may read (never the
/// judge's output or a secret).
fn why(e: &ReviewError) -> &'static str {
    match e.kind() {
        ReviewErrorKind::Timeout => "it did not answer in time",
        ReviewErrorKind::Unusable => "its answer was not the notes it was asked for",
        ReviewErrorKind::Panicked => "it crashed",
        _ => "it failed",
    }
}

#[async_trait]
impl Reviewer for TwoStage {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        let ruled = self.rules.check_rules(review);
        let contest = contest_of(review, self.rules.run_reader(), &ruled);
        let rules: Vec<Note> = ruled.into_iter().map(|r| r.note).collect();
        if !contest.is_contested() {
            return Ok(rules);
        }
        let mut judged = review.clone();
        judged.contest = Some(Arc::new(contest));
        match self.judge(&judged).await {
            Ok(mut notes) => {
                notes.extend(rules.into_iter().map(|n| Note {
                    severity: Severity::Nit,
                    ..n
                }));
                Ok(notes)
            }
            Err(e) => {
                tracing::warn!(error = %e, "the judge could not answer; the offline rules decide");
                review.usage.fall_back(format!(
                    "the judge could not run ({}); the offline rules decided",
                    why(&e)
                ));
                Ok(rules)
            }
        }
    }

    fn evidence_bounds(&self, configured: EvidenceBounds) -> EvidenceBounds {
        self.rules.evidence_bounds(configured)
    }
}
