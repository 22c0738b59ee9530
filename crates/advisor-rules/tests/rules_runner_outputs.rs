//! Real (and documented) runner output, read by the rules reviewer.
//!
//! Each fixture under `tests/fixtures/runner-output/` is one run's output (see
//! the README there for where each came from). A failing run under "All
//! tests pass." must draw a blocker quoting the runner's own summary line; a
//! passing one must draw none, and where the fixture has a passing summary
//! line, that line alone must be enough to call it a pass (the host flagged
//! the call but recorded no exit status, as for a piped run).

use advisor::Severity;
use advisor::host::ToolTrace;
use advisor::review::Review;
use advisor_rules::RulesReviewer;
use serde_json::json;

/// One fixture: its file, the command that printed it, the exit status it ended
/// with, and for a failing run the summary line the blocker must quote.
struct Case {
    file: &'static str,
    command: &'static str,
    exit: i64,
    /// For a failing run: the decisive line (or a part of it).
    decisive: Option<&'static str>,
    /// For a passing run: whether its output has a passing summary line.
    pass_line: bool,
}

const fn fail(file: &'static str, command: &'static str, exit: i64, decisive: &'static str) -> Case {
    Case {
        file,
        command,
        exit,
        decisive: Some(decisive),
        pass_line: false,
    }
}

const fn pass(file: &'static str, command: &'static str, pass_line: bool) -> Case {
    Case {
        file,
        command,
        exit: 0,
        decisive: None,
        pass_line,
    }
}

