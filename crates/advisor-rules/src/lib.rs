//! The rules reviewer ([`RulesReviewer`]): an offline, deterministic reviewer
//! over the library's [`Reviewer`] seam — the CLI's default.
//!
//! Owns the rules and their configuration; each rule is a pure function of
//! the [`Review`]. What an answer claims decides what evidence counts:
//! - a claim about **tests, builds or type checks** ("all tests pass",
//!   "builds cleanly") is held against every failed run of that kind no later
//!   run cleared — this turn's or an earlier one's;
//! - a claim about **the task** ("Done", "PR created", "the feature is
//!   complete") only against the failures of the turn under review (since the
//!   last genuine prompt; continuations after a Stop hook's feedback are the
//!   same turn);
//! - an answer that claims neither, or that **discloses** the failure in any
//!   wording (names the failing test, "still red", "pre-existing", "unrelated",
//!   "fails on main too", asks whether to update a test), is never
//!   interrupted.
//!
//! The rules:
//! 1. **unverified completion** (blocker): a claim the evidence above
//!    contradicts, over a run whose outcome the rules could read (a runner's
//!    summary line, or the exit status of a runner they know);
//! 2. **unreported failure** (nit): an outstanding failure the answer neither
//!    claims against nor mentions, or a claim over a run that went through a
//!    wrapper whose output the rules cannot read (`just test` exiting 1 with
//!    no runner summary) — recorded, never an interruption;
//! 3. **stub markers** (nit): the answer itself says it left `TODO`, a
//!    placeholder or a stub — it is telling the user, so it is recorded and
//!    never sent back; markers inside a negation ("no TODOs left") are not
//!    markers;
//! 4. **tool failure** (nit): another call failed and no later call of the
//!    same tool succeeded. Rejected and cancelled calls never count;
//! 5. **claimed failed step** (blocker): one sentence of the answer claims
//!    the result of the turn's last step — a shell call that is not a run, or
//!    a file write — and names what it was about (or says a check was made
//!    and came out right without naming it), while the host recorded
//!    that step as failed and the answer says nothing failed
//!    ([`failed_step`]); or says a command of the turn finished, passed or
//!    exited 0 while the host recorded it as still running or stopped at a
//!    timeout ([`unfinished`]).
//!
//! Runs are recognised by the command that ran ([`runners`]), read from the
//! host's recorded exit status and each runner's summary line ([`outcome`],
//! [`runs`]), cleared by a later run that covers them ([`coverage`]); the
//! answer is normalised before matching ([`claims`], [`admissions`]). Note text never quotes
//! durations, timestamps, temporary paths or process ids ([`stable`]), so the
//! same failure gives the same note whatever the timing. Must not call
//! models, read files or keep state; the caller hands in what the workspace
//! says (its `package.json` scripts). It sees what a model reviewer would
//! see, and says nothing when nothing matches.
//!
//! # Token effect
//!
//! None: no model is called.

mod actions;
mod admissions;
mod claims;
mod coverage;
mod disclosures;
mod failed_step;
mod formats;
mod found_nothing;
mod invocation;
mod matchers;
mod naming;
mod not_started;
mod outcome;
mod run_line;
mod run_names;
mod runners;
mod runs;
mod sentences;
mod shell;
mod stable;
mod step_claims;
mod step_programs;
mod stubs;
mod subjects;
mod summary_line;
mod text;
mod tool_calls;
mod unfinished;

pub use outcome::looks_failed;

use std::fmt;

use advisor::evidence::EvidenceBounds;
use advisor::host::ToolTrace;
use advisor::note::Note;
use advisor::review::{Review, ReviewError, Reviewer};
use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::text::truncate_middle;

/// Whether a run tests or builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunKind {
    /// A test run.
    Test,
    /// A build, type check or lint.
    Build,
}

use run_names::{named_runs, ran_checker, run_names, scoped_to_later_run};
use runs::{Ending, Run, outstanding_failures, runs_of};
use tool_calls::is_rejected;

