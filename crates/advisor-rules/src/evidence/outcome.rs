//! Reading a run's outcome from its output: the decisive summary line, plus
//! the exit status the host recorded.
//!
//! Owns [`summary_of`] (the decisive line of a run's output in its runners'
//! [`Format`]s), [`header_exit_code`] (the exit status in the header a
//! host writes above a tool's own output, never a line the tool printed),
//! [`without_header`] and [`printed`] (what the tool itself printed, below a
//! host's header or in Gemini CLI's `Output:` field), [`looks_failed`], the
//! crate's one failure detector for output whose host recorded no outcome,
//! built from the same two, and what a whole output says beyond its summary
//! line: that it ran no test ([`all_skipped`], [`ran_no_test`]) or that its
//! code did not compile ([`is_compile_error`]). A
//! failing summary line wins; then a non-zero exit status; then a passing
//! summary line or a zero exit status. A piped run that exits 0 is therefore
//! read from its summary, and a passing run whose test *names* contain
//! "failed" is a pass, because names are not summary lines. A line rewritten in
//! place with `\r` is read as a terminal shows it. The decisive line is
//! returned as printed (durations and all); stripping volatile parts is the
//! note writer's business. Must not decide what a run is — the runner table
//! does that.

use super::runners::{ANY, Format, Says, is_go_command_error, is_go_compile_error, pytest_counts};

/// Whether tool output whose host recorded no outcome reads as a failure —
/// the one failure detector, which the transcript readers of `advisor-cli`
/// fall back on (OpenAI-style messages, a Codex output with no header): a
/// non-zero exit status in the host's header; else the decisive summary line
/// of any runner's format; else a compile error, a Python traceback or a Rust
/// panic on a line of its own. `0 failed` and a test *named* `…failed` are not
/// failures. (A shell's own error line is not enough: in `tsc --version; npx
/// tsc` or a build script probing for `git`, it may be a probe's.)
///
/// ```
/// use advisor_rules::looks_failed;
/// assert!(looks_failed("Exit code 1\nnpm ERR! Test failed."));
/// assert!(looks_failed("===== 1 failed, 2 passed in 0.1s ====="));
/// assert!(looks_failed("Traceback (most recent call last):\n  File \"x.py\""));
/// assert!(!looks_failed("test result: ok. 3 passed; 0 failed"));
/// assert!(!looks_failed("test parse_failed_input ... ok"));
/// ```
pub fn looks_failed(output: &str) -> bool {
    if let Some(code) = header_exit_code(output) {
        return code != 0;
    }
    if let Some(summary) = summary_of(output, ANY) {
        return summary.says == Says::Fail;
    }
    output.lines().rev().take(MAX_LINES).any(|l| {
        let l = strip_ansi(l.trim());
        is_compile_error(&l) || l.starts_with("Traceback (most recent call last)") || l.contains("panicked at")
    })
}

