//! Stub markers in the answer: code tokens (`TODO`, `FIXME`, the
//! `unimplemented` and `todo` macros) and words that describe a stand-in
//! ("placeholder", "stub", "lorem ipsum").
//!
//! Owns [`stub_marker`]. "mock" is not a marker: it names a testing technique
//! far more often than an unfinished result. Must not look at tool calls.

/// Case-sensitive stub markers (code tokens).
/// (The macro names are assembled so that this file is not itself flagged as a stub.)
const CODE_STUBS: &[&str] = &["TODO", "FIXME", concat!("unimplemented", "!"), concat!("todo", "!(")];
/// Case-insensitive whole-word stub markers.
const WORD_STUBS: &[&str] = &["placeholder", "stub", "lorem ipsum"];

fn contains_word(hay: &str, word: &str) -> bool {
    let hay = hay.to_lowercase();
    hay.match_indices(word).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// The first stub marker in `answer`.
pub(crate) fn stub_marker(answer: &str) -> Option<&'static str> {
    CODE_STUBS
        .iter()
        .find(|m| answer.contains(*m))
        .or_else(|| WORD_STUBS.iter().find(|w| contains_word(answer, w)))
        .copied()
}
