//! A claimed step that failed: the answer says it made, checked or fixed
//! something, and the turn's last step — the one it rests on — failed.
//!
//! Owns [`claimed_failed_step`]. A *step* is a shell call or a file write
//! (`Write`, `Edit`, `apply_patch`, …) of the turn under review that is not a
//! test or build run (runs are judged by [`runs`](crate::evidence::runs) and
//! [`coverage`](crate::evidence::coverage), and a run through a wrapper the rules cannot
//! read stays a nit there). The turn's last step counts when the host recorded
//! that it failed — its error, or an exit status other than 0, never a line the
//! command printed — or, for a write, when it never ran (a refused permission:
//! nothing was written). It is held against the answer only when one sentence of
//! the answer both claims the step's result ("verified with Playwright",
//! "screenshot saved to …", "I've created CLAUDE.md", "the viewer fix works")
//! and names what the step was about — a file it wrote, a path it used, or a
//! distinctive word of its command — or claims it in its subcommand's own past
//! tense ("Fetched all remotes" of `git fetch --all`), while nothing in the
//! answer says that something failed. A sentence that says a check was made and came out
//! right without naming it ("Verified — the page renders", "everything
//! checks out") counts for a failed last shell step too, unless it
//! claims tests, a build or a lint (judged by the runs). Commands whose
//! non-zero exit is an answer rather than a failure (`grep`, `diff`, `test`,
//! `which`, `pkill`, …) and viewers (`open page.html`) never count. An
//! earlier failed shell step counts too when a claiming sentence names it by
//! its command ("`gh auth status` now shows a valid login") and no later call
//! of the same program succeeded (it may have been the retry). A last step
//! that was a lookup and found nothing, said to have found it, is
//! [`found_nothing`](super::found_nothing)'s; one said to have finished while
//! the host recorded it still running, [`unfinished`](super::unfinished)'s.
//!
//! Must not look at earlier turns, read files or keep state.

use super::found_nothing::claimed_found;
use super::rule::{COMMAND_BYTES, QUOTE_BYTES, Rule, RuleNote, quote};
use super::unfinished::claimed_unfinished;
use crate::answer::admissions::mentions_failure;
use crate::answer::sentences::sentences;
use crate::answer::step_claims::{
    claimed_in_sentence, claims_action, claims_result, claims_verified, doc_stem, subcommands_of,
};
use crate::evidence::runs::Run;
use crate::evidence::shell::simple_commands;
use crate::evidence::step_programs::{answers_by_exit, runs_checker, shows_only};
use crate::evidence::steps::{Step, step_kind};
use crate::evidence::subjects::{basename, shell_subjects};
use crate::evidence::tool_calls::{host_exit_of, is_rejected};
use advisor::host::ToolTrace;
use advisor::note::Note;
use advisor::review::Review;

/// Whether a sentence of `n` says, without naming it, that the check the
/// turn's last step made came out right: a shell step that runs a
/// checker ([`runs_checker`]), with a
/// verified word ([`claims_verified`]) not taken back, in a sentence that does not claim
/// tests, a build or a lint (those are judged by the runs), nor names a file
/// of `written`, the turn's writes ("verified by reading the code:
/// check_links.py now skips mailto: links" is about the edit).
fn verifies_unnamed(n: &str, kind: &Step, written: &[String]) -> bool {
    let Step::Shell(line) = kind else {
        return false;
    };
    runs_checker(line)
        && sentences(n).any(|s| {
            let about_runs = crate::answer::claims::claims(s);
            claims_verified(s)
                && !about_runs.tests
                && !about_runs.build
                && !about_runs.lint
                && !written.iter().any(|w| s.contains(w.as_str()))
        })
}

/// The note for the turn's last step when it failed and the answer claims its
/// result, naming what it was about.
pub(crate) fn claimed_failed_step(review: &Review, normalised: &str, runs: &[Run]) -> Option<RuleNote> {
    if normalised.is_empty() || mentions_failure(normalised) {
        return None;
    }
    let first = review.earlier_tools.min(review.tools.len());
    let last_is_run = runs.iter().any(|r| r.index + 1 == review.tools.len());
    last_step(review, normalised, runs, first)
        .or_else(|| named_step(review, normalised, runs, first))
        .or_else(|| claimed_found(&review.tools[first..], last_is_run, normalised))
        .or_else(|| claimed_unfinished(&review.tools[first..], normalised))
}

