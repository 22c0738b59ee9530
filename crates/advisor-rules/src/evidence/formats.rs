//! The summary formats: which runner's closing lines a run is read with.
//!
//! Owns [`Format`] (one per runner output format, CI results from `gh`
//! included) and [`Format::read`], which says what one line (trimmed, ANSI
//! codes removed) says in a format, if it is one of that runner's closing
//! lines; the longer readers live in [`summary_line`](super::summary_line).
//! Must not look at more than one line, nor decide what a run is — the runner
//! table does that.

use super::summary_line::*;

/// A runner's output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Format {
    /// `test result: ok. 12 passed; 0 failed` / `error[E0425]` / `error: could not compile`.
    Cargo,
    /// `cargo fmt --check` / `rustfmt --check`: `Diff in src/lib.rs:3:`, a file it would
    /// reformat (it prints nothing when all is formatted). Its lines count only where
    /// the host recorded no exit status of 0: a test printing such a line, or `cargo fmt
    /// --check || cargo fmt`, exits 0.
    Rustfmt,
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
    /// `xcodebuild`'s closing banner: `** TEST SUCCEEDED **` / `** TEST FAILED **`,
    /// `** BUILD SUCCEEDED **` / `** BUILD FAILED **`.
    Xcode,
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
    /// `Success: no issues found in 3 source files` / `Found 2 errors in 1 file (checked 3 source files)`;
    /// ty's `Found 1 diagnostic`.
    Mypy,
    /// `0 errors, 0 warnings, 0 informations` / `2 errors, 0 warnings, 0 informations`.
    Pyright,
    /// Linters and formatters: ESLint `✖ 3 problems (2 errors, 1 warning)`; Biome and Ruff
    /// `Found 2 errors.` / `All checks passed!`; Prettier `[warn] Code style issues found in 2 files.` /
    /// `All matched files use Prettier code style!`; Black `Oh no! 💥 💔 💥` / `All done! ✨ 🍰 ✨`;
    /// golangci-lint `3 issues:`; pre-commit's hook lines `flake8........Failed` / `flake8....Passed`.
    Lint,
    /// flake8, pycodestyle and pylint: message lines `bad.py:2:1: E302 expected 2 blank lines` /
    /// `bad.py:1:0: W0611: Unused import os (unused-import)`, and pylint's `Your code has been rated at
    /// 10.00/10` (any message exits non-zero).
    PyLint,
    /// A package manager's or framework's own line when the script it ran
    /// failed, read through a pipe that hides the exit status: bun `error:
    /// script "build" exited with code 1`, pnpm `ELIFECYCLE  Command failed with
    /// exit code 1.`, yarn `error Command failed with exit code 1.`, Next.js
    /// `Failed to compile.` / `Next.js build worker exited with code: 1`. Its
    /// lines only say that something failed ([`Format::only_fails`]).
    Script,
    /// Playwright Test's list and line reporters: `2 passed (1.4s)` / `1 failed` (and `N timed out`,
    /// `N interrupted`).
    Playwright,
    /// `gh pr checks`: `All checks were successful` / `Some checks were not successful`, and the
    /// rows `name\tpass|fail|pending|skipping\t…` (no terminal) or `X  name …` (terminal).
    GhChecks,
    /// `gh run view` / `gh run watch`: the run's header (`✓ main CI · 123` / `X main CI · 123`),
    /// its job lines (`X test in 4m34s (ID 20)`) and `… completed with 'failure'`.
    GhRun,
    /// A CI job's log (`gh run view --log`): the runner's closing line
    /// `##[error]Process completed with exit code 13.` A log says when a step
    /// failed, never that the job passed ([`Format::only_fails`]).
    GhLog,
    /// `git commit` / `git push`: `nothing to commit, working tree clean` (nothing to do:
    /// not a failure, whatever the exit status) / `husky - pre-commit script failed (code 1)` /
    /// `! [rejected]` / `error: failed to push some refs`.
    Git,
}

impl Format {
    /// What kind of check prints lines in this format, where that is plain: a
    /// type checker's or linter's line is a build's failure even when a test
    /// wrapper (`make check`) printed it; a test runner's line is a test's.
    /// `None` for formats that many kinds share (cargo, make, CI results).
    pub(crate) fn kind(self) -> Option<super::kind::RunKind> {
        use super::kind::RunKind::{Build, Test};
        match self {
            Format::Tsc | Format::Mypy | Format::Pyright | Format::Lint | Format::PyLint | Format::Rustfmt => {
                Some(Build)
            }
            Format::Pytest
            | Format::Nextest
            | Format::Vitest
            | Format::Jest
            | Format::Mocha
            | Format::ExUnit
            | Format::RSpec
            | Format::Minitest
            | Format::PhpUnit
            | Format::Unittest
            | Format::NodeTest
            | Format::Bats
            | Format::Deno
            | Format::Bun
            | Format::Clojure
            | Format::Haskell
            | Format::Dart
            | Format::Playwright => Some(Test),
            _ => None,
        }
    }

    /// Whether a passing line in this format outranks a non-zero exit status:
    /// the runner's own word that there was nothing to do (`git commit`:
    /// nothing to commit, which exits 1).
    pub(crate) fn passes_despite_exit(self) -> bool {
        self == Format::Git
    }

    /// Whether lines in this format can only say that something failed: a
    /// run read with such formats alone, and none of their lines in its
    /// output, ended in a way nothing says (a job log without an error line
    /// need not be the whole job's).
    pub(crate) fn only_fails(self) -> bool {
        matches!(self, Format::GhLog | Format::Script)
    }

    /// What `line` (trimmed, ANSI codes removed) says in this format, if it is a summary line.
    pub(crate) fn read(self, line: &str) -> Option<Says> {
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
            Format::Rustfmt => is_rustfmt_diff(l).then_some(Says::Fail),
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
                l.starts_with("--- FAIL")
                    || l == "FAIL"
                    || l.starts_with("FAIL\t")
                    || l.starts_with("FAIL ")
                    || is_go_compile_error(l)
                    || is_go_command_error(l),
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
            Format::Xcode => {
                let banner = l.strip_prefix("** ")?.strip_suffix(" **")?;
                let (_, verdict) = banner.rsplit_once(' ')?;
                says(verdict == "SUCCEEDED", verdict == "FAILED")
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
            Format::Lint => lint_line(l),
            Format::PyLint => pylint_line(l),
            Format::Playwright => playwright_line(l),
            Format::Script => script_line(l),
            Format::GhChecks => gh_checks_line(line, l),
            Format::GhRun => gh_run_line(l),
            Format::GhLog => gh_log_line(l),
            Format::Git => says(
                l.starts_with("nothing to commit") || l.starts_with("no changes added to commit"),
                l.contains("pre-commit script failed")
                    || l.contains("hook failed")
                    || l.starts_with("! [rejected]")
                    || l.starts_with("! [remote rejected]")
                    || l.starts_with("error: failed to push some refs"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
