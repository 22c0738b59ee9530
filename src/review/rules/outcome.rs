//! Reading a run's outcome from its output: each runner's own summary line,
//! plus the exit status the host recorded.
//!
//! Owns [`Format`] (one per runner output format, CI results from `gh`
//! included), [`summary_of`] and [`exit_code_of`]. A failing summary line
//! wins; then a non-zero exit status; then a passing summary line or a zero
//! exit status. A piped run that exits 0 is therefore read from its summary,
//! and a passing run whose test *names* contain "failed" is a pass, because
//! names are not summary lines: each format reads only its runner's own
//! closing lines, whole (`FAILED (failures=1)`, `# fail 1`, `Build Summary: …`),
//! never a word inside a line. A line rewritten in place with `\r` is read as a
//! terminal shows it. The decisive line is returned as printed (durations and
//! all); stripping volatile parts is the note writer's business. Must not
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
    /// Python's `unittest` (and Django's `manage.py test`): `Ran 3 tests in 0.001s`
    /// / `FAILED (failures=1, errors=1)`.
    Unittest,
    /// `node --test`, TAP (`# pass 3` / `# fail 1`) or spec (`ℹ pass 3` / `ℹ fail 1`) reporter.
    NodeTest,
    /// `bats`: TAP (`1..3` / `not ok 2 name`) or the pretty formatter (`3 tests, 1 failure`).
    Bats,
    /// `zig build test` / `zig test`: `Build Summary: 3/5 steps succeeded (1 failed)` /
    /// `All 3 tests passed.` / `0 passed; 0 skipped; 1 failed.`
    Zig,
    /// `sbt test`: `[info] Passed: Total 2, Failed 0, …` / `[error] Failed: Total 2, Failed 1, …` /
    /// `sbt.TestsFailedException: Tests unsuccessful` / `[success] Total time: …`.
    Sbt,
    /// `lein test` (clojure.test): `Ran 3 tests containing 3 assertions.` / `1 failures, 0 errors.`
    Clojure,
    /// `cabal test` / `stack test`: `1 of 1 test suites (1 of 1 test cases) passed.` /
    /// `Test suite demo-test: FAIL` / `demo> Test suite demo-test failed`.
    Haskell,
    /// `dart test` / `flutter test`: `00:02 +3: All tests passed!` / `00:02 +2 -1: Some tests failed.`
    Dart,
    /// `Success: no issues found in 3 source files` / `Found 2 errors in 1 file (checked 3 source files)`.
    Mypy,
    /// `0 errors, 0 warnings, 0 informations` / `2 errors, 0 warnings, 0 informations`.
    Pyright,
    /// `gh pr checks`: `All checks were successful` / `Some checks were not successful`, and the
    /// rows `name\tpass|fail|pending|skipping\t…` (no terminal) or `X  name …` (terminal).
    GhChecks,
    /// `gh run view` / `gh run watch`: the run's header (`✓ main CI · 123` / `X main CI · 123`),
    /// its job lines (`X test in 4m34s (ID 20)`) and `… completed with 'failure'`.
    GhRun,
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

