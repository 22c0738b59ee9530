//! What a failed run names: the words an answer that tells the failure would use.
//!
//! Owns the readers of a failed run's failing lines ([`failing_words`]: what
//! they quote and their codes; [`failing_names`]: the failing tests and files)
//! and of its command ([`step_words`], [`run_subcommands`], [`run_programs`]),
//! which the disclosure readers match an answer against. Must not read the
//! answer, nor decide what discloses: that is
//! [`disclosures`](crate::answer::disclosures).

use crate::answer::admissions;
use crate::evidence::runners;
use crate::evidence::runs::Run;

/// The last lines of a run's output that report a failure — an error or
/// failure word in any case, a `✗` or `✕` mark, a linter's message line
/// (`legacy/export.py:1:0: C0114: …`), trimmed: what [`failing_words`] and
/// [`failing_names`] read.
fn failing_lines(run: &Run) -> impl Iterator<Item = &str> {
    run.output.lines().rev().take(400).map(str::trim).filter(|l| {
        let lower = l.to_lowercase();
        lower.contains("error")
            || lower.contains("fail")
            || l.contains('✗')
            || l.contains('✕')
            || runners::pylint_line(l) == Some(runners::Says::Fail)
            || runners::is_rustfmt_diff(l)
    })
}

/// What a run's failing lines name in so many words (lower case): what they
/// quote (`Cannot find type definition file for 'cypress'`) and their codes
/// (`TS2688`, `E501`) — what a message that tells the failure as known names.
pub(super) fn failing_words(run: &Run) -> Vec<String> {
    let mut words = Vec::new();
    for line in failing_lines(run) {
        let lower = line.to_lowercase();
        // quoted: every other piece between quotes
        for quote in ['\'', '"', '`'] {
            words.extend(
                lower
                    .split(quote)
                    .skip(1)
                    .step_by(2)
                    .filter(|q| q.chars().count() >= 3)
                    .map(str::to_owned),
            );
        }
        // codes: letters then digits (`ts2688`, `e501`)
        words.extend(
            lower
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| {
                    let digits = w.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                    w.len() >= 4
                        && digits.len() >= 3
                        && digits.len() < w.len()
                        && digits.bytes().all(|b| b.is_ascii_digit())
                })
                .map(str::to_owned),
        );
    }
    words.sort();
    words.dedup();
    words.truncate(256);
    words
}

/// The words of a run's runners' names that are no failure topic already
/// (`commit` for `git commit`, `pytest`; not `test` or `make`): what an aside
/// may be said of ("the changes were mixed into an unrelated commit"). Wider
/// than the failing names: "clippy reports no warnings and the errors are
/// gone" names no failure.
pub(super) fn step_words(run: &Run) -> Vec<String> {
    let mut names = Vec::new();
    names.extend(
        run.invocations
            .iter()
            .flat_map(|i| i.runner().name.split(' '))
            .filter(|w| w.len() >= 4 && !admissions::is_failure_topic(w) && !matches!(*w, "make" | "exec" | "bunx"))
            .map(str::to_owned),
    );
    names.sort();
    names.dedup();
    names
}

/// The subcommand each of a run's commands starts with (`push` of `git push
/// origin main`), lower case.
pub(super) fn run_subcommands(run: &Run) -> Vec<String> {
    run.invocations
        .iter()
        .filter_map(|i| {
            i.display
                .split_whitespace()
                .skip(1)
                .find(|w| !w.starts_with('-'))
                .map(str::to_lowercase)
        })
        .collect()
}

/// The programs of a run's runners (`playwright` for `npx playwright test`),
/// of two letters or more, so that an answer saying one has yet to run
/// tells of the failure.
pub(super) fn run_programs(run: &Run) -> Vec<String> {
    run.invocations
        .iter()
        .filter_map(|i| i.runner().name.split(' ').next())
        .filter(|p| p.len() >= 2)
        .map(str::to_owned)
        .collect()
}

/// The failing tests and files a run's output names (lower case), so that
/// an answer naming one of them discloses the failure.
pub(super) fn failing_names(run: &Run) -> Vec<String> {
    let mut names = Vec::new();
    for l in failing_lines(run) {
        for word in l.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '"' | '\'' | ',' | '[' | ']')) {
            let w = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
            let named =
                w.contains("::") || w.contains('/') || w.contains('.') || w.contains('_') || w.starts_with("test");
            if named && w.len() >= 4 && !w.starts_with("http") && names.len() < 64 {
                // `tests/test_a.py::test_x` is named by `test_x` or `test_a.py`
                // too, but not by a directory's plain word (`internal`, `http`
                // in `lms-go/internal/http/api`): only the last part, and parts
                // that name a file or a test, stand for the whole
                let parts: Vec<&str> = w.split(['/', ':']).filter(|p| !p.is_empty()).collect();
                let last = parts.len().saturating_sub(1);
                for (i, part) in parts.iter().enumerate() {
                    let names_one = i == last || part.contains(['.', '_']) || part.starts_with("test");
                    if names_one && part.len() >= 4 {
                        names.push(part.to_lowercase());
                    }
                }
                // and the path's tails: `internal/http/api` names `lms-go/internal/http/api`
                let segments: Vec<&str> = w.split('/').collect();
                for k in 0..segments.len().saturating_sub(1) {
                    let tail = segments[k..].join("/");
                    if tail.len() >= 4 {
                        names.push(tail.to_lowercase());
                    }
                }
            }
        }
    }
    names.retain(|n| {
        !matches!(
            n.as_str(),
            "failed" | "failures" | "error" | "errors" | "tests" | "test"
        )
    });
    names.sort();
    names.dedup();
    names
}
