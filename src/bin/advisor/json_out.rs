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

/// Whether some byte of `x` is zero.
fn has_zero_byte(x: u64) -> bool {
    x.wrapping_sub(ONES) & !x & HIGH != 0
}

/// Whether none of the eight bytes of `x` needs a JSON escape.
fn plain_word(x: u64) -> bool {
    let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH != 0;
    !(control || has_zero_byte(x ^ (ONES * u64::from(b'"'))) || has_zero_byte(x ^ (ONES * u64::from(b'\\'))))
}

/// The escape sequence `serde_json` writes for `b`, if `b` needs one.
fn escape(b: u8, buf: &mut [u8; 6]) -> Option<&[u8]> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    Some(match b {
        b'"' => b"\\\"",
        b'\\' => b"\\\\",
        b'\n' => b"\\n",
        b'\r' => b"\\r",
        b'\t' => b"\\t",
        0x08 => b"\\b",
        0x0C => b"\\f",
        0..0x20 => {
            *buf = [
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xF)],
            ];
            &buf[..]
        }
        _ => return None,
    })
}

/// Writes `s` escaped as the contents of a JSON string (no quotes).
pub(crate) fn write_str_contents(out: &mut impl Write, s: &str) -> io::Result<()> {
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    let mut buf = [0u8; 6];
    while i < bytes.len() {
        // a plain word is skipped whole; one with a byte to escape is
        // walked byte by byte, and scanning goes on after it
        let end = match bytes.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
            Some(word) if plain_word(u64::from_le_bytes(word)) => {
                i += 8;
                continue;
            }
            Some(_) => i + 8,
            None => bytes.len(),
        };
        while i < end {
            if let Some(seq) = bytes.get(i).and_then(|b| escape(*b, &mut buf)) {
                out.write_all(bytes.get(start..i).unwrap_or_default())?;
                out.write_all(seq)?;
                start = i + 1;
            }
            i += 1;
        }
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
