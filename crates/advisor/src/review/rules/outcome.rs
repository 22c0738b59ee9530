//! Reading a run's outcome from its output: each runner's own summary line,
//! plus the exit status the host recorded.
//!
//! Owns [`Format`] (one per runner output format), [`summary_of`] and
//! [`exit_code_of`]. A failing summary line wins; then a non-zero exit status;
//! then a passing summary line or a zero exit status. A piped run that exits 0
//! is therefore read from its summary, and a passing run whose test *names*
//! contain "failed" is a pass, because names are not summary lines. Must not
//! decide what a run is — the runner table does that.

/// A runner's output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Format {
    /// `test result: ok. 12 passed; 0 failed` / `error[E0425]` / `error: could not compile`.
    Cargo,
    /// `Summary [ 0.5s] 12 tests run: 11 passed, 1 failed`.
    Nextest,
    /// `==== 1 failed, 4 passed in 0.12s ====`.
    Pytest,
    /// `ok  \tpkg` / `FAIL\tpkg` / `--- FAIL: TestX`.
    GoTest,
    /// `Tests  1 failed | 3 passed (4)`.
    Vitest,
    /// `Tests:       1 failed, 9 passed, 10 total`.
    Jest,
    /// `3 passing (12ms)` / `1 failing`.
    Mocha,
    /// `297 tests, 11 failures` / `** (CompileError)`.
    ExUnit,
    /// `5 examples, 2 failures`.
    RSpec,
    /// `10 runs, 20 assertions, 1 failures, 0 errors, 0 skips`.
    Minitest,
    /// `OK (10 tests, 20 assertions)` / `Tests: 10, Assertions: 20, Failures: 1.`
    PhpUnit,
    /// `BUILD SUCCESS` / `BUILD FAILURE` / `Tests run: 10, Failures: 1, Errors: 0`.
    Maven,
    /// `BUILD SUCCESSFUL in 3s` / `BUILD FAILED in 3s`.
    Gradle,
    /// `Passed!  - Failed: 0, Passed: 42` / `Failed!  - Failed: 2`.
    Dotnet,
    /// `100% tests passed, 0 tests failed out of 12`.
    CTest,
    /// `make: *** [Makefile:12: test] Error 1`.
    Make,
    /// `congratulations :)` / `py311: FAIL code 1`.
    Tox,
    /// `nox > Session tests was successful.` / `nox > Session tests failed.`
    Nox,
    /// `Executed 3 out of 3 tests: 3 tests pass.` / `FAILED: Build did NOT complete successfully`.
    Bazel,
    /// `Executed 12 tests, with 1 failure` / `✘ Test run with 3 tests failed`.
    Swift,
    /// `error TS2345:` / `Found 3 errors in 2 files.`
    Tsc,
    /// `ok | 5 passed | 0 failed (20ms)` / `FAILED | 4 passed | 1 failed`.
    Deno,
    /// ` 9 pass` / ` 1 fail`.
    Bun,
}

/// What a summary line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Says {
    /// The run passed.
    Pass,
    /// The run failed.
    Fail,
}

/// The number written right before `word` in `line` (`11 failures` → 11), searching every occurrence.
fn count_before(line: &str, word: &str) -> Option<u64> {
    let lower = line.to_ascii_lowercase();
    (lower.match_indices(word))
        .filter_map(|(i, _)| {
            let head = lower[..i].trim_end_matches([' ', '\t', ':']);
            head[head.trim_end_matches(|c: char| c.is_ascii_digit()).len()..]
                .parse::<u64>()
                .ok()
        })
        .reduce(|a, b| a + b)
}

