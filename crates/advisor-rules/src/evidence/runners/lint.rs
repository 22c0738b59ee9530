//! Linters and formatters: `eslint`, `biome`, `ruff`, `prettier`, `black`, `golangci-lint`, `pre-
//! commit` / `prek`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — their closing lines
//! ([`lint_line`]) — beside their samples: written ones for the rows built with `row`, recorded
//! runs (`tests/fixtures/runner-output/`) for the others. Each reader takes one whole trimmed line,
//! so a test *named* `test_upload_failed` is no summary. The rows themselves are lines of the
//! runner table ([`table`](super::table)). Must not look at more than one line, nor decide what a
//! run is.

use super::says::{Says, count_before, fail_if, leading_number, says};

/// A linter's or formatter's closing line (see [`Format::Lint`](super::format::Format::Lint)).
pub(crate) fn lint_line(l: &str) -> Option<Says> {
    // ESLint: `✖ 3 problems (2 errors, 1 warning)`; warnings alone exit 0
    if let Some(rest) = l.strip_prefix("✖ ").filter(|r| r.contains(" problem")) {
        let inside = rest.split_once('(').map_or(rest, |(_, i)| i);
        return fail_if(count_before(inside, "error")).or(Some(Says::Fail));
    }
    // Biome, Ruff: `Found 2 errors.`, `Found 3 errors (2 fixed, 1 remaining).`
    if let Some(rest) = l.strip_prefix("Found ").filter(|r| r.contains(" error")) {
        let remaining = rest.split_once('(').and_then(|(_, i)| count_before(i, "remaining"));
        return fail_if(remaining.or_else(|| count_before(rest, "error")));
    }
    // pre-commit: `flake8.......Failed`, `no tabs......Passed` (`Skipped` says nothing)
    if l.contains("....") {
        if l.ends_with("...Failed") {
            return Some(Says::Fail);
        }
        if l.ends_with("...Passed") {
            return Some(Says::Pass);
        }
    }
    // golangci-lint: `3 issues:`
    if let Some(n) = l.strip_suffix(" issues:").or_else(|| l.strip_suffix(" issue:")) {
        return fail_if(n.trim().parse().ok());
    }
    let pass =
        l == "All checks passed!" || l == "All matched files use Prettier code style!" || l.starts_with("All done! ");
    let fail = l.starts_with("[warn] Code style issues found")
        || l.starts_with("[error] ")
        || l.starts_with("Oh no! ")
        || l.starts_with("would reformat ")
        // ruff / black `format --check`: `1 file would be reformatted, 7 files already formatted`
        || leading_number(l).is_some_and(|(n, rest)| {
            n > 0 && (rest.starts_with(" file would be reformatted") || rest.starts_with(" files would be reformatted"))
        });
    says(pass, fail)
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::samples::{Fixture, fail, pass, sample};

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass("pre-commit", "pre-commit-pass.txt", "pre-commit run --all-files", true),
        fail(
            "pre-commit",
            "pre-commit-fail.txt",
            "pre-commit run --all-files",
            1,
            "flake8.....",
        ),
    ];

    sample!(eslint, "npx eslint src",
        pass: "",
        fail: "/app/src/a.js\n  1:7  error  'x' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)",
        quotes: "✖ 1 problem (1 error, 0 warnings)");
    sample!(biome, "bunx biome check .",
        pass: "Checked 12 files in 3ms. No fixes applied.",
        fail: "src/a.ts:1:7 lint/correctness/noUnusedVariables ━━━━━━━\n\nChecked 12 files in 3ms. No fixes applied.\nFound 1 error.",
        quotes: "Found 1 error.");
    sample!(ruff, "ruff check .",
        pass: "All checks passed!",
        fail: "a.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.\n[*] 1 fixable with the `--fix` option.",
        quotes: "Found 1 error.");
    sample!(prettier, "npx prettier --check .",
        pass: "Checking formatting...\nAll matched files use Prettier code style!",
        fail: "Checking formatting...\n[warn] src/a.ts\n[warn] Code style issues found in the above file. Run Prettier with --write to fix.",
        quotes: "[warn] Code style issues found");
    sample!(black, "black --check .",
        pass: "All done! ✨ 🍰 ✨\n3 files would be left unchanged.",
        fail: "would reformat a.py\n\nOh no! 💥 💔 💥\n1 file would be reformatted, 2 files would be left unchanged.",
        // the count line, read as ruff format --check prints it too
        quotes: "1 file would be reformatted");
    sample!(golangci_lint, "golangci-lint run ./...",
        pass: "0 issues.",
        fail: "main.go:5:2: `x` is unused (unused)\n1 issues:\n* unused: 1",
        quotes: "1 issues:");
}
