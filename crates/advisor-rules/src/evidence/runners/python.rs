//! Python test runners: `pytest` (and `hatch test`), `unittest` (and Django's `manage.py test`),
//! `tox`, `nox`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — pytest's count line
//! ([`pytest_counts`]), unittest's `Ran N tests` / `FAILED (…)` ([`unittest_line`]), tox's and
//! nox's session lines — beside their samples: written ones for the rows built with `row`, recorded
//! runs (`tests/fixtures/runner-output/`) for the others. Each reader takes one whole trimmed line,
//! so a test *named* `test_upload_failed` is no summary. The rows themselves are lines of the
//! runner table ([`table`](super::table)). Must not look at more than one line, nor decide what a
//! run is.

use super::says::{Says, leading_number, says};

/// What a line says in [`Format::Tox`](super::format::Format::Tox):
/// `congratulations :)` / `py311: FAIL code 1`.
pub(super) fn tox_line(l: &str) -> Option<Says> {
    let fail = l.starts_with("evaluation failed :(") || l.contains(": commands failed");
    says(l.starts_with("congratulations :)"), fail || l.contains(": FAIL code"))
        .or_else(|| l.contains(": OK (").then_some(Says::Pass))
}

/// What a line says in [`Format::Nox`](super::format::Format::Nox):
/// `nox > Session tests was successful.` / `nox > Session tests failed.`
pub(super) fn nox_line(l: &str) -> Option<Says> {
    let rest = l.strip_prefix("nox > Session ")?;
    says(
        rest.ends_with(" was successful."),
        rest.contains(" failed") || rest.contains(" aborted"),
    )
}

/// Whether `line` is a pytest-style count list (`1 failed, 4 passed in 0.12s`).
pub(crate) fn pytest_counts(line: &str) -> Option<Says> {
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

/// Python unittest's closing lines: `Ran 3 tests in 0.001s`, `FAILED (failures=1, errors=1)`.
pub(crate) fn unittest_line(l: &str) -> Option<Says> {
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

#[cfg(test)]
pub(super) mod tests {
    use super::super::format::Format;
    use super::super::samples::{Fixture, blockers, fail, fixture, pass, review, sample};
    use super::super::says::Says;

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass("unittest", "unittest-pass.txt", "python -m unittest test_pass", true),
        fail(
            "unittest",
            "unittest-discover-fail.txt",
            "python -m unittest discover",
            1,
            "FAILED (failures=1, errors=1)",
        ),
        pass("manage.py test", "django-pass.txt", "python manage.py test", true),
        fail(
            "manage.py test",
            "django-fail.txt",
            "python manage.py test",
            1,
            "FAILED (failures=1)",
        ),
        pass("hatch test", "hatch-test-pass.txt", "hatch test", true),
        fail(
            "hatch test",
            "hatch-test-fail.txt",
            "hatch test",
            1,
            "1 failed, 2 passed in",
        ),
    ];

    sample!(pytest, "python -m pytest -q tests/",
        pass: "..........                                                               [100%]\n10 passed in 0.20s",
        fail: "FAILED tests/test_io.py::test_roundtrip - AssertionError\n========================= 1 failed, 9 passed in 0.31s =========================",
        quotes: "1 failed, 9 passed in …s");
    sample!(tox, "tox -e py311",
        pass: "  py311: OK (3.10 seconds)\n  congratulations :) (3.21 seconds)",
        fail: "  py311: FAIL code 1 (3.10 seconds)\n  evaluation failed :( (3.21 seconds)",
        quotes: "evaluation failed :(");
    sample!(nox, "nox -s tests",
        pass: "nox > Running session tests\nnox > Session tests was successful.",
        fail: "nox > Running session tests\nnox > Session tests failed.",
        quotes: "nox > Session tests failed.");

    #[test]
    fn python_lines_are_read_and_test_names_are_not() {
        use Says::{Fail, Pass};
        assert_eq!(Format::Unittest.read("Ran 2 tests in 0.001s"), Some(Pass));
        assert_eq!(Format::Unittest.read("Ran 0 tests in 0.000s"), None);
        assert_eq!(Format::Unittest.read("FAILED (failures=1, errors=1)"), Some(Fail));
        assert_eq!(Format::Unittest.read("FAILED (errors=1)"), Some(Fail));
        assert_eq!(
            Format::Unittest.read("test_failed_login (t.T.test_failed_login) ... ok"),
            None
        );
        assert_eq!(Format::Unittest.read("FAILED (see the log)"), None);
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
}
