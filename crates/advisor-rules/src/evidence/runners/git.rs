//! git: `git commit` and `git push`, read for git's own lines and for the hooks they run.
//!
//! One unit of the runner table: the readers of these runners' closing lines — `nothing to commit`
//! (nothing to do: no failure, whatever the exit status), a hook's failure and a rejected push —
//! beside their samples: written ones for the rows built with `row`, recorded runs
//! (`tests/fixtures/runner-output/`) for the others. Each reader takes one whole trimmed line, so a
//! test *named* `test_upload_failed` is no summary. The rows themselves are lines of the runner
//! table ([`table`](super::table)). Must not look at more than one line, nor decide what a run is.

use super::says::{Says, says};

/// What a line says in [`Format::Git`](super::format::Format::Git):
/// `git commit` / `git push`: `nothing to commit, working tree clean` (nothing to do:
/// not a failure, whatever the exit status) / `husky - pre-commit script failed (code 1)` /
/// `! [rejected]` / `error: failed to push some refs`.
pub(super) fn git_line(l: &str) -> Option<Says> {
    says(
        l.starts_with("nothing to commit") || l.starts_with("no changes added to commit"),
        l.contains("pre-commit script failed")
            || l.contains("hook failed")
            || l.starts_with("! [rejected]")
            || l.starts_with("! [remote rejected]")
            || l.starts_with("error: failed to push some refs"),
    )
}

#[cfg(test)]
mod tests {
    use super::super::samples::sample;

    sample!(git_commit, "git commit -m 'Add the parser'",
        pass: "On branch main\nnothing to commit, working tree clean",
        fail: "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\nhusky - pre-commit script failed (code 2)",
        quotes: "husky - pre-commit script failed");
}
