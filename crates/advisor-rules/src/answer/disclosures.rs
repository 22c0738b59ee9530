//! Reading what an answer discloses: a failure told as known, left to
//! someone, or named, so that a claim beside it hides nothing.
//!
//! Owns [`discloses`] (a failure named as known: pre-existing, unrelated,
//! failing on main too, the failing test named, a formatter's verdict told,
//! an aside or an offer said of it), [`tells_as_known`] (an earlier message
//! of the turn told it as known), [`tells_unrun`] (the failed run's program
//! has yet to run), [`tells_unmet`] (the failed step is left to someone:
//! "pushing is up to you") and [`tells_stopped`] (a run stopped before its
//! end: "timed out", "cut off"). Matching runs on the normalised answer; what an
//! answer admits is [`admissions`](super::admissions). Must not look at tool
//! calls, nor decide what an answer claims.

use super::actions::Action;
use super::admissions::{admits_failure, is_failure_topic, is_failure_word, tells_exit_status, without_zero_counts};
use super::phrases::disclosures::{ASIDES, DISCLOSURES, KNOWN_FAILURES, OFFERS, STOPPED_WORDS, UNMET};
use super::phrases::lang::Phrases;
use super::sentences::{fragments, sentences};

/// Whether `passage` (normalised) is about a failure or a check: a word that
/// is a failure topic ([`is_failure_topic`]), one of `names` (the failing
/// tests and files) or of `steps` (the failed run's runner words: `commit`).
fn about_a_failure(passage: &str, names: &[String], steps: &[String]) -> bool {
    passage.split(|c: char| !c.is_alphanumeric()).any(is_failure_topic) || names_one(passage, names, steps)
}

/// Whether `passage` (normalised) is about a failure itself: a failure word
/// ([`is_failure_word`]), or one of `names` or `steps` — a check named
/// without a failure ("tests for the installer") is not enough.
fn about_the_failure(passage: &str, names: &[String], steps: &[String]) -> bool {
    // an offer to make it pass or to fix it says it does not pass now
    passage
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| is_failure_word(w) || matches!(w, "green" | "pass" | "passing" | "fix"))
        || names_one(passage, names, steps)
}

/// Whether `passage` names one of `names` or `steps` (four letters or more).
fn names_one(passage: &str, names: &[String], steps: &[String]) -> bool {
    names
        .iter()
        .chain(steps)
        .any(|name| name.len() >= 4 && passage.contains(name.as_str()))
}

/// Whether a list item or sentence of `n` says one of `phrases` of what
/// `about` accepts, itself or by the list item before it in the same sentence
/// ("remaining warnings: unrelated"; "All tests pass. Would you like me to
/// push?" says nothing of a failure).
fn said_of(n: &str, phrases: Phrases, about: impl Fn(&str) -> bool) -> bool {
    // "0 errors" and "ohne Fehler" say nothing failed
    let n = without_zero_counts(n);
    sentences(&n).any(|sentence| {
        let pieces: Vec<&str> = fragments(sentence).collect();
        pieces.iter().enumerate().any(|(i, piece)| {
            phrases.iter().any(|p| piece.contains(p))
                && (about(piece) || i.checked_sub(1).and_then(|j| pieces.get(j)).is_some_and(|b| about(b)))
        })
    })
}

/// Whether `n` (normalised) discloses a failure in any wording: an
/// admission, a disclosure word, a non-zero exit told ("`git commit`
/// exited 128"), an aside said of the failure (of a failure
/// topic, one of `names` or `steps`: [`about_a_failure`]), an offer said of
/// the failure itself ([`about_the_failure`]), or one of `names` (the failing
/// tests or files, lower case) named in so many words.
pub(crate) fn discloses(n: &str, names: &[String], steps: &[String]) -> bool {
    // whole words: `--skipLibCheck` is no skip
    let skips = sentences(n).flat_map(fragments).any(|piece| {
        piece
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .any(|w| matches!(w, "skip" | "skips" | "skipped" | "skipping"))
            && about_a_failure(piece, names, steps)
    });
    admits_failure(n)
        || skips
        || DISCLOSURES.iter().any(|d| n.contains(d))
        || tells_exit_status(n)
        || said_of(n, KNOWN_FAILURES, |p| about_a_failure(p, names, steps))
        || said_of(n, ASIDES, |p| about_a_failure(p, names, steps))
        || said_of(n, OFFERS, |p| about_the_failure(p, names, steps))
        || names_failing(n, names)
}

