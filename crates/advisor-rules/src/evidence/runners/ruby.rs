//! Ruby: `rspec`, `rake test` / `rails test` (minitest).
//!
//! One unit of the runner table: the readers of these runners' closing lines — RSpec's `N examples,
//! M failures` and minitest's `N runs, … failures, … errors` lines — beside their samples: written
//! ones for the rows built with `row`, recorded runs (`tests/fixtures/runner-output/`) for the
//! others. Each reader takes one whole trimmed line, so a test *named* `test_upload_failed` is no
//! summary. The rows themselves are lines of the runner table ([`table`](super::table)). Must not
//! look at more than one line, nor decide what a run is.

use super::says::{Says, count_before, fail_if};

/// What a line says in [`Format::RSpec`](super::format::Format::RSpec):
/// `5 examples, 2 failures`.
pub(super) fn rspec_line(l: &str) -> Option<Says> {
    if l.contains("error occurred outside of examples") || l.contains("errors occurred outside of examples") {
        return Some(Says::Fail);
    }
    count_before(l, "example")?;
    fail_if(count_before(l, "failure"))
}

/// What a line says in [`Format::Minitest`](super::format::Format::Minitest):
/// `10 runs, 20 assertions, 1 failures, 0 errors, 0 skips`.
pub(super) fn minitest_line(l: &str) -> Option<Says> {
    if count_before(l, "runs").is_none() && count_before(l, "run,").is_none() {
        return None;
    }
    count_before(l, "assertion")?;
    let bad = count_before(l, "failure")? + count_before(l, "error").unwrap_or(0);
    fail_if(Some(bad))
}

#[cfg(test)]
mod tests {
    use super::super::samples::sample;

    sample!(rspec, "bundle exec rspec",
        pass: "............\n\nFinished in 0.02 seconds (files took 0.1 seconds to load)\n12 examples, 0 failures",
        fail: "..F.F\n\nFinished in 0.02 seconds (files took 0.1 seconds to load)\n12 examples, 2 failures",
        quotes: "12 examples, 2 failures");
    sample!(minitest, "bin/rails test",
        pass: "Finished in 0.1s, 120 runs/s.\n12 runs, 30 assertions, 0 failures, 0 errors, 0 skips",
        fail: "Finished in 0.1s, 120 runs/s.\n12 runs, 30 assertions, 1 failures, 0 errors, 0 skips",
        quotes: "12 runs, 30 assertions, 1 failures");
}
