//! The dedupe key in one pass, for text that needs no normalizer.
//!
//! Owns [`normalize_fast`]: the same key as
//! [`normalize_note_spec`](super::normalize_note_spec), written straight into
//! one `String` without the intermediate strings of the plain definition.
//! It applies only when every character is already NFKC-stable and so is its
//! lowercase: then both NFKC passes of the definition are the identity, and
//! what is left — drop invisible characters, lowercase, split words, fold
//! look-alikes — is done here character by character. ASCII bytes take a
//! branch of their own, a run of letters and digits at a time. What the pass
//! needs to know of a non-ASCII character below U+4000 is looked up in a
//! table of character properties ([`props`]), filled the first time each
//! character is seen. Anything else makes it give up (`None`), and the
//! caller takes the plain definition. Must not memoise anything of a note:
//! every note is keyed from its own text (the table holds properties of
//! characters, the same for every note).

use std::sync::atomic::{AtomicU32, Ordering};

use unicode_normalization::char::{canonical_combining_class, is_combining_mark};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};
use unicode_script::{Script, UnicodeScript};

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

/// What the one-pass writer does with a non-ASCII character, and the
/// script class of its lowercase (see [`Props`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Action {
    /// Invisible: dropped from the key.
    Vanish,
    /// Not NFKC-stable, or its lowercase is not: the plain definition decides.
    GiveUp,
    /// A letter or digit: its lowercase joins the word.
    Word,
    /// A combining mark: joins a word, else separates.
    Mark,
    /// Anything else separates words.
    Separate,
}

/// A non-ASCII character's [`Action`], its lowercase, and whether that
/// lowercase is a Latin letter or of another script than Latin, Common and
/// Inherited — what [`fold_word`] looks at. Packed into a `u32` for the
/// table: 0 means "not looked up yet".
#[derive(Clone, Copy)]
struct Props(u32);

impl Props {
    const LATIN: u32 = 1 << 3;
    const OTHER_SCRIPT: u32 = 1 << 4;

    fn of(c: char) -> Props {
        if is_invisible(c) {
            return Props(1);
        }
        let Some(l) = stable_lowercase(c) else {
            return Props(2);
        };
        let action = if l.is_alphanumeric() {
            3
        } else if is_combining_mark(l) {
            4
        } else {
            5
        };
        let script = match l.script() {
            _ if l.is_ascii() => u32::from(l.is_ascii_alphabetic()) * Props::LATIN,
            Script::Latin => Props::LATIN,
            Script::Common | Script::Inherited => 0,
            _ => Props::OTHER_SCRIPT,
        };
        Props(action | script | (u32::from(l) << 8))
    }

    fn action(self) -> Action {
        match self.0 & 7 {
            1 => Action::Vanish,
            3 => Action::Word,
            4 => Action::Mark,
            5 => Action::Separate,
            _ => Action::GiveUp,
        }
    }

    fn lowercase(self) -> char {
        char::from_u32(self.0 >> 8).unwrap_or(char::REPLACEMENT_CHARACTER)
    }
}

/// Characters below this have their [`Props`] kept in [`PROPS`]: Latin,
/// Greek, Cyrillic, the scripts of South and Southeast Asia, punctuation,
/// kana.
const TABLE_CHARS: usize = 0x4000;

/// [`Props`] of the characters below [`TABLE_CHARS`], 0 until first seen.
/// Each entry is a pure function of its character, so whichever thread
/// fills it writes the same value.
static PROPS: [AtomicU32; TABLE_CHARS] = [const { AtomicU32::new(0) }; TABLE_CHARS];

/// [`Props::of`] `c`, from the table when it is there.
fn props(c: char) -> Props {
    let Some(slot) = PROPS.get(c as usize) else {
        return Props::of(c);
    };
    match slot.load(Ordering::Relaxed) {
        0 => {
            let p = Props::of(c);
            slot.store(p.0, Ordering::Relaxed);
            p
        }
        v => Props(v),
    }
}

/// The key being written, and what is known of its current word.
struct KeyWriter {
    /// UTF-8, pushed a whole character at a time.
    out: Vec<u8>,
    word_start: usize,
    in_word: bool,
    /// The word holds a Latin letter (or may: every ASCII run counts).
    word_latin: bool,
    /// The word holds a character of another script than Latin, Common and
    /// Inherited. [`fold_word`] can change a word only when both hold.
    word_other: bool,
}