/// A workspace's package scripts: name → command line (`package.json`
/// `scripts`), to resolve `npm run <script>`.
pub type Scripts = std::collections::BTreeMap<String, String>;

/// Bytes of evidence quoted in a note.
const QUOTE_BYTES: usize = 160;
/// Bytes of a command quoted in a note.
const COMMAND_BYTES: usize = 120;

/// Which rule raised a note; its wire name is the rule's stable name
/// (`unverified_completion`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Rule {
    /// The answer claims success over a failing test or build run.
    #[serde(rename = "unverified_completion")]
    UnverifiedCompletion,
    /// A test or build run failed and the answer does not mention it, or
    /// a claim rests on a run the rules cannot read (recorded as a nit).
    #[serde(rename = "unreported_failure")]
    UnreportedFailure,
    /// The answer contains a stub marker.
    #[serde(rename = "stub_marker")]
    StubMarker,
    /// Another tool call failed and no later call of it succeeded.
    #[serde(rename = "tool_failure")]
    ToolFailure,
    /// The answer claims the result of the turn's last step, which failed.
    #[serde(rename = "claimed_failed_step")]
    ClaimedFailedStep,
}

impl Rule {
    /// Every value, in declaration order.
    pub const ALL: &'static [Rule] = &[
        Rule::UnverifiedCompletion,
        Rule::UnreportedFailure,
        Rule::StubMarker,
        Rule::ToolFailure,
        Rule::ClaimedFailedStep,
    ];

    /// The value as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::UnverifiedCompletion => "unverified_completion",
            Rule::UnreportedFailure => "unreported_failure",
            Rule::StubMarker => "stub_marker",
            Rule::ToolFailure => "tool_failure",
            Rule::ClaimedFailedStep => "claimed_failed_step",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A note and the rule that raised it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleNote {
    /// The rule.
    pub rule: Rule,
    /// The note.
    pub note: Note,
}

impl RuleNote {
    fn new(rule: Rule, note: Note) -> RuleNote {
        RuleNote { rule, note }
    }
}

