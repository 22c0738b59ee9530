//! Reading what an answer admits: that the work is not done or not verified.
//!
//! Owns [`admits_failure`] (an admission — "still fails", "couldn't", "3
//! failures" — means the answer claims nothing), [`mentions_failure`] (the
//! reader was told something failed), [`tells_exit_status`] (a non-zero exit
//! told: "`git commit` exited 128") and the failure topics
//! ([`is_failure_topic`], [`is_failure_word`]) that
//! [`disclosures`](super::disclosures) reads asides by. Matching runs on the
//! normalised answer ([`normalise`](super::claims::normalise)), whole words
//! where a word could hide inside another ("restored" is not "red"). Must not
//! look at tool calls, nor decide what an answer claims —
//! [`claims`](super::claims) does that — nor what it discloses.

use super::phrases::admissions::{
    ADMISSIONS, CHECK_WORDS, COUNTED, EXIT_STATUS, FAILURE_WORDS, INABILITIES, MENTIONS, WORK_WORDS, ZERO_FAILURES,
};
use super::sentences::{fragments, sentences};

/// Whether sentence `s` (normalised) is about the checks or the work: one of
/// its words is a failure topic ([`is_failure_topic`]) or begins with one of
/// [`WORK_WORDS`].
fn about_the_work(s: &str) -> bool {
    s.split(|c: char| !c.is_alphanumeric())
        .any(|w| is_failure_topic(w) || WORK_WORDS.iter().any(|p| w.starts_with(p)))
}

/// `a` without the counts that mean nothing failed ([`ZERO_FAILURES`]: "0
/// failures", "no errors"), each replaced by a space, removed column by
/// column in the list's order.
pub(crate) fn without_zero_counts(a: &str) -> String {
    ZERO_FAILURES.iter().fold(a.to_owned(), |s, z| s.replace(z, " "))
}

/// Whether `n` (normalised) admits the work is not done or not verified.
pub(crate) fn admits_failure(n: &str) -> bool {
    let s = without_zero_counts(n);
    if ADMISSIONS.iter().any(|x| s.contains(x)) {
        return true;
    }
    if sentences(&s)
        .flat_map(fragments)
        .any(|x| INABILITIES.iter().any(|p| x.contains(p)) && about_the_work(x))
    {
        return true;
    }
    // "3 failures", "2 failed", "1 test fails"
    let words: Vec<&str> = s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    // German's split "die Tests schlagen … fehl", whole: "vorgeschlagen" is "suggested"
    if words
        .iter()
        .any(|w| matches!(*w, "schlägt" | "schlagen" | "schlug" | "schlugen"))
    {
        return true;
    }
    // "14 issues", "2 problems", "3 violations" too
    count_then(&words, |w| {
        ["fail", "error", "issue", "problem", "violation", "finding"]
            .iter()
            .any(|p| w.starts_with(p))
    })
}

/// Whether a positive count stands one or two words before a word that
/// `is_what` accepts (`3 failures`, `1 test fails`).
fn count_then(words: &[&str], is_what: impl Fn(&str) -> bool) -> bool {
    (2..=3).any(|n| (words.windows(n)).any(|w| w[0].parse::<u64>().is_ok_and(|k| k > 0) && is_what(w[n - 1])))
}

/// Whether word `w` is about a failure: it begins with one of
/// [`FAILURE_WORDS`], or is "red" (not "reduce").
pub(crate) fn is_failure_word(w: &str) -> bool {
    w == "red" || FAILURE_WORDS.iter().any(|p| w.starts_with(p))
}

/// Whether word `w` is about a failure or a check: [`is_failure_word`], or
/// it begins with one of [`CHECK_WORDS`].
pub(crate) fn is_failure_topic(w: &str) -> bool {
    is_failure_word(w) || CHECK_WORDS.iter().any(|p| w.starts_with(p))
}

/// Whether `n` (normalised) talks about a failure at all (the reader was told).
pub(crate) fn mentions_failure(n: &str) -> bool {
    let s = without_zero_counts(n);
    admits_failure(n)
        || MENTIONS.iter().any(|w| s.contains(w))
        || s.split(|c: char| !c.is_alphanumeric()).any(|w| w == "red")
        || tells_exit_status(&s)
}

/// Whether `s` tells a non-zero exit status: "`git commit` exited 128",
/// "exit code 2", "exit status 1".
pub(crate) fn tells_exit_status(s: &str) -> bool {
    EXIT_STATUS.iter().any(|p| {
        s.match_indices(p).any(|(i, _)| {
            let rest = &s[i + p.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let next = rest[digits.len()..].trim_start();
            digits.parse::<u32>().is_ok_and(|c| c != 0) && !COUNTED.iter().any(|w| next.starts_with(w))
        })
    })
}