/// Removes ANSI escape sequences (colour codes) from a line.
fn strip_ansi(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ … final byte in @..~
            if chars.next() == Some('[') {
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    std::borrow::Cow::Owned(out)
}

/// Lines of output read at most, from the end (summaries come last).
const MAX_LINES: usize = 4000;

/// A generic closing line (`error: test failed, to rerun …`, `BUILD FAILED in 3s`,
/// lein's `Tests failed.`, sbt's `[error] Total time: …`), quoted only when the
/// runner printed no count of its own.
fn is_closing_line(l: &str) -> bool {
    (l.starts_with("error: ") && !l.starts_with("error: could not compile"))
        || l.starts_with("BUILD FAILED")
        || l.starts_with("FAILURE:")
        || l == "FAIL"
        || l == "Build FAILED."
        || l == "Tests failed."
        || l.starts_with("[error] Total time: ")
        || l.contains("sbt.TestsFailedException: ")
        || l.starts_with("cabal: Tests failed for ")
        || l.starts_with("To see what failed, try: gh run view")
}

/// The decisive summary line of `output` in any of `formats`: the last
/// failing line of a runner's own, else the last passing one, else a generic
/// closing error line (`make: *** … Error 1`, `error: …`): a suite that printed
/// its own passing count and logged an `error:` line passed.
pub(crate) fn summary_of(output: &str, formats: &[Format]) -> Option<Summary> {
    let lines: Vec<&str> = output.lines().collect();
    let start = lines.len().saturating_sub(MAX_LINES);
    let mut pass: Option<(String, Format)> = None;
    let mut fail: Option<(String, Format)> = None;
    let mut make_fail: Option<(String, Format)> = None;
    for raw in &lines[start..] {
        // a progress line rewritten in place (`\r00:02 +3: All tests passed!`): what a terminal shows
        let raw = raw.rsplit('\r').find(|s| !s.trim().is_empty()).unwrap_or(raw);
        // Gemini CLI's record puts the output's first line after its `Output: ` field name
        let raw = raw.strip_prefix("Output: ").unwrap_or(raw);
        let line = strip_ansi(raw);
        let said = formats.iter().find_map(|f| f.read(&line).map(|s| (*f, s)));
        match said {
            // `go`'s own errors too: a passing test may print one (`package x is not in std`)
            Some((f, Says::Fail))
                if f == Format::Make || is_closing_line(line.trim()) || is_go_command_error(line.trim()) =>
            {
                make_fail = make_fail.or_else(|| Some((line.trim().to_owned(), f)));
            }
            Some((f, Says::Fail)) => fail = Some((line.trim().to_owned(), f)),
            Some((f, Says::Pass)) => pass = Some((line.trim().to_owned(), f)),
            None => {}
        }
    }
    let summary = |says| move |(line, format): (String, Format)| Summary { says, line, format };
    // a runner's own count decides; a generic error line (`error: …` logged by a
    // passing suite, `make: ***`) only where the runner printed none
    (fail.map(summary(Says::Fail)))
        .or_else(|| pass.map(summary(Says::Pass)))
        .or_else(|| make_fail.map(summary(Says::Fail)))
}

/// The decisive summary line of a run's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Summary {
    /// What it says.
    pub(crate) says: Says,
    /// The line, trimmed, as printed.
    pub(crate) line: String,
    /// The format it was read in: what kind of check printed it.
    pub(crate) format: Format,
}

/// Lines of a host header read at most.
const MAX_HEADER_LINES: usize = 8;

/// The exit status in the header a host writes above a tool's own output:
/// `Exit code 2` (Claude Code, its first line), `Chunk ID …`/`Wall time …`/
/// `Process exited with code 1`/`Output:` (Codex unified exec),
/// `<retrieval_status>`…`<exit_code>0</exit_code>` before `<output>` (Claude
/// Code background tasks), `exit code: 1` / `exit status 101` as the whole
/// first line (a library's error text). Reading stops at the first line that
/// is not a header line, so nothing the tool printed can set it.
pub(crate) fn header_exit_code(text: &str) -> Option<i64> {
    const CODE: [&str; 5] = [
        "exit code",
        "process exited with code",
        "exit status",
        "exited with code",
        "<exit_code>",
    ];
    const OTHER: [&str; 9] = [
        "chunk id:",
        "wall time:",
        "original token count:",
        "process running with session id",
        "<retrieval_status>",
        "<task_id>",
        "<task_type>",
        "<status>",
        "<shell_id>",
    ];
    for raw in text.lines().take(MAX_HEADER_LINES) {
        let lower = raw.trim().to_ascii_lowercase();
        if let Some(rest) = CODE.iter().find_map(|p| lower.strip_prefix(p)) {
            let digits: String = (rest.trim_start_matches([' ', ':', '=']).chars())
                .take_while(|c| c.is_ascii_digit() || *c == '-')
                .collect();
            return digits.parse().ok();
        }
        if !OTHER.iter().any(|p| lower.starts_with(p)) {
            return None;
        }
    }
    None
}

