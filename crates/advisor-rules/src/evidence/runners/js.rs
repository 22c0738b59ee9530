//! JavaScript test runners: `npm|pnpm|yarn|bun test`, `vitest`, `jest`, `mocha`, `deno test`, `bun
//! test`, `node --test`, `playwright test`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — each runner's
//! closing counts, `node --test`'s TAP and spec counts ([`node_test_line`]), Playwright's
//! ([`playwright_line`]) and the matcher of `node --test` ([`node_test`]) — beside their samples:
//! written ones for the rows built with `row`, recorded runs (`tests/fixtures/runner-output/`) for
//! the others. Each reader takes one whole trimmed line, so a test *named* `test_upload_failed` is
//! no summary. The rows themselves are lines of the runner table ([`table`](super::table)). Must
//! not look at more than one line, nor decide what a run is.

use super::says::{Says, count_before, fail_if, leading_number, says};
use crate::evidence::kind::RunKind;
use RunKind::Test;

/// What a line says in [`Format::Vitest`](super::format::Format::Vitest):
/// `Tests  1 failed | 3 passed (4)`.
pub(super) fn vitest_line(l: &str) -> Option<Says> {
    let rest = l.strip_prefix("Tests ").or_else(|| l.strip_prefix("Test Files "))?;
    if !rest.trim_end().ends_with(')') {
        return None;
    }
    fail_if(count_before(rest, "failed")).or_else(|| count_before(rest, "passed").map(|_| Says::Pass))
}

/// What a line says in [`Format::Jest`](super::format::Format::Jest):
/// `Tests:       1 failed, 9 passed, 10 total`.
pub(super) fn jest_line(l: &str) -> Option<Says> {
    let rest = l.strip_prefix("Tests:").or_else(|| l.strip_prefix("Test Suites:"))?;
    if !rest.contains("total") {
        return None;
    }
    fail_if(count_before(rest, "failed")).or(Some(Says::Pass))
}

/// What a line says in [`Format::Mocha`](super::format::Format::Mocha):
/// `3 passing (12ms)` / `1 failing`.
pub(super) fn mocha_line(l: &str) -> Option<Says> {
    let mut it = l.split_whitespace();
    let n: u64 = it.next()?.parse().ok()?;
    match it.next()? {
        "failing" => fail_if(Some(n)),
        "passing" => Some(Says::Pass),
        _ => None,
    }
}

/// What a line says in [`Format::Deno`](super::format::Format::Deno):
/// `ok | 5 passed | 0 failed (20ms)` / `FAILED | 4 passed | 1 failed`.
pub(super) fn deno_line(l: &str) -> Option<Says> {
    says(l.starts_with("ok |") && l.contains("passed"), l.starts_with("FAILED |"))
}

/// What a line says in [`Format::Bun`](super::format::Format::Bun):
/// ` 9 pass` / ` 1 fail`.
pub(super) fn bun_line(l: &str) -> Option<Says> {
    let mut it = l.split_whitespace();
    let n: u64 = it.next()?.parse().ok()?;
    match (it.next()?, it.next()) {
        ("fail", None) => fail_if(Some(n)),
        ("pass", None) => Some(Says::Pass),
        _ => None,
    }
}

