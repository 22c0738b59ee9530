//! Parsing a config file's TOML, with errors that never echo the file.
//!
//! Owns [`parse_toml`] and the wording of its errors: the file, the line and
//! the kind of problem ("unknown key", "a value of the wrong type", "a key
//! given twice", TOML syntax…), plus what the schema allows where that comes
//! from the schema itself (the keys of the table, the names of an enum, the
//! type expected). A key or a value of the file — which is whatever a
//! repository committed, bidi and zero-width characters included — is never
//! part of the message. Must not read files.

use advisor::error::{Error, ErrorKind};

/// Our own messages (the bounds of [`super::WorkspaceConfig`]'s fields):
/// kept as written, since they quote nothing from the file.
const OWN_MESSAGES: &[&str] = &["max_rounds must be", "interval_turns must be"];

/// What serde or toml says the schema expected, when it is built only from
/// schema names (`one of `enabled`, `max_rounds``, `u32`, `a boolean`).
fn schema_text(expected: &str) -> Option<&str> {
    let expected = expected.trim();
    let plain = expected
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || " _`,".contains(c));
    (plain && !expected.is_empty() && expected.len() <= 400).then_some(expected)
}

/// The kind of problem `message` (serde's or toml's) reports, without any
/// text of the file.
pub(crate) fn describe(message: &str) -> String {
    let message = message.trim();
    if OWN_MESSAGES.iter().any(|m| message.starts_with(m)) {
        return message.to_owned();
    }
    // serde's messages put the file's text first and the schema's last
    let expected = message.rsplit_once(", expected ").and_then(|(_, e)| schema_text(e));
    let with = |kind: &str, what: &str| match expected {
        Some(e) => format!("{kind} ({what} {e})"),
        None => kind.to_owned(),
    };
    let kinds: &[(&str, &str, &str)] = &[
        ("unknown field", "unknown key", "the keys allowed here are"),
        (
            "unknown variant",
            "a value that is not one of the allowed ones",
            "expected",
        ),
        ("invalid type", "a value of the wrong type", "expected"),
        ("invalid value", "a value out of range", "expected"),
        ("invalid length", "a list of the wrong length", "expected"),
        ("duplicate", "a key given twice", "expected"),
    ];
    if let Some((_, kind, what)) = kinds.iter().find(|(prefix, ..)| message.starts_with(prefix)) {
        return with(kind, what);
    }
    if let Some(field) = message.strip_prefix("missing field ").and_then(schema_text) {
        return format!("a required key is missing: {field}");
    }
    // toml's syntax errors are fixed descriptions; anything else is not shown
    let fixed = message
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || " ,`'=[]{}().:-\n".contains(c));
    if fixed && message.len() <= 200 {
        format!("not valid TOML: {}", message.replace('\n', "; "))
    } else {
        "not valid TOML".to_owned()
    }
}

/// Parses TOML `text` into `T`; errors name `name`, the line and the kind of
/// problem ([`describe`]), never a key or a value of the file.
pub(crate) fn parse_toml<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> Result<T, Error> {
    toml::from_str(text).map_err(|e| {
        let line = |s: std::ops::Range<usize>| 1 + text.bytes().take(s.start).filter(|b| *b == b'\n').count();
        let at = e
            .span()
            .map_or_else(|| name.to_owned(), |s| format!("{name}:{}", line(s)));
        Error::new(ErrorKind::Config, format!("{at}: {}", describe(e.message())))
    })
}

#[cfg(test)]
mod tests {
    use super::super::WorkspaceConfig;

    const PLANTED: &str = "PLANTED\u{202e}txet";

    fn error(text: &str) -> String {
        WorkspaceConfig::parse("c", text).unwrap_err().to_string()
    }

    #[test]
    fn no_key_or_value_of_the_file_is_echoed() {
        let cases = [
            (
                format!("\"{PLANTED}\" = 1\n"),
                "c:1: unknown key (the keys allowed here are one of `enabled`",
            ),
            (
                format!("[reviewer]\nkind = \"rules\"\n\"{PLANTED}\" = 1\n"),
                "c:3: unknown key",
            ),
            (
                format!("max_severity = \"{PLANTED}\"\n"),
                "c:1: a value that is not one of the allowed ones (expected one of `nit`, `concern`, `blocker`)",
            ),
            (
                format!("max_rounds = \"{PLANTED}\"\n"),
                "c:1: a value of the wrong type (expected u32)",
            ),
            (
                "max_rounds = -1\n".to_owned(),
                "c:1: a value out of range (expected u32)",
            ),
            ("shadow = true\nshadow = false\n".to_owned(), "c:2: "),
            (format!("enabled = true\n{PLANTED}\n"), "c:2: not valid TOML"),
            (
                format!("[rules]\ntest_tools = [1, \"{PLANTED}\"]\n"),
                "c:2: a value of the wrong type",
            ),
            (
                "max_rounds = 4294967295\n".to_owned(),
                "c:1: max_rounds must be at most 10",
            ),
        ];
        for (text, want) in cases {
            let got = error(&text);
            assert!(got.contains(want), "{text:?}: {got}");
            assert!(!got.contains("PLANTED") && !got.contains("txet"), "{got}");
            assert!(!got.contains("4294967295") && !got.contains("-1"), "{got}");
        }
    }
}
