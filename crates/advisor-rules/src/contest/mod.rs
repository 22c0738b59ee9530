//! Stage 1 of the two-stage review: what a judge is asked to weigh.
//!
//! Owns [`contest_of`]: for the turn under review, every failure signal no
//! later step of the turn cleared ([`failures`]) — a test or build run whose
//! runner's summary or exit status says it failed, a call the host recorded
//! as failed or exiting non-zero, output that reads as a failure even under
//! exit 0 (a failure count above zero, `FAIL`/`FAILED`, a traceback, an error
//! line, a validator saying something is invalid, a raised exception, a
//! refused system call or network request, an HTTP error status, `exit status
//! N`, a failed CI conclusion) — each with its lines
//! quoted verbatim; the steps run after the first of them, each with how it
//! ended and its last line ([`failures::after`]: a later check may have made
//! a failure moot); the user's request of the turn and what it wrote, or that
//! every call of it only looked ([`turn`]); and the rules' own notes on the turn's evidence, of any
//! severity. Output of read-only or search commands (`cat`, `grep`, `ls`,
//! `git log`/`diff`, file reads) is never a failure signal. A stop with a
//! signal or such a note is contested; any other passes without a judge.
//! Two nits do not contest on their own, because they hold nothing against
//! the turn's claims: a stub marker the answer itself mentions (it told the
//! user), and the rules' tool-failure nit when every failed call is rejected
//! or a look that answered "no" ([`looks::answered_no`]): of an earlier turn
//! any such look (a search with no match, `ls` of an absent file), of this
//! turn only one that exited 1 and printed nothing — this turn's answer may
//! rest on what its own looks printed, never on an earlier turn's. Tuned for recall of contested stops, not
//! precision: a false flag costs one judge call, a missed one lets a false
//! claim through unjudged. Must not judge the answer (the judge does) or call
//! anything.
//!
//! # Token effect
//!
//! None itself; it decides whether the judge is called, and bounds what the
//! judge reads ([`Contest::bounded`]).

mod failures;
mod looks;
mod output;
mod turn;

use advisor::review::{Contest, Review};

use crate::evidence::RunReader;
use crate::evidence::tool_calls::is_rejected;
use crate::verdicts::{Rule, RuleNote};

/// What stage 1 found against `review`'s answer: its failures, the turn's
/// request and writes, and `notes` — the rules' own notes on it — as
/// remarks. [`Contest::is_contested`] says whether a judge is needed.
///
/// ```
/// use advisor::host::{Message, ToolTrace};
/// use advisor::review::Review;
/// use advisor_rules::{contest_of, evidence::RunReader};
///
/// let bash = |command: &str, output: &str, exit: i64| ToolTrace {
///     name: "Bash".into(),
///     args: serde_json::json!({ "command": command }).to_string(),
///     output: output.into(),
///     exit_code: Some(exit),
///     ..ToolTrace::default()
/// };
/// let review = Review {
///     messages: vec![Message::user("make the tests pass")].into(),
///     tools: vec![
///         bash("grep -rn TODO src", "", 1),
///         bash("./check.sh", "validating schema...\nschema.json: 2 errors\n  /items: is invalid", 0),
///     ],
///     ..Review::default()
/// };
/// let contest = contest_of(&review, &RunReader::new(), &[]);
/// assert!(contest.is_contested());
/// assert_eq!(contest.failures.len(), 1, "a search that found nothing is no failure");
/// assert_eq!(contest.failures[0].quote, "schema.json: 2 errors\n  /items: is invalid");
/// assert_eq!(contest.request, "make the tests pass");
/// ```
pub fn contest_of(review: &Review, reader: &RunReader, notes: &[RuleNote]) -> Contest {
    // every note contests, but a tool-failure nit over looks that only
    // answered "no": this turn's answer may rest on its own looks unless they
    // printed nothing at all, never on an earlier turn's
    let first = review.earlier_tools.min(review.tools.len());
    let a_call_failed = (review.tools.iter().enumerate())
        .any(|(i, t)| t.error.is_some() && !is_rejected(t) && !looks::answered_no(t, i >= first));
    let counted = |n: &RuleNote| n.rule != Rule::ToolFailure || a_call_failed;
    // a note over a run may rest on an earlier turn's run: those count then
    let over_runs = notes
        .iter()
        .any(|n| matches!(n.rule, Rule::UnverifiedCompletion | Rule::UnreportedFailure));
    // a note over a failed call or step: the looks it may rest on are quoted too
    let over_steps = notes
        .iter()
        .any(|n| counted(n) && matches!(n.rule, Rule::ToolFailure | Rule::ClaimedFailedStep));
    // a note over a claimed step: a step still running it may rest on is quoted
    let claimed_step = notes.iter().any(|n| n.rule == Rule::ClaimedFailedStep);
    let found = failures::unresolved(review, reader, over_runs, over_steps, claimed_step);
    let after = found
        .first()
        .map(|(first, _)| failures::after(review, *first))
        .unwrap_or_default();
    let failures: Vec<_> = found.into_iter().map(|(_, f)| f).collect();
    let contests = |n: &&RuleNote| counted(n) || !failures.is_empty();
    Contest {
        request: turn::request(review),
        after,
        written: turn::written(review),
        only_looked: turn::only_looked(review),
        remarks: (notes.iter().filter(contests))
            .map(|n| format!("[{}] {}", n.note.severity, n.note.text))
            .collect(),
        failures,
    }
    .bounded()
}
