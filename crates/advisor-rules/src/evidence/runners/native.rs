//! Native builds: `ctest`, `make` and `make test`, `bazel test` / `bazel build`, `zig test` / `zig
//! build`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — CTest's percentage
//! line, make's `make: *** … Error N`, Bazel's `Executed …` and `Build completed` lines, Zig's
//! build summary and test lines ([`zig_line`]) and Zig's matcher ([`zig`]) — beside their samples:
//! written ones for the rows built with `row`, recorded runs (`tests/fixtures/runner-output/`) for
//! the others. Each reader takes one whole trimmed line, so a test *named* `test_upload_failed` is
//! no summary. The rows themselves are lines of the runner table ([`table`](super::table)). Must
//! not look at more than one line, nor decide what a run is.

use super::args::operands;
use super::says::{Says, count_before, fail_if, leading_number, says};
use super::tasks::task_kind;
use crate::evidence::kind::RunKind;
use RunKind::{Build, Test};

/// What a line says in [`Format::CTest`](super::format::Format::CTest):
/// `100% tests passed, 0 tests failed out of 12`.
pub(super) fn ctest_line(l: &str) -> Option<Says> {
    if l.starts_with("The following tests FAILED") {
        return Some(Says::Fail);
    }
    if l.contains("% tests passed") && l.contains("tests failed out of") {
        return fail_if(count_before(l, "tests failed out of"));
    }
    None
}

/// What a line says in [`Format::Make`](super::format::Format::Make):
/// `make: *** [Makefile:12: test] Error 1`.
pub(super) fn make_line(l: &str) -> Option<Says> {
    ((l.starts_with("make: ***") || l.starts_with("make[")) && l.contains("***") && l.contains("Error"))
        .then_some(Says::Fail)
}

/// What a line says in [`Format::Bazel`](super::format::Format::Bazel):
/// `Executed 3 out of 3 tests: 3 tests pass.` / `FAILED: Build did NOT complete successfully`.
pub(super) fn bazel_line(l: &str) -> Option<Says> {
    if l.starts_with("FAILED: Build did NOT complete successfully")
        || (l.starts_with("Executed ") && l.contains(" fail"))
    {
        return Some(Says::Fail);
    }
    if l.starts_with("INFO: Build completed") {
        let failed = count_before(l, "test FAILED").or(count_before(l, "tests FAILED"));
        return fail_if(Some(failed.unwrap_or(0)));
    }
    (l.starts_with("Executed ") && l.contains(" tests pass")).then_some(Says::Pass)
}

/// Zig's build summary and test runner lines.
pub(crate) fn zig_line(l: &str) -> Option<Says> {
    if let Some(rest) = l.strip_prefix("Build Summary: ") {
        let (_, rest) = leading_number(rest)?;
        let rest = rest.strip_prefix('/')?;
        let (_, rest) = leading_number(rest)?;
        if !rest.starts_with(" steps succeeded") {
            return None;
        }
        return says(!rest.contains("failed"), true);
    }
    if let Some(rest) = l.strip_prefix("All ") {
        let (n, rest) = leading_number(rest)?;
        return (n > 0 && (rest == " tests passed." || rest == " test passed.")).then_some(Says::Pass);
    }
    // `0 passed; 0 skipped; 1 failed.`
    if l.ends_with(" failed.") && l.contains(" passed; ") && l.contains(" skipped; ") {
        return fail_if(count_before(l, "failed."));
    }
    let rest = l.strip_prefix("error: ")?;
    let (n, rest) = leading_number(rest)?;
    (n > 0 && (rest == " compilation errors" || rest == " compilation error")).then_some(Says::Fail)
}

/// `zig test file.zig` (test), `zig build test` / `zig build test-unit` (test), `zig build [step]` (build).
pub(crate) fn zig(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &[
        "--summary",
        "--prefix",
        "-p",
        "--build-file",
        "--cache-dir",
        "--global-cache-dir",
        "--zig-lib-dir",
        "--sysroot",
        "--search-prefix",
        "--libc",
        "-j",
    ];
    let ops = operands(args, VALUED);
    match ops.first().copied()? {
        "test" => Some((Test, 1)),
        "build" => match ops.get(1).copied().and_then(task_kind) {
            Some(Test) => Some((Test, 1)),
            _ => Some((Build, 1)),
        },
        _ => None,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::format::Format;
    use super::super::samples::{Fixture, fail, pass, sample};
    use super::super::says::Says;

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass(
            "zig test",
            "zig-build-test-summary-pass.txt",
            "zig build test --summary all",
            true,
        ),
        fail(
            "zig test",
            "zig-build-test-fail.txt",
            "zig build test",
            1,
            "Build Summary: 3/5 steps succeeded (1 failed)",
        ),
        fail(
            "zig test",
            "zig-build-test-compile-fail.txt",
            "python -m ziglang build test",
            1,
            "Build Summary: 0/5 steps succeeded (2 failed)",
        ),
        pass("zig build", "zig-build-pass.txt", "zig build", false),
        fail(
            "zig build",
            "zig-build-fail.txt",
            "zig build",
            1,
            "Build Summary: 0/3 steps succeeded (1 failed)",
        ),
        pass("zig test", "zig-test-pass.txt", "zig test src/root.zig", true),
        fail(
            "zig test",
            "zig-test-fail.txt",
            "zig test src/root.zig",
            1,
            "0 passed; 0 skipped; 1 failed.",
        ),
    ];

    sample!(ctest, "ctest --output-on-failure",
        pass: "100% tests passed, 0 tests failed out of 12\n\nTotal Test time (real) =   0.50 sec",
        fail: "83% tests passed, 2 tests failed out of 12\n\nTotal Test time (real) =   0.50 sec\n\nThe following tests FAILED:\n\t  3 - parse (Failed)",
        quotes: "The following tests FAILED");
    sample!(make_test_check, "make check",
        pass: "python -m pytest -q\n12 passed in 0.10s",
        fail: "python -m pytest -q\nmake: *** [Makefile:12: check] Error 1",
        quotes: "make: *** [Makefile:12: check] Error 1");
    sample!(make_build, "make",
        pass: "cc -O2 -o app main.c",
        fail: "cc -O2 -o app main.c\nmain.c:3:1: error: unknown type name 'x'\nmake: *** [Makefile:4: app] Error 1",
        quotes: "error: unknown type name 'x'");
    sample!(bazel_test, "bazel test //...",
        pass: "INFO: Build completed successfully, 12 total actions\nExecuted 3 out of 3 tests: 3 tests pass.",
        fail: "INFO: Build completed, 1 test FAILED, 12 total actions\nExecuted 3 out of 3 tests: 2 tests pass and 1 fails locally.",
        quotes: "1 fails locally");
    sample!(bazel_build, "bazel build //app:all",
        pass: "INFO: Build completed successfully, 12 total actions",
        fail: "ERROR: /src/app/BUILD:3:10: Compiling app.cc failed\nFAILED: Build did NOT complete successfully",
        quotes: "FAILED: Build did NOT complete successfully");

    #[test]
    fn native_lines_are_read_and_test_names_are_not() {
        use Says::{Fail, Pass};
        assert_eq!(Format::Zig.read("Build Summary: 5/5 steps succeeded"), Some(Pass));
        assert_eq!(
            Format::Zig.read("Build Summary: 3/5 steps succeeded (1 failed); 2/3 tests passed (1 failed)"),
            Some(Fail)
        );
        assert_eq!(Format::Zig.read("error: 'root.test.failed' failed:"), None);
    }
}
