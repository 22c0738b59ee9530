//! Apple: `swift test` / `swift build`, `xcodebuild test` / `xcodebuild build`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — XCTest's and Swift
//! Testing's closing lines, swiftc's `error:` lines, xcodebuild's `** … SUCCEEDED|FAILED **` banner
//! and its matcher ([`xcodebuild`]) — beside their samples: written ones for the rows built with
//! `row`, recorded runs (`tests/fixtures/runner-output/`) for the others. Each reader takes one
//! whole trimmed line, so a test *named* `test_upload_failed` is no summary. The rows themselves
//! are lines of the runner table ([`table`](super::table)). Must not look at more than one line,
//! nor decide what a run is.

use super::args::operands;
use super::says::{Says, count_before, fail_if, says};
use crate::evidence::kind::RunKind;
use RunKind::{Build, Test};

/// What a line says in [`Format::Swift`](super::format::Format::Swift):
/// `Executed 12 tests, with 1 failure` / `✘ Test run with 3 tests failed`.
pub(super) fn swift_line(l: &str) -> Option<Says> {
    if l.starts_with("Executed ") && l.contains(" test") && l.contains(" with ") {
        return fail_if(count_before(l, "failure"));
    }
    // the passing and failing lines exclude each other
    let pass =
        l.starts_with("Test Suite 'All tests' passed") || (l.starts_with("✔ Test run with") && l.contains("passed"));
    let fail =
        l.starts_with("Test Suite 'All tests' failed") || (l.starts_with("✘ Test run with") && l.contains("failed"));
    says(pass, fail || l.starts_with("error: ") || l.contains(": error: "))
}

/// What a line says in [`Format::Xcode`](super::format::Format::Xcode):
/// `xcodebuild`'s closing banner: `** TEST SUCCEEDED **` / `** TEST FAILED **`,
/// `** BUILD SUCCEEDED **` / `** BUILD FAILED **`.
pub(super) fn xcode_line(l: &str) -> Option<Says> {
    let banner = l.strip_prefix("** ")?.strip_suffix(" **")?;
    let (_, verdict) = banner.rsplit_once(' ')?;
    says(verdict == "SUCCEEDED", verdict == "FAILED")
}

/// `xcodebuild [options] test|build|…`: the action may stand after the options
/// (`xcodebuild -scheme App -destination 'platform=macOS' test`); every word
/// selects (scheme, destination, `-only-testing:…`).
pub(crate) fn xcodebuild(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &[
        "-project",
        "-workspace",
        "-scheme",
        "-target",
        "-destination",
        "-configuration",
        "-sdk",
        "-arch",
        "-derivedDataPath",
        "-resultBundlePath",
        "-testPlan",
        "-xctestrun",
        "-toolchain",
        "-jobs",
    ];
    operands(args, VALUED).iter().find_map(|w| match *w {
        "test" | "test-without-building" => Some((Test, 0)),
        "build" | "build-for-testing" | "analyze" | "archive" => Some((Build, 0)),
        _ => None,
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::samples::{Fixture, fail, pass, sample};

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        // through a pipe the host records success: the banner decides
        pass(
            "xcodebuild test",
            "xcodebuild-test-pass.txt",
            "xcodebuild test -project App.xcodeproj -scheme App -destination 'platform=macOS,arch=arm64' 2>&1 | grep -E \"TEST|suites|failed|passed after\" | tail -8",
            true,
        ),
        fail(
            "xcodebuild test",
            "xcodebuild-test-fail.txt",
            "xcodebuild test -project App.xcodeproj -scheme App -destination 'platform=macOS' -quiet 2>&1 | tail -40",
            0,
            "** TEST FAILED **",
        ),
    ];

    /// This unit's rows built with `with_fixtures`, `matched` or `task_runner` that
    /// have no recorded run of their own, and why.
    pub(in crate::evidence::runners) const WITHOUT: &[(&str, &str)] = &[(
        "xcodebuild build",
        "read with the banner and swiftc lines of `xcodebuild test`'s fixtures",
    )];

    sample!(swift_test, "swift test",
        pass: "Test Suite 'All tests' passed at 2026-01-01 10:00:00.000.\n\t Executed 12 tests, with 0 failures (0 unexpected) in 0.050 (0.052) seconds",
        fail: "Test Suite 'All tests' failed at 2026-01-01 10:00:00.000.\n\t Executed 12 tests, with 1 failure (0 unexpected) in 0.050 (0.052) seconds",
        quotes: "Executed 12 tests, with 1 failure");
    sample!(swift_build, "swift build",
        pass: "Building for debugging...\nBuild complete! (1.20s)",
        fail: "Sources/App/main.swift:3:1: error: cannot find 'x' in scope",
        quotes: "error: cannot find 'x' in scope");
}
