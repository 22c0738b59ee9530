//! The one table of characters that render as nothing, and the one cleaner
//! for text shown to a person.
//!
//! Owns [`is_invisible`]: every `Default_Ignorable_Code_Point` (zero-width
//! characters, joiners, bidi controls, variation selectors, tag characters
//! U+E0000–U+E0FFF, the soft hyphen U+00AD) plus the interlinear annotation
//! controls U+FFF9–U+FFFB. The dedupe key, the delivered text and the strict
//! parsers all ask this one function, so what is invisible in one place is
//! invisible in all. Public because the guard's promise — no delivered note
//! or injection holds such a character — is stated in its terms, and a host
//! that shows notes needs the same table.
//!
//! Also owns the display rule built on it: [`is_hidden_or_control`] (the
//! invisible characters, C0 and C1 controls, DEL, U+2028/U+2029) and
//! [`escape_line`] / [`display_line`], which print each such character as a
//! visible escape (`\n`, `\u{202e}`) — the CLI's terminal output, its hook
//! `systemMessage` and every stderr line go through them. Must not decide
//! what is shown, only how.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` renders as nothing: a `Default_Ignorable_Code_Point` or an
/// interlinear annotation control.
///
/// ```
/// use advisor::invisible::is_invisible;
/// assert!(is_invisible('\u{200B}'));  // zero-width space
/// assert!(is_invisible('\u{E0041}')); // tag latin capital A
/// assert!(is_invisible('\u{00AD}'));  // soft hyphen
/// assert!(is_invisible('\u{FFF9}'));  // interlinear annotation anchor
/// assert!(!is_invisible('a') && !is_invisible(' '));
/// ```
pub fn is_invisible(c: char) -> bool {
    let u = c as u32;
    if u < 0xAD {
        return false;
    }
    matches!(u,
        0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5
        | 0x180B..=0x180F | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F
        | 0x3164 | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF)
}

/// Whether `c` must never reach a terminal or a host's message raw: an
/// [`is_invisible`] character, a C0 or C1 control (newline, `\r`, `ESC`,
/// CSI…), DEL, or the line and paragraph separators U+2028/U+2029. Such a
/// character can move the cursor, repaint, hide or reorder text.
///
/// ```
/// use advisor::invisible::is_hidden_or_control;
/// assert!(is_hidden_or_control('\u{202E}') && is_hidden_or_control('\u{1b}'));
/// assert!(is_hidden_or_control('\n') && is_hidden_or_control('\u{9b}'));
/// assert!(!is_hidden_or_control('é') && !is_hidden_or_control(' '));
/// ```
pub fn is_hidden_or_control(c: char) -> bool {
    c.is_control() || is_invisible(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `text` as one visible line: every [`is_hidden_or_control`] character
/// printed as an escape — `\n`, `\r`, `\t`, else `\u{hex}` — so nothing
/// can hide, repaint or reorder what a person reads. Borrowed when there is
/// nothing to escape.
///
/// ```
/// use advisor::invisible::escape_line;
/// assert_eq!(escape_line("ok\r\u{1b}[2K\u{202e}x\ny"), "ok\\r\\u{1b}[2K\\u{202e}x\\ny");
/// assert_eq!(escape_line("plain, ünïcode"), "plain, ünïcode");
/// ```
pub fn escape_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden_or_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_hidden_or_control(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`escape_line`] of `text`, at most `max_chars` characters long: a longer
/// line is cut and ends with `…` (the cut counts the escapes, so the cap
/// holds for what is shown).
///
/// ```
/// use advisor::invisible::display_line;
/// assert_eq!(display_line("abc\u{200b}def", 6), "abc\\u…");
/// assert_eq!(display_line("short", 80), "short");
/// ```
pub fn display_line(text: &str, max_chars: usize) -> String {
    let line = escape_line(text);
    match line.char_indices().nth(max_chars) {
        None => line.into_owned(),
        Some(_) => {
            let keep = max_chars.saturating_sub(1);
            let end = line.char_indices().nth(keep).map_or(line.len(), |(i, _)| i);
            format!("{}…", &line[..end])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn a_displayed_line_holds_no_hidden_or_control_character_and_respects_the_cap(
            text in "(\\PC|[\u{0}-\u{1f}\u{7f}-\u{9f}\u{200b}-\u{200f}\u{202a}-\u{202e}\u{2066}-\u{2069}\u{2028}\u{2029}\u{feff}\u{e0000}-\u{e007f}])*",
            max in 1usize..300,
        ) {
            let shown = display_line(&text, max);
            prop_assert!(!shown.chars().any(is_hidden_or_control), "{shown:?}");
            prop_assert!(shown.chars().count() <= max);
            if escape_line(&text).chars().count() <= max {
                prop_assert_eq!(shown, escape_line(&text).into_owned());
            }
        }
    }
}
