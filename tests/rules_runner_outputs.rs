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
use advisor::review::{Review, RulesReviewer};
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
    fail("gh-run-view-fail.txt", "gh run view 1234", 0, "X test in 4m34s (ID 20)"),
];

fn fixture(file: &str) -> String {
    let path = format!("{}/tests/fixtures/runner-output/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn review(command: &str, output: String, error: Option<String>, exit_code: Option<i64>) -> Review {
    Review {
        final_answer: Some("All tests pass.".into()),
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
