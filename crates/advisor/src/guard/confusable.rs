//! Folding of look-alike letters inside Latin words, for the dedupe key only.
//!
//! Owns [`fold_word`]: in a word that is otherwise Latin, a letter of another
//! script that Unicode's confusables data (UTS #39, via `unicode-security`)
//! maps to one ASCII letter is replaced by that letter, so "pаssword" with a
//! Cyrillic `а` shares a key with "password". Latin letters (ASCII above all)
//! are never changed — there is no `m` → `rn` style folding — so keys stay
//! readable and keys made before this rule stay valid. A word with no Latin
//! letter (a note wholly in Cyrillic, Greek or CJK) is left as it is. Must not
//! touch delivered text: what the agent reads is the reviewer's own letters.

use unicode_script::{Script, UnicodeScript};

/// The ASCII letter (lowercase) a non-Latin letter is confusable with, when
/// its UTS #39 prototype is exactly one ASCII letter.
fn latin_lookalike(c: char) -> Option<char> {
    let mut buf = [0u8; 4];
    let mut proto = unicode_security::skeleton(c.encode_utf8(&mut buf));
    let first = proto.next()?;
    if proto.next().is_some() || !first.is_ascii_alphabetic() {
        return None;
    }
    Some(first.to_ascii_lowercase())
}

/// Whether `c` is of the Latin script ([`Kind::Latin`]).
fn is_latin_letter(c: char) -> bool {
    c.is_ascii_alphabetic() || (!c.is_ascii() && c.script() == Script::Latin)
}

/// What one character of a word is, for the "otherwise Latin" test.
enum Kind {
    /// A Latin-script letter (or ASCII letter).
    Latin,
    /// A character of no particular script: a digit, a combining mark.
    Neutral,
    /// A letter of another script that looks like this ASCII letter.
    Lookalike(char),
    /// Anything else: the word is not a Latin word.
    Foreign,
}

fn kind(c: char) -> Kind {
    if c.is_ascii() {
        return if c.is_ascii_alphabetic() {
            Kind::Latin
        } else {
            Kind::Neutral
        };
    }
    match c.script() {
        Script::Latin => Kind::Latin,
        Script::Common | Script::Inherited => Kind::Neutral,
        _ => latin_lookalike(c).map_or(Kind::Foreign, Kind::Lookalike),
    }
}

/// The word with its look-alike letters folded to ASCII, when `word` is an
/// otherwise Latin word (at least one Latin letter, every other character a
/// digit, a mark or a look-alike) that holds at least one look-alike; `None`
/// when nothing changes. `word` is a run of word characters of an already
/// lowercased key.
///
/// ```text
/// assert_eq!(fold_word("pаss").as_deref(), Some("pass")); // Cyrillic а
/// assert_eq!(fold_word("пароль"), None);
/// ```
pub(crate) fn fold_word(word: &str) -> Option<String> {
    if word.is_ascii() || !word.chars().any(is_latin_letter) {
        return None;
    }
    let mut latin = false;
    let mut lookalike = false;
    for c in word.chars() {
        match kind(c) {
            Kind::Latin => latin = true,
            Kind::Neutral => {}
            Kind::Lookalike(_) => lookalike = true,
            Kind::Foreign => return None,
        }
    }
    if !(latin && lookalike) {
        return None;
    }
    Some(
        word.chars()
            .map(|c| match kind(c) {
                Kind::Lookalike(a) => a,
                _ => c,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookalikes_fold_only_inside_latin_words() {
        assert_eq!(fold_word("p\u{430}ss").as_deref(), Some("pass")); // Cyrillic а
        assert_eq!(fold_word("l\u{3bf}\u{3bf}k").as_deref(), Some("look")); // Greek ο
        assert_eq!(fold_word("\u{43f}\u{430}\u{440}\u{43e}\u{43b}\u{44c}"), None); // пароль
        assert_eq!(fold_word("\u{441}\u{43e}\u{440}"), None); // сор: all look-alikes, no Latin letter
        assert_eq!(fold_word("modern"), None); // ASCII never changes
        assert_eq!(fold_word("t\u{1ed5}ng"), None); // Vietnamese is Latin
    }
}
