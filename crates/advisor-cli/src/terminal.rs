//! Escaping untrusted text before it reaches a terminal.
//!
//! Every human-readable output of the CLI follows the library's one display
//! rule ([`advisor::invisible::escape_line`]): a character that can move the
//! cursor, repaint or hide text, or reorder it — C0 and C1 controls (`\r`,
//! `ESC`, CSI…), DEL, line and paragraph separators, bidi controls and every
//! other invisible character — is printed as a visible escape (`\r`,
//! `\u{1b}`), never raw. This file owns the CLI's uses of it ([`line`],
//! [`fail`] with its length cap) and [`json`], which does the same for JSON
//! output while keeping it valid JSON with the same value. Must not decide
//! what is printed.

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;
use std::process::ExitCode;

use advisor::invisible::{display_line, escape_line, is_hidden_or_control as dangerous};

/// Longest line of a message the CLI writes for a person (stderr, a hook's
/// `systemMessage`), in characters after escaping.
pub(crate) const MAX_MESSAGE_CHARS: usize = 2_000;

/// At most `max_chars` characters of `s`, cut at a character boundary.
pub(crate) fn clamp(s: &str, max_chars: usize) -> &str {
    s.char_indices().nth(max_chars).map_or(s, |(i, _)| &s[..i])
}

/// `s` for one line of output: every control character, newline included,
/// and every invisible character escaped ([`escape_line`]).
pub(crate) fn line(s: &str) -> Cow<'_, str> {
    escape_line(s)
}

/// `s` as one message line for a person: escaped as [`line`] and cut to
/// [`MAX_MESSAGE_CHARS`] ([`display_line`]). Every stderr line and every
/// `systemMessage` of the CLI goes through it.
pub(crate) fn message(s: &str) -> String {
    display_line(s, MAX_MESSAGE_CHARS)
}

/// Stderr for the log (`ADVISOR_LOG`): each line of what is written goes
/// through [`message`], so a log line carrying repository text (a path, a
/// server's words) shows no invisible or control character either.
pub(crate) struct CleanStderr;

impl CleanStderr {
    /// Writes `buf`, line by line through [`message`], to `out`.
    fn write_to(out: &mut impl std::io::Write, buf: &[u8]) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(buf);
        for l in text.split_terminator('\n') {
            writeln!(out, "{}", message(l))?;
        }
        Ok(())
    }
}

impl std::io::Write for CleanStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        CleanStderr::write_to(&mut std::io::stderr().lock(), buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// A path for one line of output, escaped as [`line`].
pub(crate) fn show(p: &Path) -> String {
    line(&p.display().to_string()).into_owned()
}

/// How a command ends: `Err` is a failure [`fail`] has already reported.
pub(crate) type Exit = Result<ExitCode, ExitCode>;

/// Says `advisor <command>: <msg>` on stderr, escaped as one [`line`], and
/// gives the exit status `code`.
pub(crate) fn fail(command: &str, code: u8, msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("{}", message(&format!("advisor {command}: {msg}")));
    ExitCode::from(code)
}

/// A JSON text for a terminal: raw characters [`line`] would escape (C1
/// controls, separators, bidi and other invisible characters, which
/// `serde_json` leaves raw inside strings) become `\uXXXX` escapes, so the
/// JSON stays valid and means the same.
pub(crate) fn json(text: &str) -> Cow<'_, str> {
    if !text.chars().any(dangerous_in_json) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if dangerous_in_json(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                let _ = write!(out, "\\u{u:04x}");
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// What `serde_json` leaves raw but a terminal would act on. (`\n` between
/// tokens of pretty output is layout; inside strings serde_json escapes it.)
fn dangerous_in_json(c: char) -> bool {
    dangerous(c) && !matches!(c, '\n' | ' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_writer_cleans_every_line_and_keeps_line_breaks() {
        let mut out = Vec::new();
        CleanStderr::write_to(&mut out, "ERROR a\u{202E}b\u{1b}[2J\nnext\n".as_bytes()).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(out.lines().count(), 2, "{out}");
        assert!(!out.chars().any(|c| c == '\u{202E}' || c == '\u{1b}'), "{out}");
    }

    #[test]
    fn repainting_sequences_become_visible() {
        assert_eq!(line("ok\r\x1b[2Kfine\x1b[8m"), "ok\\r\\u{1b}[2Kfine\\u{1b}[8m");
        assert_eq!(
            line("a\u{9b}b\u{202e}c\u{2028}d\u{e0041}"),
            "a\\u{9b}b\\u{202e}c\\u{2028}d\\u{e0041}"
        );
        assert_eq!(line("a\nb"), "a\\nb");
        assert!(matches!(line("plain text, ünïcode"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_stays_valid_and_equal() {
        let v = serde_json::json!({"t": "a\u{9b}[2K\u{202e}b\u{e0041}\u{2028}"});
        let text = serde_json::to_string_pretty(&v).unwrap_or_default();
        let safe = json(&text);
        assert!(!safe.chars().any(dangerous_in_json), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap_or_default();
        assert_eq!(back, v);
    }
}
