//! Strict extraction of the one JSON object a model was asked to answer with,
//! and the strictness rules every strict parser of the crate shares.
//!
//! Owns the rule every model answer in this crate follows: the answer is a
//! single JSON object, optionally wrapped in exactly one Markdown code fence
//! (```` ``` ```` or ```` ```json ````); any prose before or after is an error;
//! no object, at any depth, repeats a key ([`check_no_duplicate_keys`] — serde
//! would silently keep the last one). It also owns what "one line" means
//! ([`has_line_break`]: `\n`, `\r`, VT, FF, NEL, U+2028, U+2029), what "empty"
//! means ([`is_blank`]: whitespace and invisible characters only), and how a
//! unit-interval number is judged on its literal text ([`unit_interval`]).
//! Errors describe the shape, never quote the model's text. This module must
//! not know what the object means — each caller validates its own schema.

use std::collections::HashSet;
use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// Why a model answer is not a lone JSON object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum JsonShapeError {
    /// The answer is empty or whitespace.
    Empty,
    /// A code fence is opened but not closed, has a language other than
    /// `json`, or there is more than one.
    BadFence,
    /// There is text before or after the object.
    Prose,
    /// The content is not a JSON object (`{…}`).
    NotAnObject,
}

impl fmt::Display for JsonShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            JsonShapeError::Empty => "the answer is empty",
            JsonShapeError::BadFence => "the answer has a malformed code fence or more than one",
            JsonShapeError::Prose => "the answer has text before or after the JSON object",
            JsonShapeError::NotAnObject => "the answer is not a JSON object",
        })
    }
}

/// Returns the JSON object text inside `answer`, or why there is none.
pub(crate) fn extract_object(answer: &str) -> Result<&str, JsonShapeError> {
    let text = answer.trim();
    if text.is_empty() {
        return Err(JsonShapeError::Empty);
    }
    let inner = if let Some(rest) = text.strip_prefix("```") {
        let (lang, body) = rest.split_once('\n').ok_or(JsonShapeError::BadFence)?;
        let lang = lang.trim();
        if !(lang.is_empty() || lang.eq_ignore_ascii_case("json")) {
            return Err(JsonShapeError::BadFence);
        }
        let body = body.trim_end().strip_suffix("```").ok_or(JsonShapeError::BadFence)?;
        if has_fence_outside_strings(body) {
            return Err(JsonShapeError::BadFence);
        }
        body.trim()
    } else if has_fence_outside_strings(text) {
        return Err(JsonShapeError::Prose);
    } else {
        text
    };
    if inner.is_empty() {
        return Err(JsonShapeError::Empty);
    }
    match (inner.starts_with('{'), inner.ends_with('}')) {
        (true, true) => Ok(inner),
        (false, false) if !inner.contains('{') => Err(JsonShapeError::NotAnObject),
        _ => Err(JsonShapeError::Prose),
    }
}

/// Whether `text` has a code fence (```` ``` ````) outside its JSON strings:
/// a fence inside a note's text (a small model quoting a block) is content,
/// one outside is a second fence or prose around the object.
fn has_fence_outside_strings(text: &str) -> bool {
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '`' if !in_string && text[i..].starts_with("```") => return true,
            _ => {}
        }
    }
    false
}

/// `answer` with every raw control character (U+0000–U+001F) inside a JSON
/// string written as its `\u00XX` escape, as a lenient reader of what small
/// models write (a raw newline inside a note's text); outside strings nothing
/// changes, so a strict parse still refuses everything else. Borrowed when
/// there is nothing to escape.
///
/// ```text
/// {"text":"a<LF>b"}  ->  {"text":"a\u000ab"}
/// ```
pub(crate) fn escape_raw_controls(answer: &str) -> std::borrow::Cow<'_, str> {
    let mut in_string = false;
    let mut escaped = false;
    let mut out: Option<String> = None;
    for (i, c) in answer.char_indices() {
        // after a backslash a raw control stays raw: that escape is invalid either way
        let raw_control = in_string && !escaped && (c as u32) < 0x20;
        if raw_control {
            let buf = out.get_or_insert_with(|| answer[..i].to_owned());
            let _ = write!(buf, "\\u{:04x}", c as u32);
            continue;
        }
        if let Some(buf) = out.as_mut() {
            buf.push(c);
        }
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            _ => {}
        }
    }
    match out {
        Some(s) => std::borrow::Cow::Owned(s),
        None => std::borrow::Cow::Borrowed(answer),
    }
}

/// Extracts the object and deserializes it, mapping every failure to a
/// description that never contains the answer's text. A repeated key at any
/// depth is an error.
pub(crate) fn parse_object<T: serde::de::DeserializeOwned>(answer: &str) -> Result<T, String> {
    parse_strict(extract_object(answer).map_err(|e| e.to_string())?)
}

