//! The failure signals of a review that nothing later cleared, each quoted.
//!
//! Owns [`unresolved`]: failed test and build runs no later run cleared (of
//! the turn under review, and of earlier turns in the window when the rules
//! raised a note: a claim about the tests answers for them all),
//! then, for the turn under review only, calls the host recorded as failed
//! and calls whose output reads as a failure under exit 0 ([`failure_lines`]:
//! counts, `FAIL`, tracebacks, error lines, raised exceptions, refused system
//! calls, HTTP error statuses, `exit status N`, failed CI conclusions), unless
//! a later call of the same step came out clean or ran it again with options
//! added; a run nothing says the end of is read as such a call; with a rules
//! note over a claimed step, the last step the host recorded still running.
//! Also owns [`after`]: the steps after the first failure, each with how it
//! ended. A write's output (the file it echoes) is never read for failure
//! lines. Calls that only look — read-only
//! and search commands, file reads — and calls that never ran are never
//! signals, and a search's "no match" exit is an answer, not a failure. Must
//! not read the answer.

use advisor::host::ToolTrace;
use advisor::review::{Failure, Review};

use crate::evidence::outcome::{header_exit_code, looks_failed};
use crate::evidence::shell::simple_commands;
use crate::evidence::step_programs::answers_by_exit;
use crate::evidence::steps::{Step, step_kind};
use crate::evidence::tool_calls::{host_exit_of, is_rejected, unfinished};
use crate::evidence::{Outcome, RunEvidence, RunReader};

/// Most lines quoted of one failure.
const QUOTE_LINES: usize = 5;
/// Longest line quoted, in characters; longer lines are cut.
const LINE_CHARS: usize = 300;
/// Most lines of one output scanned for failure lines (the last ones).
const SCAN_LINES: usize = 400;

/// Tools that only read (file reads, searches, listings, fetches of a page):
/// their failure says a thing is not there, never that work failed.
const READ_TOOLS: &[&str] = &[
    "read",
    "grep",
    "glob",
    "ls",
    "read_file",
    "read_many_files",
    "list_directory",
    "list_files",
    "glob_search",
    "grep_search",
    "search_file_content",
    "file_search",
    "codebase_search",
    "view",
    "view_image",
    "webfetch",
    "websearch",
    "web_fetch",
    "web_search",
    "google_web_search",
    "todowrite",
    "todoread",
    "update_plan",
    // polling or stopping a background task: "not ready" or "no such shell" is bookkeeping
    "taskoutput",
    "bashoutput",
    "agentoutputtool",
    "killshell",
    "killbash",
];

/// Programs that only look: their output is never a failure signal.
const LOOKING: &[&str] = &[
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "bat",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "ls",
    "ll",
    "find",
    "fd",
    "tree",
    "wc",
    "stat",
    "file",
    "du",
    "df",
    "pwd",
    "echo",
    "printf",
    "which",
    "whereis",
    "type",
    "realpath",
    "readlink",
    "basename",
    "dirname",
    "nl",
    "cut",
    "sort",
    "uniq",
    "column",
    "jq",
    "yq",
    "diff",
    "cmp",
    "date",
    "printenv",
    "id",
    "whoami",
    "uname",
    "hostname",
    "ps",
    "sleep",
    "true",
    "cd",
    "tr",
    "xxd",
    "od",
    "md5sum",
    "sha256sum",
    "tee",
    // system logs: what a service said, read
    "journalctl",
    "logread",
    "dmesg",
];

/// PowerShell cmdlets that only look (compared without case): reads,
/// searches, listings and the formatting that follows them in a pipeline.
const LOOKING_POWERSHELL: &[&str] = &[
    "get-content",
    "gc",
    "select-string",
    "sls",
    "get-childitem",
    "gci",
    "dir",
    "test-path",
    "get-item",
    "get-location",
    "resolve-path",
    "select-object",
    "where-object",
    "sort-object",
    "measure-object",
    "format-table",
    "format-list",
    "out-string",
    "write-output",
    "write-host",
];

