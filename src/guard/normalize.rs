//! The dedupe key of a note, the content-free phrase list, and the cleaning of
//! delivered text.
//!
//! Owns [`normalize_note`] — part of the observable contract, since the key is
//! reported by `advisor replay` and stored in checkpoints — and
//! [`strip_controls`]. Must not keep state; the guard does that.

use crate::invisible::is_invisible;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Letters, digits and combining marks are word characters; everything else
/// separates words.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// The dedupe key of a note: what a reader would consider "the same words".
///
/// Steps: default-ignorable code points removed → NFKC → lowercase (per
/// character, so it does not depend on context) → NFKC again; letters, digits
/// and combining marks are kept, every other run of characters becomes one
/// space; leading and trailing separators are dropped. The function is
/// idempotent.
///
/// ```
/// use advisor::guard::normalize_note;
/// assert_eq!(normalize_note("*Stop!*"), "stop");
/// assert_eq!(normalize_note("ＳＴＯＰ"), "stop");
/// assert_eq!(normalize_note("S\u{200B}top"), "stop");
/// assert_eq!(normalize_note("ℌalt"), "halt");
/// assert_eq!(normalize_note("run_sql returned 0 rows"), "run sql returned 0 rows");
/// ```
pub fn normalize_note(text: &str) -> String {
    let folded: String = text
        .chars()
        .filter(|c| !is_invisible(*c))
        .nfkc()
        .flat_map(char::to_lowercase)
        .nfkc()
        .collect();
    let mut out = String::with_capacity(folded.len());
    let mut pending_space = false;
    for c in folded.chars() {
        if is_word_char(c) {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.push(c);
        } else {
            pending_space = true;
        }
    }
    out
}

/// Normalized keys that carry no content: a reviewer saying "stop", "done",
/// "LGTM" or "no issues" is expressing silence, and silence is expressed by
/// returning no notes. Matching is by exact key, never by prefix, so
/// "Stop: the revenue query double-counts refunds" survives.
pub const CONTENT_FREE_PHRASES: [&str; 36] = [
    // self-stop
    "stop",
    "stop here",
    "stop now",
    "halt",
    "abort",
    // completion talk
    "done",
    "task done",
    "task complete",
    "complete",
    "finished",
    "ok",
    "okay",
    "ok done",
    // nothing to flag
    "no issue",
    "no issues",
    "no issue continue",
    "no concerns",
    "no concern",
    "nothing to add",
    "nothing to flag",
    "nothing to report",
    "no notes",
    "no further input",
    "no further input needed",
    "no further advice",
    "no further advice needed",
    // endorsements
    "lgtm",
    "looks good",
    "all good",
    "on track",
    "agent on track",
    "agent is on track",
    "continue",
    "carry on",
    "no action needed",
    "no changes needed",
];

/// Whether a normalized key is one of the [`CONTENT_FREE_PHRASES`].
pub fn is_content_free(key: &str) -> bool {
    CONTENT_FREE_PHRASES.contains(&key)
}

/// Whether `c` must never reach the agent inside a note: C0 controls other
/// than newline and tab, DEL, C1 controls, bidi embeddings / overrides /
/// isolates and marks, and zero-width characters.
fn is_stripped_control(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}' => true,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' => true,
        '\u{2060}'..='\u{2069}' | '\u{FEFF}' => true,
        _ => false,
    }
}

/// Removes control, bidi and zero-width characters from text that will be
/// delivered to the agent, so a note cannot hide or reorder what it says.
///
/// ```
/// assert_eq!(advisor::guard::strip_controls("a\u{202E}b\u{7}c\nd"), "abc\nd");
/// ```
pub fn strip_controls(text: &str) -> String {
    text.chars().filter(|c| !is_stripped_control(*c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn design_examples_fold_as_a_reader_expects() {
        assert_eq!(normalize_note("ℌalt"), "halt");
        assert_eq!(normalize_note("S\u{200B}top"), "stop");
        assert_eq!(normalize_note("ＳＴＯＰ"), "stop");
        // decomposed and precomposed accents share a key
        assert_eq!(normalize_note("Cafe\u{301} menu"), normalize_note("Café menu"));
        assert_eq!(normalize_note("Cafe\u{301} menu"), "café menu");
        // a combining mark does not split a word
        assert!(!normalize_note("nai\u{308}ve").contains(' '));
        // soft hyphen and word joiner are invisible
        assert_eq!(normalize_note("LG\u{AD}TM\u{2060}"), "lgtm");
    }

    #[test]
    fn every_phrase_is_already_a_key() {
        for p in CONTENT_FREE_PHRASES {
            assert_eq!(normalize_note(p), p);
            assert!(is_content_free(p));
        }
        assert!(!is_content_free("stop the revenue query"));
    }
}
