//! What the hook tells the agent and the user about a finished review.
//!
//! Owns the reply of a review that ran to the end ([`reply`]): the one
//! injection, and a line for the user — that the review was blind, that a
//! token budget is spent, that a rejected state sits the advisor out, and
//! with `verdict = "summary"` a one-line verdict. A review whose reviewer
//! failed lets the stop through instead ([`failure`]). Must not decide
//! whether to block: the plugin's injection does.

use super::output::Reply;
use super::{LetThrough, one_line};
use crate::config::Verdict;
use crate::finish::Finish;

/// The stop goes through when the reviewer failed.
pub(super) fn failure(finish: &Finish) -> Option<LetThrough> {
    let err = finish.record().and_then(|r| r.error.as_ref())?;
    Some(LetThrough::Said(format!("the review failed ({})", err.message)))
}

/// The reply to the host: the injection when the review sends the agent
/// back, and the line for the user (`blind` first).
pub(super) fn reply(finish: &Finish, verdict: Verdict, reopens: bool, blind: Option<String>) -> Reply {
    // a spent token budget and a rejected state are always said: reviews
    // stopped until the budget resets or a fresh request
    let said = budget_message(finish).or_else(|| rejected_message(finish)).or_else(|| {
        (verdict == Verdict::Summary)
            .then(|| summary(finish, reopens))
            .flatten()
    });
    Reply {
        block: finish.injection().map(str::to_owned),
        message: match (blind, said) {
            (Some(b), Some(s)) => Some(format!("{b}. {s}")),
            (b, s) => b.or(s),
        },
    }
}

/// Why no review ran, when a token budget (`max_review_tokens`,
/// `max_session_review_tokens`) is spent.
fn budget_message(finish: &Finish) -> Option<String> {
    let stop = finish.report.budget_stop.as_ref()?;
    Some(format!(
        "advisor: {}; the stop goes through without a review",
        one_line(stop.to_string())
    ))
}

/// Why the advisor sat out, when the saved state was rejected (and no fresh
/// request brought it back).
fn rejected_message(finish: &Finish) -> Option<String> {
    let why = finish.rejected.as_ref().filter(|_| finish.advice.records.is_empty())?;
    Some(format!(
        "advisor: the saved state was rejected ({}); the advisor sits out this request",
        one_line(why)
    ))
}

/// The one-line verdict for `verdict = "summary"`.
fn summary(finish: &Finish, blocked: bool) -> Option<String> {
    let Some(record) = finish.record() else {
        return Some("advisor: the review allowance for this request is spent; the stop goes through".into());
    };
    if record.error.is_some() {
        return None;
    }
    let n = record.decisions.len();
    let first = record
        .decisions
        .first()
        .and_then(|d| record.notes.get(d.note))
        .map(|note| format!(": {}", advisor::invisible::display_line(&note.text, 200)))
        .unwrap_or_default();
    match (blocked, record.shadow, n) {
        (true, _, _) => Some(format!("advisor: sent the agent back ({n} note(s){first})")),
        (false, true, 1..) => Some(format!("advisor (shadow mode): {n} note(s) recorded, none sent{first}")),
        (false, false, 1..) => Some(format!("advisor: passed; {n} note(s) not sent to the agent{first}")),
        (false, _, 0) => None,
    }
}