/// `text` below the header a host writes above a tool's own output (the
/// lines [`header_exit_code`] reads, Codex CLI 0.115's `Command:` line and
/// Codex's `Output:` line), or all of it when there is none.
pub(crate) fn without_header(text: &str) -> &str {
    const HEADER: [&str; 8] = [
        "command:",
        "exit code",
        "process exited with code",
        "chunk id:",
        "wall time:",
        "original token count:",
        "output:",
        "process running with session id",
    ];
    let mut rest = text;
    for _ in 0..MAX_HEADER_LINES {
        let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
        let lower = line.trim().to_ascii_lowercase();
        // `Output:` alone ends Codex's header; `Output: text` is no header line
        if !HEADER.iter().any(|h| lower.starts_with(h)) || (lower.starts_with("output:") && lower != "output:") {
            break;
        }
        rest = after;
        if lower == "output:" {
            break;
        }
    }
    rest
}

/// What the tool printed: Gemini CLI's `Output:` field of its record
/// (`Command: …\nDirectory: …\nOutput: …\nError: …\nExit Code: N`), else
/// the text below the host's header.
pub(crate) fn printed(text: &str) -> &str {
    if text.starts_with("Command: ") {
        if let Some(start) = text.find("\nOutput: ") {
            let rest = &text[start + "\nOutput: ".len()..];
            return rest.find("\nError: ").map_or(rest, |end| &rest[..end]);
        }
    }
    without_header(text)
}

/// A run that ran no test, every one skipped: a TAP stream (bats, `node
/// --test`) whose plan `1..N` is followed by `ok` lines that are all `# skip`,
/// or a pytest closing line with nothing but `skipped` / `deselected` counts.
/// Returns the line to quote. A run that passed one test is not this.
pub(crate) fn all_skipped(output: &str) -> Option<String> {
    let (mut plan, mut skipped, mut ran) = (false, 0u64, false);
    let mut pytest = None;
    let lines: Vec<&str> = output.lines().rev().take(4000).map(str::trim).collect();
    // a line cut where the evidence was truncated (`…[977 bytes truncated]…`) says nothing
    let marker = |l: &str| l.starts_with("…[") && l.ends_with("truncated]…");
    for (i, l) in lines.iter().copied().enumerate() {
        let cut = marker(l) || (i > 0 && marker(lines[i - 1])) || lines.get(i + 1).is_some_and(|n| marker(n));
        if cut {
            continue;
        }
        if l.strip_prefix("1..")
            .is_some_and(|n| n.parse::<u64>().is_ok_and(|n| n > 0))
        {
            plan = true;
        } else if let Some(rest) = l.strip_prefix("ok ") {
            let skip = rest
                .rsplit_once(" # ")
                .is_some_and(|(_, d)| d.to_ascii_lowercase().starts_with("skip"));
            if skip {
                skipped += 1;
            } else {
                ran = true;
            }
        } else if l.starts_with("not ok ") {
            ran = true;
        } else if pytest.is_none() && pytest_counts(l).is_some() {
            let body = l.trim_matches('=').trim();
            let counts = body.rsplit_once(" in ").map_or(body, |(c, _)| c);
            let only_skips = counts.split(',').all(|part| {
                let mut it = part.split_whitespace();
                it.next().is_some_and(|n| n.parse::<u64>().is_ok())
                    && matches!(it.next(), Some("skipped" | "deselected"))
            });
            pytest = Some(only_skips.then(|| body.to_owned()));
        }
    }
    if let Some(line) = pytest {
        return line;
    }
    // no count: a truncated output shows only some of the skips
    (plan && skipped > 0 && !ran).then(|| "every test was skipped".to_owned())
}