/// The turn's last step, when it failed and a claiming sentence names what it was about.
fn last_step(review: &Review, normalised: &str, runs: &[Run], first: usize) -> Option<RuleNote> {
    let (index, step, kind) = review.tools[first..]
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, t)| step_kind(t).map(|k| (first + i, t, k)))?;
    if runs.iter().any(|r| r.index == index) || !failed(step, &kind) {
        return None;
    }
    // a file the turn wrote is the write's result, not this step's
    // (`open index.html` failing does not undo creating it)
    let written: Vec<String> = review.tools[first..index]
        .iter()
        .filter(|t| t.ok())
        .flat_map(|t| match step_kind(t) {
            Some(Step::Write(paths)) => paths,
            _ => Vec::new(),
        })
        .filter_map(|p| basename(&p))
        .collect();
    let subjects = match &kind {
        // an edit that fails after the same file was written ("string to
        // replace not found": the change is already there) undoes nothing
        Step::Write(paths) if wrote_before(&review.tools[first..index], paths) => return None,
        // a name or document stem that a successful write of the turn shares
        // ("Updated the README" after writing `README.md` and failing on
        // `docs/README.md`) may be that write's
        Step::Write(paths) => paths
            .iter()
            .filter_map(|p| basename(p))
            .filter(|b| {
                !written
                    .iter()
                    .any(|w| w == b || (doc_stem(w).is_some() && doc_stem(w) == doc_stem(b)))
            })
            .collect(),
        Step::Shell(line) => {
            // a timeout or a signal (124, 130, 137, 143) stopped it: a server
            // run for a while, a watcher interrupted, not a check that failed
            let stopped = matches!(host_exit_of(step), Some(124 | 130 | 137 | 143));
            if answers_by_exit(line, host_exit_of(step)) || shows_only(line) || stopped {
                return None;
            }
            // and the program's name, when an earlier successful command of the
            // turn ran it too (`docker build` before a failing `docker pull`)
            let program = |l: &str| {
                simple_commands(l)
                    .iter()
                    .find(|c| c.words.first().is_some_and(|w| w != "cd"))
                    .and_then(|c| {
                        c.words
                            .first()
                            .map(|p| p.rsplit('/').next().unwrap_or(p).to_lowercase())
                    })
            };
            let done: Vec<String> = program(line)
                .filter(|p| {
                    review.tools[first..index]
                        .iter()
                        .filter(|t| t.ok())
                        .any(|t| matches!(step_kind(t), Some(Step::Shell(l)) if program(&l).as_ref() == Some(p)))
                })
                .into_iter()
                .collect();
            let mut subjects = shell_subjects(line);
            subjects.retain(|s| {
                !done.contains(s)
                    && !written
                        .iter()
                        .any(|w| w == s || w.split(|c: char| !c.is_alphanumeric()).any(|part| part == s))
            });
            subjects
        }
    };
    let line = match &kind {
        Step::Shell(line) => line.as_str(),
        Step::Write(_) => "",
    };
    // a subcommand an earlier successful step of the turn ran (`git pull` before a
    // failing `docker pull`) may be what "Pulled the latest main" says was done
    let done_before: Vec<String> = review.tools[first..index]
        .iter()
        .filter(|t| t.ok())
        .filter_map(|t| match step_kind(t) {
            Some(Step::Shell(l)) => Some(subcommands_of(&l)),
            _ => None,
        })
        .flatten()
        .collect();
    if claimed_in_sentence(normalised, &subjects, line, &done_before).is_none()
        && !verifies_unnamed(normalised, &kind, &written)
    {
        return None;
    }
    let what = match &kind {
        Step::Write(paths) => format!("the write of `{}`", quote(&paths.join(" "), COMMAND_BYTES)),
        Step::Shell(line) => format!("`{}`", quote(line, COMMAND_BYTES)),
    };
    Some(note(&what, step))
}

/// A failed shell step of the turn that a claiming sentence names by its
/// command ("`gh auth status` now shows a valid login"), with no later
/// success of the same program.
fn named_step(review: &Review, normalised: &str, runs: &[Run], first: usize) -> Option<RuleNote> {
    let tools = &review.tools[first..];
    for (i, step) in tools.iter().enumerate().rev() {
        let Some(Step::Shell(line)) = step_kind(step) else {
            continue;
        };
        let shell_failed = failed(step, &Step::Shell(String::new()));
        if runs.iter().any(|r| r.index == first + i) || !shell_failed || answers_by_exit(&line, host_exit_of(step)) {
            continue;
        }
        let Some(name) = command_name(&line) else {
            continue;
        };
        // any later success of the same program may have been the retry
        // (`git -C repo fetch origin` after a failing `git fetch origin`)
        let program = name.split(' ').next().unwrap_or("");
        let again = tools[i + 1..].iter().any(|later| {
            later.ok()
                && matches!(step_kind(later), Some(Step::Shell(l)) if simple_commands(&l).iter().any(|c| c.words.first().is_some_and(|w| w.rsplit('/').next() == Some(program))))
        });
        if !again && sentences(normalised).any(|s| s.contains(name.as_str()) && (claims_result(s) || claims_action(s)))
        {
            return Some(note(&format!("`{}`", quote(&line, COMMAND_BYTES)), step));
        }
    }
    None
}

