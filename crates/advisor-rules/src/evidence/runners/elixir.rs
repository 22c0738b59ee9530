//! Elixir: `mix test`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — ExUnit's `N tests, M
//! failures` line and its compile errors — beside their samples: written ones for the rows built
//! with `row`, recorded runs (`tests/fixtures/runner-output/`) for the others. Each reader takes
//! one whole trimmed line, so a test *named* `test_upload_failed` is no summary. The rows
//! themselves are lines of the runner table ([`table`](super::table)). Must not look at more than
//! one line, nor decide what a run is.

use super::says::{Says, count_before, fail_if};

/// What a line says in [`Format::ExUnit`](super::format::Format::ExUnit):
/// `297 tests, 11 failures` / `** (CompileError)`.
pub(super) fn exunit_line(l: &str) -> Option<Says> {
    if l.starts_with("** (CompileError)")
        || l.starts_with("== Compilation error")
        || l.contains("cannot compile module")
    {
        return Some(Says::Fail);
    }
    count_before(l, "test")?;
    let failures = count_before(l, "failure");
    (l.contains(" test, ") || l.contains(" tests, "))
        .then(|| fail_if(failures))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::super::samples::sample;

    sample!(mix_test, "mix test 2>&1 | tail -30",
        pass: "Finished in 1.5 seconds (0.9s async, 0.5s sync)\n14 doctests, 65 tests, 0 failures",
        fail: "Finished in 4.2 seconds (1.1s async, 3.1s sync)\n297 tests, 11 failures\n\nRandomized with seed 12345",
        quotes: "297 tests, 11 failures");
}
