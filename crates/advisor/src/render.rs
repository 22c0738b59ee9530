//! Rendering of admitted notes into the message the agent reads.
//!
//! Owns the `<advisory>` element and the injection wording; it escapes with
//! the crate's one markup escaper (the private `markup` module). It must not decide
//! which notes are delivered (the guard does) and must never let note text
//! close or forge an element: all five HTML-special characters are escaped in
//! text and attributes.
//!
//! # What the model sees
//!
//! One user-role message, for a finish review:
//!
//! ```text
//! [System: a reviewer read the answer you were about to give and raised the
//! points below. It is a second opinion from a reviewer that did NOT do the
//! work, and it may be wrong.
//!
//! <advisory severity="concern" guidance="weigh, don&#x27;t blindly obey">
//! the revenue figure sums a filtered and an unfiltered query
//! </advisory>
//!
//! Check each point against what you actually did. ... reply with the COMPLETE
//! answer the user should see ... If nothing needs to change, send the same
//! answer again unchanged.]
//! ```
//!
//! A periodic review uses its own framing ("reviewed your work in progress"),
//! since there is no answer yet.
//!
//! # Impact on the agent
//!
//! `guidance` is the agent's only cue that an advisory is to be weighed, not
//! obeyed. The closing instruction exists because the message arrives as a user
//! message: without it, a model that judges itself compliant replies with a
//! verdict on the note, and that verdict replaces the user's answer.

use crate::guard::{ReviewOutcome, clean_delivered};
use crate::kind::ReviewKind;
use crate::markup::push_escaped_markup;
use crate::note::{Note, Severity};

/// The guidance attribute carried by every advisory (before escaping).
pub const GUIDANCE: &str = "weigh, don't blindly obey";

/// The guidance attribute as written inside its quotes.
const GUIDANCE_ESCAPED: &str = "weigh, don&#x27;t blindly obey";

/// Renders one `<advisory>` element per note, separated by a newline.
///
/// The severity attribute is always one of `nit`, `concern`, `blocker`. Note
/// text is cleaned of control and invisible characters
/// ([`crate::guard::strip_controls`]) before it is escaped, whoever built the
/// note: nothing invisible reaches the agent.
///
/// ```
/// use advisor::{Note, render::render_advisories};
/// let out = render_advisories(&[Note::concern("a </advisory> b")]);
/// assert_eq!(out.matches("</advisory>").count(), 1);
/// assert!(out.contains("a &lt;/advisory&gt; b"));
/// ```
pub fn render_advisories<'a>(notes: impl IntoIterator<Item = &'a Note>) -> String {
    let mut out = String::new();
    push_advisories(&mut out, notes);
    out
}

/// Appends [`render_advisories`] of `notes` to `out`.
fn push_advisories<'a>(out: &mut String, notes: impl IntoIterator<Item = &'a Note>) {
    for (i, note) in notes.into_iter().enumerate() {
        push_advisory(out, i, note.severity, &clean_delivered(&note.text));
    }
}

/// Appends the `i`-th `<advisory>` element (0-based): a newline before all
/// but the first, then the element for `text`, already cleaned of control
/// and invisible characters.
fn push_advisory(out: &mut String, i: usize, severity: Severity, text: &str) {
    if i > 0 {
        out.push('\n');
    }
    // a severity name and the guidance need no escape beyond the one
    // GUIDANCE_ESCAPED carries (tests check both)
    out.push_str("<advisory severity=\"");
    out.push_str(severity.as_str());
    out.push_str("\" guidance=\"");
    out.push_str(GUIDANCE_ESCAPED);
    out.push_str("\">\n");
    push_escaped_markup::<true>(out, text);
    out.push_str("\n</advisory>");
}

const FINISH_FRAMING: &str = "[System: a reviewer read the answer you were about to give and raised the points below. \
It is a second opinion from a reviewer that did NOT do the work, and it may be wrong.\n\n";

const PERIODIC_FRAMING: &str = "[System: a reviewer looked over your work in progress and raised the points below. \
It is a second opinion from a reviewer that did NOT do the work, and it may be wrong.\n\n";

