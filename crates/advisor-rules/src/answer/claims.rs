//! Reading the answer: normalisation and success claims.
//!
//! Owns [`normalise`] (NFKC, typographic quotes and apostrophes folded,
//! lower case, Russian ё as е, whitespace collapsed), [`Claims`] and [`claims`] (what an
//! answer claims: tests, builds, lints, the task — an answer that admits a
//! failure claims nothing, see [`admissions`](super::admissions); a plan —
//! "Keep the tests passing", "I'll make sure they pass" — claims nothing
//! either). How an answer names one run as passing is
//! [`naming`](super::naming). Matching always runs on the normalised text, so
//! "I couldn’t", "I couldn't" and "I COULDN'T" read the same. Must not look at
//! tool calls.

use super::phrases::claims::{
    BUILD_CLAIMS, CHECK_CLAIMS, CHECKERS, EVERY_CLAIMS, LINT_CLAIMS, PLAN_OPENERS, TASK_CLAIMS, TEST_CLAIMS,
    VERDICT_WORDS,
};
use super::phrases::lang::Phrases;
use unicode_normalization::UnicodeNormalization;

use super::admissions::admits_failure;
use super::sentences::{fragments, sentences};
use advisor::invisible::is_invisible;

/// The answer as the phrase lists are matched against it.
pub(crate) fn normalise(answer: &str) -> String {
    let folded: String = answer
        .chars()
        .filter(|c| !is_invisible(*c))
        .nfkc()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{02BC}' | '\u{02B9}' | '`'
            | '\u{00B4}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}' | '\u{00BB}' => '"',
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
            c => c,
        })
        .flat_map(char::to_lowercase)
        // Russian writes "всё" and "все" alike: the lists hold "е" only
        .map(|c| if c == 'ё' { 'е' } else { c })
        .collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What an answer claims, by what the claim is about. A claim about tests,
/// builds or type checks is judged by every failure no later run cleared;
/// a claim about the task ("Done", "PR created") only by the turn's own
/// evidence.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Claims {
    /// "All tests pass", "the suite is green".
    pub(crate) tests: bool,
    /// "Builds cleanly", "type check passes", "no lint errors".
    pub(crate) build: bool,
    /// "Lint is clean", "format and lint are clean": a linter's or formatter's
    /// run, and no other build (a type check is not a lint).
    pub(crate) lint: bool,
    /// "Done", "fixed", "the feature is complete", "ready to merge".
    pub(crate) task: bool,
    /// "Everything checks out", "all verified": a task claim that every check
    /// of the turn came out right, whatever else the answer claims.
    pub(crate) every: bool,
}

impl Claims {
    /// Whether the answer claims anything.
    pub(crate) fn any(self) -> bool {
        self.tests || self.build || self.lint || self.task
    }
}

/// What `n` (normalised) claims, when it admits no failure (an answer that
/// admits one claims nothing).
pub(crate) fn claims(n: &str) -> Claims {
    if admits_failure(n) {
        return Claims::default();
    }
    let stated = without_plans(n);
    let n = stated.as_str();
    let has = |list: Phrases| list.iter().any(|c| n.contains(c));
    let checks = has(CHECK_CLAIMS);
    let (near_tests, near_build, near_lint) = short_claims(n);
    Claims {
        lint: near_lint || has(LINT_CLAIMS),
        tests: checks || near_tests || has(TEST_CLAIMS),
        build: checks || near_build || has(BUILD_CLAIMS),
        task: has(TASK_CLAIMS),
        every: has(EVERY_CLAIMS),
    }
}

/// `n` without what says what is to be done ([`PLAN_OPENERS`]): a sentence,
/// or a list item or heading's text inside one (a list loses its line breaks
/// in normalising: "what's left: - ensure the tests pass on ci - next, tag
/// it"), so a proposal's "Keep existing tests passing" claims nothing.
fn without_plans(n: &str) -> String {
    sentences(n)
        .map(|s| {
            fragments(s)
                .filter(|f| {
                    let t = f.trim_start_matches(|c: char| {
                        c.is_whitespace() || c.is_ascii_digit() || matches!(c, '-' | '*' | '•' | ')' | '.' | ':')
                    });
                    !PLAN_OPENERS.iter().any(|p| t.starts_with(p))
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(". ")
}

/// Short claims a phrase list misses — a verdict word one or two words after
/// what it is about: "all packages green", "build clean", "tests ✅"; a lint's
/// or formatter's word claims lints only ("lint pass", "format is clean" claim
/// nothing of a type check). Returns whether one is about tests, whether one is
/// about builds, and whether one is about lints; a negation just before the
/// verdict ("not clean") claims nothing.
fn short_claims(n: &str) -> (bool, bool, bool) {
    let (mut tests, mut build, mut lint) = (false, false, false);
    for before in verdict_subjects(n) {
        for b in before {
            match b {
                "tests" | "test" | "suite" | "specs" | "packages" | "e2e" => tests = true,
                "build" | "builds" => build = true,
                "checks" | "ci" | "pipeline" => (tests, build) = (true, true),
                "lint" | "lints" | "linting" | "linter" | "format" | "formatting" | "formatter" => lint = true,
                _ => {}
            }
        }
    }
    (tests, build, lint)
}

/// The words of `n` split for short claims.
fn short_words(n: &str) -> Vec<&str> {
    n.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '.' | ':' | '(' | ')' | '`' | '!' | '*' | '|'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The one or two words before each verdict word of `n` not negated there
/// ("build clean" → `["build"]`; "build is not clean" → none).
fn verdict_subjects(n: &str) -> Vec<Vec<&str>> {
    let words = short_words(n);
    words
        .iter()
        .enumerate()
        .filter(|(_, w)| VERDICT_WORDS.contains(w))
        .map(|(i, _)| words[i.saturating_sub(2)..i].to_vec())
        .filter(|before| {
            !before
                .iter()
                .any(|b| matches!(*b, "not" | "no" | "never" | "isn't" | "aren't" | "wasn't"))
        })
        .collect()
}

/// The checkers `n` (normalised) names with a short verdict ("clippy is
/// clean", "`tsc` passes"): a claim about that checker's runs alone, held
/// against a failed run that ran it, never against another checker's.
pub(crate) fn named_checkers(n: &str) -> Vec<&'static str> {
    if admits_failure(n) {
        return Vec::new();
    }
    let stated = without_plans(n);
    let mut named: Vec<&'static str> = verdict_subjects(&stated)
        .iter()
        .flatten()
        .filter_map(|w| CHECKERS.iter().find(|c| **c == *w).copied())
        .collect();
    named.sort_unstable();
    named.dedup();
    named
}

