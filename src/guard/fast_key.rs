//! The dedupe key in one pass, for text that needs no normalizer.
//!
//! Owns [`normalize_fast`]: the same key as
//! [`normalize_note_spec`](super::normalize_note_spec), written straight into
//! one `String` without the intermediate strings of the plain definition.
//! It applies only when every character is already NFKC-stable and so is its
//! lowercase: then both NFKC passes of the definition are the identity, and
//! what is left — drop invisible characters, lowercase, split words, fold
//! look-alikes — is done here character by character. ASCII bytes take a
//! branch of their own. Anything else makes it give up (`None`), and the
//! caller takes the plain definition. Must not memoise anything: every note
//! is keyed from its own text.

use unicode_normalization::char::{canonical_combining_class, is_combining_mark};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

use super::confusable::fold_word;
use crate::invisible::is_invisible;

/// Whether `c` is left unchanged by NFKC whatever surrounds it: a starter
/// (combining class 0) whose NFKC quick-check value is Yes — it has no
/// compatibility or canonical decomposition and cannot compose with what
/// precedes it. A string of such characters is in NFKC.
fn nfkc_stable(c: char) -> bool {
    canonical_combining_class(c) == 0 && is_nfkc_quick(std::iter::once(c)) == IsNormalized::Yes
}

/// The lowercase of a non-ASCII `c` when `c` and its (single-character)
/// lowercase are both NFKC-stable.
fn stable_lowercase(c: char) -> Option<char> {
    if !nfkc_stable(c) {
        return None;
    }
    let mut lower = c.to_lowercase();
    let l = lower.next()?;
    if lower.next().is_some() || (l != c && !nfkc_stable(l)) {
        return None;
    }
    Some(l)
}

/// The key being written: the output and where its current word began.
struct KeyWriter {
    out: String,
    word_start: usize,
    in_word: bool,
    word_has_non_ascii: bool,
}

impl KeyWriter {
    fn begin_word(&mut self) {
        if !self.in_word {
            if !self.out.is_empty() {
                self.out.push(' ');
            }
            self.word_start = self.out.len();
            self.in_word = true;
        }
    }

    fn end_word(&mut self) {
        if self.in_word && self.word_has_non_ascii {
            if let Some(folded) = fold_word(&self.out[self.word_start..]) {
                self.out.truncate(self.word_start);
                self.out.extend(folded.nfkc());
            }
        }
        self.in_word = false;
        self.word_has_non_ascii = false;
    }
}

/// [`normalize_note_spec`](super::normalize_note_spec) of `text`, or `None`
/// when `text` holds a character the one-pass writer does not handle (one
/// NFKC or lowercasing would change).
pub(super) fn normalize_fast(text: &str) -> Option<String> {
    let mut w = KeyWriter {
        out: String::with_capacity(text.len()),
        word_start: 0,
        in_word: false,
        word_has_non_ascii: false,
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            i += 1;
            if b.is_ascii_alphanumeric() {
                w.begin_word();
                w.out.push(char::from(b.to_ascii_lowercase()));
            } else {
                w.end_word();
            }
            continue;
        }
        let c = text.get(i..)?.chars().next()?;
        i += c.len_utf8();
        if is_invisible(c) {
            continue;
        }
        let l = stable_lowercase(c)?;
        if l.is_alphanumeric() {
            w.begin_word();
            w.out.push(l);
            w.word_has_non_ascii = true;
        } else if w.in_word && is_combining_mark(l) {
            w.out.push(l);
            w.word_has_non_ascii = true;
        } else {
            w.end_word();
        }
    }
    w.end_word();
    Some(w.out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::normalize_note_spec;

    #[test]
    fn agrees_with_the_definition_where_it_applies_and_declines_elsewhere() {
        for s in [
            "the join — drops refunds",
            "Überprüfung der Summen",
            "kiểm tra lại bộ lọc ngày",
            "注文テーブルの結合",
            "p\u{430}ssword \u{43f}\u{430}\u{440}\u{43e}\u{43b}\u{44c}",
            "a\u{200B}b \u{E0041}c",
        ] {
            assert_eq!(
                normalize_fast(s).as_deref(),
                Some(normalize_note_spec(s).as_str()),
                "{s:?}"
            );
        }
        for s in ["ＳＴＯＰ", "ℌalt", "Cafe\u{301}", "\u{130}"] {
            assert_eq!(normalize_fast(s), None, "{s:?}");
        }
    }
}
