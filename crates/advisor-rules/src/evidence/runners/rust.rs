//! Rust: `cargo test`, `cargo nextest`, `cargo build` (`check`, `clippy`), `cargo fmt`, `rustfmt`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — cargo's closing
//! lines (`test result: …`, `error[E…]`, `Finished …`), nextest's `Summary` line and rustfmt's
//! `Diff in …` hunks ([`is_rustfmt_diff`]) — beside their samples: written ones for the rows built
//! with `row`, recorded runs (`tests/fixtures/runner-output/`) for the others. Each reader takes
//! one whole trimmed line, so a test *named* `test_upload_failed` is no summary. The rows
//! themselves are lines of the runner table ([`table`](super::table)). Must not look at more than
//! one line, nor decide what a run is.

use super::says::{Says, count_before, fail_if, says};

/// What a line says in [`Format::Cargo`](super::format::Format::Cargo):
/// `test result: ok. 12 passed; 0 failed` / `error[E0425]` / `error: could not compile`.
pub(super) fn cargo_line(l: &str) -> Option<Says> {
    if let Some(rest) = l.strip_prefix("test result: ") {
        return says(!rest.starts_with("FAILED"), true);
    }
    if l.starts_with("error[E") || l.starts_with("error: ") || l == "error" {
        return Some(Says::Fail);
    }
    (l.starts_with("Finished ") && l.contains(" target(s) in ")).then_some(Says::Pass)
}

/// What a line says in [`Format::Nextest`](super::format::Format::Nextest):
/// `Summary [ 0.5s] 12 tests run: 11 passed, 1 failed`.
pub(super) fn nextest_line(l: &str) -> Option<Says> {
    if l.starts_with("Summary [") {
        let bad = count_before(l, "failed").unwrap_or(0) + count_before(l, "timed out").unwrap_or(0);
        return fail_if(Some(bad));
    }
    l.starts_with("error: test run failed").then_some(Says::Fail)
}

/// What a line says in [`Format::Rustfmt`](super::format::Format::Rustfmt):
/// `cargo fmt --check` / `rustfmt --check`: `Diff in src/lib.rs:3:`, a file it would
/// reformat (it prints nothing when all is formatted). Its lines count only where
/// the host recorded no exit status of 0: a test printing such a line, or `cargo fmt
/// --check || cargo fmt`, exits 0.
pub(super) fn rustfmt_line(l: &str) -> Option<Says> {
    is_rustfmt_diff(l).then_some(Says::Fail)
}

/// Whether `l` opens a hunk `cargo fmt --check` (rustfmt `--check`) prints
/// for a file it would reformat: `Diff in src/lib.rs:3:`, or rustfmt 1.4's
/// `Diff in src/lib.rs at line 3:`.
pub(crate) fn is_rustfmt_diff(l: &str) -> bool {
    let Some(rest) = l.strip_prefix("Diff in ").and_then(|r| r.strip_suffix(':')) else {
        return false;
    };
    let number = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    match rest.rsplit_once(" at line ") {
        Some((path, n)) => !path.is_empty() && number(n),
        None => rest
            .rsplit_once(':')
            .is_some_and(|(path, n)| path.ends_with(".rs") && number(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::samples::sample;

    sample!(cargo_test, "cargo test",
        pass: "running 12 tests\ntest retry::gives_up_after_3_failed_attempts ... ok\n\ntest result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s",
        fail: "running 12 tests\ntest parse::rejects_empty ... FAILED\n\ntest result: FAILED. 11 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n\nerror: test failed, to rerun pass `--lib`",
        quotes: "test result: FAILED. 11 passed; 1 failed");
    sample!(cargo_nextest, "cargo nextest run --workspace",
        pass: "    Starting 12 tests across 2 binaries\n     Summary [   0.412s] 12 tests run: 12 passed, 0 skipped",
        fail: "        FAIL [   0.003s] app parse::rejects_empty\n     Summary [   0.398s] 12 tests run: 11 passed, 1 failed, 0 skipped\nerror: test run failed",
        quotes: "12 tests run: 11 passed, 1 failed");
    sample!(cargo_build_check_clippy, "cargo clippy --all-targets -- -D warnings",
        pass: "    Checking app v0.1.0 (/src/app)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.91s",
        fail: "    Checking app v0.1.0 (/src/app)\nerror[E0425]: cannot find value `x` in this scope\n --> src/lib.rs:3:9\nerror: could not compile `app` (lib) due to 1 previous error",
        quotes: "could not compile `app`");
    sample!(cargo_fmt, "cargo fmt --check",
        pass: "",
        fail: "error: could not create temp file: Operation not permitted (os error 1)",
        quotes: "could not create temp file");
    // rustfmt prints nothing when all is formatted; with no exit status recorded
    // (the sample's `Bash` call has none), its `Diff in …` lines decide
    sample!(rustfmt, "rustfmt --check --edition 2021 src/lib.rs",
        answer: "Done: formatting is clean.",
        pass: "",
        fail: "Diff in src/lib.rs:3:\n-use std::fmt::{self,Display};\n+use std::fmt::{self, Display};",
        quotes: "Diff in src/lib.rs:3:");
}