/// `git` subcommands that only look.
const LOOKING_GIT: &[&str] = &[
    "log",
    "show",
    "diff",
    "status",
    "blame",
    "grep",
    "ls-files",
    "rev-parse",
    "describe",
    "shortlog",
    "reflog",
    "branch",
    "remote",
    "config",
    "rev-list",
    "cat-file",
    "ls-tree",
    "whatchanged",
];

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
    for (i, t) in review.tools.iter().enumerate().skip(first) {
        if run_calls.contains(&i) || is_rejected(t) {
            continue;
        }
        let later = review.tools.get(i + 1..).unwrap_or_default();
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
    // with a note over a claimed step, the last step of the turn the host
    // recorded as still running: a claim of its result rests on nothing yet
    let running = claimed_step
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

/// Whether `t` is a look that answered "no": a call that only looks, exited 1
/// and printed nothing (a search with no match, `test -f` of an absent file)
/// — the rules' tool-failure nit over it contests nothing.
pub(super) fn answered_no(t: &ToolTrace) -> bool {
    let quiet = |s: &str| {
        let s = s.trim();
        s.is_empty()
            || s == "(empty)"
            || s.eq_ignore_ascii_case("exit code 1")
            || s.eq_ignore_ascii_case("exit code: 1")
    };
    only_looks(t) && host_exit_of(t) == Some(1) && quiet(&t.output) && t.error.as_deref().is_none_or(quiet)
}

/// Whether `t` only looks: a read tool, or a shell call whose every command
/// is a looking program (`cat`, `grep`, `ls`, `git log`, `sed -n`).
fn only_looks(t: &ToolTrace) -> bool {
    if READ_TOOLS.contains(&t.name.to_ascii_lowercase().as_str()) {
        return true;
    }
    let Some(Step::Shell(line)) = step_kind(t) else {
        return false;
    };
    line_only_looks(&remote_or_local(&line))
}

/// Whether every simple command of `line` only looks.
fn line_only_looks(line: &str) -> bool {
    let commands = simple_commands(line);
    !commands.is_empty()
        && commands.iter().all(|c| {
            let Some(program) = c.words.first().map(|p| p.rsplit('/').next().unwrap_or(p)) else {
                return true;
            };
            let args = c.words.get(1..).unwrap_or_default();
            let sub = args.iter().find(|w| !w.starts_with('-')).map(String::as_str);
            let edits = args
                .iter()
                .any(|w| w == "-i" || w.starts_with("-i.") || w == "--in-place");
            let version = !args.is_empty()
                && args
                    .iter()
                    .all(|w| matches!(w.as_str(), "--version" | "-V" | "-v" | "version" | "--help" | "-h"));
            !c.writes
                && (version
                    || match program {
                        "git" => sub.is_some_and(|s| LOOKING_GIT.contains(&s)),
                        "gh" => gh_looks(args),
                        "sed" | "awk" | "perl" => !edits,
                        // `command -v x`: the splitter strips `command`
                        "-v" | "-V" => true,
                        p => LOOKING.contains(&p) || LOOKING_POWERSHELL.contains(&p.to_ascii_lowercase().as_str()),
                    })
        })
}

/// Whether a `gh` command only reads: viewing or listing pull requests,
/// issues, repositories and releases, the auth status, a search, an API
/// `GET`. (`gh pr checks` and `gh run view` report an outcome: not looks.)
fn gh_looks(args: &[String]) -> bool {
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-'))
        .collect();
    match words.as_slice() {
        ["api", ..] => !args
            .iter()
            .zip(args.iter().skip(1))
            .any(|(a, b)| matches!(a.as_str(), "-X" | "--method") && !b.eq_ignore_ascii_case("get")),
        ["pr" | "issue" | "repo" | "release", sub, ..] => matches!(*sub, "view" | "list" | "diff" | "status"),
        ["auth", "status", ..] | ["search", ..] => true,
        _ => false,
    }
}

/// Options of `ssh` that take a value.
const SSH_WITH_VALUE: &[&str] = &[
    "-p", "-i", "-o", "-l", "-F", "-J", "-L", "-R", "-D", "-E", "-S", "-W", "-b", "-c", "-e", "-m", "-O", "-Q", "-w",
];

/// The command `line` runs: for `ssh [options] host "command"`, the remote
/// command; else the line itself.
fn remote_or_local(line: &str) -> String {
    let commands = simple_commands(line);
    let [only] = commands.as_slice() else {
        return line.to_owned();
    };
    let words = &only.words;
    if words.first().map(|p| p.rsplit('/').next().unwrap_or(p)) != Some("ssh") {
        return line.to_owned();
    }
    let mut rest = words.iter().skip(1);
    while let Some(w) = rest.next() {
        if SSH_WITH_VALUE.contains(&w.as_str()) {
            rest.next();
        } else if !w.starts_with('-') {
            // the host; what follows is the remote command
            let remote: Vec<&str> = rest.map(String::as_str).collect();
            return if remote.is_empty() {
                line.to_owned()
            } else {
                remote.join(" ")
            };
        }
    }
    line.to_owned()
}

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

/// The last non-empty lines of `text` (an `Exit code N` header left out
/// when more follows), each cut to [`LINE_CHARS`].
fn last_lines(text: &str) -> String {
    let mut lines: Vec<&str> = text
        .lines()
        .rev()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .take(QUOTE_LINES + 1)
        .collect();
    lines.reverse();
    if lines.len() > 1 && lines.first().is_some_and(|l| header_exit_code(l).is_some()) {
        lines.remove(0);
    }
    let skip = lines.len().saturating_sub(QUOTE_LINES);
    lines.iter().skip(skip).map(|l| clip(l)).collect::<Vec<_>>().join("\n")
}

/// The lines of `output` that read as a failure, the last
/// [`QUOTE_LINES`] of them, verbatim (cut to [`LINE_CHARS`]); empty when
/// none does. Reads only the last [`SCAN_LINES`] lines.
pub(crate) fn failure_lines(output: &str) -> String {
    let mut hits: Vec<&str> = output
        .lines()
        .rev()
        .take(SCAN_LINES)
        .map(str::trim_end)
        .filter(|l| reads_as_failure(l))
        .take(QUOTE_LINES)
        .collect();
    if hits.is_empty() && looks_failed(output) {
        return last_lines(output);
    }
    hits.reverse();
    hits.iter().map(|l| clip(l)).collect::<Vec<_>>().join("\n")
}

/// Whether one line of output says something failed: a count of failures
/// or errors above zero, `FAIL`/`FAILED`, a traceback or panic, an error
/// line, a raised exception, a refused or failed system call, an HTTP error
/// status, a child's non-zero exit, a failed CI conclusion, or a
/// validator's "invalid".
fn reads_as_failure(line: &str) -> bool {
    let l = line.trim();
    let lower = l.to_lowercase();
    positive_count(&lower)
        || raised(l)
        || (!lower.starts_with("warn") && !l.starts_with('✓') && SYSTEM_FAILURES.iter().any(|p| lower.contains(p)))
        || keyed_failure(&lower)
        || l.starts_with("FAIL")
        || l.starts_with("--- FAIL")
        || l.contains(" FAILED")
        || l.starts_with("✗")
        || l.starts_with("✘")
        || l.starts_with("❌")
        || l.starts_with("Traceback (most recent call last)")
        || l.contains("panicked at")
        || [
            "error:",
            "error[",
            "fatal:",
            "npm err!",
            "npm error ",
            "error ts",
            "uncaught ",
        ]
        .iter()
        .any(|p| lower.starts_with(p))
        || l.starts_with("ERROR")
        || [
            "is invalid",
            "is not valid",
            "validation failed",
            "invalid json",
            "schema validation",
        ]
        .iter()
        .any(|p| lower.contains(p))
}

/// What a system call or a network request says when it failed, lower case
/// (`EPERM`, `EACCES`, `ECONNREFUSED`, DNS, timeouts, a child process).
const SYSTEM_FAILURES: &[&str] = &[
    "operation not permitted",
    "permission denied",
    "connection refused",
    "connection reset",
    "could not resolve host",
    "name or service not known",
    "network is unreachable",
    "timed out",
    "returned non-zero exit status",
];

/// Whether `line` raises an exception: a word such as `TimeoutError:`,
/// `requests.exceptions.ConnectionError:` or
/// `java.lang.IllegalStateException:` — a class name (its last dotted part
/// capitalised) ending in `Error` or `Exception`, then a colon.
fn raised(line: &str) -> bool {
    line.split_whitespace().any(|w| {
        let Some(name) = w.strip_suffix(':') else {
            return false;
        };
        let class = name.rsplit('.').next().unwrap_or(name);
        let kind = ["Error", "Exception"]
            .iter()
            .find_map(|k| class.strip_suffix(k).filter(|rest| !rest.is_empty()));
        kind.is_some()
            && class.starts_with(|c: char| c.is_ascii_uppercase())
            && class.chars().all(|c| c.is_ascii_alphanumeric())
            && name.split('.').all(|part| !part.is_empty())
    })
}

/// Whether `lower` reports a failure as a key and its value: an HTTP status
/// of 400–599 (`status 500`, a status line `HTTP/1.1 502`, `"status_code":
/// 404`; not "HTTP 401" in prose, nor an access log's `"GET /x HTTP/1.1" 404`), a child's non-zero `exit status 1` (Go, Python;
/// not "exit code 1", which prose and PR bodies quote), or a failed
/// conclusion written as a key and a value (`conclusion=failure`,
/// `"status": "failed"`).
fn keyed_failure(lower: &str) -> bool {
    let words: Vec<String> = lower
        .split(|c: char| {
            c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '[' | ']' | '|' | '"' | '\'' | '{' | '}')
        })
        .flat_map(|w| w.split_inclusive(['=', ':']))
        .filter(|w| !w.is_empty())
        .fold(Vec::new(), |mut words: Vec<String>, w| {
            // `"state": "failed"`: a separator split off its key goes back to it
            match words.last_mut() {
                Some(key) if matches!(w, "=" | ":") && !key.ends_with(['=', ':']) => key.push_str(w),
                _ if matches!(w, "=" | ":") => {}
                _ => words.push(w.to_owned()),
            }
            words
        });
    let http_error = |w: &str| w.len() == 3 && w.parse::<u16>().is_ok_and(|n| (400..600).contains(&n));
    let nonzero = |w: &str| w.parse::<i64>().is_ok_and(|n| n != 0);
    words.windows(2).any(|pair| {
        let (key, value) = (pair[0].as_str(), bare(&pair[1]));
        let named = bare(key);
        ((matches!(named, "status" | "status_code" | "statuscode")
            || (named.starts_with("http/") && lower.trim_start().starts_with(named)))
            && http_error(value))
            || (key.ends_with(['=', ':'])
                && matches!(named, "conclusion" | "status" | "result" | "state")
                && matches!(value, "failure" | "failed"))
    }) || words
        .windows(3)
        .any(|w| bare(&w[0]) == "exit" && bare(&w[1]) == "status" && nonzero(bare(&w[2])))
}