const CASES: &[Case] = &[
    // `go` stops before it builds anything; piped, only its own line says so
    fail(
        "go-build-no-module-fail.txt",
        "go build ./... 2>&1 | tail -50",
        0,
        "does not contain main module",
    ),
    pass("unittest-pass.txt", "python -m unittest test_pass", true),
    fail(
        "unittest-discover-fail.txt",
        "python -m unittest discover",
        1,
        "FAILED (failures=1, errors=1)",
    ),
    pass("django-pass.txt", "python manage.py test", true),
    fail("django-fail.txt", "python manage.py test", 1, "FAILED (failures=1)"),
    pass("node-test-tap-pass.txt", "node --test", true),
    fail("node-test-tap-fail.txt", "node --test", 1, "# fail 1"),
    pass("node-test-spec-pass.txt", "node --test --test-reporter=spec", true),
    fail(
        "node-test-spec-fail.txt",
        "node --test --test-reporter=spec",
        1,
        "ℹ fail 1",
    ),
    pass("zig-build-test-summary-pass.txt", "zig build test --summary all", true),
    fail(
        "zig-build-test-fail.txt",
        "zig build test",
        1,
        "Build Summary: 3/5 steps succeeded (1 failed)",
    ),
    fail(
        "zig-build-test-compile-fail.txt",
        "python -m ziglang build test",
        1,
        "Build Summary: 0/5 steps succeeded (2 failed)",
    ),
    pass("zig-build-pass.txt", "zig build", false),
    fail(
        "zig-build-fail.txt",
        "zig build",
        1,
        "Build Summary: 0/3 steps succeeded (1 failed)",
    ),
    pass("zig-test-pass.txt", "zig test src/root.zig", true),
    fail(
        "zig-test-fail.txt",
        "zig test src/root.zig",
        1,
        "0 passed; 0 skipped; 1 failed.",
    ),
    pass("lein-test-pass.txt", "lein test", true),
    fail("lein-test-fail.txt", "lein test", 1, "1 failures, 0 errors."),
    pass("cabal-test-pass.txt", "cabal test", true),
    fail(
        "cabal-test-fail.txt",
        "cabal test",
        1,
        "0 of 1 test suites (0 of 1 test cases) passed.",
    ),
    pass("stack-test-pass.txt", "stack test", true),
    fail(
        "stack-test-fail.txt",
        "stack test",
        1,
        "Test suite failure for package demo-0.1.0.0",
    ),
    pass("bats-tap-pass.txt", "bats pass.bats", true),
    fail("bats-tap-fail.txt", "bats fail.bats", 1, "not ok 2 subtraction works"),
    pass("bats-pretty-pass.txt", "bats --formatter pretty pass.bats", true),
    fail("bats-pretty-fail.txt", "bats -p fail.bats", 1, "3 tests, 1 failure"),
    pass("hatch-test-pass.txt", "hatch test", true),
    fail("hatch-test-fail.txt", "hatch test", 1, "1 failed, 2 passed in"),
    pass("mypy-pass.txt", "mypy .", true),
    fail(
        "mypy-fail.txt",
        "mypy .",
        1,
        "Found 2 errors in 1 file (checked 3 source files)",
    ),
    pass("ty-check-pass.txt", "uv run ty check ok.py", true),
    fail("ty-check-fail.txt", "uv run ty check tbad.py", 1, "Found 1 diagnostic"),
    // flake8 prints nothing when clean
    pass("flake8-pass.txt", "flake8 ok.py", false),
    fail(
        "flake8-fail.txt",
        "flake8 bad.py",
        1,
        "bad.py:4:3: E111 indentation is not a multiple of 4",
    ),
    pass("pylint-pass.txt", "pylint ok.py", true),
    fail(
        "pylint-fail.txt",
        "pylint bad.py",
        20,
        "bad.py:1:0: W0611: Unused import os",
    ),
    pass("pre-commit-pass.txt", "pre-commit run --all-files", true),
    fail("pre-commit-fail.txt", "pre-commit run --all-files", 1, "flake8....."),
    // a package manager's own line when the script it ran failed, and Next.js's
    fail(
        "bun-run-script-fail.txt",
        "bun run build",
        1,
        "error: script \"build\" exited with code 1",
    ),
    fail(
        "pnpm-run-script-fail.txt",
        "pnpm run build",
        1,
        "ELIFECYCLE Command failed with exit code 1.",
    ),
    fail(
        "yarn-run-script-fail.txt",
        "yarn run build",
        1,
        "error Command failed with exit code 1.",
    ),
    fail(
        "next-build-fail.txt",
        "npm run build",
        1,
        "Next.js build worker exited with code: 1",
    ),
    pass("playwright-test-pass.txt", "npx playwright test", true),
    fail("playwright-test-fail.txt", "npx playwright test", 1, "1 failed"),
    pass("pyright-pass.txt", "pyright", true),
    fail(
        "pyright-fail.txt",
        "npx pyright",
        1,
        "2 errors, 0 warnings, 0 informations",
    ),
    pass("vue-tsc-pass.txt", "npx vue-tsc --noEmit", false),
    fail("vue-tsc-fail.txt", "npx vue-tsc --noEmit", 2, "error TS2322"),
    pass("just-test-pass.txt", "just test", true),
    fail("just-test-fail.txt", "just test", 1, "FAILED (failures=1, errors=1)"),
    pass("task-test-pass.txt", "task test", true),
    fail("task-test-fail.txt", "task test", 201, "FAILED (failures=1, errors=1)"),
    fail("run-s-fail.txt", "run-s lint test:unit", 1, "# fail 1"),
    pass("sbt-test-pass.txt", "sbt test", true),
    fail(
        "sbt-test-fail.txt",
        "sbt clean test",
        1,
        "Failed: Total 3, Failed 1, Errors 0, Passed 2",
    ),
    pass("dart-test-pass.txt", "dart test", true),
    fail("dart-test-fail.txt", "dart test", 1, "Some tests failed."),
    pass("flutter-test-pass.txt", "flutter test", true),
    fail("flutter-test-fail.txt", "flutter test", 1, "Some tests failed."),
    pass("bun-test-pass.txt", "bun test", true),
    fail("bun-test-fail.txt", "bun test", 1, "1 fail"),
    pass("gh-pr-checks-tty-pass.txt", "gh pr checks", true),
    fail("gh-pr-checks-tty-fail.txt", "gh pr checks", 1, "X unit tests"),
    pass("gh-pr-checks-pass.txt", "gh pr checks 12", true),
    fail("gh-pr-checks-fail.txt", "gh pr checks 12", 1, "unit tests fail"),
    pass("gh-run-view-pass.txt", "gh run view 1235", true),
    // the job's duration is quoted as `…s` (notes never carry timings)
    fail("gh-run-view-fail.txt", "gh run view 1234", 0, "X test in …s (ID 20)"),
    // through a pipe the host records success: the banner decides
    pass(
        "xcodebuild-test-pass.txt",
        "xcodebuild test -project App.xcodeproj -scheme App -destination 'platform=macOS,arch=arm64' 2>&1 | grep -E \"TEST|suites|failed|passed after\" | tail -8",
        true,
    ),
    fail(
        "xcodebuild-test-fail.txt",
        "xcodebuild test -project App.xcodeproj -scheme App -destination 'platform=macOS' -quiet 2>&1 | tail -40",
        0,
        "** TEST FAILED **",
    ),
    // a CI job's log: `gh run view` exits 0; the runner's closing line says the step failed
    fail(
        "gh-run-log-fail.txt",
        "gh run view 28549041180 --job 84641515103 --log",
        0,
        "##[error]Process completed with exit code 13.",
    ),
];

