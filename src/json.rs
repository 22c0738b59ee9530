//! Strict extraction of the one JSON object a model was asked to answer with.
//!
//! Owns the rule every model answer in this crate follows: the answer is a
//! single JSON object, optionally wrapped in exactly one Markdown code fence
//! (```` ``` ```` or ```` ```json ````); any prose before or after is an error.
//! Errors describe the shape, never quote the model's text. This module must
//! not know what the object means — each caller validates its own schema.

use std::fmt;

/// Why a model answer is not a lone JSON object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JsonShapeError {
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

impl std::error::Error for JsonShapeError {}

/// Returns the JSON object text inside `answer`, or why there is none.
///
/// ```
/// use advisor::json::{extract_object, JsonShapeError};
/// assert_eq!(extract_object(" {\"notes\":[]} "), Ok("{\"notes\":[]}"));
/// assert_eq!(extract_object("```json\n{\"notes\":[]}\n```"), Ok("{\"notes\":[]}"));
/// assert_eq!(extract_object("Sure! {\"notes\":[]}"), Err(JsonShapeError::Prose));
/// ```
pub fn extract_object(answer: &str) -> Result<&str, JsonShapeError> {
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
        if body.contains("```") {
            return Err(JsonShapeError::BadFence);
        }
        body.trim()
    } else if text.contains("```") {
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

/// Extracts the object and deserializes it, mapping every failure to a
/// description that never contains the answer's text.
pub fn parse_object<T: serde::de::DeserializeOwned>(answer: &str) -> Result<T, String> {
    let text = extract_object(answer).map_err(|e| e.to_string())?;
    serde_json::from_str(text).map_err(|e| describe_serde_error(&e))
}

/// Describes a serde_json error by category and position only. (serde's own
/// messages can quote values, e.g. `invalid value: string "…"`, which would
/// leak the model's output.)
pub fn describe_serde_error(e: &serde_json::Error) -> String {
    describe_serde_error_of("the answer", e)
}

/// [`describe_serde_error`] for input that is not a model's answer
/// (`subject` names it: "the hook input", "the session state").
pub fn describe_serde_error_of(subject: &str, e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Io => "could not be read",
        Category::Syntax => "is not valid JSON",
        Category::Data => "does not match the expected fields and types",
        Category::Eof => "ends before the JSON is complete",
    };
    format!("{subject} {what} (line {}, column {})", e.line(), e.column())
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
        assert_eq!(extract_object("no notes"), Err(JsonShapeError::NotAnObject));
        assert_eq!(extract_object("[1,2]"), Err(JsonShapeError::NotAnObject));
    }

    proptest! {
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
