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

/// CJK Unified Ideographs: every one is a visible, NFKC-stable letter with
/// no case (a test checks each against the general path).
const CJK_UNIFIED: std::ops::RangeInclusive<char> = '\u{4E00}'..='\u{9FFF}';

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

/// The key being written: the output (UTF-8 bytes, pushed a whole
/// character at a time) and where its current word began.
struct KeyWriter {
    out: Vec<u8>,
    word_start: usize,
    in_word: bool,
    word_has_non_ascii: bool,
}

impl KeyWriter {
    fn push_char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }

    fn begin_word(&mut self) {
        if !self.in_word {
            if !self.out.is_empty() {
                self.out.push(b' ');
            }
            self.word_start = self.out.len();
            self.in_word = true;
        }
    }

    fn end_word(&mut self) {
        if self.in_word && self.word_has_non_ascii {
            let word = self.out.get(self.word_start..).unwrap_or_default();
            if let Some(folded) = std::str::from_utf8(word).ok().and_then(fold_word) {
                self.out.truncate(self.word_start);
                let folded: String = folded.nfkc().collect();
                self.out.extend_from_slice(folded.as_bytes());
            }
        }
        self.in_word = false;
        self.word_has_non_ascii = false;
    }
}

/// [`ASCII_WORD`] value of a separator.
const SEPARATOR: u8 = 0;
/// [`ASCII_WORD`] value of a control character delivered text must not hold
/// (C0 other than tab and newline, DEL); for the key it is a separator.
const CONTROL: u8 = 1;

/// For each ASCII byte: its lowercase when it is a letter or digit, else
/// [`SEPARATOR`] or [`CONTROL`].
const ASCII_WORD: [u8; 128] = {
    let mut t = [SEPARATOR; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            t[b] = c.to_ascii_lowercase();
        } else if (c < 0x20 && c != b'\n' && c != b'\t') || c == 0x7F {
            t[b] = CONTROL;
        }
        b += 1;
    }
    t
};

/// What the pass does with characters delivered text must not hold.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Removable {
    /// Key them as the definition does (controls separate, invisibles vanish).
    Key,
    /// Give up: the caller cleans the text first.
    Refuse,
}

/// The key of all-ASCII text: NFKC and lowercasing of ASCII are plain
/// lowercasing, nothing is invisible and nothing folds, so only the words
/// are left to split. One table lookup per byte.
fn ascii_key(text: &str, removable: Removable) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for b in text.bytes() {
        match ASCII_WORD.get(usize::from(b)).copied().unwrap_or(SEPARATOR) {
            SEPARATOR => pending_space = true,
            CONTROL if removable == Removable::Refuse => return None,
            CONTROL => pending_space = true,
            lower => {
                if pending_space && !out.is_empty() {
                    out.push(' ');
                }
                pending_space = false;
                out.push(char::from(lower));
            }
        }
    }
    Some(out)
}

/// [`normalize_note_spec`](super::normalize_note_spec) of `text`, or `None`
/// when `text` holds a character the one-pass writer does not handle (one
/// NFKC or lowercasing would change).
///
/// With [`Removable::Refuse`] it also returns `None` when `text` holds a
/// character [`strip_controls`](super::strip_controls) would remove, so that
/// one pass both checks delivered text and keys it.
pub(super) fn normalize_fast(text: &str, removable: Removable) -> Option<String> {
    if text.is_ascii() {
        return ascii_key(text, removable);
    }
    let mut w = KeyWriter {
        out: Vec::with_capacity(text.len()),
        word_start: 0,
        in_word: false,
        word_has_non_ascii: false,
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            if removable == Removable::Refuse && ASCII_WORD.get(usize::from(b)) == Some(&CONTROL) {
                return None;
            }
            if b.is_ascii_alphanumeric() {
                // a whole run of ASCII letters and digits at once
                let rest = bytes.get(i..).unwrap_or_default();
                let run = rest
                    .iter()
                    .position(|c| !c.is_ascii_alphanumeric())
                    .unwrap_or(rest.len());
                w.begin_word();
                w.out
                    .extend(rest.get(..run).unwrap_or_default().iter().map(u8::to_ascii_lowercase));
                i += run;
            } else {
                w.end_word();
                i += 1;
            }
            continue;
        }
        let c = text.get(i..)?.chars().next()?;
        i += c.len_utf8();
        if CJK_UNIFIED.contains(&c) {
            w.begin_word();
            w.push_char(c);
            w.word_has_non_ascii = true;
            continue;
        }
        if is_invisible(c) {
            if removable == Removable::Refuse {
                return None;
            }
            continue;
        }
        if removable == Removable::Refuse && c <= '\u{9F}' {
            return None; // a C1 control
        }
        let l = stable_lowercase(c)?;
        if l.is_alphanumeric() {
            w.begin_word();
            w.push_char(l);
            w.word_has_non_ascii = true;
        } else if w.in_word && is_combining_mark(l) {
            w.push_char(l);
            w.word_has_non_ascii = true;
        } else {
            w.end_word();
        }
    }
    w.end_word();
    String::from_utf8(w.out).ok()
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
                normalize_fast(s, Removable::Key).as_deref(),
                Some(normalize_note_spec(s).as_str()),
                "{s:?}"
            );
        }
        for s in ["ＳＴＯＰ", "ℌalt", "Cafe\u{301}", "\u{130}"] {
            assert_eq!(normalize_fast(s, Removable::Key), None, "{s:?}");
        }
        for s in ["a\u{7}b", "a\u{85}b", "a\u{200B}b", "x\u{E0041}", "\u{7F}"] {
            assert_eq!(normalize_fast(s, Removable::Refuse), None, "{s:?}");
            assert!(normalize_fast(s, Removable::Key).is_some(), "{s:?}");
        }
    }

    #[test]
    fn the_cjk_shortcut_is_what_the_general_path_decides() {
        for c in CJK_UNIFIED {
            assert!(!is_invisible(c) && c.is_alphanumeric(), "{c:?}");
            assert_eq!(stable_lowercase(c), Some(c), "{c:?}");
        }
    }
}
