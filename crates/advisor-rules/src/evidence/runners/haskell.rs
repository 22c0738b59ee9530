//! Haskell: `cabal test`, `stack test`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — cabal's and stack's
//! test-suite lines ([`haskell_line`]) — beside their samples: written ones for the rows built with
//! `row`, recorded runs (`tests/fixtures/runner-output/`) for the others. Each reader takes one
//! whole trimmed line, so a test *named* `test_upload_failed` is no summary. The rows themselves
//! are lines of the runner table ([`table`](super::table)). Must not look at more than one line,
//! nor decide what a run is.

use super::says::{Says, leading_number, says};

/// cabal's and stack's test-suite lines.
pub(crate) fn haskell_line(l: &str) -> Option<Says> {
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

#[cfg(test)]
pub(super) mod tests {
    use super::super::format::Format;
    use super::super::samples::{Fixture, fail, pass};
    use super::super::says::Says;

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass("cabal test", "cabal-test-pass.txt", "cabal test", true),
        fail(
            "cabal test",
            "cabal-test-fail.txt",
            "cabal test",
            1,
            "0 of 1 test suites (0 of 1 test cases) passed.",
        ),
        pass("stack test", "stack-test-pass.txt", "stack test", true),
        fail(
            "stack test",
            "stack-test-fail.txt",
            "stack test",
            1,
            "Test suite failure for package demo-0.1.0.0",
        ),
    ];

    #[test]
    fn haskell_lines_are_read_and_test_names_are_not() {
        use Says::{Fail, Pass};
        assert_eq!(Format::Haskell.read("Test suite demo-test: FAIL"), Some(Fail));
        assert_eq!(Format::Haskell.read("Test suite demo-test: RUNNING..."), None);
        assert_eq!(Format::Haskell.read("demo> Test suite demo-test passed"), Some(Pass));
        assert_eq!(
            Format::Haskell.read("1 of 2 test suites (3 of 4 test cases) passed."),
            Some(Fail)
        );
    }
}