/// Parses JSON text (into a [`serde_json::Value`], for one), refusing any
/// object (at any depth) that repeats a key. The error never contains the text.
pub(crate) fn parse_strict<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    check_no_duplicate_keys(text).map_err(|e| describe_serde_error(&e))?;
    serde_json::from_str(text).map_err(|e| describe_serde_error(&e))
}

/// The message of the error [`check_no_duplicate_keys`] raises (ours, so
/// [`describe_serde_error`] can recognise it without quoting anything else).
const DUPLICATE_KEY: &str = "advisor: duplicate key";

/// Walks JSON text and fails on the first object that repeats a key (after
/// unescaping: `"a"` and `"\u0061"` are the same key), or on invalid JSON.
pub(crate) fn check_no_duplicate_keys(text: &str) -> Result<(), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    NoDuplicates.deserialize(&mut de)?;
    de.end()
}

#[derive(Clone, Copy)]
struct NoDuplicates;

/// `Visitor` methods that accept a scalar of the given type and do nothing.
macro_rules! accept_scalars {
    ($($visit:ident($ty:ty)),+) => {
        $(fn $visit<E>(self, _: $ty) -> Result<(), E> {
            Ok(())
        })+
    };
}

impl<'de> DeserializeSeed<'de> for NoDuplicates {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NoDuplicates {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    // a scalar holds no key: every kind is accepted as is
    accept_scalars!(
        visit_bool(bool),
        visit_i64(i64),
        visit_u64(u64),
        visit_f64(f64),
        visit_str(&str)
    );
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key) {
                return Err(de::Error::custom(DUPLICATE_KEY));
            }
            map.next_value_seed(self)?;
        }
        Ok(())
    }
}

/// Describes a serde_json error by category and position only. (serde's own
/// messages can quote values, e.g. `invalid value: string "…"`, which would
/// leak the model's output.)
pub(crate) fn describe_serde_error(e: &serde_json::Error) -> String {
    describe_serde_error_of("the answer", e)
}

/// [`describe_serde_error`] about `subject` (`"the hook input"`, `"the
/// line"`…) instead of the answer.
pub(crate) fn describe_serde_error_of(subject: &str, e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Data if e.to_string().starts_with(DUPLICATE_KEY) => "repeats a key within one object",
        Category::Io => "could not be read",
        Category::Syntax => "is not valid JSON",
        Category::Data => "does not match the expected fields and types",
        Category::Eof => "ends before the JSON is complete",
    };
    format!("{subject} {what} (line {}, column {})", e.line(), e.column())
}

/// Whether `s` breaks a line anywhere: `\n`, `\r`, VT (U+000B), FF
/// (U+000C), NEL (U+0085), LINE SEPARATOR (U+2028) or PARAGRAPH SEPARATOR
/// (U+2029). A one-line field holds none of them.
pub(crate) fn has_line_break(s: &str) -> bool {
    s.contains(['\n', '\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}'])
}

/// Whether `s` says nothing: only whitespace and invisible characters
/// ([`crate::invisible::is_invisible`]). Such a field counts as empty.
pub(crate) fn is_blank(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_whitespace() || crate::invisible::is_invisible(c))
}

/// A number in `[0, 1]` judged on its literal JSON text: `0`, `1`, `0.` or
/// `1.` followed by digits (for `1.`, zeros only). A sign, an exponent
/// (`1e0`), a value above one however small the excess
/// (`1.0000000000000001`, which `f64` would round to 1) and `-0` are
/// rejected, so what is accepted never depends on float rounding.
pub(crate) fn unit_interval(literal: &str) -> Option<f64> {
    let (int, frac) = literal.split_once('.').map_or((literal, None), |(i, f)| (i, Some(f)));
    let ok = match (int, frac) {
        ("0", None) | ("1", None) => true,
        ("0", Some(f)) => !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()),
        ("1", Some(f)) => !f.is_empty() && f.bytes().all(|b| b == b'0'),
        _ => false,
    };
    if ok { literal.parse::<f64>().ok() } else { None }
}

