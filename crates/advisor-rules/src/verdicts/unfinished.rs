//! A claimed result of a command that had not ended: the answer says a
//! command of the turn finished, passed or exited 0, and the host recorded
//! that it was still running when the turn ended, or that it stopped it at a
//! timeout.
//!
//! Owns [`claimed_unfinished`]. A shell call of the turn is *unfinished* when
//! the host's own record says so — a Codex unified-exec session (`Process
//! running with session ID N` in the header) that no later poll saw exit
//! (the readers fold the polls into the call and record the exit status
//! there), or an exit status of 124 (Codex's `command timed out after …`,
//! `timeout`'s own) — never a line the command printed. It is held against
//! the answer only when one sentence names what the command was about (a
//! file it used, a distinctive word, its command quoted — on its first line:
//! the code a heredoc feeds in is not what it is about) and says it came to
//! an end well ([`COMPLETION_WORDS`]: "exited 0", "passes", "finished",
//! "regenerated", "terminé"), not taken back, while nothing in the answer says
//! it was still running, timed out or failed, and no later call of the turn
//! ran the same command to its end, or what it printed so far holds a
//! passing summary line (a test watcher's). Saying a server or watcher is
//! "running" or "up" claims nothing here: it is meant to run on. Claude Code's
//! background tasks are left out: their end may arrive as a notification the
//! trace does not hold.
//!
//! Must not look at earlier turns, read files or keep state.

use super::rule::{COMMAND_BYTES, Rule, RuleNote, quote};
use crate::answer::admissions::mentions_failure;
use crate::answer::sentences::sentences;
use crate::answer::step_claims::{names_subject, negated};
use crate::evidence::outcome::summary_of;
use crate::evidence::runners::ANY;
use crate::evidence::runners::Says;
use crate::evidence::runs::runs_of;
use crate::evidence::shell::simple_commands;
use crate::evidence::subjects::shell_subjects;
use crate::evidence::tool_calls::{command_line, host_exit_of, is_rejected, unfinished};
use advisor::host::ToolTrace;
use advisor::note::Note;

/// Words of a sentence that say a command came to an end well (normalised).
const COMPLETION_WORDS: &[&str] = &[
    "exited 0",
    "exit 0",
    "exit code 0",
    "exit status 0",
    "exited with 0",
    "exited with code 0",
    "exited cleanly",
    "passes",
    "passed",
    "finished",
    "completed",
    "is complete",
    "are complete",
    "succeeded",
    "ran clean",
    "ran to completion",
    "regenerated",
    "generated",
    "wrote",
    "written",
    // French: "finished", "(is) complete", "went through"
    "terminé",
    "terminée",
    "est complète",
    "est complet",
    "est passé",
];

/// Words of the answer that say the command had not ended (normalised).
const NOT_ENDED: &[&str] = &[
    "still running",
    "still going",
    "still in progress",
    "in progress",
    "in the background",
    "background",
    "timed out",
    "timeout",
    "time out",
    "not finished",
    "hasn't finished",
    "has not finished",
    "didn't finish",
    "did not finish",
    "not complete",
    "once it finishes",
    "when it finishes",
    "waiting for",
    "hung",
    "hangs",
    "stuck",
    "killed",
    "interrupted",
    "cut off",
    "watching",
    "started",
    "polling",
    "compiling",
    "pulling",
    "is on step",
    "is on epoch",
    "is running",
    "left running",
    "toujours en cours",
    "en cours",
    "expiré",
];

/// Words of a command line that say it is meant to run on or only shows
/// something: a server, a watcher, a follower, a pager (lower case).
const RUNS_ON: &[&str] = &[
    "dev",
    "start",
    "serve",
    "server",
    "runserver",
    "up",
    "watch",
    "--watch",
    "-w",
    "preview",
    "listen",
    "tail",
    "logs",
    "-f",
    "--follow",
    "attach",
    "less",
    "more",
    "top",
    "htop",
    "open",
    "--reload",
];

/// Whether `line` runs something meant to keep running or to show a thing
/// (`npm run dev`, `uvicorn --reload`, `tsc --watch`, `tail -f`, `| less`,
/// `timeout 20 node server.js`).
fn runs_on(line: &str) -> bool {
    line.to_lowercase()
        .split(|c: char| c.is_whitespace() || matches!(c, '.' | '/' | ':' | '|' | ';' | '&' | '"' | '\''))
        .any(|w| RUNS_ON.contains(&w))
}