/// The number written right after `label` (`Failures: 1` → 1).
fn count_after(line: &str, label: &str) -> Option<u64> {
    let i = line.find(label)? + label.len();
    let digits: String = line[i..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// `Pass` when `pass` holds, else `Fail` when `fail` holds, else nothing.
fn says(pass: bool, fail: bool) -> Option<Says> {
    if pass {
        Some(Says::Pass)
    } else {
        fail.then_some(Says::Fail)
    }
}

fn fail_if(n: Option<u64>) -> Option<Says> {
    n.map(|n| if n > 0 { Says::Fail } else { Says::Pass })
}

/// Whether `line` is a pytest-style count list (`1 failed, 4 passed in 0.12s`).
fn pytest_counts(line: &str) -> Option<Says> {
    let body = line.trim().trim_matches('=').trim();
    let (counts, tail) = body.rsplit_once(" in ")?;
    if !tail.trim_end().ends_with('s') || !tail.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut failed = false;
    for part in counts.split(',') {
        let mut it = part.split_whitespace();
        let n: u64 = it.next()?.parse().ok()?;
        failed |= matches!(it.next()?, "failed" | "error" | "errors") && n > 0;
    }
    says(!failed, true)
}

impl Format {
    /// What `line` (trimmed, ANSI codes removed) says in this format, if it is a summary line.
    fn read(self, line: &str) -> Option<Says> {
        let l = line.trim();
        match self {
            Format::Cargo => {
                if let Some(rest) = l.strip_prefix("test result: ") {
                    return says(!rest.starts_with("FAILED"), true);
                }
                if l.starts_with("error[E") || l.starts_with("error: ") || l == "error" {
                    return Some(Says::Fail);
                }
                (l.starts_with("Finished ") && l.contains(" target(s) in ")).then_some(Says::Pass)
            }
            Format::Nextest => {
                if l.starts_with("Summary [") {
                    let bad = count_before(l, "failed").unwrap_or(0) + count_before(l, "timed out").unwrap_or(0);
                    return fail_if(Some(bad));
                }
                l.starts_with("error: test run failed").then_some(Says::Fail)
            }
            Format::Pytest => pytest_counts(l),
            Format::GoTest => says(
                l.starts_with("ok  \t") || l.starts_with("ok \t") || l.starts_with("ok\t") || l == "PASS",
                l.starts_with("--- FAIL") || l == "FAIL" || l.starts_with("FAIL\t") || l.starts_with("FAIL "),
            ),
            Format::Vitest => {
                let rest = l.strip_prefix("Tests ").or_else(|| l.strip_prefix("Test Files "))?;
                if !rest.trim_end().ends_with(')') {
                    return None;
                }
                fail_if(count_before(rest, "failed")).or_else(|| count_before(rest, "passed").map(|_| Says::Pass))
            }
            Format::Jest => {
                let rest = l.strip_prefix("Tests:").or_else(|| l.strip_prefix("Test Suites:"))?;
                if !rest.contains("total") {
                    return None;
                }
                fail_if(count_before(rest, "failed")).or(Some(Says::Pass))
            }
            Format::Mocha => {
                let mut it = l.split_whitespace();
                let n: u64 = it.next()?.parse().ok()?;
                match it.next()? {
                    "failing" => fail_if(Some(n)),
                    "passing" => Some(Says::Pass),
                    _ => None,
                }
            }
            Format::ExUnit => {
                if l.starts_with("** (CompileError)")
                    || l.starts_with("== Compilation error")
                    || l.contains("cannot compile module")
                {
                    return Some(Says::Fail);
                }
                count_before(l, "test")?;
                let failures = count_before(l, "failure");
                (l.contains(" test, ") || l.contains(" tests, "))
                    .then(|| fail_if(failures))
                    .flatten()
            }
            Format::RSpec => {
                if l.contains("error occurred outside of examples") || l.contains("errors occurred outside of examples")
                {
                    return Some(Says::Fail);
                }
                count_before(l, "example")?;
                fail_if(count_before(l, "failure"))
            }
            Format::Minitest => {
                if count_before(l, "runs").is_none() && count_before(l, "run,").is_none() {
                    return None;
                }
                count_before(l, "assertion")?;
                let bad = count_before(l, "failure")? + count_before(l, "error").unwrap_or(0);
                fail_if(Some(bad))
            }
            Format::PhpUnit => {
                if let Some(s) = says(
                    l.starts_with("OK (") && l.contains("test"),
                    l == "FAILURES!" || l == "ERRORS!",
                ) {
                    return Some(s);
                }
                if l.starts_with("Tests: ") && l.contains("Assertions:") {
                    let bad = count_after(l, "Failures:").unwrap_or(0) + count_after(l, "Errors:").unwrap_or(0);
                    return fail_if(Some(bad));
                }
                None
            }
            Format::Maven => {
                if let Some(s) = says(l.contains("BUILD SUCCESS"), l.contains("BUILD FAILURE")) {
                    return Some(s);
                }
                let i = l.find("Tests run:")?;
                let s = &l[i..];
                let bad = count_after(s, "Failures:").unwrap_or(0) + count_after(s, "Errors:").unwrap_or(0);
                fail_if(Some(bad))
            }
            Format::Gradle => says(
                l.starts_with("BUILD SUCCESSFUL"),
                l.starts_with("BUILD FAILED") || (l.contains(" tests completed, ") && l.contains(" failed")),
            ),
            Format::Dotnet => {
                let pass = l.starts_with("Passed!") || l == "Test Run Successful." || l == "Build succeeded.";
                let fail = l.starts_with("Failed!") || l == "Test Run Failed." || l == "Build FAILED.";
                if let Some(s) = says(pass, fail || l.contains(": error CS")) {
                    return Some(s);
                }
                let i = l.find("Test summary: total:")?;
                fail_if(count_after(&l[i..], "failed:"))
            }
            Format::CTest => {
                if l.starts_with("The following tests FAILED") {
                    return Some(Says::Fail);
                }
                if l.contains("% tests passed") && l.contains("tests failed out of") {
                    return fail_if(count_before(l, "tests failed out of"));
                }
                None
            }
            Format::Make => {
                ((l.starts_with("make: ***") || l.starts_with("make[")) && l.contains("***") && l.contains("Error"))
                    .then_some(Says::Fail)
            }
            Format::Tox => {
                let fail = l.starts_with("evaluation failed :(") || l.contains(": commands failed");
                says(l.starts_with("congratulations :)"), fail || l.contains(": FAIL code"))
                    .or_else(|| l.contains(": OK (").then_some(Says::Pass))
            }
            Format::Nox => {
                let rest = l.strip_prefix("nox > Session ")?;
                says(
                    rest.ends_with(" was successful."),
                    rest.contains(" failed") || rest.contains(" aborted"),
                )
            }
            Format::Bazel => {
                if l.starts_with("FAILED: Build did NOT complete successfully")
                    || (l.starts_with("Executed ") && l.contains(" fail"))
                {
                    return Some(Says::Fail);
                }
                if l.starts_with("INFO: Build completed") {
                    let failed = count_before(l, "test FAILED").or(count_before(l, "tests FAILED"));
                    return fail_if(Some(failed.unwrap_or(0)));
                }
                (l.starts_with("Executed ") && l.contains(" tests pass")).then_some(Says::Pass)
            }
            Format::Swift => {
                if l.starts_with("Executed ") && l.contains(" test") && l.contains(" with ") {
                    return fail_if(count_before(l, "failure"));
                }
                // the passing and failing lines exclude each other
                let pass = l.starts_with("Test Suite 'All tests' passed")
                    || (l.starts_with("✔ Test run with") && l.contains("passed"));
                let fail = l.starts_with("Test Suite 'All tests' failed")
                    || (l.starts_with("✘ Test run with") && l.contains("failed"));
                says(pass, fail || l.starts_with("error: ") || l.contains(": error: "))
            }
            Format::Tsc => {
                if l.contains("error TS") {
                    return Some(Says::Fail);
                }
                let rest = l.strip_prefix("Found ")?;
                fail_if(count_before(rest, "error"))
            }
            Format::Deno => says(l.starts_with("ok |") && l.contains("passed"), l.starts_with("FAILED |")),
            Format::Bun => {
                let mut it = l.split_whitespace();
                let n: u64 = it.next()?.parse().ok()?;
                match (it.next()?, it.next()) {
                    ("fail", None) => fail_if(Some(n)),
                    ("pass", None) => Some(Says::Pass),
                    _ => None,
                }
            }
        }
    }
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

/// A generic closing line (`error: test failed, to rerun …`, `BUILD FAILED in 3s`),
/// quoted only when the runner printed no count of its own.
fn is_closing_line(l: &str) -> bool {
    (l.starts_with("error: ") && !l.starts_with("error: could not compile"))
        || l.starts_with("BUILD FAILED")
        || l.starts_with("FAILURE:")
        || l == "FAIL"
        || l == "Build FAILED."
}

/// The decisive summary line of `output` in any of `formats`: the last
/// failing one (a runner's own count, preferred over `make`'s closing error
/// line), else the last passing one.
pub(crate) fn summary_of(output: &str, formats: &[Format]) -> Option<(Says, String)> {
    let lines: Vec<&str> = output.lines().collect();
    let start = lines.len().saturating_sub(MAX_LINES);
    let mut pass: Option<String> = None;
    let mut fail: Option<String> = None;
    let mut make_fail: Option<String> = None;
    for raw in &lines[start..] {
        let line = strip_ansi(raw);
        let said = formats.iter().find_map(|f| f.read(&line).map(|s| (*f, s)));
        match said {
            Some((f, Says::Fail)) if f == Format::Make || is_closing_line(line.trim()) => {
                make_fail = make_fail.or_else(|| Some(line.trim().to_owned()));
            }
            Some((_, Says::Fail)) => fail = Some(line.trim().to_owned()),
            Some((_, Says::Pass)) => pass = Some(line.trim().to_owned()),
            None => {}
        }
    }
    (fail.or(make_fail).map(|l| (Says::Fail, l))).or_else(|| pass.map(|l| (Says::Pass, l)))
}

/// The exit status a host wrote into a tool result: `Exit code 2` (Claude
/// Code), `Process exited with code 1` (Codex unified exec),
/// `<exit_code>0</exit_code>` (Claude Code background tasks), `exit code: 1`,
/// `exit status 101`. The last one wins.
pub(crate) fn exit_code_of(text: &str) -> Option<i64> {
    const MARKERS: [&str; 5] = [
        "exit code",
        "process exited with code",
        "exit status",
        "exited with code",
        "<exit_code>",
    ];
    text.lines().rev().find_map(|raw| {
        let lower = raw.trim().to_ascii_lowercase();
        let rest = MARKERS.iter().find_map(|p| lower.strip_prefix(p))?;
        let digits: String = (rest.trim_start_matches([' ', ':', '=']).chars())
            .take_while(|c| c.is_ascii_digit() || *c == '-')
            .collect();
        digits.parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_next_to_their_word() {
        assert_eq!(count_before("297 tests, 11 failures", "failure"), Some(11));
        assert_eq!(count_before("Tests  1 failed | 15 skipped (16)", "failed"), Some(1));
        assert_eq!(count_before("no numbers failed", "failed"), None);
        assert_eq!(
            count_after("Tests: 3, Assertions: 4, Failures: 1.", "Failures:"),
            Some(1)
        );
    }

    #[test]
    fn exit_codes_are_read_from_host_headers_only() {
        assert_eq!(exit_code_of("Exit code 2\nfoo"), Some(2));
        assert_eq!(
            exit_code_of("Chunk ID: 1\nProcess exited with code 1\nOutput:"),
            Some(1)
        );
        assert_eq!(exit_code_of("<exit_code>0</exit_code>"), Some(0));
        assert_eq!(exit_code_of("the test checks the exit code 3 path"), None);
        assert_eq!(exit_code_of("all good"), None);
    }
}
