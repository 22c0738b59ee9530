//! JavaScript builds: `tsc` / `vue-tsc`, `npm|pnpm|yarn|bun run build`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — TypeScript's `error
//! TS…` and `Found N errors` lines, and a package manager's or framework's own line when the script
//! it ran failed ([`script_line`]) — beside their samples: written ones for the rows built with
//! `row`, recorded runs (`tests/fixtures/runner-output/`) for the others. Each reader takes one
//! whole trimmed line, so a test *named* `test_upload_failed` is no summary. The rows themselves
//! are lines of the runner table ([`table`](super::table)). Must not look at more than one line,
//! nor decide what a run is.

use super::says::{Says, count_before, fail_if, leading_number};

/// What a line says in [`Format::Tsc`](super::format::Format::Tsc):
/// `error TS2345:` / `Found 3 errors in 2 files.`
pub(super) fn tsc_line(l: &str) -> Option<Says> {
    if l.contains("error TS") {
        return Some(Says::Fail);
    }
    let rest = l.strip_prefix("Found ")?;
    fail_if(count_before(rest, "error"))
}

/// A package manager's or framework's line that the script it ran failed
/// (see [`Format::Script`](super::format::Format::Script)).
pub(crate) fn script_line(l: &str) -> Option<Says> {
    // bun: `error: script "build" exited with code 1`
    if let Some(rest) = l.strip_prefix("error: script \"") {
        let (_, code) = rest.split_once("\" exited with code ")?;
        return failed_code(code);
    }
    // pnpm ` ELIFECYCLE  Command failed with exit code 1.` (thin spaces around
    // its tag), yarn `error Command failed with exit code 1.`
    if let Some((tag, code)) = l.split_once("Command failed with exit code ") {
        let tag = tag.trim_matches(char::is_whitespace);
        if tag == "ELIFECYCLE" || tag == "error" {
            return failed_code(code);
        }
    }
    // Next.js
    if l == "Failed to compile." || l == "> Build failed because of webpack errors" {
        return Some(Says::Fail);
    }
    let code = l.strip_prefix("Next.js build worker exited with code: ")?;
    failed_code(code)
}

/// `Says::Fail` when `code` starts with a non-zero exit status.
fn failed_code(code: &str) -> Option<Says> {
    leading_number(code).filter(|(n, _)| *n != 0).map(|_| Says::Fail)
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::samples::{Fixture, fail, pass, sample};

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        // a package manager's own line when the script it ran failed, and Next.js's
        fail(
            "npm run build",
            "bun-run-script-fail.txt",
            "bun run build",
            1,
            "error: script \"build\" exited with code 1",
        ),
        fail(
            "npm run build",
            "pnpm-run-script-fail.txt",
            "pnpm run build",
            1,
            "ELIFECYCLE Command failed with exit code 1.",
        ),
        fail(
            "npm run build",
            "yarn-run-script-fail.txt",
            "yarn run build",
            1,
            "error Command failed with exit code 1.",
        ),
        fail(
            "npm run build",
            "next-build-fail.txt",
            "npm run build",
            1,
            "Next.js build worker exited with code: 1",
        ),
        pass("tsc", "vue-tsc-pass.txt", "npx vue-tsc --noEmit", false),
        fail("tsc", "vue-tsc-fail.txt", "npx vue-tsc --noEmit", 2, "error TS2322"),
    ];

    sample!(tsc, "npx tsc --noEmit",
        pass: "",
        fail: "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n\nFound 1 error in src/a.ts:3",
        quotes: "Found 1 error in src/a.ts:3");
    sample!(npm_run_build, "npm run build",
        pass: "> app@1.0.0 build\n> tsc && vite build\n\n✓ built in 1.20s",
        fail: "> app@1.0.0 build\n> tsc && vite build\n\nsrc/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
        quotes: "error TS2322");
}
