//! The samples every runner unit keeps beside its readers, and the checks
//! that every row of the runner table has them (tests only).
//!
//! Owns [`sample!`](sample) — one test per row built with `row`: a passing and
//! a failing sample of the runner's output, each read by the command that ran
//! — and [`Fixture`]: one recorded run of `tests/fixtures/runner-output/` (see
//! the README there for where each came from), listed in its unit's
//! `FIXTURES`. The samples are WRITTEN, not captured: each is written by hand
//! in the runner's documented output format (the summary lines its own docs
//! show), not copied from a real run. Failing samples carry no exit status
//! unless the runner prints no summary of its own, so they prove the summary
//! line alone is read (as when the run is piped through `tail` and exits 0).
//! A failing recorded run under "All tests pass." must draw a blocker quoting
//! the runner's own summary line; a passing one must draw none, and where it
//! has a passing summary line, that line alone must be enough to call it a
//! pass (the host flagged the call but recorded no exit status, as for a
//! piped run). Must not hold a runner's samples: its unit does.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use advisor::Severity;
use advisor::host::ToolTrace;
use advisor::review::Review;
use serde_json::json;

use crate::RulesReviewer;

fn bash(command: &str, output: &str) -> ToolTrace {
    // built through serde so a field the readers add later (e.g. `rejected`) takes its default
    serde_json::from_value(json!({
        "name": "Bash",
        "args": json!({ "command": command, "description": "Run the checks" }).to_string(),
        "output": output,
    }))
    .unwrap()
}

const ANSWER: &str = "Done: all tests pass and the build succeeds.";

fn notes(answer: &str, command: &str, output: &str) -> Vec<advisor::Note> {
    RulesReviewer::new().check(&Review {
        final_answer: Some(answer.into()),
        tools: vec![bash(command, output)],
        ..Review::default()
    })
}

/// A row's samples under the default claim ([`ANSWER`]).
pub(super) fn assert_row(command: &str, pass: &str, fail: &str, evidence: &str) {
    assert_row_claimed(ANSWER, command, pass, fail, evidence);
}

/// A row's samples under `answer`: the passing one raises only nits, the
/// failing one a blocker quoting `evidence` and naming the command.
pub(super) fn assert_row_claimed(answer: &str, command: &str, pass: &str, fail: &str, evidence: &str) {
    let notes = |command: &str, output: &str| notes(answer, command, output);
    let ok = notes(command, pass);
    assert!(
        ok.iter().all(|n| n.severity == Severity::Nit),
        "{command}: the passing sample raised {ok:?}"
    );
    let bad = notes(command, fail);
    let blocker = bad
        .iter()
        .find(|n| n.severity == Severity::Blocker)
        .unwrap_or_else(|| panic!("{command}: the failing sample raised no blocker: {bad:?}"));
    assert!(
        blocker.text.contains(evidence),
        "{command}: the note does not quote {evidence:?}: {}",
        blocker.text
    );
    assert!(
        blocker.text.contains('`'),
        "the note names the command: {}",
        blocker.text
    );
}

/// One test per row built with `row`: `sample!(name, "command", pass: "…",
/// fail: "…", quotes: "…")`, or with `answer: "…"` first for a row whose
/// failure is no test's or build's (the claim it contradicts).
macro_rules! sample {
    ($name:ident, $command:expr, pass: $pass:expr, fail: $fail:expr, quotes: $ev:expr) => {
        #[test]
        fn $name() {
            super::super::samples::assert_row($command, $pass, $fail, $ev);
        }
    };
    ($name:ident, $command:expr, answer: $answer:expr, pass: $pass:expr, fail: $fail:expr, quotes: $ev:expr) => {
        #[test]
        fn $name() {
            super::super::samples::assert_row_claimed($answer, $command, $pass, $fail, $ev);
        }
    };
}
pub(super) use sample;

/// One recorded run: the row it stands for, its file, the command that
/// printed it, the exit status it ended with, and for a failing run the
/// summary line the blocker must quote.
pub(super) struct Fixture {
    row: &'static str,
    file: &'static str,
    command: &'static str,
    exit: i64,
    /// For a failing run: the decisive line (or a part of it).
    decisive: Option<&'static str>,
    /// For a passing run: whether its output has a passing summary line.
    pass_line: bool,
}

/// A failing recorded run of `row`.
pub(super) const fn fail(
    row: &'static str,
    file: &'static str,
    command: &'static str,
    exit: i64,
    decisive: &'static str,
) -> Fixture {
    Fixture {
        row,
        file,
        command,
        exit,
        decisive: Some(decisive),
        pass_line: false,
    }
}

/// A passing recorded run of `row`.
pub(super) const fn pass(row: &'static str, file: &'static str, command: &'static str, pass_line: bool) -> Fixture {
    Fixture {
        row,
        file,
        command,
        exit: 0,
        decisive: None,
        pass_line,
    }
}

