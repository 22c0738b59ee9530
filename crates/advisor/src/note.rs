//! Notes and severities: what a reviewer says and how much it matters.
//!
//! This module owns the [`Note`] value and the [`Severity`] scale. Serde is
//! strict (`nit`, `concern`, `blocker`; `text` and `severity` required, the
//! optional `evidence` and `anchored` nothing else): that is how
//! what the crate writes itself — checkpoints, hook state, traces — reads
//! back. The one lenient reading, for what models write (`"Blocker"`,
//! `" concern "`), is [`Severity::parse`] and its serde form
//! [`lenient_severity`]. It must not decide whether a note reaches the agent —
//! that is the emission guard's job ([`crate::guard`]).
//!
//! # What the model sees
//!
//! Nothing directly: a note is rendered by [`crate::render`] only after the guard
//! admitted it, and only when the review as a whole interrupts.

use serde::{Deserialize, Deserializer, Serialize};

wire_enum! {
    /// How much a note matters. Ordered: `Nit < Concern < Blocker`.
    ///
    /// Only [`Severity::Concern`] and [`Severity::Blocker`] interrupt a run; a
    /// [`Severity::Nit`] is recorded and reported through `on_notes` callbacks but
    /// never sends the agent back on its own.
    ///
    /// Serde reads and writes exactly `nit`, `concern` or `blocker`; a model's
    /// answer is read leniently with [`Severity::parse`] instead.
    #[derive(PartialOrd, Ord, Default)]
    Severity {
        /// Recorded for the operator; the answer ships as is.
        #[default]
        Nit => "nit",
        /// A material risk the agent should weigh before finishing.
        Concern => "concern",
        /// The answer is wrong or unsupported as it stands.
        Blocker => "blocker",
    }
}

impl Severity {
    /// Parses a severity the way reviewers actually write it: trimmed and
    /// case-insensitive. Anything that is not `concern` or `blocker` — including
    /// an empty string or an invented word such as `critical` — is a nit.
    ///
    /// ```
    /// use advisor::Severity;
    /// assert_eq!(Severity::parse(" Blocker "), Severity::Blocker);
    /// assert_eq!(Severity::parse("critical"), Severity::Nit);
    /// ```
    pub fn parse(s: &str) -> Severity {
        let s = s.trim();
        let mut interrupting = [Severity::Blocker, Severity::Concern].into_iter();
        interrupting
            .find(|v| s.eq_ignore_ascii_case(v.as_str()))
            .unwrap_or(Severity::Nit)
    }

    /// Whether a note of this severity sends the agent back (concern or blocker).
    pub fn interrupts(self) -> bool {
        self >= Severity::Concern
    }
}

/// Reads a severity string the way a model writes it ([`Severity::parse`]),
/// for `#[serde(deserialize_with = "advisor::note::lenient_severity")]` on
/// recorded model answers. What the crate writes itself reads strictly.
pub fn lenient_severity<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Severity, D::Error> {
    String::deserialize(deserializer).map(|s| Severity::parse(&s))
}

/// Most characters of a note's [`evidence`](Note::evidence); longer evidence
/// is cut to this many.
pub const MAX_EVIDENCE_CHARS: usize = 1_000;

/// One point raised by a reviewer.
///
/// The text is untrusted: it may quote attacker-controlled transcript content.
/// The guard clamps and cleans it, and rendering escapes it, before the agent
/// ever reads it. Serde is strict: `text` and `severity` required, a known
/// severity, the optional `evidence` and `anchored`, nothing else.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Note {
    /// What the reviewer wants the agent to weigh.
    pub text: String,
    /// How much it matters.
    pub severity: Severity,
    /// The verbatim text the note rests on, lines joined by `\n`, at most
    /// [`MAX_EVIDENCE_CHARS`] characters (`None`: the reviewer quoted
    /// nothing). A model-backed reviewer's blocker re-opens a run only when
    /// this is found in what the reviewer was shown ([`crate::anchor`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// Whether a blocker's evidence was checked against what the reviewer
    /// was shown: `Some(true)` found, so it stays a blocker; `Some(false)`
    /// missing or not found, so it was demoted to a concern; `None` not
    /// checked (not a model-backed reviewer's blocker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchored: Option<bool>,
}

impl Note {
    /// A note with the given text and severity.
    pub fn new(text: impl Into<String>, severity: Severity) -> Note {
        Note {
            text: text.into(),
            severity,
            evidence: None,
            anchored: None,
        }
    }

    /// This note resting on `evidence` (the verbatim text it quotes, lines
    /// joined by `\n`), cut to [`MAX_EVIDENCE_CHARS`] characters; blank
    /// evidence is none.
    ///
    /// ```
    /// use advisor::Note;
    /// let note = Note::blocker("the tests fail").with_evidence("FAILED test_total - assert 3 == 4");
    /// assert_eq!(note.evidence.as_deref(), Some("FAILED test_total - assert 3 == 4"));
    /// assert_eq!(Note::nit("x").with_evidence("  ").evidence, None);
    /// ```
    pub fn with_evidence(mut self, evidence: impl Into<String>) -> Note {
        self.evidence = clamp_evidence(evidence.into());
        self
    }

    /// A [`Severity::Nit`] note.
    pub fn nit(text: impl Into<String>) -> Note {
        Note::new(text, Severity::Nit)
    }

    /// A [`Severity::Concern`] note.
    pub fn concern(text: impl Into<String>) -> Note {
        Note::new(text, Severity::Concern)
    }

    /// A [`Severity::Blocker`] note.
    pub fn blocker(text: impl Into<String>) -> Note {
        Note::new(text, Severity::Blocker)
    }
}

/// `evidence` cut to [`MAX_EVIDENCE_CHARS`] characters; `None` when blank.
pub(crate) fn clamp_evidence(evidence: String) -> Option<String> {
    if evidence.trim().is_empty() {
        return None;
    }
    match evidence.char_indices().nth(MAX_EVIDENCE_CHARS) {
        Some((at, _)) => Some(evidence[..at].to_owned()),
        None => Some(evidence),
    }
}