/// Whether a sentence of `n` names one of `names` together with a word that
/// says it fails ("`test_login` still errors", "all pass except `test_io`"),
/// so "I fixed `test_login`; all tests pass" is no disclosure.
fn names_failing(n: &str, names: &[String]) -> bool {
    sentences(n)
        .filter(|s| names.iter().any(|name| name.len() >= 4 && s.contains(name.as_str())))
        .any(|s| {
            // whole words: "restored" says nothing is red
            let s = without_zero_counts(s);
            s.split(|c: char| !c.is_alphanumeric()).any(|w| {
                ["fail", "error", "skip", "flak"].iter().any(|p| w.starts_with(p))
                    || matches!(
                        w,
                        "broken"
                            | "red"
                            | "except"
                            | "but"
                            | "still"
                            | "remaining"
                            | "remain"
                            | "remains"
                            | "untouched"
                            // Russian: "except", "but", "still"
                            | "кроме"
                            | "но"
                            | "пока"
                            | "еще"
                    )
                    // Russian failure words ("`test_pdf_export` красный", "нестабильный")
                    || (!w.is_ascii() && is_failure_word(w))
            })
        })
}

/// Whether one of `messages` (normalised) tells a failure as known and not
/// the change's in a sentence ("pre-existing", "fails on main too", "a known
/// issue") that names one of `words`, what the failure's lines say
/// ("cypress"), and does not go on to fix it ("… let me quickly fix it").
pub(crate) fn tells_as_known(messages: &[String], words: &[String]) -> bool {
    messages
        .iter()
        .filter(|m| !m.contains("fix"))
        .any(|m| tells_known_in(m, words))
}

fn tells_known_in(n: &str, words: &[String]) -> bool {
    sentences(n)
        .filter(|s| KNOWN_FAILURES.iter().any(|d| s.contains(d)))
        .any(|s| {
            s.split(|c: char| !c.is_alphanumeric())
                .any(|w| words.iter().any(|f| f == w))
        })
}

/// Whether a sentence of `n` names one of `subcommands` (a failed run's own:
/// `push` of `git commit … && git push`), in any of its forms, with a word that
/// says it is not done or is left to someone: "pushing is up to you", "I
/// didn't push: there are no credentials", "推送需要你的凭据".
pub(crate) fn tells_unmet(n: &str, subcommands: &[String]) -> bool {
    // actions, not checks: "the tests need a database" is `tells_unrun`'s
    let actions: Vec<&Action> = subcommands.iter().filter_map(|s| Action::of(s)).collect();
    let forms: Vec<String> = actions.iter().flat_map(|a| a.forms()).collect();
    sentences(n).any(|s| {
        let names = s
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| forms.iter().any(|f| f == w))
            || actions.iter().any(|a| a.inside.iter().any(|c| s.contains(c)));
        names && UNMET.iter().any(|u| s.contains(u))
    })
}

/// Whether a sentence of `n` names one of `programs` (a failed run's runner:
/// `playwright`, `ty`) with a word that says it has yet to run: "the e2e run needs
/// `npx playwright install` first", "pytest requires the database". A
/// program's name with a failure word says nothing here ("cargo clippy
/// reports no warnings and the errors are gone"): programs are wider names
/// than tests.
pub(crate) fn tells_unrun(n: &str, programs: &[String]) -> bool {
    sentences(n)
        .filter(|s| {
            // a word of its own: `user.go` and `main.py` do not name `go` or `py`
            programs.iter().any(|p| {
                s.split_whitespace()
                    .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
                    .any(|w| w == p)
            })
        })
        .any(|s| {
            s.split(|c: char| !c.is_alphanumeric())
                .any(|w| matches!(w, "needs" | "need" | "requires" | "first" | "missing"))
        })
}

/// Whether `n` (normalised) says a run was stopped before its end ("pytest
/// timed out after 10 minutes; the 40 tests that ran passed"): said of a run
/// the host stopped at a timeout or by a signal, it discloses that run.
pub(crate) fn tells_stopped(n: &str) -> bool {
    STOPPED_WORDS.iter().any(|w| n.contains(w))
}
