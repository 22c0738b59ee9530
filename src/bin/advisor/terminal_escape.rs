//! Escaping untrusted text for a terminal.
//!
//! Owns [`escape_for_terminal`]: control characters (C0 including `\r`, `\n`
//! and ESC, DEL, C1) and invisible characters (bidi controls, zero-width and
//! tag characters — [`advisor::invisible::is_invisible`]) are written as
//! `\u{…}` escapes, so text from a note, a trace or a tool name cannot
//! repaint, hide or reorder what a person reads. Used by the human-readable
//! output of `advisor replay`; JSON output needs none of this (JSON escapes
//! its own controls). Must not shorten or otherwise change printable text.

use std::borrow::Cow;
use std::fmt::Write as _;

use advisor::invisible::is_invisible;

fn needs_escape(c: char) -> bool {
    c.is_control() || is_invisible(c)
}

/// `s` with every control and invisible character written as `\u{hex}`;
/// borrowed when there is none.
pub(crate) fn escape_for_terminal(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if needs_escape(c) {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_invisibles_are_escaped_and_the_rest_kept() {
        assert_eq!(escape_for_terminal("plain — text"), "plain — text");
        assert_eq!(
            escape_for_terminal("a\r\u{1b}[2Kb\u{202E}c\u{E0041}"),
            "a\\u{d}\\u{1b}[2Kb\\u{202e}c\\u{e0041}"
        );
    }
}