/// Whether the host recorded `step` as failed (a write that never ran too).
/// A shell step that failed because what it was to bring about is already so
/// (`gh pr create` when the pull request exists) did not fail the claim: the
/// last lines of its error or its output say so (a script's progress line
/// "should be a no-op: collection already exists" long before its failing
/// summary says nothing of why it failed).
fn failed(step: &ToolTrace, kind: &Step) -> bool {
    match kind {
        Step::Write(_) => !step.ok() || is_rejected(step),
        Step::Shell(_) => {
            let text = format!(
                "{}\n{}",
                last_lines(step.error.as_deref().unwrap_or("")),
                last_lines(&step.output)
            );
            let text = text.to_lowercase();
            !is_rejected(step)
                && host_exit_of(step).map_or(!step.ok(), |code| code != 0)
                && !ALREADY.iter().any(|a| text.replace('_', " ").contains(a))
        }
    }
}

/// Lines at the end of a failed step's error and output read for [`ALREADY`].
const ALREADY_LINES: usize = 5;

/// The last [`ALREADY_LINES`] lines of `text` that are not blank.
fn last_lines(text: &str) -> String {
    let lines: Vec<&str> = (text.lines().rev())
        .filter(|l| !l.trim().is_empty())
        .take(ALREADY_LINES)
        .collect();
    lines.join("\n")
}

/// What a command says when the state it was to bring about already holds.
const ALREADY: &[&str] = &[
    "already exists",
    "already up to date",
    "already up-to-date",
    "nothing to commit",
    "no stash entries found",
    "no local changes to save",
];

/// The note on the failed `step`, called `what`.
fn note(what: &str, step: &ToolTrace) -> RuleNote {
    RuleNote::new(
        Rule::ClaimedFailedStep,
        Note::blocker(format!(
            "The answer claims a result that a step it rests on did not produce: {what} failed ({}), and nothing \
after it succeeded. Redo that step and check it, or say plainly that it failed.",
            quote(&failure_line(step), QUOTE_BYTES)
        )),
    )
}

/// How an answer would name a command line: the leading words of its first
/// simple command other than `cd`, up to the first option or path, lower
/// case — `gh auth status` — when that is at least two words.
fn command_name(line: &str) -> Option<String> {
    let commands = simple_commands(line);
    let cmd = commands.iter().find(|c| c.words.first().is_some_and(|w| w != "cd"))?;
    let words: Vec<String> = cmd
        .words
        .iter()
        .take_while(|w| !w.starts_with('-') && !w.contains(['/', '=', '.']))
        .take(4)
        .map(|w| w.to_lowercase())
        .collect();
    let name = words.join(" ");
    (words.len() >= 2 && name.len() >= 8).then_some(name)
}

/// Whether one of `tools` changed the workspace and succeeded: a file write,
/// or a `git commit` / `git push`.
pub(crate) fn acted_after(tools: &[ToolTrace]) -> bool {
    tools.iter().filter(|t| t.ok()).any(|t| match step_kind(t) {
        Some(Step::Write(_)) => true,
        Some(Step::Shell(line)) => simple_commands(&line).iter().any(|c| {
            c.words.first().is_some_and(|w| w == "git")
                && c.words
                    .iter()
                    .skip(1)
                    .find(|w| !w.starts_with('-'))
                    .is_some_and(|s| s == "commit" || s == "push")
        }),
        None => false,
    })
}

/// Whether one of `tools` wrote one of `paths` and succeeded.
fn wrote_before(tools: &[ToolTrace], paths: &[String]) -> bool {
    let names: Vec<String> = paths.iter().filter_map(|p| basename(p)).collect();
    tools.iter().filter(|t| t.ok()).any(|t| match step_kind(t) {
        Some(Step::Write(p)) => p.iter().any(|p| paths.contains(p)),
        // `sed -i …`, `perl -pi …`, `… > file`, `tee file` naming the file
        Some(Step::Shell(line)) => {
            let lower = line.to_lowercase();
            let edits = ["sed -i", "perl -pi", "perl -i", ">", "tee ", "cp ", "mv "]
                .iter()
                .any(|m| lower.contains(m));
            edits && names.iter().any(|n| lower.contains(n.as_str()))
        }
        None => false,
    })
}

/// A line that says how the step failed: the first of its output or error
/// that reads like an error, else its exit status.
fn failure_line(t: &ToolTrace) -> String {
    let text = t.error.as_deref().filter(|e| !e.trim().is_empty()).unwrap_or(&t.output);
    let marks = [
        "error",
        "denied",
        "not permitted",
        "no such file",
        "traceback",
        "canceled",
        "cannot",
        "failed",
    ];
    text.lines()
        .map(str::trim)
        .find(|l| {
            let lower = l.to_lowercase();
            // Gemini CLI's field for no error: `Error: (none)`
            !lower.ends_with("(none)") && marks.iter().any(|m| lower.contains(m))
        })
        .map(str::to_owned)
        .or_else(|| host_exit_of(t).map(|c| format!("exit code {c}")))
        .unwrap_or_else(|| "it failed".to_owned())
}