/// Every runner row built with `with_fixtures`, `matched` or `task_runner`: its
/// passing and failing fixtures, or why it has none.
const ROWS: &[(&str, Fixtures)] = &[
    ("unittest", Both("unittest-pass.txt", "unittest-discover-fail.txt")),
    ("manage.py test", Both("django-pass.txt", "django-fail.txt")),
    ("node --test", Both("node-test-tap-pass.txt", "node-test-tap-fail.txt")),
    ("bats", Both("bats-tap-pass.txt", "bats-tap-fail.txt")),
    ("hatch test", Both("hatch-test-pass.txt", "hatch-test-fail.txt")),
    (
        "zig test",
        Both("zig-build-test-summary-pass.txt", "zig-build-test-fail.txt"),
    ),
    ("zig build", Both("zig-build-pass.txt", "zig-build-fail.txt")),
    ("sbt test", Both("sbt-test-pass.txt", "sbt-test-fail.txt")),
    (
        "sbt compile",
        Without("read with the sbt closing lines of `sbt test`'s fixtures"),
    ),
    ("lein test", Both("lein-test-pass.txt", "lein-test-fail.txt")),
    ("cabal test", Both("cabal-test-pass.txt", "cabal-test-fail.txt")),
    ("stack test", Both("stack-test-pass.txt", "stack-test-fail.txt")),
    ("flutter test", Both("flutter-test-pass.txt", "flutter-test-fail.txt")),
    ("dart test", Both("dart-test-pass.txt", "dart-test-fail.txt")),
    ("mypy", Both("mypy-pass.txt", "mypy-fail.txt")),
    ("pyright", Both("pyright-pass.txt", "pyright-fail.txt")),
    ("ty", Both("ty-check-pass.txt", "ty-check-fail.txt")),
    ("flake8", Both("flake8-pass.txt", "flake8-fail.txt")),
    ("pylint", Both("pylint-pass.txt", "pylint-fail.txt")),
    ("pre-commit", Both("pre-commit-pass.txt", "pre-commit-fail.txt")),
    (
        "playwright test",
        Both("playwright-test-pass.txt", "playwright-test-fail.txt"),
    ),
    ("gh run view", Both("gh-run-view-pass.txt", "gh-run-view-fail.txt")),
    (
        "xcodebuild test",
        Both("xcodebuild-test-pass.txt", "xcodebuild-test-fail.txt"),
    ),
    (
        "xcodebuild build",
        Without("read with the banner and swiftc lines of `xcodebuild test`'s fixtures"),
    ),
    (
        "gh run log",
        Without(
            "a job log never says that the job passed (`Format::only_fails`); `gh-run-log-fail.txt` is its failing run",
        ),
    ),
    ("gh pr checks", Both("gh-pr-checks-pass.txt", "gh-pr-checks-fail.txt")),
    ("just test", Both("just-test-pass.txt", "just-test-fail.txt")),
    ("just build", Without(OPAQUE)),
    ("task test", Both("task-test-pass.txt", "task-test-fail.txt")),
    ("task build", Without(OPAQUE)),
    ("mise run test", Without(OPAQUE)),
    ("mise run build", Without(OPAQUE)),
    ("nx test", Without(OPAQUE)),
    ("nx build", Without(OPAQUE)),
    ("turbo test", Without(OPAQUE)),
    ("turbo build", Without(OPAQUE)),
    (
        "npm-run-all test",
        Without("opaque; `run-s-fail.txt` is its failing run"),
    ),
    ("npm-run-all build", Without(OPAQUE)),
    ("npm run test script", Without(OPAQUE)),
    ("npm run build script", Without(OPAQUE)),
];

/// Why a task runner's row has no fixture of its own.
const OPAQUE: &str = "opaque: read with every format, so the fixtures of the runners it runs stand for it";

