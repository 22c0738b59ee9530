//! What a rule's note is: [`Rule`], [`RuleNote`], and how a note quotes evidence.
//!
//! Owns the rule names (their wire names are stable: `advisor eval` reports
//! them), the note with its rule, and [`quote`]: a command or a failing line
//! on one line, without volatile parts ([`stable`]), cut to a
//! bound. Must not decide whether a rule applies: each rule's own module
//! does that.

use std::fmt;

use advisor::note::Note;
use serde::{Deserialize, Serialize};

use super::stable;
use crate::text::truncate_middle;

/// Bytes of evidence quoted in a note.
pub(super) const QUOTE_BYTES: usize = 160;
/// Bytes of a command quoted in a note.
pub(super) const COMMAND_BYTES: usize = 120;

/// Which rule raised a note; its wire name is the rule's stable name
/// (`unverified_completion`, …).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Rule {
    /// The answer claims success over a failing test or build run.
    #[serde(rename = "unverified_completion")]
    UnverifiedCompletion,
    /// A test or build run failed and the answer does not mention it, or
    /// a claim rests on a run the rules cannot read (recorded as a nit).
    #[serde(rename = "unreported_failure")]
    UnreportedFailure,
    /// The answer contains a stub marker.
    #[serde(rename = "stub_marker")]
    StubMarker,
    /// Another tool call failed and no later call of it succeeded.
    #[serde(rename = "tool_failure")]
    ToolFailure,
    /// The answer claims the result of the turn's last step, which failed.
    #[serde(rename = "claimed_failed_step")]
    ClaimedFailedStep,
}

impl Rule {
    /// Every value, in declaration order.
    pub const ALL: &'static [Rule] = &[
        Rule::UnverifiedCompletion,
        Rule::UnreportedFailure,
        Rule::StubMarker,
        Rule::ToolFailure,
        Rule::ClaimedFailedStep,
    ];

    /// The value as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::UnverifiedCompletion => "unverified_completion",
            Rule::UnreportedFailure => "unreported_failure",
            Rule::StubMarker => "stub_marker",
            Rule::ToolFailure => "tool_failure",
            Rule::ClaimedFailedStep => "claimed_failed_step",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A note and the rule that raised it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleNote {
    /// The rule.
    pub rule: Rule,
    /// The note.
    pub note: Note,
}

impl RuleNote {
    pub(super) fn new(rule: Rule, note: Note) -> RuleNote {
        RuleNote { rule, note }
    }
}

/// `text` on one line, without volatile parts, cut to `bytes`.
pub(super) fn quote(text: &str, bytes: usize) -> String {
    let flat: Vec<&str> = text
        .split(|c: char| c.is_control() || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    truncate_middle(&stable::stable(&flat.join(" ")), bytes)
}