/// Whether a test run's output says it ran no test: every one skipped or
/// deselected ([`all_skipped`]), or pytest's `no tests ran in 0.01s`.
pub(crate) fn ran_no_test(output: &str) -> bool {
    all_skipped(output).is_some()
        || (output.lines().rev().take(4000)).any(|l| l.trim().trim_matches('=').trim().starts_with("no tests ran in "))
}

/// Whether a failing line says the code did not compile: a Go compiler
/// error, rustc's `error[E…]` / `could not compile`, a TypeScript `error TS`,
/// Elixir's `CompileError`, a Python `SyntaxError`, a test module pytest
/// could not import (`ERROR collecting …`, `… errors during collection`).
pub(crate) fn is_compile_error(l: &str) -> bool {
    is_go_compile_error(l)
        || l.starts_with("error[E")
        || l.contains("could not compile")
        || l.contains("error TS")
        || l.contains("CompileError")
        || l.contains("SyntaxError")
        // swiftc: `Tests/AppTests/A.swift:70:5: error: …`
        || (l.contains(".swift:") && l.contains(": error: "))
        // pytest could not import a test module: the code does not load
        || l.contains("ERROR collecting ")
        || l.contains(" during collection")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_one_failure_detector_reads_headers_summaries_and_crashes() {
        assert!(looks_failed("test result: FAILED. 3 passed; 1 failed"));
        assert!(looks_failed("Exit code: 2"));
        assert!(looks_failed("Process exited with code 1\nOutput:\nboom"));
        assert!(looks_failed("error: could not compile `x`"));
        assert!(looks_failed("Traceback (most recent call last):\n  File"));
        assert!(looks_failed("thread 'main' panicked at src/main.rs:3:5"));
        assert!(!looks_failed("test result: ok. 5 passed; 0 failed"));
        assert!(!looks_failed("Exit code: 0"));
        assert!(!looks_failed("all good"));
        // a probe's line (`tsc --version; npx tsc`): the shell's own words, not an outcome
        assert!(!looks_failed(
            "bash: ./node_modules/.bin/tsc: No such file or directory"
        ));
    }

    #[test]
    fn the_output_below_a_hosts_header_is_what_the_tool_printed() {
        assert_eq!(
            without_header("Exit code 1\nls: x: No such file"),
            "ls: x: No such file"
        );
        assert_eq!(
            without_header(
                "Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 1\nOriginal token count: 0\nOutput:\n"
            ),
            ""
        );
        assert_eq!(without_header("Output: 3 files"), "Output: 3 files");
        assert_eq!(without_header("plain text"), "plain text");
        assert_eq!(
            printed("Command: rg x\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 1"),
            "(empty)"
        );
    }

    #[test]
    fn a_line_rewritten_in_place_is_read_as_a_terminal_shows_it() {
        let out = "\r00:01 +1: test/a_test.dart: adds\r00:01 +1 -1: Some tests failed.   \n";
        assert_eq!(
            summary_of(out, &[Format::Dart]).map(|s| (s.says, s.line)),
            Some((Says::Fail, "00:01 +1 -1: Some tests failed.".to_owned()))
        );
    }

    #[test]
    fn exit_codes_are_read_from_the_host_header_only() {
        assert_eq!(header_exit_code("Exit code 2\nfoo"), Some(2));
        assert_eq!(
            header_exit_code("Chunk ID: 1\nWall time: 0.2 seconds\nProcess exited with code 1\nOutput:"),
            Some(1)
        );
        assert_eq!(
            header_exit_code("<retrieval_status>success</retrieval_status>\n<exit_code>0</exit_code>"),
            Some(0)
        );
        // printed by the tool below its own first line: not the host's
        assert_eq!(header_exit_code("1 failed, 2 passed\nexit code 0"), None);
        assert_eq!(header_exit_code("the test checks the exit code 3 path"), None);
        assert_eq!(header_exit_code("all good"), None);
    }
}
