//! The failure signals of a review that nothing later cleared, each quoted.
//!
//! Owns [`unresolved`]: failed test and build runs no later run cleared (of
//! the turn under review, and of earlier turns in the window when the rules
//! raised a note: a claim about the tests answers for them all),
//! then, for the turn under review only, calls the host recorded as failed
//! and calls whose output reads as a failure under exit 0
//! ([`failure_lines`](super::output::failure_lines)), unless
//! a later call of the same step came out clean or ran it again with options
//! added; a run nothing says the end of is read as such a call, and the last
//! lines of a passing run chained with another step as that step's; with a rules
//! note over a claimed step or a failed call, the last step the host recorded
//! still running.
//! Also owns [`after`]: the steps after the first failure, each with how it
//! ended. A write's output (the file it echoes) is never read for failure
//! lines. Calls that only look ([`looks`](super::looks)) and calls that never
//! ran are never signals, and a search's "no match" exit is an answer, not a
//! failure. Must not read the answer, nor read lines of output itself
//! ([`output`](super::output) does).

use advisor::host::ToolTrace;
use advisor::review::{Failure, Review};

use super::looks::{command_looks, only_looks, remote_or_local};
use super::output::{clip, failure_lines, last_lines, tail_lines};
use crate::evidence::invocation::recognise;
use crate::evidence::shell::simple_commands;
use crate::evidence::step_programs::answers_by_exit;
use crate::evidence::steps::{Step, step_kind};
use crate::evidence::tool_calls::{host_exit_of, is_rejected, unfinished};
use crate::evidence::{Outcome, RunEvidence, RunReader};

/// The failures of `review` that nothing later cleared, oldest first; failed
/// runs of earlier turns only with `earlier` (the rules raised a note, so
/// a claim may answer for them); with `looks`, the last failed look of each
/// tool too (the rules noted a failed call or a claim over the failed last
/// step: the judge needs its command and output quoted).
pub(super) fn unresolved(
    review: &Review,
    reader: &RunReader,
    earlier: bool,
    looks: bool,
    claimed_step: bool,
) -> Vec<(usize, Failure)> {
    let runs = reader.runs(review);
    let first = review.earlier_tools.min(review.tools.len());
    let mut found: Vec<(usize, Failure)> = runs
        .iter()
        .filter(|r| r.outcome == Outcome::Failed && r.cleared_by.is_none() && (earlier || r.in_turn))
        .filter_map(|r| review.tools.get(r.index).map(|t| (r.index, run_failure(r, t))))
        .collect();
    // a run nothing says the end of (piped, no summary) is read as a step
    let run_calls: Vec<usize> = (runs.iter())
        .filter(|r| r.outcome != Outcome::Unknown)
        .map(|r| r.index)
        .collect();
    // a passing run's summary answers for itself, not for a step chained
    // after it (`npm run build && npm audit`): the call's last lines are
    // that step's
    let passed: Vec<usize> = (runs.iter())
        .filter(|r| r.outcome == Outcome::Passed)
        .map(|r| r.index)
        .collect();
    for (i, t) in review.tools.iter().enumerate().skip(first) {
        if is_rejected(t) {
            continue;
        }
        let later = review.tools.get(i + 1..).unwrap_or_default();
        if run_calls.contains(&i) {
            if passed.contains(&i) && chains_a_step_after_a_run(&step_label(t)) {
                // quoted with the lines around it: which step failed is in them
                let tail = tail_lines(&t.output, CHAINED_TAIL_LINES);
                if !failure_lines(&tail).is_empty() && !cleared_later(t, later) {
                    let signal = "its last lines read as a failure after a run that passed";
                    found.push((i, Failure::new(&step_label(t), signal, &last_lines(&tail))));
                }
            }
            continue;
        }
        let quoted_look = || {
            (looks && later.iter().all(|l| l.name != t.name))
                .then(|| look_failure(t))
                .flatten()
        };
        let failure = if only_looks(t) {
            quoted_look()
        } else {
            step_failure(t).or_else(quoted_look)
        };
        if let Some(f) = failure.filter(|_| !cleared_later(t, later)) {
            found.push((i, f));
        }
    }
    // with a note over a claimed step or a failed call (an interrupt refused,
    // a poll that failed), the last step of the turn the host recorded as
    // still running: a claim of its result rests on nothing yet
    let running = (claimed_step || looks)
        .then(|| {
            (first..review.tools.len())
                .rev()
                .find(|&i| review.tools.get(i).is_some_and(still_running))
        })
        .flatten();
    if let Some((i, t)) = running.and_then(|i| review.tools.get(i).map(|t| (i, t))) {
        if found.iter().all(|(j, _)| *j != i) {
            let quote = last_lines(text_of(t));
            found.push((
                i,
                Failure::new(
                    &step_label(t),
                    "it had not ended: the host recorded it still running, with no exit status",
                    &quote,
                ),
            ));
        }
    }
    found.sort_by_key(|(i, _)| *i);
    found
}

