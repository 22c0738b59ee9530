//! Shared invariants of the strict-parser fuzz targets, written apart from
//! the crate's own checks: every key of every object (collected in order,
//! not in a set), and the line breaks a one-line field must not hold.

use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};

/// Whether any object in `text` (valid JSON) repeats a key.
pub fn repeats_a_key(text: &str) -> bool {
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("JSON")
        }
        fn visit_bool<E>(self, _: bool) -> Result<bool, E> { Ok(false) }
        fn visit_i64<E>(self, _: i64) -> Result<bool, E> { Ok(false) }
        fn visit_u64<E>(self, _: u64) -> Result<bool, E> { Ok(false) }
        fn visit_f64<E>(self, _: f64) -> Result<bool, E> { Ok(false) }
        fn visit_str<E>(self, _: &str) -> Result<bool, E> { Ok(false) }
        fn visit_unit<E>(self) -> Result<bool, E> { Ok(false) }
        fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<bool, A::Error> {
            let mut dup = false;
            while let Some(d) = s.next_element::<Dup>()? { dup |= d.0; }
            Ok(dup)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<bool, A::Error> {
            let mut keys: Vec<String> = Vec::new();
            let mut dup = false;
            while let Some(k) = m.next_key::<String>()? {
                keys.push(k);
                dup |= m.next_value::<Dup>()?.0;
            }
            let n = keys.len();
            keys.sort();
            keys.dedup();
            Ok(dup || keys.len() != n)
        }
    }
    struct Dup(bool);
    impl<'de> serde::Deserialize<'de> for Dup {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dup, D::Error> {
            d.deserialize_any(Keys).map(Dup)
        }
    }
    serde_json::from_str::<Dup>(text).map(|d| d.0).unwrap_or(true)
}

/// The text of an accepted answer without its one optional Markdown fence
/// (```` ``` ```` or ```` ```json ````), trimmed.
pub fn unfenced(text: &str) -> &str {
    let t = text.trim();
    match t.strip_prefix("```").and_then(|rest| rest.split_once('\n')) {
        Some((_, body)) => body.trim_end().strip_suffix("```").unwrap_or(body).trim(),
        None => t,
    }
}

/// Whether `s` holds any line break a one-line field must not hold.
pub fn breaks_a_line(s: &str) -> bool {
    s.chars().any(|c| matches!(c, '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'))
}

/// Whether `s` is only whitespace and invisible characters.
pub fn blank(s: &str) -> bool {
    s.chars().all(|c| c.is_whitespace() || advisor::invisible::is_invisible(c))
}

/// Whether a confidence literal is a plain decimal in [0, 1].
pub fn plain_unit_decimal(lit: &str) -> bool {
    let b = lit.as_bytes();
    match b {
        [b'0'] | [b'1'] => true,
        [b'0', b'.', rest @ ..] => !rest.is_empty() && rest.iter().all(u8::is_ascii_digit),
        [b'1', b'.', rest @ ..] => !rest.is_empty() && rest.iter().all(|c| *c == b'0'),
        _ => false,
    }
}

/// The raw literal of a top-level key.
pub fn literal<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let m: std::collections::BTreeMap<String, &serde_json::value::RawValue> = serde_json::from_str(text).ok()?;
    m.get(key).map(|r| r.get().trim())
}