/// The literal JSON text of `key` in the top-level object `text` (which the
/// caller has already checked for duplicate keys), if present.
pub(crate) fn top_level_literal<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let map: std::collections::HashMap<String, &'a RawValue> = serde_json::from_str(text).ok()?;
    map.get(key).map(|raw| raw.get().trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn shapes() {
        assert_eq!(extract_object("{}"), Ok("{}"));
        assert_eq!(extract_object("```\n{}\n```"), Ok("{}"));
        assert_eq!(extract_object("```JSON\n{\"a\":1}\n```\n"), Ok("{\"a\":1}"));
        assert_eq!(extract_object(""), Err(JsonShapeError::Empty));
        assert_eq!(extract_object("```\n\n```"), Err(JsonShapeError::Empty));
        assert_eq!(extract_object("```python\n{}\n```"), Err(JsonShapeError::BadFence));
        assert_eq!(extract_object("```json\n{}"), Err(JsonShapeError::BadFence));
        assert_eq!(
            extract_object("```json\n{}\n```\n```json\n{}\n```"),
            Err(JsonShapeError::BadFence)
        );
        assert_eq!(
            extract_object("Here you go:\n```json\n{}\n```"),
            Err(JsonShapeError::Prose)
        );
        assert_eq!(extract_object("{} trailing"), Err(JsonShapeError::Prose));
        // a fence inside a string is text; one outside is prose or a second fence
        let quoted = "{\"text\":\"see:\n```\nline\n```\"}";
        assert_eq!(extract_object(quoted), Ok(quoted));
        assert_eq!(extract_object(&format!("```json\n{quoted}\n```")), Ok(quoted));
        assert_eq!(extract_object("{\"a\":1}\n```"), Err(JsonShapeError::Prose));
        assert_eq!(
            extract_object("```json\n{\"a\":\"\\\"\"}\n```\n```json\n{}\n```"),
            Err(JsonShapeError::BadFence),
            "an escaped quote does not hide the second fence"
        );
        assert_eq!(extract_object("no notes"), Err(JsonShapeError::NotAnObject));
        assert_eq!(extract_object("[1,2]"), Err(JsonShapeError::NotAnObject));
    }

    #[test]
    fn duplicate_keys_are_refused_at_any_depth() {
        for dup in [
            r#"{"decision":"APPROVE","decision":"PLAN"}"#,
            r#"{"a":[{"x":1,"x":1}]}"#,
            r#"{"a":{"b":{"c":1,"c":2}}}"#,
            r#"{"a":1,"\u0061":2}"#,
        ] {
            let e = check_no_duplicate_keys(dup).unwrap_err();
            assert!(describe_serde_error(&e).contains("repeats a key"), "{dup}");
        }
        assert!(check_no_duplicate_keys(r#"{"a":{"a":1},"b":[{"a":1},{"a":2}]}"#).is_ok());
        let e: Result<serde_json::Value, String> = parse_object(r#"{"notes":[],"notes":[{"text":"x"}]}"#);
        assert!(e.is_err());
    }

    #[test]
    fn line_breaks_and_blank_fields() {
        for s in [
            "a\nb",
            "a\rb",
            "a\u{0B}b",
            "a\u{0C}b",
            "a\u{85}b",
            "a\u{2028}b",
            "a\u{2029}b",
        ] {
            assert!(has_line_break(s), "{s:?}");
        }
        assert!(!has_line_break("a\tb c"));
        assert!(is_blank("\u{200B}\u{2060} \u{FEFF}\u{E0041}\u{AD}"));
        assert!(!is_blank("\u{200B}x"));
    }

    #[test]
    fn top_level_literals_keep_their_text() {
        assert_eq!(
            top_level_literal(r#"{"c": 1.0000000000000001 }"#, "c"),
            Some("1.0000000000000001")
        );
        assert_eq!(top_level_literal(r#"{"c":-0}"#, "c"), Some("-0"));
        assert_eq!(top_level_literal(r#"{"c":-0}"#, "d"), None);
    }

    #[test]
    fn unit_interval_judges_the_literal() {
        assert_eq!(unit_interval("0.75"), Some(0.75));
        assert_eq!(unit_interval("1"), Some(1.0));
        for bad in [
            "-0",
            "1.0000000000000001",
            "1e0",
            "0e0",
            "+0.5",
            "1.5",
            ".5",
            "NaN",
            "\"0.5\"",
        ] {
            assert_eq!(unit_interval(bad), None, "{bad}");
        }
        assert!(parse_strict::<serde_json::Value>(r#"{"a":{"b":1,"c":2}}"#).is_ok());
        assert!(
            parse_strict::<serde_json::Value>(r#"{"a":{"b":1,"b":2}}"#).is_err_and(|e| e.contains("repeats a key"))
        );
    }

    proptest! {
        #[test]
        fn unit_interval_agrees_with_the_value_on_plain_decimals(n in 0u32..=1000, digits in 1usize..6) {
            let lit = format!("{:.*}", digits, f64::from(n) / 1000.0);
            let v = unit_interval(&lit);
            prop_assert!(v.is_some(), "{}", lit);
            prop_assert!((0.0..=1.0).contains(&v.unwrap_or(-1.0)));
        }

        #[test]
        fn never_panics_and_returns_a_braced_slice(s in "\\PC{0,200}") {
            if let Ok(inner) = extract_object(&s) {
                let braced = inner.starts_with('{') && inner.ends_with('}');
                prop_assert!(braced);
            }
        }

        #[test]
        fn prose_around_an_object_is_always_rejected(pre in "[a-zA-Z][a-zA-Z .:!]{0,20}", post in "[a-zA-Z .:!]{0,20}") {
            let answer = format!("{pre} {{\"notes\":[]}} {post}");
            prop_assert!(extract_object(&answer).is_err());
        }
    }
}
