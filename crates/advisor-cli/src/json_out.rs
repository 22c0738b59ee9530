//! Writing JSON strings and numbers straight into a buffered writer.
//!
//! Owns [`write_str`], [`write_str_contents`] and [`write_usize`], the
//! pieces `advisor replay --json` builds its lines from. Output is byte for
//! byte what `serde_json` writes (a test compares them on arbitrary
//! strings): `"` and `\` and the C0 controls are escaped (`\b \f \n \r \t`,
//! else `\u00xx`), everything else — non-ASCII included — is copied. Runs
//! that need no escape are found eight bytes at a time and copied whole.
//! Must not decide what goes into a line; replay does.

use std::io::{self, Write};

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The zero bytes of `x`, as their high bits. Exact up to the lowest zero
/// byte; bytes above it may be flagged wrongly (a borrow), which is all the
/// callers need: they look at the lowest flagged byte only.
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGH
}

/// The bytes of `x` (little-endian) that need a JSON escape, as their high
/// bits: exact for the lowest one, which is the only one looked at.
fn escape_bytes(x: u64) -> u64 {
    let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
    control | zero_bytes(x ^ (ONES * u64::from(b'"'))) | zero_bytes(x ^ (ONES * u64::from(b'\\')))
}

/// Writes the escape sequence `serde_json` writes for `b`, or `b` itself
/// when it needs none. Each sequence is a constant, so writing it into a
/// buffer is a store of its own, not a copy of unknown length.
fn write_escaped_byte(out: &mut impl Write, b: u8) -> io::Result<()> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match b {
        b'"' => out.write_all(b"\\\""),
        b'\\' => out.write_all(b"\\\\"),
        b'\n' => out.write_all(b"\\n"),
        b'\r' => out.write_all(b"\\r"),
        b'\t' => out.write_all(b"\\t"),
        0x08 => out.write_all(b"\\b"),
        0x0C => out.write_all(b"\\f"),
        0..0x20 => out.write_all(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[usize::from(b >> 4)],
            HEX[usize::from(b & 0xF)],
        ]),
        _ => out.write_all(&[b]),
    }
}

/// Whether `b` needs a JSON escape.
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Writes `s` escaped as the contents of a JSON string (no quotes).
pub(crate) fn write_str_contents(out: &mut impl Write, s: &str) -> io::Result<()> {
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    // eight bytes at a time: a plain word is skipped whole, else scanning
    // jumps to its first byte to escape and goes on after it
    while let Some(word) = bytes.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
        let escapes = escape_bytes(u64::from_le_bytes(word));
        if escapes == 0 {
            i += 8;
            continue;
        }
        let at = i + (escapes.trailing_zeros() / 8) as usize;
        out.write_all(bytes.get(start..at).unwrap_or_default())?;
        write_escaped_byte(out, bytes.get(at).copied().unwrap_or_default())?;
        start = at + 1;
        i = at + 1;
    }
    while let Some(&b) = bytes.get(i) {
        if needs_escape(b) {
            out.write_all(bytes.get(start..i).unwrap_or_default())?;
            write_escaped_byte(out, b)?;
            start = i + 1;
        }
        i += 1;
    }
    out.write_all(bytes.get(start..).unwrap_or_default())
}

/// Writes `s` as a JSON string, quotes included.
pub(crate) fn write_str(out: &mut impl Write, s: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    write_str_contents(out, s)?;
    out.write_all(b"\"")
}

/// Writes a dedupe key as a JSON string. A key holds only letters, digits,
/// combining marks and single spaces (see `advisor::guard::normalize_note`;
/// `tests/guard_key.rs` checks it on arbitrary text), none of which JSON
/// escapes, so it is copied as it is.
pub(crate) fn write_key(out: &mut impl Write, key: &str) -> io::Result<()> {
    out.write_all(b"\"")?;
    out.write_all(key.as_bytes())?;
    out.write_all(b"\"")
}

/// Writes `n` in decimal.
pub(crate) fn write_usize(out: &mut impl Write, mut n: usize) -> io::Result<()> {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    loop {
        at -= 1;
        if let Some(slot) = buf.get_mut(at) {
            *slot = b'0' + (n % 10) as u8;
        }
        n /= 10;
        if n == 0 || at == 0 {
            break;
        }
    }
    out.write_all(buf.get(at..).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ours(s: &str) -> String {
        let mut v = Vec::new();
        write_str(&mut v, s).unwrap();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn every_byte_class_matches_serde_json() {
        let all: String = (0u8..0x80).map(char::from).collect();
        for s in [all.as_str(), "", "plain text — ünïcode 注文", "a\"b\\c\u{7f}\u{1b}[2K"] {
            assert_eq!(ours(s), serde_json::to_string(s).unwrap(), "{s:?}");
        }
        for n in [0usize, 7, 10, 99, 100, 12345, usize::MAX] {
            let mut v = Vec::new();
            write_usize(&mut v, n).unwrap();
            assert_eq!(String::from_utf8(v).unwrap(), n.to_string());
        }
    }

    #[test]
    fn escapes_next_to_each_other_at_every_offset_match_serde_json() {
        let specials = ["\u{0}", "\u{1}", "\u{1f}", "\"", "\\", "\n", "é", " ", "!"];
        for offset in 0..18 {
            for a in specials {
                for b in specials {
                    let s = format!("{}{a}{b}{}", "x".repeat(offset), "y".repeat(9));
                    assert_eq!(ours(&s), serde_json::to_string(&s).unwrap(), "{s:?}");
                }
            }
        }
    }

    proptest! {
        #[test]
        fn strings_match_serde_json(s in "(\\PC|[\\x00-\\x1f\"\\\\])*") {
            prop_assert_eq!(ours(&s), serde_json::to_string(&s).unwrap());
        }

        #[test]
        fn any_chars_match_serde_json(v in proptest::collection::vec(any::<char>(), 0..64)) {
            let s: String = v.into_iter().collect();
            prop_assert_eq!(ours(&s), serde_json::to_string(&s).unwrap());
        }
    }
}
