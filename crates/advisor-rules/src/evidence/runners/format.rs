//! The summary formats: which runner's closing lines a run is read with.
//!
//! Owns [`Format`] (one per runner output format, CI results from `gh`
//! included), [`ANY`] (the formats a runner that runs other runners is read
//! with) and [`Format::read`], which hands one line (trimmed, ANSI codes
//! removed) to the reader of the format's runner unit ([`rust`], [`python`],
//! …). Must not read a line itself, nor decide what a run is — the runner
//! table does that.

use super::says::Says;
use super::{
    apple, bats, dart, dotnet, elixir, git, github, go, haskell, js, js_build, jvm, lint, native, php, python,
    python_checks, ruby, rust,
};
use crate::evidence::kind::RunKind;
use Format::*;

/// Every summary format but those of CI results and bats' TAP: for runners that
/// run other runners (`make test`, `npm test`, `tox`, task runners).
pub(crate) const ANY: &[Format] = &[
    Cargo, Nextest, Pytest, GoTest, Vitest, Jest, Mocha, ExUnit, RSpec, Minitest, PhpUnit, Maven, Gradle, Dotnet,
    CTest, Make, Tox, Nox, Bazel, Swift, Xcode, Tsc, Deno, Bun, Unittest, NodeTest, Zig, Sbt, Clojure, Haskell, Dart,
    Mypy, Pyright, Lint, Playwright, Script, Rustfmt,
];

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
    pub(crate) fn kind(self) -> Option<RunKind> {
        use RunKind::{Build, Test};
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

    /// What `line` (trimmed, ANSI codes removed) says in this format, if it
    /// is a summary line: the format's runner unit reads it.
    pub(crate) fn read(self, line: &str) -> Option<Says> {
        let l = line.trim();
        match self {
            Format::Cargo => rust::cargo_line(l),
            Format::Rustfmt => rust::rustfmt_line(l),
            Format::Nextest => rust::nextest_line(l),
            Format::Pytest => python::pytest_counts(l),
            Format::GoTest => go::go_test_line(l),
            Format::Vitest => js::vitest_line(l),
            Format::Jest => js::jest_line(l),
            Format::Mocha => js::mocha_line(l),
            Format::ExUnit => elixir::exunit_line(l),
            Format::RSpec => ruby::rspec_line(l),
            Format::Minitest => ruby::minitest_line(l),
            Format::PhpUnit => php::phpunit_line(l),
            Format::Maven => jvm::maven_line(l),
            Format::Gradle => jvm::gradle_line(l),
            Format::Dotnet => dotnet::dotnet_line(l),
            Format::CTest => native::ctest_line(l),
            Format::Make => native::make_line(l),
            Format::Tox => python::tox_line(l),
            Format::Nox => python::nox_line(l),
            Format::Bazel => native::bazel_line(l),
            Format::Swift => apple::swift_line(l),
            Format::Xcode => apple::xcode_line(l),
            Format::Tsc => js_build::tsc_line(l),
            Format::Deno => js::deno_line(l),
            Format::Bun => js::bun_line(l),
            Format::Unittest => python::unittest_line(l),
            Format::NodeTest => js::node_test_line(l),
            Format::Bats => bats::bats_line(l),
            Format::Zig => native::zig_line(l),
            Format::Sbt => jvm::sbt_line(l),
            Format::Clojure => jvm::clojure_line(l),
            Format::Haskell => haskell::haskell_line(l),
            Format::Dart => dart::dart_line(l),
            Format::Mypy => python_checks::mypy_line(l),
            Format::Pyright => python_checks::pyright_line(l),
            Format::Lint => lint::lint_line(l),
            Format::PyLint => python_checks::pylint_line(l),
            Format::Playwright => js::playwright_line(l),
            Format::Script => js_build::script_line(l),
            Format::GhChecks => github::gh_checks_line(line, l),
            Format::GhRun => github::gh_run_line(l),
            Format::GhLog => github::gh_log_line(l),
            Format::Git => git::git_line(l),
        }
    }
}