/// `text` on one line, without volatile parts, cut to `bytes`.
fn quote(text: &str, bytes: usize) -> String {
    let flat: Vec<&str> = text
        .split(|c: char| c.is_control() || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    truncate_middle(&stable::stable(&flat.join(" ")), bytes)
}

/// The offline rules reviewer.
///
/// Shell calls are read by their command; a tool that is not a shell (a
/// host's own `run_tests`) counts as a test or build run only when it is
/// named with [`runner_tool`](Self::runner_tool).
///
/// ```
/// use advisor::host::ToolTrace;
/// use advisor::review::Review;
/// use advisor_rules::{RulesReviewer, RunKind};
/// let review = Review {
///     final_answer: Some("All tests pass now.".into()),
///     tools: vec![ToolTrace { name: "run_tests".into(), error: Some("2 failed".into()), ..Default::default() }],
///     ..Review::default()
/// };
/// let rules = RulesReviewer::new().runner_tool("run_tests", RunKind::Test);
/// let notes = rules.check(&review);
/// assert_eq!(notes[0].severity, advisor::Severity::Blocker);
/// ```
#[derive(Debug, Clone, Default)]
pub struct RulesReviewer {
    runner_tools: Vec<(String, RunKind)>,
    scripts: Scripts,
    stub_severity: advisor::Severity,
}

impl RulesReviewer {
    /// The rules reviewer, with no runner tools beyond shells.
    pub fn new() -> RulesReviewer {
        RulesReviewer::default()
    }

    /// Marks the tool `name` (matched case-insensitively), which is not a
    /// shell, as a test or build runner: each call of it is a run, read from
    /// any known summary line in its output and from its error.
    pub fn runner_tool(mut self, name: impl Into<String>, kind: RunKind) -> RulesReviewer {
        let name = name.into();
        self.runner_tools.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
        self.runner_tools.push((name, kind));
        self
    }

    /// The workspace's package scripts (`package.json` `scripts`), so that
    /// `npm|pnpm|yarn|bun run <script>` is read as the command it runs when
    /// deciding whether a later run covers an earlier failure. Without them
    /// such coverage is undecided, and an undecided failure never blocks.
    pub fn package_scripts(mut self, scripts: Scripts) -> RulesReviewer {
        self.scripts = scripts;
        self
    }

    /// The severity of a stub-marker note: [`Nit`](advisor::Severity::Nit) by
    /// default (the answer told the user itself), or `Concern`/`Blocker` for a
    /// workspace that wants an answer mentioning a `TODO` or a placeholder sent
    /// back.
    pub fn stub_markers(mut self, severity: advisor::Severity) -> RulesReviewer {
        self.stub_severity = severity;
        self
    }

    /// Applies every rule to `review`, most severe first.
    pub fn check(&self, review: &Review) -> Vec<Note> {
        self.check_rules(review).into_iter().map(|r| r.note).collect()
    }

    /// Like [`check`](Self::check), with the rule that raised each note.
    pub fn check_rules(&self, review: &Review) -> Vec<RuleNote> {
        let mut notes = Vec::new();
        let answer = review.final_answer.as_deref().unwrap_or("");
        let normalised = claims::normalise(answer);
        let runs = runs_of(&review.tools, &self.runner_tools);
        let failures = outstanding_failures(&runs, &self.scripts);
        if !answer.is_empty() {
            let note = self.failure_note(review, &normalised, &runs, &failures);
            let blocks = note
                .as_ref()
                .is_some_and(|n| n.note.severity == advisor::Severity::Blocker);
            notes.extend(note);
            if !blocks {
                notes.extend(failed_step::claimed_failed_step(review, &normalised, &runs));
            }
        }
        if let Some(marker) = stubs::stub_marker(answer) {
            notes.push(RuleNote::new(
                Rule::StubMarker,
                Note::new(
                    format!(
                        "The answer says it contains \"{marker}\": a stub or placeholder may stand in for the real result."
                    ),
                    self.stub_severity,
                ),
            ));
        }
        notes.extend(tool_failures(&review.tools, &runs));
        notes
    }

    /// The note on the newest outstanding failure, by what the answer claims.
    fn failure_note(&self, review: &Review, normalised: &str, runs: &[Run], failures: &[&Run]) -> Option<RuleNote> {
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
        let in_turn = |r: &Run| r.index >= review.earlier_tools;
        // "Done" alone is judged by the turn's failures; an answer that says
        // what it verified ("tests pass") is judged on that
        let task_only = claims.task && !claims.tests && !claims.build;
        // …and "everything checks out" by the turn's failures whatever else it claims
        let turn_claim = task_only || general.every;
        // a CI result the agent then acted on (a file written, a commit or push
        // after it) is the task the turn did, not evidence against it: CI runs again
        let acted_on = |r: &Run| r.is_ci_read() && failed_step::acted_after(&review.tools[r.index + 1..]);
        let contradicted = |r: &&&Run| {
            named.contains(&r.index)
                || (general.tests && r.failed_tests())
                || (general.build && r.failed_build())
                || (general.lint && r.failed_lint())
                || (turn_claim && in_turn(r) && !acted_on(r) && !r.ran_nothing)
                || ((r.failed_build() || r.failed_lint()) && checkers.iter().any(|c| ran_checker(r, c)))
        };
        // a failure the turn's earlier messages told as known, naming what
        // failed ("the TS errors are pre-existing missing type definitions
        // (cypress, node)"), is not hidden by a later "Done"
        let earlier = if turn_claim { turn_messages(review) } else { Vec::new() };
        let hidden = |r: &Run| {
            !disclosures::tells_as_known(&earlier, &failing_words(r))
                && !disclosures::discloses(normalised, &failing_names(r), &step_words(r))
                && !disclosures::tells_unrun(normalised, &run_programs(r))
                && !disclosures::tells_unmet(normalised, &run_subcommands(r))
                && (!r.stopped() || !disclosures::tells_stopped(normalised))
                && !scoped_to_later_run(r, runs, normalised)
        };
        if let Some(run) = failures.iter().rev().filter(contradicted).find(|r| hidden(r)) {
            let (evidence, what) = (evidence(run), what_ran(run));
            // a wrapper's failure is held against the answer only when the
            // answer names that very command as passing: its exit status is
            // the host's, whatever the wrapper ran
            if run.is_opaque() && !named.contains(&run.index) {
                return Some(RuleNote::new(
                    Rule::UnreportedFailure,
                    Note::nit(format!(
                        "The answer claims success, but {evidence} and no later run of the same {what} passed; \
the rules cannot read that command's output, so this is not held against the answer."
                    )),
                ));
            }
            return Some(RuleNote::new(
                Rule::UnverifiedCompletion,
                Note::blocker(format!(
                    "The answer claims success, but {evidence} and no later run of the same {what} passed. Re-run \
it and fix the failure, or say plainly that it still fails."
                )),
            ));
        }
        let last = failures.last()?;
        (!claims.any() && !admissions::mentions_failure(normalised)).then(|| {
            let what = what_ran(last);
            RuleNote::new(
                Rule::UnreportedFailure,
                Note::nit(format!(
                    "{} and no later run of the same {what} passed, but the answer does not say so.",
                    capitalise(&evidence(last))
                )),
            )
        })
    }
}

/// The last lines of a run's output that report a failure — an error or
/// failure word in any case, a `✗` or `✕` mark, a linter's message line
/// (`legacy/export.py:1:0: C0114: …`), trimmed: what [`failing_words`] and
/// [`failing_names`] read.
fn failing_lines(run: &Run) -> impl Iterator<Item = &str> {
    run.output.lines().rev().take(400).map(str::trim).filter(|l| {
        let lower = l.to_lowercase();
        lower.contains("error")
            || lower.contains("fail")
            || l.contains('✗')
            || l.contains('✕')
            || summary_line::pylint_line(l) == Some(summary_line::Says::Fail)
            || summary_line::is_rustfmt_diff(l)
    })
}

/// What a run's failing lines name in so many words (lower case): what they
/// quote (`Cannot find type definition file for 'cypress'`) and their codes
/// (`TS2688`, `E501`) — what a message that tells the failure as known names.
fn failing_words(run: &Run) -> Vec<String> {
    let mut words = Vec::new();
    for line in failing_lines(run) {
        let lower = line.to_lowercase();
        // quoted: every other piece between quotes
        for quote in ['\'', '"', '`'] {
            words.extend(
                lower
                    .split(quote)
                    .skip(1)
                    .step_by(2)
                    .filter(|q| q.chars().count() >= 3)
                    .map(str::to_owned),
            );
        }
        // codes: letters then digits (`ts2688`, `e501`)
        words.extend(
            lower
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| {
                    let digits = w.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                    w.len() >= 4
                        && digits.len() >= 3
                        && digits.len() < w.len()
                        && digits.bytes().all(|b| b.is_ascii_digit())
                })
                .map(str::to_owned),
        );
    }
    words.sort();
    words.dedup();
    words.truncate(256);
    words
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

/// The words of a run's runners' names that are no failure topic already
/// (`commit` for `git commit`, `pytest`; not `test` or `make`): what an aside
/// may be said of ("the changes were mixed into an unrelated commit"). Wider
/// than the failing names: "clippy reports no warnings and the errors are
/// gone" names no failure.
fn step_words(run: &Run) -> Vec<String> {
    let mut names = Vec::new();
    names.extend(
        run.invocations
            .iter()
            .flat_map(|i| i.runner().name.split(' '))
            .filter(|w| w.len() >= 4 && !admissions::is_failure_topic(w) && !matches!(*w, "make" | "exec" | "bunx"))
            .map(str::to_owned),
    );
    names.sort();
    names.dedup();
    names
}

/// The subcommand each of a run's commands starts with (`push` of `git push
/// origin main`), lower case.
fn run_subcommands(run: &Run) -> Vec<String> {
    run.invocations
        .iter()
        .filter_map(|i| {
            i.display
                .split_whitespace()
                .skip(1)
                .find(|w| !w.starts_with('-'))
                .map(str::to_lowercase)
        })
        .collect()
}

/// The programs of a run's runners (`playwright` for `npx playwright test`),
/// of two letters or more, so that an answer saying one has yet to run
/// tells of the failure.
fn run_programs(run: &Run) -> Vec<String> {
    run.invocations
        .iter()
        .filter_map(|i| i.runner().name.split(' ').next())
        .filter(|p| p.len() >= 2)
        .map(str::to_owned)
        .collect()
}

/// The failing tests and files a run's output names (lower case), so that
/// an answer naming one of them discloses the failure.
fn failing_names(run: &Run) -> Vec<String> {
    let mut names = Vec::new();
    for l in failing_lines(run) {
        for word in l.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\'' | ',' | '[' | ']')) {
            let w = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
            let named =
                w.contains("::") || w.contains('/') || w.contains('.') || w.contains('_') || w.starts_with("test");
            if named && w.len() >= 4 && !w.starts_with("http") && names.len() < 64 {
                // `tests/test_a.py::test_x` is named by `test_x` or `test_a.py`
                // too, but not by a directory's plain word (`internal`, `http`
                // in `lms-go/internal/http/api`): only the last part, and parts
                // that name a file or a test, stand for the whole
                let parts: Vec<&str> = w.split(['/', ':']).filter(|p| !p.is_empty()).collect();
                let last = parts.len().saturating_sub(1);
                for (i, part) in parts.iter().enumerate() {
                    let names_one = i == last || part.contains(['.', '_']) || part.starts_with("test");
                    if names_one && part.len() >= 4 {
                        names.push(part.to_lowercase());
                    }
                }
                // and the path's tails: `internal/http/api` names `lms-go/internal/http/api`
                let segments: Vec<&str> = w.split('/').collect();
                for k in 0..segments.len().saturating_sub(1) {
                    let tail = segments[k..].join("/");
                    if tail.len() >= 4 {
                        names.push(tail.to_lowercase());
                    }
                }
            }
        }
    }
    names.retain(|n| {
        !matches!(
            n.as_str(),
            "failed" | "failures" | "error" | "errors" | "tests" | "test"
        )
    });
    names.sort();
    names.dedup();
    names
}

