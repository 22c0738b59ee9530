//! The JVM: `mvn test`, `gradle test`, `sbt test` / `sbt compile`, `lein test`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — Maven's and Gradle's
//! `BUILD …` lines and test counts, sbt's levelled summary lines ([`sbt_line`]) and its matcher
//! ([`sbt`]), clojure.test's closing lines ([`clojure_line`]) — beside their samples: written ones
//! for the rows built with `row`, recorded runs (`tests/fixtures/runner-output/`) for the others.
//! Each reader takes one whole trimmed line, so a test *named* `test_upload_failed` is no summary.
//! The rows themselves are lines of the runner table ([`table`](super::table)). Must not look at
//! more than one line, nor decide what a run is.

use super::args::operands;
use super::says::{Says, count_after, fail_if, leading_number, says};
use crate::evidence::kind::RunKind;
use RunKind::{Build, Test};

/// What a line says in [`Format::Maven`](super::format::Format::Maven):
/// `BUILD SUCCESS` / `BUILD FAILURE` / `Tests run: 10, Failures: 1, Errors: 0`.
pub(super) fn maven_line(l: &str) -> Option<Says> {
    if let Some(s) = says(l.contains("BUILD SUCCESS"), l.contains("BUILD FAILURE")) {
        return Some(s);
    }
    let i = l.find("Tests run:")?;
    let s = &l[i..];
    let bad = count_after(s, "Failures:").unwrap_or(0) + count_after(s, "Errors:").unwrap_or(0);
    fail_if(Some(bad))
}

/// What a line says in [`Format::Gradle`](super::format::Format::Gradle):
/// `BUILD SUCCESSFUL in 3s` / `BUILD FAILED in 3s`.
pub(super) fn gradle_line(l: &str) -> Option<Says> {
    says(
        l.starts_with("BUILD SUCCESSFUL"),
        l.starts_with("BUILD FAILED") || (l.contains(" tests completed, ") && l.contains(" failed")),
    )
}

/// sbt's test summary and closing lines, after its `[info]` / `[error]` / `[success]` level.
pub(crate) fn sbt_line(l: &str) -> Option<Says> {
    let (level, rest) = l.split_once("] ")?;
    let level = level.strip_prefix('[')?;
    match level {
        "info" if rest.starts_with("Passed: Total ") => Some(Says::Pass),
        "error" if rest.starts_with("Failed: Total ") || rest.starts_with("Error: Total ") => Some(Says::Fail),
        "error" if rest.contains("TestsFailedException: Tests unsuccessful") => Some(Says::Fail),
        "error" if rest.starts_with("Total time: ") => Some(Says::Fail),
        "success" if rest.starts_with("Total time: ") => Some(Says::Pass),
        _ => None,
    }
}

/// clojure.test's closing lines, as `lein test` prints them.
pub(crate) fn clojure_line(l: &str) -> Option<Says> {
    if l == "Tests failed." {
        return Some(Says::Fail);
    }
    if let Some(rest) = l.strip_prefix("Ran ") {
        let (n, rest) = leading_number(rest)?;
        return (n > 0 && (rest.starts_with(" tests containing ") || rest.starts_with(" test containing ")))
            .then_some(Says::Pass);
    }
    // `1 failures, 0 errors.`
    let (failures, rest) = leading_number(l)?;
    let rest = rest.strip_prefix(" failures, ")?;
    let (errors, rest) = leading_number(rest)?;
    (rest == " errors.").then(|| fail_if(Some(failures + errors))).flatten()
}

/// sbt's commands, each word possibly several (`";clean ;test"`, `"testOnly a.B"`,
/// `core/test`, `+test`): test when one is `test`, `testOnly` or `testQuick`; a build
/// when one is `compile` or `package`.
pub(crate) fn sbt(args: &[String]) -> Option<(RunKind, usize)> {
    let mut kind = None;
    for w in operands(args, &[]) {
        for cmd in w.split(';') {
            let Some(first) = cmd.split_whitespace().next() else {
                continue;
            };
            let first = first.trim_start_matches('+');
            let task = first.rsplit('/').next().unwrap_or(first);
            let task = task.rsplit(':').next().unwrap_or(task);
            match task {
                "test" | "testOnly" | "testQuick" => return Some((Test, 0)),
                "compile" | "package" => kind = Some((Build, 0)),
                _ => {}
            }
        }
    }
    kind
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::format::Format;
    use super::super::samples::{Fixture, fail, pass, sample};
    use super::super::says::Says;

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass("lein test", "lein-test-pass.txt", "lein test", true),
        fail(
            "lein test",
            "lein-test-fail.txt",
            "lein test",
            1,
            "1 failures, 0 errors.",
        ),
        pass("sbt test", "sbt-test-pass.txt", "sbt test", true),
        fail(
            "sbt test",
            "sbt-test-fail.txt",
            "sbt clean test",
            1,
            "Failed: Total 3, Failed 1, Errors 0, Passed 2",
        ),
    ];

    /// This unit's rows built with `with_fixtures`, `matched` or `task_runner` that
    /// have no recorded run of their own, and why.
    pub(in crate::evidence::runners) const WITHOUT: &[(&str, &str)] = &[(
        "sbt compile",
        "read with the sbt closing lines of `sbt test`'s fixtures",
    )];

    sample!(mvn_test, "mvn -q test",
        pass: "[INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS",
        fail: "[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0\n[INFO] BUILD FAILURE",
        quotes: "BUILD FAILURE");
    sample!(gradle_test, "./gradlew :app:test",
        pass: "> Task :app:test\n\nBUILD SUCCESSFUL in 4s\n5 actionable tasks: 2 executed, 3 up-to-date",
        fail: "> Task :app:test FAILED\n\n12 tests completed, 1 failed\n\nFAILURE: Build failed with an exception.\n\nBUILD FAILED in 4s",
        quotes: "12 tests completed, 1 failed");

    #[test]
    fn jvm_lines_are_read_and_test_names_are_not() {
        use Says::{Fail, Pass};
        assert_eq!(
            Format::Sbt.read("[info] Passed: Total 2, Failed 0, Errors 0, Passed 2"),
            Some(Pass)
        );
        assert_eq!(Format::Sbt.read("[info] - reports failed logins"), None);
        assert_eq!(Format::Clojure.read("0 failures, 0 errors."), Some(Pass));
        assert_eq!(Format::Clojure.read("0 failures, 1 errors."), Some(Fail));
    }
}
