//! Bash: `bats`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — bats' TAP lines
//! (`1..N`, `not ok N`: [`tap_not_ok`]) and its pretty formatter's counts ([`bats_line`]) — beside
//! their samples: written ones for the rows built with `row`, recorded runs
//! (`tests/fixtures/runner-output/`) for the others. Each reader takes one whole trimmed line, so a
//! test *named* `test_upload_failed` is no summary. The rows themselves are lines of the runner
//! table ([`table`](super::table)). Must not look at more than one line, nor decide what a run is.

use super::says::{Says, fail_if, leading_number};

/// A TAP result line that fails: `not ok 2 name`, unless it is a `# TODO` or `# SKIP`.
pub(crate) fn tap_not_ok(l: &str) -> bool {
    let Some(rest) = l.strip_prefix("not ok ") else {
        return false;
    };
    let directive = rest.rsplit_once(" # ").map(|(_, d)| d.to_ascii_lowercase());
    rest.starts_with(|c: char| c.is_ascii_digit())
        && !directive.is_some_and(|d| d.starts_with("todo") || d.starts_with("skip"))
}

/// bats: the pretty formatter's `3 tests, 1 failure` (`, 1 skipped`, `, 2 not run` may follow),
/// TAP's `not ok N` and its plan `1..N`.
pub(crate) fn bats_line(l: &str) -> Option<Says> {
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

#[cfg(test)]
pub(super) mod tests {
    use super::super::format::Format;
    use super::super::samples::{Fixture, fail, pass};
    use super::super::says::Says;

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass("bats", "bats-tap-pass.txt", "bats pass.bats", true),
        fail(
            "bats",
            "bats-tap-fail.txt",
            "bats fail.bats",
            1,
            "not ok 2 subtraction works",
        ),
        pass(
            "bats",
            "bats-pretty-pass.txt",
            "bats --formatter pretty pass.bats",
            true,
        ),
        fail(
            "bats",
            "bats-pretty-fail.txt",
            "bats -p fail.bats",
            1,
            "3 tests, 1 failure",
        ),
    ];

    #[test]
    fn bats_lines_are_read_and_test_names_are_not() {
        use Says::{Fail, Pass};
        assert_eq!(Format::Bats.read("not ok 2 subtraction works"), Some(Fail));
        assert_eq!(Format::Bats.read("not ok 3 later # TODO not yet"), None);
        assert_eq!(Format::Bats.read("ok 2 failed logins are rejected"), None);
        assert_eq!(Format::Bats.read("3 tests, 1 failure, 1 skipped"), Some(Fail));
        assert_eq!(Format::Bats.read("2 tests, 0 failures"), Some(Pass));
    }
}