/// The number at the start of `s` and the rest (`12 tests` → 12, ` tests`).
fn leading_number(s: &str) -> Option<(u64, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// Python unittest's closing lines: `Ran 3 tests in 0.001s`, `FAILED (failures=1, errors=1)`.
fn unittest_line(l: &str) -> Option<Says> {
    if let Some(rest) = l.strip_prefix("FAILED (") {
        let known = [
            "failures=",
            "errors=",
            "unexpected successes=",
            "skipped=",
            "expected failures=",
        ];
        return (rest.ends_with(')') && known.iter().any(|k| rest.starts_with(k))).then_some(Says::Fail);
    }
    // `Ran 0 tests` passes nothing; its exit status (5 from Python 3.12 on) says how it ended
    let (n, rest) = leading_number(l.strip_prefix("Ran ")?)?;
    let rest = rest
        .strip_prefix(" tests in ")
        .or_else(|| rest.strip_prefix(" test in "))?;
    (n > 0 && rest.ends_with('s') && rest.starts_with(|c: char| c.is_ascii_digit())).then_some(Says::Pass)
}

/// `node --test`'s closing counts: `# fail 1` (TAP) / `ℹ fail 1` (spec), `# pass 3`, `# cancelled 0`.
fn node_test_line(l: &str) -> Option<Says> {
    let rest = l.strip_prefix("# ").or_else(|| l.strip_prefix("ℹ "))?;
    let (word, n) = rest.split_once(' ')?;
    let n: u64 = n.parse().ok()?;
    match word {
        "fail" => fail_if(Some(n)),
        "cancelled" if n > 0 => Some(Says::Fail),
        "pass" if n > 0 => Some(Says::Pass),
        _ => None,
    }
}

/// A TAP result line that fails: `not ok 2 name`, unless it is a `# TODO` or `# SKIP`.
fn tap_not_ok(l: &str) -> bool {
    let Some(rest) = l.strip_prefix("not ok ") else {
        return false;
    };
    let directive = rest.rsplit_once(" # ").map(|(_, d)| d.to_ascii_lowercase());
    rest.starts_with(|c: char| c.is_ascii_digit())
        && !directive.is_some_and(|d| d.starts_with("todo") || d.starts_with("skip"))
}

/// bats: the pretty formatter's `3 tests, 1 failure` (`, 1 skipped`, `, 2 not run` may follow),
/// TAP's `not ok N` and its plan `1..N`.
fn bats_line(l: &str) -> Option<Says> {
    if tap_not_ok(l) {
        return Some(Says::Fail);
    }
    if let Some(n) = l.strip_prefix("1..") {
        return n.parse::<u64>().ok().filter(|n| *n > 0).map(|_| Says::Pass);
    }
    let (_, rest) = leading_number(l)?;
    let rest = rest.strip_prefix(" tests, ").or_else(|| rest.strip_prefix(" test, "))?;
    let (failures, tail) = leading_number(rest)?;
    (tail.starts_with(" failure"))
        .then(|| fail_if(Some(failures)))
        .flatten()
}

/// Zig's build summary and test runner lines.
fn zig_line(l: &str) -> Option<Says> {
    if let Some(rest) = l.strip_prefix("Build Summary: ") {
        let (_, rest) = leading_number(rest)?;
        let rest = rest.strip_prefix('/')?;
        let (_, rest) = leading_number(rest)?;
        if !rest.starts_with(" steps succeeded") {
            return None;
        }
        return says(!rest.contains("failed"), true);
    }
    if let Some(rest) = l.strip_prefix("All ") {
        let (n, rest) = leading_number(rest)?;
        return (n > 0 && (rest == " tests passed." || rest == " test passed.")).then_some(Says::Pass);
    }
    // `0 passed; 0 skipped; 1 failed.`
    if l.ends_with(" failed.") && l.contains(" passed; ") && l.contains(" skipped; ") {
        return fail_if(count_before(l, "failed."));
    }
    let rest = l.strip_prefix("error: ")?;
    let (n, rest) = leading_number(rest)?;
    (n > 0 && (rest == " compilation errors" || rest == " compilation error")).then_some(Says::Fail)
}

/// sbt's test summary and closing lines, after its `[info]` / `[error]` / `[success]` level.
fn sbt_line(l: &str) -> Option<Says> {
    let (level, rest) = l.split_once("] ")?;
    let level = level.strip_prefix('[')?;
    match level {
        "info" if rest.starts_with("Passed: Total ") => Some(Says::Pass),
        "error" if rest.starts_with("Failed: Total ") || rest.starts_with("Error: Total ") => Some(Says::Fail),
        "error" if rest.contains("TestsFailedException: Tests unsuccessful") => Some(Says::Fail),
        "error" if rest.starts_with("Total time: ") => Some(Says::Fail),
        "success" if rest.starts_with("Total time: ") => Some(Says::Pass),
        _ => None,
    }
}

/// clojure.test's closing lines, as `lein test` prints them.
fn clojure_line(l: &str) -> Option<Says> {
    if l == "Tests failed." {
        return Some(Says::Fail);
    }
    if let Some(rest) = l.strip_prefix("Ran ") {
        let (n, rest) = leading_number(rest)?;
        return (n > 0 && (rest.starts_with(" tests containing ") || rest.starts_with(" test containing ")))
            .then_some(Says::Pass);
    }
    // `1 failures, 0 errors.`
    let (failures, rest) = leading_number(l)?;
    let rest = rest.strip_prefix(" failures, ")?;
    let (errors, rest) = leading_number(rest)?;
    (rest == " errors.").then(|| fail_if(Some(failures + errors))).flatten()
}

/// cabal's and stack's test-suite lines.
fn haskell_line(l: &str) -> Option<Says> {
    if l.starts_with("cabal: Tests failed for ") || l.starts_with("Test suite failure for package ") {
        return Some(Says::Fail);
    }
    // cabal: `Test suite demo-test: PASS`
    if let Some(rest) = l.strip_prefix("Test suite ") {
        if let Some((_, verdict)) = rest.rsplit_once(": ") {
            return says(verdict == "PASS", verdict == "FAIL" || verdict == "ERROR");
        }
    }
    // stack: `demo> Test suite demo-test passed`
    if let Some((pkg, rest)) = l.split_once("> Test suite ") {
        if !pkg.contains(' ') {
            return says(rest.ends_with(" passed"), rest.ends_with(" failed"));
        }
    }
    // cabal: `0 of 1 test suites (0 of 1 test cases) passed.`
    let (passed, rest) = leading_number(l)?;
    let (total, rest) = leading_number(rest.strip_prefix(" of ")?)?;
    (rest.starts_with(" test suites") && rest.ends_with(" passed."))
        .then(|| says(passed == total, true))
        .flatten()
}

/// package:test's closing line (`dart test`, `flutter test`): `MM:SS +N ~N -N: message`.
fn dart_line(l: &str) -> Option<Says> {
    let (time, rest) = l.split_once(" +")?;
    if time.len() < 5 || !time.chars().all(|c| c.is_ascii_digit() || c == ':') {
        return None;
    }
    let (_, message) = rest.split_once(": ")?;
    says(message == "All tests passed!", message == "Some tests failed.")
}

/// mypy's closing line.
fn mypy_line(l: &str) -> Option<Says> {
    if let Some(rest) = l.strip_prefix("Success: no issues found in ") {
        return (rest.ends_with(" source file") || rest.ends_with(" source files")).then_some(Says::Pass);
    }
    // `Found 2 errors in 1 file (checked 3 source files)`
    let (n, rest) = leading_number(l.strip_prefix("Found ")?)?;
    (rest.starts_with(" error") && rest.contains("(checked "))
        .then(|| fail_if(Some(n)))
        .flatten()
}

/// pyright's closing counts: `2 errors, 0 warnings, 0 informations`.
fn pyright_line(l: &str) -> Option<Says> {
    let (errors, rest) = leading_number(l)?;
    let rest = rest
        .strip_prefix(" errors, ")
        .or_else(|| rest.strip_prefix(" error, "))?;
    let (_, rest) = leading_number(rest)?;
    let rest = rest
        .strip_prefix(" warnings, ")
        .or_else(|| rest.strip_prefix(" warning, "))?;
    let (_, rest) = leading_number(rest)?;
    (rest.starts_with(" info")).then(|| fail_if(Some(errors))).flatten()
}

/// `gh pr checks`: its summary (a terminal), its tab-separated rows (no terminal) and failing rows.
fn gh_checks_line(raw: &str, l: &str) -> Option<Says> {
    match l {
        "All checks were successful" => return Some(Says::Pass),
        "Some checks were not successful" => return Some(Says::Fail),
        _ => {}
    }
    // `sad tests\tfail\t1m26s\thttps://…\t` (`cancel` is printed as `fail`)
    let fields: Vec<&str> = raw.trim_start().split('\t').collect();
    if fields.len() >= 4 && !fields[0].is_empty() {
        return match fields[1] {
            "fail" => Some(Says::Fail),
            "pass" => Some(Says::Pass),
            _ => None,
        };
    }
    // a terminal's row: `X  sad tests  1m26s  https://…`
    (l.starts_with("X  ") && l.len() > 3).then_some(Says::Fail)
}

/// `gh run view` / `gh run watch`: the run's header, its job and step lines, and the closing lines.
fn gh_run_line(l: &str) -> Option<Says> {
    if l.starts_with("To see what failed, try: gh run view") {
        return Some(Says::Fail);
    }
    if let Some((_, conclusion)) = l.split_once(" completed with '") {
        let conclusion = conclusion.strip_suffix('\'')?;
        return says(
            conclusion == "success",
            conclusion != "skipped" && conclusion != "neutral",
        );
    }
    let (pass, body) = if let Some(b) = l.strip_prefix("✓ ") {
        (true, b)
    } else if let Some(b) = l.strip_prefix("X ") {
        (false, b)
    } else {
        return None;
    };
    // the header `✓ main CI · 123` / `X main CI OWNER/REPO#12 · 123 (Attempt #2)`, a job
    // `X test in 4m34s (ID 20)`, or `X This run likely failed because of a workflow file issue.`
    let header = body.rsplit_once(" · ").is_some_and(|(_, id)| {
        let id = id.split(" (Attempt #").next().unwrap_or(id);
        !id.is_empty() && id.chars().all(|c| c.is_ascii_digit())
    });
    let job = body
        .strip_suffix(')')
        .and_then(|b| b.rsplit_once(" (ID "))
        .is_some_and(|(_, id)| !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()));
    let workflow_issue = !pass && body.contains("failed because of a workflow file issue");
    (header || job || workflow_issue).then_some(if pass { Says::Pass } else { Says::Fail })
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
            Format::Unittest => unittest_line(l),
            Format::NodeTest => node_test_line(l),
            Format::Bats => bats_line(l),
            Format::Zig => zig_line(l),
            Format::Sbt => sbt_line(l),
            Format::Clojure => clojure_line(l),
            Format::Haskell => haskell_line(l),
            Format::Dart => dart_line(l),
            Format::Mypy => mypy_line(l),
            Format::Pyright => pyright_line(l),
            Format::GhChecks => gh_checks_line(line, l),
            Format::GhRun => gh_run_line(l),
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
/// failing one (a runner's own count, preferred over `make`'s closing error
/// line), else the last passing one.
pub(crate) fn summary_of(output: &str, formats: &[Format]) -> Option<(Says, String)> {
    let lines: Vec<&str> = output.lines().collect();
    let start = lines.len().saturating_sub(MAX_LINES);
    let mut pass: Option<String> = None;
    let mut fail: Option<String> = None;
    let mut make_fail: Option<String> = None;
    for raw in &lines[start..] {
        // a progress line rewritten in place (`\r00:02 +3: All tests passed!`): what a terminal shows
        let raw = raw.rsplit('\r').find(|s| !s.trim().is_empty()).unwrap_or(raw);
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

    fn read(f: Format, l: &str) -> Option<Says> {
        f.read(l)
    }

    #[test]
    fn new_summary_lines_are_read_and_test_names_are_not() {
        use Says::{Fail, Pass};
        assert_eq!(read(Format::Unittest, "Ran 2 tests in 0.001s"), Some(Pass));
        assert_eq!(read(Format::Unittest, "Ran 0 tests in 0.000s"), None);
        assert_eq!(read(Format::Unittest, "FAILED (failures=1, errors=1)"), Some(Fail));
        assert_eq!(read(Format::Unittest, "FAILED (errors=1)"), Some(Fail));
        assert_eq!(
            read(Format::Unittest, "test_failed_login (t.T.test_failed_login) ... ok"),
            None
        );
        assert_eq!(read(Format::Unittest, "FAILED (see the log)"), None);
        assert_eq!(read(Format::NodeTest, "# fail 1"), Some(Fail));
        assert_eq!(read(Format::NodeTest, "ℹ fail 0"), Some(Pass));
        assert_eq!(read(Format::NodeTest, "# cancelled 1"), Some(Fail));
        assert_eq!(read(Format::NodeTest, "# Subtest: fail 1"), None);
        assert_eq!(read(Format::NodeTest, "✔ reports failed logins (0.1ms)"), None);
        assert_eq!(read(Format::Bats, "not ok 2 subtraction works"), Some(Fail));
        assert_eq!(read(Format::Bats, "not ok 3 later # TODO not yet"), None);
        assert_eq!(read(Format::Bats, "ok 2 failed logins are rejected"), None);
        assert_eq!(read(Format::Bats, "3 tests, 1 failure, 1 skipped"), Some(Fail));
        assert_eq!(read(Format::Bats, "2 tests, 0 failures"), Some(Pass));
        assert_eq!(read(Format::Zig, "Build Summary: 5/5 steps succeeded"), Some(Pass));
        assert_eq!(
            read(
                Format::Zig,
                "Build Summary: 3/5 steps succeeded (1 failed); 2/3 tests passed (1 failed)"
            ),
            Some(Fail)
        );
        assert_eq!(read(Format::Zig, "error: 'root.test.failed' failed:"), None);
        assert_eq!(
            read(Format::Sbt, "[info] Passed: Total 2, Failed 0, Errors 0, Passed 2"),
            Some(Pass)
        );
        assert_eq!(read(Format::Sbt, "[info] - reports failed logins"), None);
        assert_eq!(read(Format::Clojure, "0 failures, 0 errors."), Some(Pass));
        assert_eq!(read(Format::Clojure, "0 failures, 1 errors."), Some(Fail));
        assert_eq!(read(Format::Haskell, "Test suite demo-test: FAIL"), Some(Fail));
        assert_eq!(read(Format::Haskell, "Test suite demo-test: RUNNING..."), None);
        assert_eq!(read(Format::Haskell, "demo> Test suite demo-test passed"), Some(Pass));
        assert_eq!(
            read(Format::Haskell, "1 of 2 test suites (3 of 4 test cases) passed."),
            Some(Fail)
        );
        assert_eq!(read(Format::Dart, "00:02 +2 -1: Some tests failed."), Some(Fail));
        assert_eq!(
            read(Format::Dart, "00:01 +1: test/a_test.dart: Some tests failed."),
            None
        );
        assert_eq!(
            read(Format::Mypy, "Success: no issues found in 3 source files"),
            Some(Pass)
        );
        assert_eq!(
            read(Format::Mypy, "Found 1 error in 1 file (checked 1 source file)"),
            Some(Fail)
        );
        assert_eq!(
            read(Format::Pyright, "1 error, 0 warnings, 0 informations "),
            Some(Fail)
        );
        assert_eq!(read(Format::Pyright, "0 errors, 1 warning, 0 infos"), Some(Pass));
        assert_eq!(read(Format::GhChecks, "Some checks were not successful"), Some(Fail));
        assert_eq!(read(Format::GhChecks, "Some checks are still pending"), None);
        assert_eq!(read(Format::GhChecks, "slow tests\tpending\t1m26s\thttps://x\t"), None);
        assert_eq!(
            read(Format::GhChecks, "failed logins\tpass\t1m26s\thttps://x\t"),
            Some(Pass)
        );
        assert_eq!(read(Format::GhRun, "X main CI · 1234"), Some(Fail));
        assert_eq!(
            read(Format::GhRun, "✓ main CI OWNER/REPO#12 · 3 (Attempt #2)"),
            Some(Pass)
        );
        assert_eq!(read(Format::GhRun, "* main CI · 3"), None);
        assert_eq!(read(Format::GhRun, "X Process completed with exit code 1."), None);
        assert_eq!(
            read(Format::GhRun, "X Run CI (42) completed with 'failure'"),
            Some(Fail)
        );
        assert_eq!(
            read(Format::GhRun, "✓ Run CI (42) completed with 'success'"),
            Some(Pass)
        );
    }

    #[test]
    fn a_line_rewritten_in_place_is_read_as_a_terminal_shows_it() {
        let out = "\r00:01 +1: test/a_test.dart: adds\r00:01 +1 -1: Some tests failed.   \n";
        assert_eq!(
            summary_of(out, &[Format::Dart]),
            Some((Says::Fail, "00:01 +1 -1: Some tests failed.".to_owned()))
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
