//! The completion rules: a success claim over a failure no later run cleared
//! (unverified completion), and a failure the answer does not tell
//! (unreported failure).
//!
//! Owns [`failure_note`]: the note on the newest outstanding failure, by what
//! the answer claims. A claim about tests, builds or lints is held against
//! every failure of that kind; a claim about the task ("Done") or that
//! everything checks out, against the turn's own; a run the answer names as
//! passing, against that run. A failure the answer (or an earlier message of
//! the turn) tells in any wording hides nothing. Must not read runs or the
//! answer's words itself: the evidence and answer wings do that.

use advisor::note::Note;
use advisor::review::Review;

use super::failed_step;
use super::failing::{failing_names, failing_words, run_programs, run_subcommands, step_words};
use super::rule::{COMMAND_BYTES, QUOTE_BYTES, Rule, RuleNote, quote};
use crate::answer::claims::{self, Claims};
use crate::answer::run_names::{named_runs, ran_checker, run_names, scoped_to_later_run};
use crate::answer::{admissions, disclosures, naming, sentences};
use crate::evidence::runs::{Ending, Run};

/// What the answer claims, read against the turn's runs.
struct Reading {
    /// The claims of the sentences that cite no passed run.
    general: Claims,
    /// `general` with the kinds of the runs the answer names.
    claims: Claims,
    /// The runs (their indices) the answer names as passing.
    named: Vec<usize>,
    /// The checkers the answer names with a short verdict ("clippy is clean").
    checkers: Vec<&'static str>,
    /// Whether the claim is judged by the turn's own failures: "Done" alone,
    /// or "everything checks out" whatever else it claims.
    turn_claim: bool,
}

/// Reads what `normalised` claims over `runs`.
fn read_claims(normalised: &str, runs: &[Run]) -> Reading {
    // "unit tests are green (`go test ./internal/...`)": a claim that cites a
    // run that passed is about that run, not about every test
    let passed: Vec<String> = runs
        .iter()
        .filter(|r| r.ending == Ending::Passed)
        .flat_map(|r| run_names(r).0)
        .collect();
    let unscoped: Vec<&str> = sentences::sentences(normalised)
        .filter(|s| !passed.iter().any(|name| naming::cites_as_passing(s, name)))
        .collect();
    let general = claims::claims(&unscoped.join(". "));
    let mut claims = general;
    // "`go test ./...` passes", "`test_login` passes now", "20/20 ok": a claim
    // about what was named, held against that run only
    let named = named_runs(runs, normalised);
    for run in runs.iter().filter(|r| named.contains(&r.index)) {
        if run.is_test() {
            claims.tests = true;
        } else {
            claims.build = true;
        }
    }
    // "clippy is clean": held against a failed build or lint that ran clippy
    let checkers = claims::named_checkers(&unscoped.join(". "));
    // "Done" alone is judged by the turn's failures; an answer that says
    // what it verified ("tests pass") is judged on that
    let task_only = claims.task && !claims.tests && !claims.build;
    // …and "everything checks out" by the turn's failures whatever else it claims
    let turn_claim = task_only || general.every;
    Reading {
        general,
        claims,
        named,
        checkers,
        turn_claim,
    }
}

/// Whether what the answer claims (`reading`) is contradicted by the failed `run`.
fn contradicts(reading: &Reading, review: &Review, run: &Run) -> bool {
    let general = reading.general;
    let in_turn = run.index >= review.earlier_tools;
    // a CI result the agent then acted on (a file written, a commit or push
    // after it) is the task the turn did, not evidence against it: CI runs again
    let acted_on = || run.is_ci_read() && failed_step::acted_after(&review.tools[run.index + 1..]);
    reading.named.contains(&run.index)
        || (general.tests && run.failed_tests())
        || (general.build && run.failed_build())
        || (general.lint && run.failed_lint())
        || (reading.turn_claim && in_turn && !acted_on() && !run.ran_nothing)
        || ((run.failed_build() || run.failed_lint()) && reading.checkers.iter().any(|c| ran_checker(run, c)))
}