/// `word` without the `=`, `:` or `.` it ends with.
fn bare(word: &str) -> &str {
    word.trim_end_matches(['=', ':', '.'])
}

/// Whether `lower` counts failures or errors above zero: `2 failed`, `1
/// error`, `failures: 3`, `errors=1`.
fn positive_count(lower: &str) -> bool {
    const WORDS: &[&str] = &["failed", "failures", "failure", "failing", "errors", "error"];
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '[' | ']' | '|'))
        .filter(|w| !w.is_empty())
        .collect();
    let positive = |w: &str| w.parse::<u64>().is_ok_and(|n| n > 0);
    words.windows(2).any(|pair| {
        let (a, b) = (pair[0], pair[1]);
        (positive(a) && WORDS.contains(&b.trim_end_matches([':', '.', '!'])))
            || (WORDS.contains(&a.trim_end_matches(':')) && a.ends_with(':') && positive(b))
    }) || words.iter().any(|w| {
        w.split_once('=')
            .is_some_and(|(k, v)| WORDS.contains(&k) && positive(v.trim_end_matches([',', '.'])))
    })
}

/// `line` cut to [`LINE_CHARS`] characters.
fn clip(line: &str) -> &str {
    crate::text::clamp_chars(line, LINE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_above_zero_are_failures_and_zero_is_not() {
        for yes in [
            "2 failed, 10 passed",
            "Tests: 1 failed",
            "failures: 3",
            "errors=1",
            "1 error generated.",
        ] {
            assert!(reads_as_failure(yes), "{yes}");
        }
        for no in [
            "0 failed, 12 passed",
            "no errors",
            "Errors: 0",
            "compiled with 0 errors",
            "test failed_parse ... ok",
        ] {
            assert!(!reads_as_failure(no), "{no}");
        }
    }

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
        assert!(retried_with_options(
            "npm install -D eslint-plugin-import eslint-plugin-react-hooks",
            "cd app && npm install -D eslint-plugin-import eslint-plugin-react-hooks --legacy-peer-deps"
        ));
        assert!(
            !retried_with_options("npm install -D a b", "npm install -D a"),
            "fewer packages"
        );
        assert!(
            !retried_with_options("npm install -D a", "npm install -D a b"),
            "another package"
        );
        assert!(
            !retried_with_options("npm install -D a", "npm install -D a"),
            "nothing added"
        );
        assert!(
            !retried_with_options("make build", "make --dry-run"),
            "not the same words"
        );
        assert!(
            !retried_with_options(
                "npm install foo 2>&1 | tee install.log",
                "npm run build 2>&1 | tee -a install.log"
            ),
            "another command through the same pipe"
        );
        assert!(
            !retried_with_options("npm install x", "npm install x --ignore-scripts"),
            "a skipped check"
        );
        assert!(!retried_with_options(
            "kubectl apply -f x.yaml",
            "kubectl apply -f x.yaml --validate=false"
        ));
        assert!(retried_with_options(
            "pip install -r r.txt | tail -3",
            "pip install -r r.txt --no-cache-dir | tail -3"
        ));
    }

    #[test]
    fn looks_through_ssh_version_probes_and_gh_reads() {
        for yes in [
            "ssh root@10.0.0.1 \"ls -la /etc/init.d/ | grep -i ovpn\"",
            "ssh -p 2222 -o ConnectTimeout=10 host 'cat /etc/os-release'",
            "anchor --version",
            "which anchor 2>/dev/null && anchor --version",
            "gh pr view 12 --json state",
            "gh api repos/o/r/pulls",
            "command -v solana",
            "Get-Content -Path src/sandbox.rs -TotalCount 130",
            "Select-String -Path setup.sh -Pattern x | Select-Object -First 3",
            "ssh root@10.0.0.1 \"logread | grep modem | tail -5\"",
        ] {
            assert!(line_only_looks(&remote_or_local(yes)), "{yes}");
        }
        for no in [
            "ssh host \"opkg remove kmod-ovpn\"",
            "gh pr checks 5",
            "gh api -X POST repos/o/r/issues",
            "cargo build",
            "ssh host",
        ] {
            assert!(!line_only_looks(&remote_or_local(no)), "{no}");
        }
    }

    #[test]
    fn error_lines_tracebacks_and_validators_are_failures() {
        for yes in [
            "error: could not compile `app`",
            "Traceback (most recent call last):",
            "FAILED tests/test_x.py::test_y",
            "  /items/0: is invalid",
            "thread 'main' panicked at src/main.rs:3:5",
            "ERROR: migration 0042 failed",
        ] {
            assert!(reads_as_failure(yes), "{yes}");
        }
    }

    #[test]
    fn exceptions_system_calls_http_statuses_exits_and_conclusions_are_failures() {
        for yes in [
            "network_error TimeoutError: timed out",
            "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='x')",
            "java.lang.IllegalStateException: closed",
            "network_error <urlopen error [Errno 1] Operation not permitted>",
            "curl: (7) Failed to connect to localhost port 8080: Connection refused",
            "status 500 Internal server error",
            "HTTP/1.1 502 Bad Gateway",
            "{\"status_code\": 404, \"detail\": \"missing\"}",
            "{\"status\": 500, \"body\": \"x\"}",
            "exit status 1",
            "run 300 conclusion=failure | legs: verify=failure",
            "{\"state\": \"failed\"}",
            "npm error audit endpoint returned an error",
            "subprocess.CalledProcessError: Command '['make']' returned non-zero exit status 2.",
        ] {
            assert!(reads_as_failure(yes), "{yes}");
        }
        for no in [
            "status 200 OK",
            "HTTP/1.1 204 No Content",
            "exit status 0",
            "EXIT=0",
            "conclusion=success",
            "description: Internal server error",
            "respond to the returned HTTP 401 code by reacquiring a token",
            "distinguish between exit code 1 (detached HEAD) and 128",
            "  empty platforms        exit=1",
            "[error]get modem device status failed",
            "handles ValueError and TypeError gracefully",
            "on_error: retry",
            "status: 4000 items",
            "timeout_secs = 30",
            "INFO: 127.0.0.1:52345 - \"GET /favicon.ico HTTP/1.1\" 404 Not Found",
            "WARNING: Retrying (Retry(total=4)) after connection broken by '[Errno 111] Connection refused'",
            "✓ handles connection refused",
        ] {
            assert!(!reads_as_failure(no), "{no}");
        }
    }
}