/// How many of a chained call's last lines are read as the step after its
/// passing run.
const CHAINED_TAIL_LINES: usize = 8;

/// Whether `line` chains a step after a run: among its simple commands —
/// less the ones that only set up the shell (`cd`, `export`, `echo`, …),
/// only look (`git log`, `grep`, `cat`) or are the filters a command pipes
/// into (`| tail -n 20`) — there are two or more, and the last is no runner
/// (`npm ci && npm test` ends on its run; `npm run build && npm audit` does not).
fn chains_a_step_after_a_run(line: &str) -> bool {
    const SETUP: &[&str] = &[
        "cd", "pushd", "popd", "export", "set", "source", ".", "echo", "printf", "true", "sleep", "unset",
    ];
    let mut piped_into = false;
    let mut steps = 0;
    let mut last_runs = false;
    for c in simple_commands(line) {
        let setup = c.words.first().is_none_or(|w| SETUP.contains(&w.as_str()));
        if !setup && !piped_into && !command_looks(&c) {
            steps += 1;
            last_runs = recognise(&c).is_some();
        }
        piped_into = c.piped;
    }
    steps >= 2 && !last_runs
}

/// Whether the host recorded `t` as still running (no exit status; a
/// timeout's exit 124 is a failure of its own).
fn still_running(t: &ToolTrace) -> bool {
    !is_rejected(t) && unfinished(t) && host_exit_of(t).is_none()
}

/// Most characters of a later step's last line.
const AFTER_LINE_CHARS: usize = 160;

/// The steps of `review` after call `first`, one line each: what ran, how
/// it ended (`exit 0`, `exit 1`, `ok` with no exit status recorded, `still
/// running`, `failed`) and its last line of output — what the judge needs to
/// see that a later check made a failure moot. Rejected calls and plan
/// bookkeeping are left out.
pub(super) fn after(review: &Review, first: usize) -> Vec<String> {
    const BOOKKEEPING: &[&str] = &["todowrite", "todoread", "update_plan"];
    let later = review.tools.get(first + 1..).unwrap_or_default();
    later
        .iter()
        .filter(|t| !is_rejected(t) && !BOOKKEEPING.contains(&t.name.to_ascii_lowercase().as_str()))
        .map(|t| {
            let ending = match host_exit_of(t) {
                Some(code) => format!("exit {code}"),
                None if still_running(t) => "still running".to_owned(),
                None if t.ok() => "ok".to_owned(),
                None => "failed".to_owned(),
            };
            let last = text_of(t).lines().rev().map(str::trim).find(|l| !l.is_empty());
            let last = last.map_or("(no output)", |l| crate::text::clamp_chars(l, AFTER_LINE_CHARS));
            format!(
                "`{}` — {ending}: {last}",
                crate::text::clamp_chars(&step_label(t), AFTER_LINE_CHARS)
            )
        })
        .collect()
}