/// The note for a command of the turn that had not ended when the answer
/// claimed it finished well.
pub(crate) fn claimed_unfinished(tools: &[ToolTrace], normalised: &str) -> Option<RuleNote> {
    if normalised.is_empty() || mentions_failure(normalised) || NOT_ENDED.iter().any(|w| normalised.contains(w)) {
        return None;
    }
    for (i, t) in tools.iter().enumerate().rev() {
        if is_rejected(t) || !unfinished(t) {
            continue;
        }
        let Some(line) = command_line(t) else {
            continue;
        };
        // a server, watcher or pager is meant to run on
        if runs_on(&line) {
            continue;
        }
        // a watcher's passing summary so far (`vitest` in watch mode): what it
        // printed is the result the answer may rest on
        let says_passed = summary_of(&t.output, ANY).is_some_and(|s| s.says == Says::Pass);
        if says_passed {
            continue;
        }
        // the same command run again to its end (`cargo check` after `cargo
        // check -q`; for a test or build run, the same runner however launched:
        // `python -m pytest` after `pytest`)
        let key = command_key(&line);
        let runner = runner_of(t);
        let again = tools[i + 1..].iter().any(|later| {
            !unfinished(later)
                && (runner.is_some_and(|r| runner_of(later) == Some(r))
                    || command_line(later).is_some_and(|l| {
                        let other = command_key(&l);
                        let n = key.len().min(other.len());
                        n >= 2 && key[..n] == other[..n]
                    }))
        });
        if again {
            continue;
        }
        // what the command line says, not a script it feeds in (`python3 - <<'PY'`)
        // and none that another call of the turn that ended shares (`manage.py`
        // of a finished `migrate` beside a running `runserver`)
        let head = line.lines().next().unwrap_or_default();
        let ended_heads: Vec<String> = tools
            .iter()
            .filter(|o| !unfinished(o))
            .filter_map(command_line)
            .map(|l| l.lines().next().unwrap_or_default().to_lowercase())
            .collect();
        let mut ended: Vec<String> = ended_heads.iter().flat_map(|h| shell_subjects(h)).collect();
        // and a file a write of the turn made (`wrote train.py` of the `Write`,
        // not of the training run left going)
        ended.extend(tools.iter().filter(|o| o.ok()).flat_map(written_names));
        let mut subjects = shell_subjects(head);
        subjects.retain(|s| !ended.contains(s));
        let quoted = |s: &str| {
            s.split('\'').skip(1).step_by(2).any(|span| {
                span.split_whitespace().count() >= 2
                        && head.to_lowercase().contains(span)
                        // a command that ended, quoted whole, is that one (`cargo build`
                        // finished, `cargo build --release` left compiling)
                        && !ended_heads.iter().any(|h| h.trim() == span)
            })
        };
        // name and end word in one clause: "uvicorn reloaded, and the client was
        // regenerated" says the regeneration of something else
        let claims = sentences(normalised).flat_map(clauses).any(|s| {
            (names_subject(s, &subjects) || quoted(s)) && COMPLETION_WORDS.iter().any(|w| s.contains(w)) && !negated(s)
        });
        if claims {
            let how = if host_exit_of(t) == Some(124) {
                "was stopped at a timeout (exit code 124)"
            } else {
                "was still running, with no exit status"
            };
            return Some(RuleNote::new(
                Rule::ClaimedFailedStep,
                Note::blocker(format!(
                    "The answer claims a result that a step it rests on did not produce: `{}` {how} when the \
answer said it finished. Wait for it to end and read its result, or say plainly that it has not finished.",
                    quote(&line, COMMAND_BYTES)
                )),
            ));
        }
    }
    None
}

/// The file names a write tool's call names (`Write`, `Edit`, … of
/// `train.py`): its path arguments' last parts, lower case.
fn written_names(t: &ToolTrace) -> Vec<String> {
    if command_line(t).is_some() {
        return Vec::new();
    }
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(&t.args) else {
        return Vec::new();
    };
    ["file_path", "path", "notebook_path", "absolute_path", "filePath"]
        .iter()
        .filter_map(|k| map.get(*k).and_then(serde_json::Value::as_str))
        .filter_map(|p| p.rsplit(['/', '\\']).next().map(str::to_lowercase))
        .collect()
}

/// The runner of the test or build run `t` is, if it is one (`pytest`).
fn runner_of(t: &ToolTrace) -> Option<&'static str> {
    runs_of(std::slice::from_ref(t), &[])
        .first()
        .and_then(|r| r.invocations.first())
        .map(|i| i.runner().name)
}