/// Whether the failed `run` is hidden: neither the answer (`normalised`) nor
/// an `earlier` message of the turn tells it, and no later run the answer
/// scopes its claim to stands for it.
fn hidden(normalised: &str, earlier: &[String], runs: &[Run], run: &Run) -> bool {
    !disclosures::tells_as_known(earlier, &failing_words(run))
        && !disclosures::discloses(normalised, &failing_names(run), &step_words(run))
        && !disclosures::tells_unrun(normalised, &run_programs(run))
        && !disclosures::tells_unmet(normalised, &run_subcommands(run))
        && (!run.stopped() || !disclosures::tells_stopped(normalised))
        && !scoped_to_later_run(run, runs, normalised)
}

/// The note on the newest outstanding failure (`failures`, oldest first), by
/// what the answer (`normalised`) claims.
pub(super) fn failure_note(review: &Review, normalised: &str, runs: &[Run], failures: &[&Run]) -> Option<RuleNote> {
    let reading = read_claims(normalised, runs);
    // a failure the turn's earlier messages told as known, naming what
    // failed ("the TS errors are pre-existing missing type definitions
    // (cypress, node)"), is not hidden by a later "Done"
    let earlier = if reading.turn_claim {
        turn_messages(review)
    } else {
        Vec::new()
    };
    let contradicted = failures
        .iter()
        .rev()
        .filter(|r| contradicts(&reading, review, r))
        .find(|r| hidden(normalised, &earlier, runs, r));
    if let Some(run) = contradicted {
        return Some(claim_note(run, &reading.named));
    }
    let last = failures.last()?;
    (!reading.claims.any() && !admissions::mentions_failure(normalised)).then(|| {
        let what = what_ran(last);
        RuleNote::new(
            Rule::UnreportedFailure,
            Note::nit(format!(
                "{} and no later run of the same {what} passed, but the answer does not say so.",
                capitalise(&evidence_of(last))
            )),
        )
    })
}

/// The note on a claim the failed `run` contradicts; `named`: the runs the
/// answer names as passing.
fn claim_note(run: &Run, named: &[usize]) -> RuleNote {
    let (evidence, what) = (evidence_of(run), what_ran(run));
    // a wrapper's failure is held against the answer only when the
    // answer names that very command as passing: its exit status is
    // the host's, whatever the wrapper ran
    if run.is_opaque() && !named.contains(&run.index) {
        return RuleNote::new(
            Rule::UnreportedFailure,
            Note::nit(format!(
                "The answer claims success, but {evidence} and no later run of the same {what} passed; \
the rules cannot read that command's output, so this is not held against the answer."
            )),
        );
    }
    RuleNote::new(
        Rule::UnverifiedCompletion,
        Note::blocker(format!(
            "The answer claims success, but {evidence} and no later run of the same {what} passed. Re-run \
it and fix the failure, or say plainly that it still fails."
        )),
    )
}

/// The assistant's messages of the turn under review before its answer
/// (back to the last message from the user), each normalised.
fn turn_messages(review: &Review) -> Vec<String> {
    review
        .messages
        .iter()
        .rev()
        .take_while(|m| m.role != advisor::host::Role::User)
        .filter(|m| m.role == advisor::host::Role::Assistant)
        .map(|m| claims::normalise(&m.content))
        .collect()
}

/// What a note calls the run: "tests", "build", or "command" for a commit or push.
fn what_ran(run: &Run) -> &'static str {
    if run.invocations.iter().any(|i| i.runner().name == "git commit") {
        "command"
    } else if run.failed_tests() {
        "tests"
    } else {
        "build"
    }
}

/// "`mix test` failed (297 tests, 11 failures)".
fn evidence_of(run: &Run) -> String {
    let what = match &run.ending {
        Ending::Failed(line) => quote(line, QUOTE_BYTES),
        _ => "failed".to_owned(),
    };
    format!("`{}` failed ({what})", quote(&run.display, COMMAND_BYTES))
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}