/// A failed run, quoted by its deciding line when the output printed it,
/// else by the last lines of what it printed.
fn run_failure(run: &RunEvidence, t: &ToolTrace) -> Failure {
    let printed = run.line.as_deref().filter(|l| text_of(t).contains(*l));
    let quote = printed.map_or_else(|| last_lines(text_of(t)), |l| clip(l).to_owned());
    let signal = match (run.ran_nothing, run.from_summary, host_exit_of(t)) {
        (true, _, _) => "it ran nothing (no test selected, or the runner did not start)".to_owned(),
        (false, true, _) => "the runner's own summary says it failed".to_owned(),
        (false, false, Some(code)) => format!("exit code {code}"),
        (false, false, None) => "the host recorded it as failed".to_owned(),
    };
    Failure::new(&run.command, &signal, &quote)
}

/// What a call that is no run says of itself: a failure the host recorded,
/// or failure lines under exit 0.
fn step_failure(t: &ToolTrace) -> Option<Failure> {
    let line = step_label(t);
    let code = host_exit_of(t);
    if !t.ok() || code.is_some_and(|c| c != 0) {
        // a search's "no match" and a probe's "not there" answer a question
        if code.is_some_and(|_| answers_by_exit(&remote_or_local(&line), code)) {
            return None;
        }
        let signal = code.map_or_else(
            || "the host recorded it as failed".to_owned(),
            |c| format!("exit code {c}"),
        );
        return Some(Failure::new(&line, &signal, &last_lines(text_of(t))));
    }
    // a write's output echoes the file it wrote: source code, not a report
    if matches!(step_kind(t), Some(Step::Write(_))) {
        return None;
    }
    let lines = failure_lines(&t.output);
    (!lines.is_empty()).then(|| Failure::new(&line, "its output reads as a failure (the call exited 0)", &lines))
}

/// A look that failed by the host's record — a search that found nothing
/// included, since an answer may claim what it looked for — quoted by its
/// command and the last lines it printed.
fn look_failure(t: &ToolTrace) -> Option<Failure> {
    let code = host_exit_of(t);
    if t.ok() && code.is_none_or(|c| c == 0) {
        return None;
    }
    let line = step_label(t);
    let signal = match code {
        Some(c) if answers_by_exit(&remote_or_local(&line), Some(c)) => format!("exit code {c}: it found nothing"),
        Some(c) => format!("exit code {c}"),
        None => "the host recorded it as failed".to_owned(),
    };
    Some(Failure::new(&line, &signal, &last_lines(text_of(t))))
}

/// Whether a later call of the same step (the same tool and arguments, or a
/// write of the same files) came out clean.
fn cleared_later(t: &ToolTrace, later: &[ToolTrace]) -> bool {
    let same = |l: &ToolTrace| match (step_kind(t), step_kind(l)) {
        (Some(Step::Write(a)), Some(Step::Write(b))) => !a.is_empty() && a.iter().all(|p| b.contains(p)),
        (Some(Step::Shell(a)), Some(Step::Shell(b))) => {
            a.trim() == b.trim() || (same_script(&a, &b) || retried_with_options(&a, &b)) && !only_looks(l)
        }
        _ => l.name == t.name && l.args == t.args,
    };
    later.iter().filter(|l| !is_rejected(l) && same(l)).any(|l| {
        l.ok()
            && host_exit_of(l).is_none_or(|c| c == 0)
            && (matches!(step_kind(l), Some(Step::Write(_))) || failure_lines(&l.output).is_empty())
    })
}

/// Whether two shell lines run the same script: the first word of the first
/// command that names a script file (`tools/land.ps1`, `gen.py`) is the same —
/// `python gen.py` then `python3 gen.py`, or one script run again with other
/// arguments, which supersedes the failed call.
fn same_script(a: &str, b: &str) -> bool {
    let script = |line: &str| {
        let commands = simple_commands(line);
        let first = commands.first()?;
        (first.words.iter())
            .map(|w| w.rsplit(['/', '\\']).next().unwrap_or(w).to_owned())
            .find(|w| SCRIPT_EXTENSIONS.iter().any(|e| w.len() > e.len() && w.ends_with(e)))
    };
    script(a).is_some_and(|x| script(b).is_some_and(|y| x == y))
}

