//! Anchoring: whether a note's quoted evidence occurs in what its reviewer
//! was shown.
//!
//! Owns [`Shown`] — the evidence part of a review prompt (the user's request,
//! the transcript window, the tool results advisor ran for the review), never
//! advisor's own instructions, what was already raised, or the answer under
//! review — and the one test a quote passes: every line of the evidence,
//! split at `…` / `...`, NFKC-normalised, lowercased, whitespace collapsed,
//! occurs in that text ([`Shown::finds`]). The headings advisor wrote around
//! the evidence (`### Bash result`, `- shell: FAILED`) are labels: a quote
//! may carry one as a locator, it is dropped from the quote and anchors
//! nothing on its own. A model-backed reviewer's blocker
//! whose evidence is missing or not found is demoted to a concern
//! ([`anchor_blockers`]): a model may judge, but a blocker that re-opens a run
//! must point at something that is there. Must not decide what reaches the
//! agent (the gate does) or render anything.
//!
//! # Token effect
//!
//! None: it reads the prompt the reviewer already built.

use unicode_normalization::UnicodeNormalization;

use crate::note::{Note, Severity};

/// The smallest normalised fragment that anchors a quote on its own: a
/// quote whose fragments are all shorter (`"ok"`, `"1"`) is missing.
pub const MIN_ANCHOR_CHARS: usize = 8;

/// Separates the parts of [`Shown`]: no normalised fragment contains it, so
/// a quote never spans two parts.
const PART: char = '\u{0}';

/// What a quote amounts to against what the reviewer was shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Anchoring {
    /// Every fragment of the quote occurs in what was shown.
    Found,
    /// There is no quote, or nothing in it long enough to anchor
    /// ([`MIN_ANCHOR_CHARS`]).
    Missing,
    /// A fragment of the quote occurs nowhere in what was shown.
    NotFound,
}

/// The evidence part of what one reviewer was shown, normalised for
/// [`finds`](Shown::finds).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shown {
    text: String,
    /// Normalised headings advisor wrote around the parts, longest first.
    labels: Vec<String>,
}

impl Shown {
    /// Nothing shown yet.
    pub fn new() -> Shown {
        Shown::default()
    }

    /// Adds one part of what the reviewer was shown (a message, a tool
    /// result, a quoted line) exactly as it appeared in the prompt.
    pub fn push(&mut self, part: &str) {
        let normalised = normalise(part);
        if normalised.is_empty() {
            return;
        }
        if !self.text.is_empty() {
            self.text.push(PART);
        }
        self.text.push_str(&normalised);
    }

    /// Adds a heading advisor wrote around the parts (`### Bash result`, the
    /// tool trace's `- shell: FAILED`): not evidence, but a model quoting a
    /// part often copies its heading along. A quote's fragment that starts
    /// with a label is read without it; a fragment that is only labels is
    /// dropped, so a quote of labels alone is [`Anchoring::Missing`].
    ///
    /// ```
    /// use advisor::anchor::{Anchoring, Shown};
    /// let mut shown = Shown::new();
    /// shown.label("### Bash result");
    /// shown.push("Exit code 1\nnpm ERR! missing script: test");
    /// assert_eq!(shown.finds("### Bash result\nExit code 1"), Anchoring::Found);
    /// assert_eq!(shown.finds("### Bash result"), Anchoring::Missing);
    /// assert_eq!(shown.finds("### Bash result\nall tests passed"), Anchoring::NotFound);
    /// ```
    pub fn label(&mut self, label: &str) {
        let normalised = normalise(label);
        if normalised.is_empty() || self.labels.contains(&normalised) {
            return;
        }
        self.labels.push(normalised);
        // longest first, so `- a: failed` is stripped before a shorter label it starts with
        self.labels.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    }

