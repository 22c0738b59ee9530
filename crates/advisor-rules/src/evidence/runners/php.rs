//! PHP: `phpunit` and `pest`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — PHPUnit's `OK (…)`,
//! `FAILURES!` / `ERRORS!` and `Tests: …, Failures: …` lines — beside their samples: written ones
//! for the rows built with `row`, recorded runs (`tests/fixtures/runner-output/`) for the others.
//! Each reader takes one whole trimmed line, so a test *named* `test_upload_failed` is no summary.
//! The rows themselves are lines of the runner table ([`table`](super::table)). Must not look at
//! more than one line, nor decide what a run is.

use super::says::{Says, count_after, fail_if, says};

/// What a line says in [`Format::PhpUnit`](super::format::Format::PhpUnit):
/// `OK (10 tests, 20 assertions)` / `Tests: 10, Assertions: 20, Failures: 1.`
pub(super) fn phpunit_line(l: &str) -> Option<Says> {
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

#[cfg(test)]
mod tests {
    use super::super::samples::sample;

    sample!(phpunit, "vendor/bin/phpunit",
        pass: "PHPUnit 11.0.0 by Sebastian Bergmann and contributors.\n\n............\n\nOK (12 tests, 30 assertions)",
        fail: "PHPUnit 11.0.0 by Sebastian Bergmann and contributors.\n\n...F........\n\nFAILURES!\nTests: 12, Assertions: 30, Failures: 1.",
        quotes: "Tests: 12, Assertions: 30, Failures: 1.");
}