/// `node --test`'s closing counts: `# fail 1` (TAP) / `ℹ fail 1` (spec), `# pass 3`, `# cancelled 0`.
pub(crate) fn node_test_line(l: &str) -> Option<Says> {
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

/// Playwright Test's closing counts (see [`Format::Playwright`](super::format::Format::Playwright)):
/// `1 failed`, `2 passed (1.4s)`, `1 timed out`, `1 interrupted`.
pub(crate) fn playwright_line(l: &str) -> Option<Says> {
    let (n, rest) = leading_number(l)?;
    match rest {
        " failed" | " timed out" | " interrupted" => fail_if(Some(n)),
        _ if rest.starts_with(" passed (") && rest.ends_with(')') => Some(Says::Pass),
        _ => None,
    }
}

/// `node --test …`: the flag among node's own options, before any script.
pub(crate) fn node_test(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &[
        "-r",
        "--require",
        "--import",
        "--loader",
        "--experimental-loader",
        "--test-reporter",
        "--test-reporter-destination",
        "--test-name-pattern",
        "--test-concurrency",
        "--env-file",
    ];
    let mut it = args.iter();
    while let Some(w) = it.next() {
        if w == "--test" {
            return Some((Test, 0));
        }
        if !w.starts_with('-') {
            return None;
        }
        if !w.contains('=') && VALUED.contains(&w.as_str()) {
            it.next();
        }
    }
    None
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::format::Format;
    use super::super::samples::{Fixture, fail, pass, sample};
    use super::super::says::Says;

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass("node --test", "node-test-tap-pass.txt", "node --test", true),
        fail("node --test", "node-test-tap-fail.txt", "node --test", 1, "# fail 1"),
        pass(
            "node --test",
            "node-test-spec-pass.txt",
            "node --test --test-reporter=spec",
            true,
        ),
        fail(
            "node --test",
            "node-test-spec-fail.txt",
            "node --test --test-reporter=spec",
            1,
            "ℹ fail 1",
        ),
        pass(
            "playwright test",
            "playwright-test-pass.txt",
            "npx playwright test",
            true,
        ),
        fail(
            "playwright test",
            "playwright-test-fail.txt",
            "npx playwright test",
            1,
            "1 failed",
        ),
        pass("npm test", "bun-test-pass.txt", "bun test", true),
        fail("npm test", "bun-test-fail.txt", "bun test", 1, "1 fail"),
    ];

    sample!(npm_pnpm_yarn_bun_test, "pnpm test",
        pass: "> app@1.0.0 test\n> jest\n\nTest Suites: 3 passed, 3 total\nTests:       10 passed, 10 total",
        fail: "> app@1.0.0 test\n> jest\n\nTest Suites: 1 failed, 2 passed, 3 total\nTests:       1 failed, 9 passed, 10 total",
        quotes: "Tests: 1 failed, 9 passed, 10 total");
    sample!(deno_test, "deno test -A",
        pass: "running 5 tests from ./main_test.ts\nok | 5 passed | 0 failed (20ms)",
        fail: "running 5 tests from ./main_test.ts\nFAILED | 4 passed | 1 failed (25ms)",
        quotes: "FAILED | 4 passed | 1 failed");
    sample!(vitest, "npx vitest run",
        pass: " Test Files  4 passed (4)\n      Tests  12 passed (12)\n   Duration  412ms",
        fail: " ❯ src/a.test.ts (3 tests | 2 failed) 12ms\n Test Files  1 failed | 3 passed (4)\n      Tests  2 failed | 10 passed (12)",
        quotes: "Tests 2 failed | 10 passed (12)");
    sample!(jest, "npx jest --ci",
        pass: "Test Suites: 3 passed, 3 total\nTests:       10 passed, 10 total\nSnapshots:   0 total",
        fail: "FAIL src/a.test.js\nTest Suites: 1 failed, 2 passed, 3 total\nTests:       3 failed, 7 passed, 10 total",
        quotes: "Tests: 3 failed, 7 passed, 10 total");
    sample!(mocha, "npx mocha",
        pass: "  12 passing (30ms)",
        fail: "  11 passing (30ms)\n  1 failing\n\n  1) parser rejects empty input:",
        quotes: "1 failing");

    #[test]
    fn js_lines_are_read_and_test_names_are_not() {
        use Says::{Fail, Pass};
        assert_eq!(Format::NodeTest.read("# fail 1"), Some(Fail));
        assert_eq!(Format::NodeTest.read("ℹ fail 0"), Some(Pass));
        assert_eq!(Format::NodeTest.read("# cancelled 1"), Some(Fail));
        assert_eq!(Format::NodeTest.read("# Subtest: fail 1"), None);
        assert_eq!(Format::NodeTest.read("✔ reports failed logins (0.1ms)"), None);
    }
}
