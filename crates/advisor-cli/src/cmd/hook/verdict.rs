//! What the hook tells the agent and the user about a finished review.
//!
//! Owns the reply of a review that ran to the end ([`reply`]): the one
//! injection, and a line for the user — that the review was blind, that a
//! token budget is spent, that a rejected state sits the advisor out, the
//! news of this review ([`news`]: the concerns that did not send the agent
//! back, that the judge could not run, each once a session), and with
//! `verdict = "summary"` a one-line verdict. A review whose reviewer failed
//! lets the stop through instead ([`failure`]): never a finding, and the
//! user is told once a session that the advisor could not review. Also owns
//! the one line a workspace whose config changed meaning gets once
//! ([`migration`]). Must not decide whether to block: the plugin's injection
//! does.

use super::output::Reply;
use super::{LetThrough, one_line};
use crate::config::{Interrupt, ReviewerKind, Verdict, WorkspaceConfig};
use crate::finish::Finish;
use advisor::kind::ReviewErrorKind;
use advisor::note::Severity;

/// The stop goes through when the reviewer failed: its reason said on
/// stderr every time, and the first time in the session (`first`) one line
/// shown to the user too, with the workspace's `migration` line when this
/// hook owes it — a reviewer that could not run is never a finding.
pub(super) fn failure(
    finish: &Finish,
    migration: Option<&str>,
    first: &mut dyn FnMut(&str) -> bool,
) -> Option<LetThrough> {
    let err = finish.record().and_then(|r| r.error.as_ref())?;
    let why = match err.kind {
        ReviewErrorKind::Timeout => "it did not answer in time",
        ReviewErrorKind::Unusable => "its answer was not the notes it was asked for",
        ReviewErrorKind::Panicked => "it crashed",
        _ => "it failed",
    };
    let said = format!("the review failed ({})", err.message);
    Some(if first("could-not-review") {
        let shown = format!("could not review this stop ({why})");
        let shown = migration.map_or_else(|| shown.clone(), |m| format!("{m}. {shown}"));
        LetThrough::Told { shown, said }
    } else {
        LetThrough::Said(said)
    })
}

/// What this review tells the user, each thing once a session (`first`
/// says whether a key is news and remembers it): the admitted concerns that
/// did not send the agent back, and that the judge could not run.
pub(super) fn news(finish: &Finish, first: &mut dyn FnMut(&str) -> bool) -> Option<String> {
    let mut lines = Vec::new();
    if let Some(why) = finish.advice.records.iter().find_map(|r| r.fallback.as_deref()) {
        if first("judge-fallback") {
            lines.push(format!("advisor: {}", one_line(why)));
        }
    }
    let concerns: Vec<String> = (finish.advice.to_user())
        .filter(|n| first(&format!("note:{}", advisor::guard::normalize_note(&n.text))))
        .map(|n| advisor::invisible::display_line(&n.text, 300))
        .collect();
    if !concerns.is_empty() {
        lines.push(format!(
            "advisor (for you, not sent to the agent): {}",
            concerns.join(" · ")
        ));
    }
    (!lines.is_empty()).then(|| lines.join(". "))
}

/// The one line a workspace gets once when its config means something else
/// since only a blocker sends the agent back: a `concern` that used to.
pub(super) fn migration(config: &WorkspaceConfig) -> Option<String> {
    if config.interrupt == Interrupt::Concern {
        return None;
    }
    let stubs = config.rules.stub_markers == Some(Severity::Concern);
    let clamp = config.max_severity == Severity::Concern;
    let command = (config.reviewer.as_ref()).is_some_and(|r| r.kind == ReviewerKind::Command && r.preset.is_none());
    let what = match (stubs, clamp, command) {
        (true, _, _) => "`stub_markers = \"concern\"` no longer sends the agent back",
        (_, true, _) => "`max_severity = \"concern\"` no longer sends the agent back",
        (_, _, true) => "a command reviewer's blocker without \"evidence\" found in its prompt is a concern",
        _ => return None,
    };
    Some(format!(
        "advisor: only a blocker sends the agent back now (interrupt = \"blocker\"); {what} — concerns are shown to you instead. Set interrupt = \"concern\" in .advisor/config.toml to keep the old behaviour"
    ))
}

/// The reply to the host: the injection when the review sends the agent
/// back, and the line for the user (`blind` first, `news` last).
pub(super) fn reply(
    finish: &Finish,
    verdict: Verdict,
    reopens: bool,
    blind: Option<String>,
    news: Option<String>,
) -> Reply {
    // a spent token budget and a rejected state are always said: reviews
    // stopped until the budget resets or a fresh request
    let said = budget_message(finish).or_else(|| rejected_message(finish)).or_else(|| {
        (verdict == Verdict::Summary)
            .then(|| summary(finish, reopens))
            .flatten()
    });
    let lines: Vec<String> = [blind, said, news].into_iter().flatten().collect();
    Reply {
        block: finish.injection().map(str::to_owned),
        message: (!lines.is_empty()).then(|| lines.join(". ")),
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