#[cfg(test)]
mod tests {
    use super::super::admissions::mentions_failure;
    use super::*;

    #[test]
    fn typographic_forms_read_like_ascii() {
        assert_eq!(
            normalise("I couldn’t get “it” green — yet"),
            "i couldn't get \"it\" green - yet"
        );
        assert_eq!(normalise("ＡＬＬ　TESTS\tPASS"), "all tests pass");
        assert_eq!(normalise("Всё ещё КРАСНЫЙ"), "все еще красный");
        assert!(admits_failure(&normalise("I couldn’t get the renderer test green yet")));
        assert!(claims(&normalise("All tests pass, 0 failures.")).any());
        assert!(claims(&normalise("Fixed the failing test; all tests pass.")).any());
        assert!(!claims(&normalise("All tests pass except 2 failures in io.")).any());
        let short = claims(&normalise(
            "T2 verified — all packages green, build clean, gofmt clean.",
        ));
        assert!(short.tests && short.build);
        assert!(!claims(&normalise("The build is not clean yet.")).build);
        assert_eq!(
            named_checkers(&normalise("Clippy is clean with warnings denied.")),
            ["clippy"]
        );
        assert!(named_checkers(&normalise("Clippy is not clean yet.")).is_empty());
        assert!(!claims(&normalise("Clippy is clean.")).build);
        assert_eq!(
            super::super::naming::full_counts(&normalise("Ran the bats file: 20/20 ok.")),
            vec![20]
        );
        assert!(super::super::naming::full_counts(&normalise("Ran the bats file: 19/20 ok.")).is_empty());
        assert!(!mentions_failure("i refactored the parser"));
        assert!(mentions_failure("the suite is still red"));
    }
}