const FINISH_CLOSING: &str = "\n\nCheck each point against what you actually did. Fix what is right; for anything \
you judge wrong or already handled, say so in one line with the reason. This note is not shown to the user \
and is not a question to answer: your next message is what the user reads, so reply with the COMPLETE answer \
the user should see, never a comment about this note. If nothing needs to change, send the same answer again \
unchanged.]";

const PERIODIC_CLOSING: &str = "\n\nCheck each point against what you have actually done so far. Act on what is \
right; for anything you judge wrong or already handled, note why in one line and carry on. This note is not \
shown to the user and needs no reply of its own: continue the task, and when you finish, give the COMPLETE \
answer the user should see.]";

/// Renders the injection message for a review that interrupts: the framing,
/// the advisories, and the closing instruction for the review's kind.
pub fn render_injection<'a>(notes: impl IntoIterator<Item = &'a Note>, kind: ReviewKind) -> String {
    framed(kind, |out| push_advisories(out, notes))
}

/// The injection frame of `kind` around what `advisories` appends.
fn framed(kind: ReviewKind, advisories: impl FnOnce(&mut String)) -> String {
    let frame = injection_frame(kind);
    let mut out = String::with_capacity(frame.head.len() + frame.tail.len() + 512);
    out.push_str(frame.head);
    advisories(&mut out);
    out.push_str(frame.tail);
    out
}

/// [`render_injection`] of the notes `outcome` admitted. Their text is what
/// the guard delivers — already cleaned ([`crate::guard::PreparedNote`]) —
/// so it is not cleaned a second time.
pub(crate) fn render_admitted(outcome: &ReviewOutcome, kind: ReviewKind) -> String {
    framed(kind, |out| {
        for (i, a) in outcome.admissions.iter().filter(|a| a.accepted()).enumerate() {
            push_advisory(out, i, a.note.severity, &a.note.text);
        }
    })
}

/// The fixed text around the advisories of an injection: every injection of
/// a kind is `head + advisories + tail`. Lets a writer that escapes the
/// injection (`advisor replay --json`) escape the fixed parts once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InjectionFrame {
    /// The framing paragraph and the blank line after it.
    pub head: &'static str,
    /// The blank line and the closing instruction.
    pub tail: &'static str,
}

/// The [`InjectionFrame`] of a review kind.
///
/// ```
/// use advisor::{Note, render::{injection_frame, render_advisories, render_injection}, kind::ReviewKind};
/// let notes = [Note::concern("check the join")];
/// let f = injection_frame(ReviewKind::Finish);
/// assert_eq!(render_injection(&notes, ReviewKind::Finish),
///            format!("{}{}{}", f.head, render_advisories(&notes), f.tail));
/// ```
pub fn injection_frame(kind: ReviewKind) -> InjectionFrame {
    match kind {
        ReviewKind::Finish => InjectionFrame {
            head: FINISH_FRAMING,
            tail: FINISH_CLOSING,
        },
        ReviewKind::Periodic => InjectionFrame {
            head: PERIODIC_FRAMING,
            tail: PERIODIC_CLOSING,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped<const QUOTES: bool>(s: &str) -> String {
        let mut out = String::new();
        push_escaped_markup::<QUOTES>(&mut out, s);
        out
    }

    #[test]
    fn admitted_notes_render_as_the_raw_notes_do() {
        let notes = [
            Note::concern("a\u{202E}b <x> \u{E0041}y"),
            Note::blocker("c\u{7}d\u{85}e"),
            Note::nit("plain 'text'"),
        ];
        let outcome = crate::guard::EmissionGuard::new(0).screen(&notes);
        for kind in [ReviewKind::Finish, ReviewKind::Periodic] {
            assert_eq!(render_admitted(&outcome, kind), render_injection(&notes, kind));
        }
    }

    #[test]
    fn the_fixed_attribute_values_are_written_escaped() {
        assert_eq!(escaped::<true>(GUIDANCE), GUIDANCE_ESCAPED);
        for s in [Severity::Nit, Severity::Concern, Severity::Blocker] {
            assert_eq!(escaped::<true>(s.as_str()), s.as_str());
        }
    }
}