/// Whether shell line `b` runs `a`'s command again with options added: its
/// first command (after any `cd`) has the same words in the same order plus
/// options, and every command after it is the same — `npm install -D x` then
/// `npm install -D x --legacy-peer-deps`, which supersedes the failed call.
/// An option that skips a check (`--no-verify`, `--ignore-scripts`,
/// `--no-deps`, `--validate=false`, `--skip…`, `--exit-zero`, `-n`) clears
/// nothing.
fn retried_with_options(a: &str, b: &str) -> bool {
    const SKIPS_A_CHECK: &[&str] = &["--no-verify", "--ignore-scripts", "--no-deps", "--exit-zero", "-n"];
    let commands = |line: &str| -> Vec<Vec<String>> {
        (simple_commands(line).into_iter())
            .map(|c| c.words)
            .skip_while(|w| w.first().is_none_or(|p| p == "cd"))
            .collect()
    };
    let (first, again) = (commands(a), commands(b));
    let (Some((one, rest)), Some((other, rest_again))) = (first.split_first(), again.split_first()) else {
        return false;
    };
    let mut words = other.iter();
    let kept = one.iter().all(|w| words.by_ref().any(|x| x == w));
    let added: Vec<&String> = other.iter().filter(|w| !one.contains(w)).collect();
    let skips = |w: &str| SKIPS_A_CHECK.contains(&w) || w.starts_with("--skip") || w.starts_with("--validate=");
    kept && rest == rest_again
        && !added.is_empty()
        && added.iter().all(|w| w.starts_with('-') && !skips(w))
        && one.first() == other.first()
}

/// File extensions of scripts a shell line may run.
const SCRIPT_EXTENSIONS: &[&str] = &[".py", ".sh", ".ps1", ".js", ".mjs", ".ts", ".rb", ".pl", ".bash"];

/// The step as one line: a shell call's command, a write's files, else the
/// tool's name and its arguments.
fn step_label(t: &ToolTrace) -> String {
    match step_kind(t) {
        Some(Step::Shell(line)) => line,
        Some(Step::Write(paths)) if !paths.is_empty() => format!("{} {}", t.name, paths.join(" ")),
        _ => format!("{} {}", t.name, t.args),
    }
}

/// What the call printed: its output, else (nothing printed) the host's
/// error.
fn text_of(t: &ToolTrace) -> &str {
    match t.error.as_deref() {
        Some(e) if t.output.trim().is_empty() => e,
        _ => &t.output,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_run_again_with_other_arguments_or_interpreter_clears_its_failure() {
        assert!(same_script("python /w/gen.py", "python3 /w/gen.py"));
        assert!(same_script(
            "pwsh ./tools/Land-Verdict.ps1 -Subject x",
            "pwsh ./tools/Land-Verdict.ps1 -Task 7"
        ));
        assert!(!same_script("python /w/gen.py", "python /w/other.py"));
        assert!(!same_script("pytest -q", "pytest -q tests"), "no script named");
    }

    #[test]
    fn a_command_run_again_with_options_added_clears_its_failure() {
        for (failed, again) in [
            (
                "npm install -D eslint-plugin-import eslint-plugin-react-hooks",
                "cd app && npm install -D eslint-plugin-import eslint-plugin-react-hooks --legacy-peer-deps",
            ),
            (
                "pip install -r r.txt | tail -3",
                "pip install -r r.txt --no-cache-dir | tail -3",
            ),
        ] {
            assert!(retried_with_options(failed, again), "{again}");
        }
        for (failed, other, why) in [
            ("npm install -D a b", "npm install -D a", "fewer packages"),
            ("npm install -D a", "npm install -D a b", "another package"),
            ("npm install -D a", "npm install -D a", "nothing added"),
            ("make build", "make --dry-run", "not the same words"),
            (
                "npm install foo 2>&1 | tee install.log",
                "npm run build 2>&1 | tee -a install.log",
                "another command through the same pipe",
            ),
            ("npm install x", "npm install x --ignore-scripts", "a skipped check"),
            (
                "kubectl apply -f x.yaml",
                "kubectl apply -f x.yaml --validate=false",
                "a skipped check",
            ),
        ] {
            assert!(!retried_with_options(failed, other), "{why}");
        }
    }
}
