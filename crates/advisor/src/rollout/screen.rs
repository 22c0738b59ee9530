//! Hint screening: does a hint carry privileged *content* rather than
//! *direction*?
//!
//! Owns [`screen_hint`]. A hint fails when it contains, and the public task or
//! history does not: a privileged file's path, basename or stem (S1); a
//! code-like identifier from the privileged files (S2, names with `_`, digits
//! or inner capitals, such as a hidden test's name); a quoted literal or a
//! number of three or more characters from them (S3); any 8-word span copied
//! from them (S4); or talk of hidden tests, reference solutions, graders or
//! expected outputs (S7). Whatever the solver can already see is never a leak.
//! Violations are recorded by check and a hash of the match, never the text,
//! so a shared trace does not become a second leak. Must not decide delivery.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use crate::trace::short_hash;

/// Which check a hint failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScreenCheck {
    /// S1: a privileged path, basename or stem.
    Path,
    /// S2: a code-like identifier from privileged files.
    Identifier,
    /// S3: a literal or number from privileged files.
    Literal,
    /// S4: an 8-word span copied from privileged files.
    Verbatim,
    /// S7: talk of hidden tests, reference solutions, graders.
    Meta,
}

/// One failed check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Violation {
    /// The check.
    pub check: ScreenCheck,
    /// FNV-1a hash of the matched text (the text itself is never kept).
    pub excerpt_hash: String,
}

/// The outcome of screening one hint.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ScreenResult {
    /// Whether the hint may be delivered.
    pub passed: bool,
    /// What it failed.
    pub violations: Vec<Violation>,
}

fn fold(s: &str) -> String {
    s.nfkc().flat_map(char::to_lowercase).collect()
}

/// Word tokens (letters, digits, `_`), folded.
fn words(s: &str) -> Vec<String> {
    fold(s)
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Identifiers that look like code, in their original case.
fn code_identifiers(s: &str) -> HashSet<String> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().count() >= 4 && w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_'))
        .filter(|w| {
            w.contains('_')
                || w.chars().any(|c| c.is_ascii_digit())
                || w.chars().skip(1).any(char::is_uppercase) && w.chars().any(char::is_lowercase)
        })
        .map(fold)
        .collect()
}

/// Quoted literals (4+ chars) and numbers (3+ chars).
fn literals(s: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    for q in ['"', '\''] {
        // the odd parts of a split on the quote are what it encloses
        for p in s.split(q).skip(1).step_by(2) {
            if p.chars().count() >= 4 && !p.contains('\n') {
                out.insert(fold(p));
            }
        }
    }
    for w in s.split(|c: char| !(c.is_ascii_digit() || c == '.')) {
        let w = w.trim_matches('.');
        if w.len() >= 3 && w.chars().any(|c| c.is_ascii_digit()) {
            out.insert(w.to_owned());
        }
    }
    out
}

fn ngrams(tokens: &[String], n: usize) -> HashSet<String> {
    tokens.windows(n).map(|w| w.join(" ")).collect()
}

const META: &[&str] = &[
    "hidden test",
    "reference solution",
    "reference implementation",
    "the grader",
    "ground truth",
    "expected output",
];

/// What a hint is screened against.
#[derive(Debug, Clone, Copy)]
pub struct ScreenInput<'a> {
    /// Privileged `(path, text)` files.
    pub privileged: &'a [(&'a str, &'a str)],
    /// Public texts: the task and the history.
    pub visible: &'a [&'a str],
}

/// Screens `hint` against privileged `(path, text)` files and the `visible`
/// texts (public task and history).
pub fn screen_hint(hint: &str, privileged: &[(&str, &str)], visible: &[&str]) -> ScreenResult {
    let hint_folded = fold(hint);
    let visible_folded: Vec<String> = visible.iter().map(|v| fold(v)).collect();
    let seen = |needle: &str| visible_folded.iter().any(|v| v.contains(needle));
    let hint_words = words(hint);
    let hint_word_set: HashSet<&str> = hint_words.iter().map(String::as_str).collect();
    let mut violations = Vec::new();
    let mut flag = |check: ScreenCheck, text: &str| {
        violations.push(Violation {
            check,
            excerpt_hash: short_hash(text),
        })
    };

    // S1: paths, basenames, stems
    for (path, _) in privileged {
        let p = fold(path);
        let base = p.rsplit('/').next().unwrap_or(&p).to_owned();
        let stem = base.split('.').next().unwrap_or(&base).to_owned();
        for candidate in [p.clone(), base.clone(), stem] {
            if candidate.chars().count() < 4 || seen(&candidate) {
                continue;
            }
            let hit = if candidate.contains(['/', '.']) {
                hint_folded.contains(&candidate)
            } else {
                hint_word_set.contains(candidate.as_str())
            };
            if hit {
                flag(ScreenCheck::Path, &candidate);
                break;
            }
        }
    }
    // S2 and S3: identifiers and literals only the privileged files hold
    let visible_idents: HashSet<String> = visible.iter().flat_map(|v| code_identifiers(v)).collect();
    let visible_literals: HashSet<String> = visible.iter().flat_map(|v| literals(v)).collect();
    let hint_idents = code_identifiers(hint);
    let hint_literals = literals(hint);
    for (_, text) in privileged {
        for id in code_identifiers(text) {
            if hint_idents.contains(&id) && !visible_idents.contains(&id) && !seen(&id) {
                flag(ScreenCheck::Identifier, &id);
            }
        }
        for lit in literals(text) {
            let in_hint = hint_literals.contains(&lit) || (lit.chars().count() >= 6 && hint_folded.contains(&lit));
            if in_hint && !visible_literals.contains(&lit) && !seen(&lit) {
                flag(ScreenCheck::Literal, &lit);
            }
        }
    }
    // S4: copied 8-word spans
    let hint_8 = ngrams(&hint_words, 8);
    if !hint_8.is_empty() {
        let visible_8: HashSet<String> = visible.iter().flat_map(|v| ngrams(&words(v), 8)).collect();
        for (_, text) in privileged {
            for g in ngrams(&words(text), 8).intersection(&hint_8) {
                if !visible_8.contains(g) {
                    flag(ScreenCheck::Verbatim, g);
                }
            }
        }
    }
    // S7: meta talk
    for m in META {
        if hint_folded.contains(m) {
            flag(ScreenCheck::Meta, m);
        }
    }
    violations.sort_by(|a, b| (a.check as u8, &a.excerpt_hash).cmp(&(b.check as u8, &b.excerpt_hash)));
    violations.dedup();
    ScreenResult {
        passed: violations.is_empty(),
        violations,
    }
}