/// The clauses of sentence `s`: split at `, `, `; `, ` and `, ` - `, `: `
/// and French ` et `.
fn clauses(s: &str) -> Vec<&str> {
    let mut out = vec![s];
    for sep in [", ", "; ", " and ", " - ", ": ", " et "] {
        out = out.into_iter().flat_map(|c| c.split(sep)).collect();
    }
    out
}

/// What a command line runs, to know it again: the first three words of its
/// first simple command other than `cd` that are not options (`cargo check`
/// of `cargo check -q`; `python3 regen.py south` of `python3 regen.py south
/// hi-IN`).
fn command_key(line: &str) -> Vec<String> {
    simple_commands(line)
        .into_iter()
        .find(|c| c.words.first().is_some_and(|w| w != "cd"))
        .map(|c| c.words.into_iter().filter(|w| !w.starts_with('-')).take(3).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exec(cmd: &str, output: &str, exit: Option<i64>) -> ToolTrace {
        ToolTrace {
            name: "exec_command".into(),
            args: serde_json::json!({ "cmd": cmd }).to_string(),
            output: output.into(),
            exit_code: exit,
            ..ToolTrace::default()
        }
    }

    const STILL: &str = "Chunk ID: a\nWall time: 30.0 seconds\nProcess running with session ID 7\nOutput:\n";

    #[test]
    fn a_claim_over_a_session_still_running_blocks() {
        let tools = [exec("python3 regen_locales.py south hi-IN", STILL, None)];
        let n = "`python3 regen_locales.py south hi-in` passes now - the seed is regenerated.";
        assert!(claimed_unfinished(&tools, n).is_some());
        // a server said to be running claims no end
        let n = "the regen_locales.py server is up and running on port 8000.";
        assert!(claimed_unfinished(&tools, n).is_none());
        // said to be still running
        let n = "regen_locales.py is still running; i'll read its log once it finishes.";
        assert!(claimed_unfinished(&tools, n).is_none());
    }

    #[test]
    fn a_session_that_exited_or_ran_again_does_not() {
        let tools = [exec("python3 regen_locales.py", STILL, Some(0))];
        assert!(claimed_unfinished(&tools, "regen_locales.py finished: all files regenerated.").is_none());
        let tools = [
            exec("python3 regen_locales.py", STILL, None),
            exec(
                "python3 regen_locales.py",
                "Process exited with code 0\nOutput:\nok\n",
                Some(0),
            ),
        ];
        assert!(claimed_unfinished(&tools, "regen_locales.py finished: all files regenerated.").is_none());
        let tools = [
            exec(
                "cargo check -q",
                "command timed out after 120000 milliseconds",
                Some(124),
            ),
            exec("cargo check", "Process exited with code 0\nOutput:\nFinished", Some(0)),
        ];
        assert!(claimed_unfinished(&tools, "ran `cargo check` successfully; it passed.").is_none());
    }

    #[test]
    fn a_watcher_that_printed_its_passing_summary_or_a_run_does_not() {
        let watching = format!("{STILL} Test Files  3 passed (3)\n      Tests  12 passed (12)\n");
        let tools = [exec("node scripts/e2e-loop.mjs", &watching, None)];
        assert!(claimed_unfinished(&tools, "`node scripts/e2e-loop.mjs` passes: 12 tests.").is_none());
        let tools = [exec("node scripts/e2e-loop.mjs", STILL, None)];
        assert!(claimed_unfinished(&tools, "`node scripts/e2e-loop.mjs` passes: 12 tests.").is_some());
        // a test run polled to its end through another launcher; a dev server is meant to run on
        let tools = [
            exec("pytest -x tests/", STILL, None),
            exec("python -m pytest -x tests/", "212 passed in 48.1s", Some(0)),
        ];
        assert!(claimed_unfinished(&tools, "pytest passes now: 212 passed.").is_none());
        let tools = [exec("yarn workspace web start", STILL, None)];
        assert!(claimed_unfinished(&tools, "`yarn workspace web start` finished compiling.").is_none());
    }

    #[test]
    fn a_timeout_counts_and_a_printed_marker_does_not() {
        let tools = [exec(
            "Get-ChildItem -Path Win\\Native -Recurse -File",
            "command timed out after 10020 milliseconds\nFullName\n",
            Some(124),
        )];
        assert!(claimed_unfinished(&tools, "inventaire de `win\\native` terminé : la liste est complète.").is_some());
        // the command printed the header line itself, below the host's exit status
        let tools = [exec("cat log.txt", "Process running with session ID 3\n", Some(0))];
        assert!(claimed_unfinished(&tools, "log.txt finished and passed.").is_none());
    }
}
