//! What a call's output says: the lines that read as a failure under exit 0,
//! and how output is quoted.
//!
//! Owns [`failure_lines`] (a count of failures above zero, `FAIL`/`FAILED`, a
//! traceback or panic, an error line, a shell that could not find or run a
//! program, a raised exception, a refused system
//! call or network request, an HTTP error status, a child's `exit status N`,
//! a failed CI conclusion, a validator's "invalid"), [`last_lines`] and
//! [`clip`], and their bounds. Must not decide which calls are read (the
//! [`failures`](super::failures) module does) or read the answer.

use crate::evidence::outcome::{header_exit_code, looks_failed};

/// Most lines quoted of one failure.
const QUOTE_LINES: usize = 5;
/// Longest line quoted, in characters; longer lines are cut.
const LINE_CHARS: usize = 300;
/// Most lines of one output scanned for failure lines (the last ones).
const SCAN_LINES: usize = 400;

/// The last `n` lines of `text`, empty ones included.
pub(super) fn tail_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// The last non-empty lines of `text` (an `Exit code N` header left out
/// when more follows), each cut to [`LINE_CHARS`].
pub(super) fn last_lines(text: &str) -> String {
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
pub(super) fn failure_lines(output: &str) -> String {
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
/// line, a shell that could not find or run a program, a raised exception, a
/// refused or failed system call, an HTTP error status, a child's non-zero
/// exit, a failed CI conclusion, or a validator's "invalid".
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
        || shell_error(&lower)
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

/// Whether `lower` is a shell's own error line: the shell named first
/// (`bash: `, `zsh: `, `sh: 1: `, `/bin/sh: `), then a program or script it
/// could not find or run (`bash: ./deploy.sh: No such file or directory`,
/// `zsh: command not found: tsc`, `sh: 1: jest: not found`).
fn shell_error(lower: &str) -> bool {
    const SHELLS: &[&str] = &["bash", "zsh", "sh", "dash", "ksh", "fish"];
    const CANNOT: &[&str] = &[
        "no such file or directory",
        "command not found",
        ": not found",
        "is a directory",
        "cannot execute",
        "bad interpreter",
    ];
    let Some((shell, rest)) = lower.split_once(": ") else {
        return false;
    };
    let shell = shell.trim_start_matches('-').rsplit('/').next().unwrap_or(shell);
    SHELLS.contains(&shell) && CANNOT.iter().any(|c| rest.contains(c))
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
pub(super) fn clip(line: &str) -> &str {
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
            "bash: /home/u/.claude/skills/x/export-session.sh: No such file or directory",
            "zsh: command not found: tsc",
            "sh: 1: jest: not found",
            "/bin/sh: ./run.sh: Permission denied",
            "-bash: ./deploy.sh: /bin/bash^M: bad interpreter: No such file or directory",
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
            "bash: completion loaded",
            "sh: the shell to run hooks with",
            "ls: cannot access 'x': No such file or directory",
        ] {
            assert!(!reads_as_failure(no), "{no}");
        }
    }
}