impl KeyWriter {
    fn begin_word(&mut self) {
        if !self.in_word {
            if !self.out.is_empty() {
                self.out.push(b' ');
            }
            self.word_start = self.out.len();
            self.in_word = true;
        }
    }

    fn push_char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }

    /// Appends the run of ASCII letters and digits that `bytes` begins
    /// with to the current word, lowercased; returns its length.
    fn push_ascii_run(&mut self, bytes: &[u8]) -> usize {
        let mut n = 0;
        for &b in bytes {
            match ASCII_WORD[usize::from(b)] {
                SEPARATOR | CONTROL => break,
                lower => self.out.push(lower),
            }
            n += 1;
        }
        self.word_latin = true;
        n
    }

    /// Appends the lowercase of a character of the current word.
    fn push(&mut self, p: Props) {
        self.push_char(p.lowercase());
        self.word_latin |= p.0 & Props::LATIN != 0;
        self.word_other |= p.0 & Props::OTHER_SCRIPT != 0;
    }

    #[inline]
    fn end_word(&mut self) {
        if self.in_word && self.word_latin && self.word_other {
            self.fold_word();
        }
        self.in_word = false;
        self.word_latin = false;
        self.word_other = false;
    }

    /// Folds the look-alike letters of the current word ([`fold_word`]).
    #[cold]
    fn fold_word(&mut self) {
        let word = self.out.get(self.word_start..).unwrap_or_default();
        if let Some(folded) = std::str::from_utf8(word).ok().and_then(fold_word) {
            self.out.truncate(self.word_start);
            let folded: String = folded.nfkc().collect();
            self.out.extend_from_slice(folded.as_bytes());
        }
    }
}

/// [`ASCII_WORD`] value of a separator.
const SEPARATOR: u8 = 0;
/// [`ASCII_WORD`] value of a control character delivered text must not hold
/// (C0 other than tab and newline, DEL); for the key it is a separator.
const CONTROL: u8 = 1;

/// For each ASCII byte: its lowercase when it is a letter or digit, else
/// [`SEPARATOR`] or [`CONTROL`] (non-ASCII bytes: [`SEPARATOR`]; they are
/// never looked up).
const ASCII_WORD: [u8; 256] = {
    let mut t = [SEPARATOR; 256];
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
    // the key is never longer than the text: written by index into a
    // buffer of the text's length, then cut to what was written
    let mut out = vec![0u8; text.len()];
    let mut len = 0;
    let mut pending_space = false;
    for &b in text.as_bytes() {
        match ASCII_WORD[usize::from(b)] {
            CONTROL if removable == Removable::Refuse => return None,
            SEPARATOR | CONTROL => pending_space = len > 0,
            lower => {
                if pending_space {
                    *out.get_mut(len)? = b' ';
                    len += 1;
                    pending_space = false;
                }
                *out.get_mut(len)? = lower;
                len += 1;
            }
        }
    }
    out.truncate(len);
    String::from_utf8(out).ok()
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
        word_latin: false,
        word_other: false,
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            match ASCII_WORD[usize::from(b)] {
                CONTROL if removable == Removable::Refuse => return None,
                SEPARATOR | CONTROL => {
                    w.end_word();
                    i += 1;
                }
                _ => {
                    w.begin_word();
                    i += w.push_ascii_run(bytes.get(i..).unwrap_or_default());
                }
            }
            continue;
        }
        let c = text.get(i..)?.chars().next()?;
        i += c.len_utf8();
        if CJK_UNIFIED.contains(&c) {
            w.begin_word();
            w.push_char(c);
            w.word_other = true;
            continue;
        }
        if removable == Removable::Refuse && c <= '\u{9F}' {
            return None; // a C1 control
        }
        let p = props(c);
        match p.action() {
            Action::Vanish if removable == Removable::Refuse => return None,
            Action::Vanish => {}
            Action::GiveUp => return None,
            Action::Word => {
                w.begin_word();
                w.push(p);
            }
            Action::Mark if w.in_word => w.push(p),
            Action::Mark | Action::Separate => w.end_word(),
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
    fn every_character_of_the_table_keys_as_the_definition() {
        for c in ('\u{80}'..=char::from_u32(TABLE_CHARS as u32 - 1).unwrap_or('\u{80}')).chain(['\u{10400}']) {
            for s in [format!("x{c}y {c}"), format!("p{c}ss \u{43f}{c}")] {
                if let Some(key) = normalize_fast(&s, Removable::Key) {
                    assert_eq!(key, normalize_note_spec(&s), "{c:?}");
                }
            }
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