    /// Whether nothing was shown.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Whether `evidence` (lines joined by `\n`) occurs in what was shown:
    /// every fragment of every line — a line split at `…` or `...`, each
    /// piece normalised and stripped of quoting marks — must occur in one
    /// part, and one fragment at least must be [`MIN_ANCHOR_CHARS`] long.
    ///
    /// ```
    /// use advisor::anchor::{Anchoring, Shown};
    /// let mut shown = Shown::new();
    /// shown.push("$ pytest -q\n=== 2 failed,  5 passed in 0.3s ===");
    /// assert_eq!(shown.finds("2 FAILED, 5 passed"), Anchoring::Found);
    /// assert_eq!(shown.finds("$ pytest -q … 2 failed"), Anchoring::Found);
    /// assert_eq!(shown.finds("all 7 passed"), Anchoring::NotFound);
    /// assert_eq!(shown.finds("ok"), Anchoring::Missing);
    /// ```
    pub fn finds(&self, evidence: &str) -> Anchoring {
        let fragments: Vec<String> = fragments(evidence)
            .into_iter()
            .map(|f| self.unlabelled(f))
            .filter(|f| !f.is_empty())
            .collect();
        if !fragments.iter().any(|f| f.chars().count() >= MIN_ANCHOR_CHARS) {
            return Anchoring::Missing;
        }
        let haystack = self.text.as_bytes();
        let all = fragments
            .iter()
            .all(|f| memchr::memmem::find(haystack, f.as_bytes()).is_some());
        if all { Anchoring::Found } else { Anchoring::NotFound }
    }

    /// `fragment` without the labels it starts with (each followed by the
    /// fragment's end, a space or a colon), quoting marks trimmed again.
    fn unlabelled(&self, mut fragment: String) -> String {
        'strip: loop {
            for label in &self.labels {
                let Some(rest) = fragment.strip_prefix(label.as_str()) else {
                    continue;
                };
                if rest.is_empty() || rest.starts_with([' ', ':']) {
                    fragment = trim_quoting(rest.trim_start_matches([' ', ':'])).to_owned();
                    continue 'strip;
                }
            }
            return fragment;
        }
    }
}

/// Checks every blocker in `notes` against `shown`: a blocker whose evidence
/// is found stays one (`anchored: Some(true)`); one whose evidence is
/// missing or not found becomes a concern (`anchored: Some(false)`). Other
/// notes are left as they are.
///
/// ```
/// use advisor::{Note, Severity, anchor::{Shown, anchor_blockers}};
/// let mut shown = Shown::new();
/// shown.push("Exit code 1\nFAILED tests/test_api.py::test_login");
/// let mut notes = vec![
///     Note::blocker("login test fails").with_evidence("FAILED tests/test_api.py::test_login"),
///     Note::blocker("the migration was never run"),
/// ];
/// anchor_blockers(&mut notes, &shown);
/// assert_eq!((notes[0].severity, notes[0].anchored), (Severity::Blocker, Some(true)));
/// assert_eq!((notes[1].severity, notes[1].anchored), (Severity::Concern, Some(false)));
/// ```
pub fn anchor_blockers(notes: &mut [Note], shown: &Shown) {
    for note in notes.iter_mut().filter(|n| n.severity == Severity::Blocker) {
        let found = note
            .evidence
            .as_deref()
            .is_some_and(|e| shown.finds(e) == Anchoring::Found);
        note.anchored = Some(found);
        if !found {
            note.severity = Severity::Concern;
        }
    }
}

/// NFKC, lowercase, every run of whitespace one space, trimmed, terminal
/// colour codes dropped ([`without_terminal_codes`]); the part separator
/// never survives.
fn normalise(text: &str) -> String {
    let text = without_terminal_codes(text);
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.nfkc().flat_map(char::to_lowercase) {
        if c.is_whitespace() || c == PART {
            space = !out.is_empty();
        } else {
            if space {
                out.push(' ');
                space = false;
            }
            out.push(c);
        }
    }
    out
}

/// The fragments of a quote: each line split at `…` / `...`, normalised and
/// stripped of the quoting marks a model wraps a quote in; empty ones dropped.
fn fragments(evidence: &str) -> Vec<String> {
    evidence
        .lines()
        .flat_map(|line| line.split(['…']).flat_map(|piece| piece.split("...")))
        .map(|piece| trim_quoting(&normalise(piece)).to_owned())
        .filter(|f| !f.is_empty())
        .collect()
}

