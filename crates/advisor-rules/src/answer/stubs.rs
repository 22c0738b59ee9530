//! Stub markers in the answer: code tokens (`TODO`, `FIXME`, the
//! `unimplemented` and `todo` macros) and words that describe a stand-in
//! ("placeholder", "stub", "lorem ipsum").
//!
//! Owns [`stub_marker`]. A marker inside a negation ("no TODOs left",
//! "without placeholders", "removed the stub") is none. A marker word counts only where it describes the
//! agent's own result — followed by what was stubbed ("placeholder value",
//! "stub implementation"), closing its clause ("the export is still a
//! placeholder."), or in a sentence that speaks in the first person
//! or says "for now" — so a report that calls an existing directory "a
//! placeholder directory" is not flagged. "mock" is not a marker: it names a
//! testing technique far more often than an unfinished result. Must not look
//! at tool calls.

/// Case-sensitive stub markers (code tokens).
/// (The macro names are assembled so that this file is not itself flagged as a stub.)
const CODE_STUBS: &[&str] = &["TODO", "FIXME", concat!("unimplemented", "!"), concat!("todo", "!(")];
/// Case-insensitive whole-word stub markers.
const WORD_STUBS: &[&str] = &["placeholder", "stub", "lorem ipsum"];

/// What a stand-in stands for, right after the marker word.
const STUBBED_THINGS: &[&str] = &[
    "value",
    "values",
    "implementation",
    "data",
    "text",
    "code",
    "function",
    "logic",
    "response",
    "content",
    "image",
    "credentials",
    "key",
    "url",
    "for now",
    "until",
    "in place",
    "instead",
];
/// Words that make a sentence about the agent's own work.
const OWN_WORK: &[&str] = &[
    "i", "i've", "i'll", "i'm", "we", "we've", "we'll", "my", "our", "for now",
];

/// Whether `sentence` (lowercase) holds `word` as a whole word describing the
/// agent's own result.
fn describes_own_stub(sentence: &str, word: &str) -> bool {
    let own = || {
        let words: Vec<&str> = sentence
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
            .collect();
        OWN_WORK.iter().any(|o| words.contains(o)) || sentence.contains("for now")
    };
    sentence.match_indices(word).any(|(i, _)| {
        let before = sentence[..i].chars().next_back();
        let rest = &sentence[i + word.len()..];
        let after = rest.chars().next();
        let whole = !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric);
        let rest = rest.trim_start_matches([' ', '-', '_']);
        // "the export is still a placeholder." names the result itself; "a
        // placeholder directory" describes something else
        let ends_clause = rest.is_empty() || rest.starts_with([',', ';', ':', ')']);
        whole && (ends_clause || STUBBED_THINGS.iter().any(|t| rest.starts_with(t)) || own())
    })
}

fn contains_word(hay: &str, word: &str) -> bool {
    let hay = hay.to_lowercase().replace(['\u{2019}', '\u{2018}'], "'");
    hay.split(['.', '!', '?', '\n'])
        .any(|sentence| describes_own_stub(sentence, word))
}

/// Words that, a few words before a marker in its sentence, say there is
/// none of it: "no TODOs left", "without placeholders", "removed the stub".
const NEGATIONS: &[&str] = &[
    "no",
    "not",
    "without",
    "zero",
    "none",
    "nor",
    "removed",
    "remove",
    "replaced",
    "replace",
    "eliminated",
    "dropped",
    "free",
    "any",
];

/// Whether `sentence` (as written) holds `marker` only inside a negation:
/// every occurrence has a negating word at most four words before it.
fn negated(sentence: &str, marker: &str) -> bool {
    let lower = sentence.to_lowercase().replace(['\u{2019}', '\u{2018}'], "'");
    let marker = marker.to_lowercase();
    let mut found = false;
    for (i, _) in lower.match_indices(&marker) {
        found = true;
        let before: Vec<&str> = lower[..i]
            .split(|c: char| !(c.is_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty())
            .collect();
        let near = &before[before.len().saturating_sub(4)..];
        if !near.iter().any(|w| NEGATIONS.contains(w) || w.ends_with("n't")) {
            return false;
        }
    }
    found
}

/// Where a sentence ends for marker words.
const SENTENCE_ENDS: &[char] = &['.', '!', '?', '\n', ';'];
/// Where a sentence ends for code tokens: not at `!`, which the macro markers hold.
const CODE_SENTENCE_ENDS: &[char] = &['.', '?', '\n', ';'];

/// Whether `marker` stands in `answer` outside a negation, in some sentence
/// (split at `ends`).
fn affirmed(answer: &str, marker: &str, ends: &[char], present: impl Fn(&str) -> bool) -> bool {
    answer
        .split(ends)
        .any(|sentence| present(sentence) && !negated(sentence, marker))
}

/// The first stub marker in `answer`, outside a negation ("no TODOs are
/// left" names none).
pub(crate) fn stub_marker(answer: &str) -> Option<&'static str> {
    CODE_STUBS
        .iter()
        .find(|m| affirmed(answer, m, CODE_SENTENCE_ENDS, |s| s.contains(*m)))
        .or_else(|| {
            WORD_STUBS
                .iter()
                .find(|w| affirmed(answer, w, SENTENCE_ENDS, |s| contains_word(s, w)))
        })
        .copied()
}