/// Why a task runner's row has no recorded run of its own.
pub(super) const OPAQUE: &str = "opaque: read with every format, so the fixtures of the runners it runs stand for it";

/// Every unit's recorded runs.
fn fixtures() -> impl Iterator<Item = &'static Fixture> {
    [
        super::go::tests::FIXTURES,
        super::python::tests::FIXTURES,
        super::python_checks::tests::FIXTURES,
        super::js::tests::FIXTURES,
        super::js_build::tests::FIXTURES,
        super::jvm::tests::FIXTURES,
        super::native::tests::FIXTURES,
        super::apple::tests::FIXTURES,
        super::haskell::tests::FIXTURES,
        super::dart::tests::FIXTURES,
        super::bats::tests::FIXTURES,
        super::lint::tests::FIXTURES,
        super::github::tests::FIXTURES,
        super::tasks::tests::FIXTURES,
    ]
    .into_iter()
    .flatten()
}

/// Every unit's rows without a recorded run, and why.
fn without() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    [
        super::jvm::tests::WITHOUT,
        super::apple::tests::WITHOUT,
        super::github::tests::WITHOUT,
        super::tasks::tests::WITHOUT,
    ]
    .into_iter()
    .flatten()
}

/// The text of a recorded run.
pub(super) fn fixture(file: &str) -> String {
    let path = format!(
        "{}/../../tests/fixtures/runner-output/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// One shell call of `command` with its output and host record, under a
/// claim about tests and builds both (a failing type check contradicts it too).
pub(super) fn review(command: &str, output: String, error: Option<String>, exit_code: Option<i64>) -> Review {
    Review {
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

/// The texts of the blockers the rules raise on `review`.
pub(super) fn blockers(review: &Review) -> Vec<String> {
    RulesReviewer::new()
        .check(review)
        .into_iter()
        .filter(|n| n.severity == Severity::Blocker)
        .map(|n| n.text)
        .collect()
}

/// The rows of the runner table, each with the builder it is written with.
fn table_rows() -> Vec<(&'static str, &'static str)> {
    include_str!("table.rs")
        .lines()
        .filter_map(|l| {
            let (builder, rest) = l.trim().split_once("(\"")?;
            let name = rest.split('"').next()?;
            (builder.chars().all(|c| c.is_ascii_lowercase() || c == '_')).then_some((builder, name))
        })
        .collect()
}

#[test]
fn every_row_of_the_table_has_a_sample() {
    // the units' sources: every `sample!(` is one row built with `row`
    let units = [
        include_str!("apple.rs"),
        include_str!("bats.rs"),
        include_str!("dart.rs"),
        include_str!("dotnet.rs"),
        include_str!("elixir.rs"),
        include_str!("git.rs"),
        include_str!("github.rs"),
        include_str!("go.rs"),
        include_str!("haskell.rs"),
        include_str!("js.rs"),
        include_str!("js_build.rs"),
        include_str!("jvm.rs"),
        include_str!("lint.rs"),
        include_str!("native.rs"),
        include_str!("php.rs"),
        include_str!("python.rs"),
        include_str!("python_checks.rs"),
        include_str!("ruby.rs"),
        include_str!("rust.rs"),
        include_str!("tasks.rs"),
    ];
    let samples: usize = units.iter().map(|u| u.matches("    sample!(").count()).sum();
    let rows = table_rows().iter().filter(|(b, _)| *b == "row").count();
    assert_eq!(
        rows, samples,
        "each row built with `row` needs a passing and a failing sample in its unit"
    );
}

#[test]
fn every_row_with_fixtures_is_listed_with_them() {
    let rows: Vec<&str> = table_rows()
        .into_iter()
        .filter(|(b, _)| matches!(*b, "with_fixtures" | "matched" | "task_runner" | "script_runner"))
        .map(|(_, name)| name)
        .collect();
    for name in rows {
        let runs: Vec<&Fixture> = fixtures().filter(|f| f.row == name).collect();
        let both = runs.iter().any(|f| f.decisive.is_none()) && runs.iter().any(|f| f.decisive.is_some());
        let why = without().find(|(row, _)| *row == name).map(|(_, why)| *why);
        assert!(
            both || why.is_some_and(|w| !w.is_empty()),
            "{name}: no passing and failing recorded run, and no reason"
        );
    }
    for f in fixtures() {
        assert!(
            table_rows().iter().any(|(_, name)| *name == f.row),
            "{}: {} is not a row",
            f.file,
            f.row
        );
    }
}

#[test]
fn failing_runs_block_a_claim_of_success_with_their_own_summary_line() {
    let mut wrong = Vec::new();
    for case in fixtures().filter(|c| c.decisive.is_some()) {
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
    let wrong: Vec<String> = (fixtures().filter(|c| c.decisive.is_none()))
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
    let wrong: Vec<String> = (fixtures().filter(|c| c.pass_line))
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