/// A row's fixtures.
enum Fixtures {
    /// A passing and a failing run.
    Both(&'static str, &'static str),
    /// None, and why.
    Without(&'static str),
}
use Fixtures::{Both, Without};

#[test]
fn every_row_with_fixtures_is_listed_with_them() {
    let source = include_str!("../src/evidence/runners.rs");
    // call sites: every use but the definitions and the builders' uses of each other
    let calls = ["with_fixtures(", "matched(", "task_runner("]
        .iter()
        .map(|b| source.matches(b).count() - source.matches(&format!("fn {b}")).count())
        .sum::<usize>()
        - source.matches("..with_fixtures(name").count()
        - source.matches("..matched(name").count();
    assert_eq!(calls, ROWS.len(), "each such row of the runner table is listed in ROWS");
    for (name, fixtures) in ROWS {
        assert!(source.contains(&format!("\"{name}\"")), "{name} is not a row");
        match fixtures {
            Both(pass, fail) => {
                let case = |f: &str| CASES.iter().find(|c| c.file == f);
                assert!(case(pass).is_some_and(|c| c.decisive.is_none()), "{name}: {pass}");
                assert!(case(fail).is_some_and(|c| c.decisive.is_some()), "{name}: {fail}");
            }
            Without(why) => assert!(!why.is_empty()),
        }
    }
}

fn fixture(file: &str) -> String {
    let path = format!(
        "{}/../../tests/fixtures/runner-output/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn review(command: &str, output: String, error: Option<String>, exit_code: Option<i64>) -> Review {
    Review {
        // a claim about tests and builds both: a failing type check contradicts it too
        final_answer: Some("All tests pass and the build is clean.".into()),
        tools: vec![ToolTrace {
            name: "Bash".into(),
            args: json!({ "command": command }).to_string(),
            output,
            error,
            exit_code,
        }],
        ..Review::default()
    }
}

fn blockers(review: &Review) -> Vec<String> {
    RulesReviewer::new()
        .check(review)
        .into_iter()
        .filter(|n| n.severity == Severity::Blocker)
        .map(|n| n.text)
        .collect()
}

#[test]
fn failing_runs_block_a_claim_of_success_with_their_own_summary_line() {
    let mut wrong = Vec::new();
    for case in CASES.iter().filter(|c| c.decisive.is_some()) {
        let error = (case.exit != 0).then(|| format!("Exit code {}", case.exit));
        let notes = blockers(&review(case.command, fixture(case.file), error, Some(case.exit)));
        let decisive = case.decisive.unwrap_or_default();
        if !notes.iter().any(|n| n.contains(decisive)) {
            wrong.push(format!(
                "{}: expected a blocker quoting {decisive:?}, got {notes:?}",
                case.file
            ));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn passing_runs_draw_no_blocker() {
    let wrong: Vec<String> = (CASES.iter().filter(|c| c.decisive.is_none()))
        .map(|case| {
            (
                case.file,
                blockers(&review(case.command, fixture(case.file), None, Some(0))),
            )
        })
        .filter(|(_, notes)| !notes.is_empty())
        .map(|(file, notes)| format!("{file}: {notes:?}"))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_passing_summary_line_alone_says_the_run_passed() {
    // the host flagged the call but recorded no exit status (a piped run): only
    // the runner's own passing line can say it passed
    let flagged = || Some("the host flagged this call".to_owned());
    let wrong: Vec<String> = (CASES.iter().filter(|c| c.pass_line))
        .map(|case| {
            (
                case.file,
                blockers(&review(case.command, fixture(case.file), flagged(), None)),
            )
        })
        .filter(|(_, notes)| !notes.is_empty())
        .map(|(file, notes)| format!("{file}: {notes:?}"))
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn a_piped_failing_run_is_read_from_its_summary() {
    // `| tail` exits 0; the runner's own line still says it failed
    let output = fixture("unittest-discover-fail.txt");
    let notes = blockers(&review(
        "bash -lc 'python -m unittest discover 2>&1 | tail -n 20'",
        output,
        None,
        Some(0),
    ));
    assert!(notes.iter().any(|n| n.contains("FAILED (failures=1")), "{notes:?}");
}

#[test]
fn commands_that_only_name_tests_are_not_runs() {
    let output = fixture("unittest-discover-fail.txt");
    for command in [
        "cat tests/fixtures/unittest.txt",
        "grep -rn FAILED logs/",
        "git add test/foo.bats",
    ] {
        let notes = blockers(&review(command, output.clone(), None, Some(0)));
        assert!(notes.is_empty(), "{command}: {notes:?}");
    }
}

#[test]
fn go_stopping_before_it_builds_is_a_failure_and_its_progress_lines_are_not() {
    // piped through `tail`, the exit status says nothing: `go`'s own line decides
    let command = "go build ./... 2>&1 | tail -20";
    for line in [
        "go: go.mod file not found in current directory or any parent directory; see 'go help modules'",
        "go: cannot find main module, but found .git/config in /src",
        "no Go files in /src/app",
        "build constraints exclude all Go files in /src/app/win",
        "no required module provides package github.com/acme/x; to add it:",
        "package github.com/acme/x is not in std (/usr/local/go/src/github.com/acme/x)",
    ] {
        let notes = blockers(&review(command, format!("{line}\n"), None, Some(0)));
        assert!(notes.iter().any(|n| n.contains(&line[..20])), "{line}: {notes:?}");
    }
    for line in [
        "go: downloading github.com/acme/x v1.2.0",
        "go: warning: \"./...\" matched no packages",
        "pattern matching is done on the import path",
        "no required module provides package x, which is fine here",
    ] {
        let notes = blockers(&review(command, format!("{line}\n"), None, Some(0)));
        assert!(notes.is_empty(), "{line}: {notes:?}");
    }
}
