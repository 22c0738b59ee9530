//! How an answer claims a step's result: the words that claim it, the words
//! that take it back, and whether one sentence both claims it and names the
//! step.
//!
//! Owns [`claimed_in_sentence`] (a sentence that names what the step was
//! about and claims its result — "verified with Playwright", "`cargo deny
//! check` is clean" quoting its command — or claims it in its subcommand's
//! own past tense, "Fetched all remotes"), [`claims_result`],
//! [`claims_action`], [`claims_verified`] and [`subcommands_of`]. Which step
//! counts, and whether it failed, is [`failed_step`](crate::verdicts::failed_step).
//! Must not look at tool calls.

use super::actions::{ACTIONS, Action};
use super::phrases::lang::Phrases;
use super::phrases::steps::{ACTION_WORDS, NEGATIONS, RESULT_WORDS, RUSSIAN_RESULT_WORDS, VERIFIED_WORDS};
use super::sentences::sentences;
use crate::evidence::shell::simple_commands;

/// The first sentence of `n` that names one of `subjects` and claims a
/// result, not taken back: with a [`RESULT_WORDS`] word, or with an
/// [`ACTION_WORDS`] word when it quotes the step's command `line`.
pub(crate) fn claimed_in_sentence<'a>(
    n: &'a str,
    subjects: &[String],
    line: &str,
    done_before: &[String],
) -> Option<&'a str> {
    sentences(n).find(|s| {
        (names_subject(s, subjects) && (claims_result(s) || (claims_action(s) && quotes_command(s, line))))
            || claims_own_verb(s, line, done_before)
    })
}

/// Whether sentence `s` names one of `subjects`: a file name in it (or a
/// document's stem, six letters or more, as a word: "README обновлён" of
/// `README.md`, "updated the changelog"), or a word whole (six letters or
/// more: one that starts the other, `regenerate` of `regenerated`).
pub(crate) fn names_subject(s: &str, subjects: &[String]) -> bool {
    let words: Vec<&str> = s
        .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_')
        .collect();
    subjects.iter().any(|subject| {
        if subject.contains('.') {
            s.contains(subject.as_str()) || doc_stem(subject).is_some_and(|stem| words.contains(&stem))
        } else {
            words.iter().any(|w| {
                w == subject
                    || (subject.len() >= 6
                        && (w.starts_with(subject.as_str()) || subject.starts_with(*w))
                        && w.len() >= 6)
            })
        }
    })
}

/// The subcommands of `line`: the first two words after each program that
/// are not options (`gh pr merge` gives `pr` and `merge`), lower case.
pub(crate) fn subcommands_of(line: &str) -> Vec<String> {
    simple_commands(line)
        .iter()
        .flat_map(|c| {
            c.words
                .iter()
                .skip(1)
                .filter(|w| !w.starts_with('-'))
                .take(2)
                .map(|w| w.to_lowercase())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether sentence `s` says, not taking it back, that a subcommand of
/// `line` was done, in that subcommand's own past tense ([`Action::past`]:
/// "Fetched all remotes" of `git fetch --all`, "Installed the plugins" of
/// `npm install -D …`),
/// when no earlier successful step ran that subcommand (`done_before`).
fn claims_own_verb(s: &str, line: &str, done_before: &[String]) -> bool {
    let words: Vec<&str> = s.split(|c: char| !c.is_alphanumeric()).collect();
    // the last command of the line is the one whose exit status the host
    // recorded (`git commit … && git push`: the push failed, not the commit)
    let last = simple_commands(line)
        .last()
        .map(|c| c.words.join(" "))
        .unwrap_or_default();
    let subcommands = subcommands_of(&last);
    ACTIONS.iter().any(|Action { sub, past, .. }| {
        subcommands.iter().any(|c| c == sub)
            && !done_before.iter().any(|d| d == sub)
            && past
                .iter()
                .any(|p| if p.is_ascii() { words.contains(p) } else { s.contains(p) })
    }) && !negated(s)
}

/// The stem of a document's file name that an answer may name it by: one
/// dot, a documentation extension, six letters or more (`readme` of
/// `readme.md`, `changelog` of `changelog.md`; not `config` of `config.ts`,
/// nor of `config.test.ts`).
pub(crate) fn doc_stem(name: &str) -> Option<&str> {
    let (stem, ext) = name.split_once('.')?;
    (matches!(ext, "md" | "markdown" | "rst" | "txt" | "adoc")
        && stem.chars().count() >= 6
        && stem.chars().all(char::is_alphabetic))
    .then_some(stem)
}

/// Whether sentence `s` quotes the command `line` it claims: a quoted span
/// (`` `cargo install cross --locked` ``, normalised to `'…'`) whose words all
/// stand in the line in that order, of two words or more, or one word that is
/// a program the line runs (`` `shellcheck` ``).
fn quotes_command(s: &str, line: &str) -> bool {
    let line = line.to_lowercase();
    let line_words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`'))
        .filter(|w| !w.is_empty())
        .collect();
    let programs: Vec<String> = simple_commands(&line)
        .iter()
        .filter_map(|c| c.words.first().map(|p| p.rsplit('/').next().unwrap_or(p).to_owned()))
        .collect();
    s.split('\'').skip(1).step_by(2).take(32).any(|span| {
        let words: Vec<&str> = span.split_whitespace().collect();
        match words.as_slice() {
            [] => false,
            [one] => programs.iter().any(|p| p == one),
            _ => {
                let mut rest = line_words.iter();
                words.iter().all(|w| rest.any(|l| l == w))
            }
        }
    })
}

/// Whether a sentence claims what an action did and does not take it back.
pub(crate) fn claims_action(s: &str) -> bool {
    claims_with(s, ACTION_WORDS)
}

/// Whether a sentence claims a result and does not take it back: a
/// [`RESULT_WORDS`] phrase, or a [`RUSSIAN_RESULT_WORDS`] word whole.
pub(crate) fn claims_result(s: &str) -> bool {
    let russian = || {
        s.split(|c: char| !c.is_alphanumeric())
            .any(|w| RUSSIAN_RESULT_WORDS.contains(&w))
    };
    claims_with(s, RESULT_WORDS) || (russian() && !negated(s))
}

/// Whether sentence `s` holds one of `words` and no negation ("instead of the
/// raw dump" contrasts; it takes nothing back).
/// Whether a sentence says a check was made and came out right, not taking
/// it back ([`VERIFIED_WORDS`]).
pub(crate) fn claims_verified(s: &str) -> bool {
    claims_with(s, VERIFIED_WORDS)
}

fn claims_with(s: &str, words: Phrases) -> bool {
    let s = s.replace("instead of", " ");
    words.iter().any(|r| s.contains(r)) && !negated(&s)
}

/// Whether sentence `s` holds a [`NEGATIONS`] word (whole, for the padded
/// Russian " не ").
pub(crate) fn negated(s: &str) -> bool {
    let padded = format!(" {} ", s.replace(|c: char| !c.is_alphanumeric() && c != '\'', " "));
    NEGATIONS
        .iter()
        .any(|x| s.contains(x) || (x.starts_with(' ') && padded.contains(x)))
}