/// `text` without terminal control sequences: an escape-led one
/// (`ESC [ 1 ; 31 m`, `ESC [ 2 K`) and a colour code whose escape a quote lost
/// (`[31m`, `[0m`). Tool output carries them raw; a model copying the line
/// drops the escape or the whole code, so neither side keeps any.
fn without_terminal_codes(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['\u{1b}', '[']) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['\u{1b}', '[']) {
        out.push_str(&rest[..at]);
        let escaped = rest[at..].starts_with('\u{1b}');
        let after = if escaped { &rest[at + 1..] } else { &rest[at..] };
        let code = after.strip_prefix('[').and_then(|params| {
            let digits = params.len()
                - params
                    .trim_start_matches(|c: char| c.is_ascii_digit() || c == ';')
                    .len();
            let last = params[digits..].chars().next()?;
            // with its escape any final byte; without it only a colour code with a number
            let ends = if escaped {
                ('@'..='~').contains(&last)
            } else {
                last == 'm' && params[..digits].chars().any(|c| c.is_ascii_digit())
            };
            ends.then(|| &params[digits + last.len_utf8()..])
        });
        match code {
            Some(tail) => rest = tail,
            None if escaped => rest = after, // a lone escape: dropped
            None => {
                out.push('[');
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// `fragment` without the quoting marks a model wraps a quote in.
fn trim_quoting(fragment: &str) -> &str {
    fragment.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | '“' | '”' | '‘' | '’' | '>' | ' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quote_never_spans_two_parts() {
        let mut shown = Shown::new();
        shown.push("the build finished");
        shown.push("with 3 warnings");
        assert_eq!(shown.finds("finished with 3 warnings"), Anchoring::NotFound);
        assert_eq!(shown.finds("with 3 warnings"), Anchoring::Found);
    }

    #[test]
    fn compatibility_forms_and_case_fold_together() {
        let mut shown = Shown::new();
        shown.push("ＥＲＲＯＲ: ﬁle not found");
        assert_eq!(shown.finds("error: FILE not found"), Anchoring::Found);
    }

    #[test]
    fn a_label_is_stripped_only_where_a_fragment_starts_with_it_as_a_word() {
        let mut shown = Shown::new();
        shown.label("1.");
        shown.label("- shell: FAILED");
        shown.push("exit code 1: npm ERR! missing script");
        shown.push("1.5 seconds elapsed");
        assert_eq!(shown.finds("1. exit code 1"), Anchoring::Found);
        assert_eq!(
            shown.finds("1.5 seconds elapsed"),
            Anchoring::Found,
            "not `1.` then `5 seconds`"
        );
        assert_eq!(shown.finds("- shell: FAILED exit code 1: npm ERR!"), Anchoring::Found);
        assert_eq!(shown.finds("- shell: FAILED"), Anchoring::Missing);
        assert_eq!(
            shown.finds("exit code 1 - shell: FAILED"),
            Anchoring::NotFound,
            "only at the start"
        );
    }

    #[test]
    fn terminal_colour_codes_are_on_neither_side() {
        let mut shown = Shown::new();
        shown.push("webpack compiled with \u{1b}[1m\u{1b}[31m1 error\u{1b}[39m\u{1b}[22m\u{1b}[2K");
        for quote in [
            "webpack compiled with 1 error",
            "webpack compiled with [1m[31m1 error[39m[22m",
            "webpack compiled with \u{1b}[1m\u{1b}[31m1 error",
        ] {
            assert_eq!(shown.finds(quote), Anchoring::Found, "{quote:?}");
        }
        assert_eq!(shown.finds("webpack compiled with 0 errors"), Anchoring::NotFound);
        let mut brackets = Shown::new();
        brackets.push("items[0] = a[m] and [x]");
        assert_eq!(
            brackets.finds("items[0] = a[m] and [x]"),
            Anchoring::Found,
            "not colour codes"
        );
        assert_eq!(without_terminal_codes("a[m] [0] [12m \u{1b}"), "a[m] [0]  ");
    }

    #[test]
    fn quoting_marks_around_a_fragment_are_not_part_of_it() {
        let mut shown = Shown::new();
        shown.push("npm ERR! code ELIFECYCLE");
        assert_eq!(shown.finds("> `npm ERR! code ELIFECYCLE`"), Anchoring::Found);
    }
}