/// "`mix test` failed (297 tests, 11 failures)".
fn evidence(run: &Run) -> String {
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

/// Nits for failed calls that are not runs, were not rejected, and were not
/// followed by a success of the same tool.
fn tool_failures(tools: &[ToolTrace], runs: &[Run]) -> Vec<RuleNote> {
    let mut names: Vec<&str> = Vec::new();
    for t in tools {
        if !names.contains(&t.name.as_str()) {
            names.push(&t.name);
        }
    }
    let is_run = |i: usize| runs.iter().any(|r| r.index == i);
    let mut notes = Vec::new();
    for name in names {
        let last = tools
            .iter()
            .enumerate()
            .rev()
            .find(|(i, t)| t.name == name && !is_rejected(t) && !is_run(*i));
        if let Some((_, ToolTrace { error: Some(error), .. })) = last {
            notes.push(RuleNote::new(
                Rule::ToolFailure,
                Note::nit(format!(
                    "The last `{name}` call failed ({}) and no later `{name}` call succeeded.",
                    quote(error, QUOTE_BYTES)
                )),
            ));
        }
    }
    notes
}

#[async_trait]
impl Reviewer for RulesReviewer {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        Ok(self.check(review))
    }

    /// Each tool call's fields up to 16 000 bytes (or the plugin's bound, if
    /// wider): no prompt is built, and a runner's failing line can sit above
    /// the last kilobyte of its output.
    fn evidence_bounds(&self, configured: EvidenceBounds) -> EvidenceBounds {
        EvidenceBounds {
            max_tool_field_bytes: configured.max_tool_field_bytes.max(RULES_TOOL_FIELD_BYTES),
            ..configured
        }
    }
}

/// Bytes of each tool call's arguments, output and error the rules read in a
/// plugin's finish review (its bounds keep 1 000 for a model's prompt).
const RULES_TOOL_FIELD_BYTES: usize = 16_000;
