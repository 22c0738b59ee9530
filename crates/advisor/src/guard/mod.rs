//! The emission guard: the executable policy between what a reviewer says and
//! what the agent reads.
//!
//! Owns the per-note admission steps (docs/design.md §5) and the dedupe history. It
//! must not render (see [`crate::render`]) and must never tell the reviewer what
//! it suppressed: feedback of that kind teaches a model to rephrase the same
//! useless note to get past the filter.
//!
//! # Steps, in order
//!
//! 1. trim and clamp to [`MAX_NOTE_CHARS`] characters (never splitting a char);
//! 2. strip control and invisible characters ([`crate::invisible`]) from the
//!    delivered text;
//! 3. key = [`normalize_note`]; an empty key is [`Reason::Empty`], a key in
//!    [`CONTENT_FREE_PHRASES`] is [`Reason::ContentFree`];
//! 4. dedupe: a repeat passes only if its severity strictly exceeds what was
//!    delivered for that key ([`Reason::Duplicate`]);
//! 5. breadth cap per review ([`Reason::OverBudget`]). Suppressed notes never
//!    spend the cap, and within one review notes are admitted most-severe
//!    first, so three nits cannot push a blocker out.
//!
//! # Token effect
//!
//! Bounds the injection: at most `max_per_review` notes of at most
//! [`MAX_NOTE_CHARS`] characters each per review.

mod confusable;
mod fast_key;
mod normalize;
mod similarity;

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use crate::note::{Note, Severity};

/// The guard's maps: keys are hashed with foldhash (fast, seeded per map).
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

pub use normalize::{
    CONTENT_FREE_PHRASES, PreparedNote, clean_delivered, is_content_free, normalize_note, normalize_note_spec,
    strip_controls,
};

/// Longest note text, in characters, that can reach the agent.
pub const MAX_NOTE_CHARS: usize = 2000;
/// How many dedupe keys the guard remembers; the oldest is forgotten first.
pub const DEDUPE_CAPACITY: usize = 4096;
/// Default breadth cap: notes admitted per review.
pub const DEFAULT_MAX_NOTES_PER_REVIEW: usize = 3;

wire_enum! {
    /// Why the guard admitted or suppressed a note. Its wire name (snake_case)
    /// is used in traces and `advisor replay` output.
    Reason {
        /// Admitted.
        Accepted => "accepted",
        /// Nothing left once punctuation, whitespace and invisible characters are gone.
        Empty => "empty",
        /// A phrase that only expresses silence ("Stop.", "LGTM", "No issues").
        ContentFree => "content_free",
        /// Already delivered at this severity or higher.
        Duplicate => "duplicate",
        /// The review already used its breadth cap.
        OverBudget => "over_budget",
    }
}

/// The guard's decision on one note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admission {
    /// Position of the note in the reviewer's list.
    pub index: usize,
    /// The note as it would be delivered: trimmed, clamped, cleaned; the
    /// severity is the parsed one.
    pub note: Note,
    /// The dedupe key ([`normalize_note`] of the delivered text).
    pub key: String,
    /// Why it was admitted or suppressed.
    pub reason: Reason,
}

impl Admission {
    /// Whether the note was admitted.
    pub fn accepted(&self) -> bool {
        self.reason == Reason::Accepted
    }
}

/// The guard's decisions on one review, in the reviewer's order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReviewOutcome {
    /// One decision per note the reviewer returned, in the reviewer's order.
    pub admissions: Vec<Admission>,
}

impl ReviewOutcome {
    /// The admitted notes, in the reviewer's order.
    pub fn accepted(&self) -> Vec<Note> {
        self.admissions
            .iter()
            .filter(|a| a.accepted())
            .map(|a| a.note.clone())
            .collect()
    }

    /// Whether any admitted note interrupts under the seed's rule (a concern
    /// or a blocker): [`interrupts_at`](Self::interrupts_at) with
    /// [`Severity::Concern`]. The whole review is then delivered, nits
    /// included.
    pub fn interrupts(&self) -> bool {
        self.interrupts_at(Severity::Concern)
    }

    /// Whether the review sends the agent back when notes of `at` or above
    /// re-open a run: an admitted note of that severity.
    pub fn interrupts_at(&self, at: Severity) -> bool {
        self.admissions.iter().any(|a| a.accepted() && a.note.severity >= at)
    }
}

/// The settings one reviewer's notes are gated with; recorded in every
/// traced review so a replay runs with exactly these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuardSettings {
    /// Notes admitted per review (the breadth cap).
    pub max_notes_per_review: usize,
    /// Whether paraphrases count as repeats (similarity dedupe).
    pub similarity: bool,
    /// The highest severity the reviewer may raise; higher notes are
    /// downgraded before the guard.
    pub max_severity: Severity,
    /// The lowest severity that sends the agent back (traces written before
    /// it existed read as [`Severity::Concern`], the seed's rule); admitted
    /// notes below it that are not nits go to the user instead.
    #[serde(default = "concern")]
    pub interrupt: Severity,
}

fn concern() -> Severity {
    Severity::Concern
}

impl GuardSettings {
    /// A fresh guard with these settings.
    pub fn guard(&self) -> EmissionGuard {
        EmissionGuard::new(self.max_notes_per_review).with_similarity(self.similarity)
    }
}

/// One remembered dedupe key and the highest severity delivered for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeenKey {
    /// The normalized key.
    pub key: String,
    /// The highest severity admitted for it.
    pub severity: Severity,
}

/// The emission guard. One per reviewer; finish and periodic reviews of that
/// reviewer share it.
///
/// ```
/// use advisor::{EmissionGuard, Note, guard::Reason};
/// let mut guard = EmissionGuard::new(3);
/// let out = guard.screen(&[Note::blocker("Stop."), Note::concern("the totals double-count refunds")]);
/// assert_eq!(out.admissions[0].reason, Reason::ContentFree);
/// assert!(out.interrupts());
/// ```
#[derive(Debug, Clone)]
pub struct EmissionGuard {
    max_per_review: usize,
    per_review: usize,
    seen: HashMap<String, Severity>,
    order: VecDeque<String>,
    /// Content words per remembered key; `Some` only with similarity dedupe on.
    words: Option<HashMap<String, Vec<String>>>,
}

/// A guard admitting [`DEFAULT_MAX_NOTES_PER_REVIEW`] notes per review and
/// remembering at most [`DEDUPE_CAPACITY`] keys.
impl Default for EmissionGuard {
    fn default() -> EmissionGuard {
        EmissionGuard::new(DEFAULT_MAX_NOTES_PER_REVIEW)
    }
}

impl EmissionGuard {
    /// A guard admitting at most `max_per_review` notes per review (`0` means
    /// no breadth cap; the dedupe history is bounded either way).
    pub fn new(max_per_review: usize) -> EmissionGuard {
        EmissionGuard {
            max_per_review,
            per_review: 0,
            seen: HashMap::default(),
            order: VecDeque::new(),
            words: None,
        }
    }

    /// Turns on similarity dedupe (off by default): a note whose content words
    /// overlap a remembered note's by at least 0.8 of the smaller set (both at
    /// least 3 words) counts as a repeat of it. Catches counter-style
    /// paraphrase floods; distinct concerns that share a few words are kept.
    pub fn with_similarity(mut self, on: bool) -> EmissionGuard {
        self.words = on.then(|| {
            self.order
                .iter()
                .map(|k| (k.clone(), similarity::content_words(k)))
                .collect()
        });
        self
    }

    /// Whether similarity dedupe is on.
    pub fn similarity(&self) -> bool {
        self.words.is_some()
    }

    /// The highest severity delivered for `key` or, with similarity dedupe,
    /// for a remembered key similar to it.
    fn prior(&self, key: &str) -> Option<Severity> {
        let exact = self.seen.get(key).copied();
        let Some(words) = &self.words else { return exact };
        let mine = similarity::content_words(key);
        words
            .iter()
            .filter(|(_, theirs)| similarity::similar(&mine, theirs))
            .filter_map(|(k, _)| self.seen.get(k).copied())
            .chain(exact)
            .max()
    }

    /// Starts a new review: the breadth counter goes back to zero; the dedupe
    /// history survives.
    pub fn begin_review(&mut self) {
        self.per_review = 0;
    }

    /// Forgets the dedupe history (a rebase replaced what earlier notes were
    /// about, or a fresh user request began).
    pub fn reset(&mut self) {
        self.per_review = 0;
        self.seen.clear();
        self.order.clear();
        if let Some(words) = &mut self.words {
            words.clear();
        }
    }

    /// Screens one review's notes: [`begin_review`](Self::begin_review),
    /// then every note, most severe first (stable), returning the decisions in
    /// the reviewer's order. Takes notes (`&Note` or `Note`) or notes already
    /// prepared ([`PreparedNote`], e.g. on another thread).
    pub fn screen<N: Into<PreparedNote>>(&mut self, notes: impl IntoIterator<Item = N>) -> ReviewOutcome {
        self.begin_review();
        let mut admissions: Vec<Admission> = notes
            .into_iter()
            .enumerate()
            .map(|(index, p)| {
                let p = p.into();
                Admission {
                    index,
                    note: p.note,
                    key: p.key,
                    reason: Reason::Accepted,
                }
            })
            .collect();
        // most severe first; in the reviewer's order within a severity
        for severity in [Severity::Blocker, Severity::Concern, Severity::Nit] {
            for a in admissions.iter_mut().filter(|a| a.note.severity == severity) {
                a.reason = self.decide(&a.key, severity);
            }
        }
        ReviewOutcome { admissions }
    }

    /// Decides on one note within the current review and records it when
    /// admitted. The returned [`Admission::index`] is 0.
    pub fn accept(&mut self, note: &Note) -> Admission {
        let p = PreparedNote::from(note);
        let reason = self.decide(&p.key, p.note.severity);
        Admission {
            index: 0,
            note: p.note,
            key: p.key,
            reason,
        }
    }

    /// The decision on one prepared note; records it when admitted.
    fn decide(&mut self, key: &str, severity: Severity) -> Reason {
        if key.is_empty() {
            Reason::Empty
        } else if is_content_free(key) {
            Reason::ContentFree
        } else if self.prior(key).is_some_and(|prev| severity <= prev) {
            Reason::Duplicate
        } else if self.max_per_review > 0 && self.per_review >= self.max_per_review {
            Reason::OverBudget
        } else {
            self.record(key, severity);
            Reason::Accepted
        }
    }

    fn record(&mut self, key: &str, severity: Severity) {
        self.per_review += 1;
        if self.seen.insert(key.to_owned(), severity).is_none() {
            self.order.push_back(key.to_owned());
            if let Some(words) = &mut self.words {
                words.insert(key.to_owned(), similarity::content_words(key));
            }
            while self.order.len() > DEDUPE_CAPACITY {
                if let Some(old) = self.order.pop_front() {
                    self.seen.remove(&old);
                    if let Some(words) = &mut self.words {
                        words.remove(&old);
                    }
                }
            }
        }
    }

    /// The dedupe history, oldest first.
    pub fn history(&self) -> Vec<SeenKey> {
        self.order
            .iter()
            .filter_map(|k| {
                self.seen.get(k).map(|s| SeenKey {
                    key: k.clone(),
                    severity: *s,
                })
            })
            .collect()
    }

    /// Replaces the dedupe history (oldest first). Entries beyond
    /// [`DEDUPE_CAPACITY`] evict the oldest, exactly as live admissions would; a
    /// repeated key keeps its first position and its highest severity.
    pub fn set_history(&mut self, history: impl IntoIterator<Item = SeenKey>) {
        self.reset();
        for entry in history {
            match self.seen.get_mut(&entry.key) {
                Some(prev) => *prev = (*prev).max(entry.severity),
                None => {
                    self.record(&entry.key, entry.severity);
                }
            }
        }
        self.per_review = 0;
    }

    /// How many keys the dedupe history holds.
    pub fn remembered(&self) -> usize {
        self.order.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_is_fifo_bounded() {
        let mut g = EmissionGuard::new(0);
        for i in 0..DEDUPE_CAPACITY + 10 {
            assert!(g.accept(&Note::nit(format!("point {i}"))).accepted());
        }
        assert_eq!(g.remembered(), DEDUPE_CAPACITY);
        // the oldest keys were forgotten, the newest are remembered
        assert!(g.accept(&Note::nit("point 0")).accepted());
        let last = format!("point {}", DEDUPE_CAPACITY + 9);
        assert_eq!(g.accept(&Note::nit(last)).reason, Reason::Duplicate);
    }

    #[test]
    fn history_round_trips() {
        let mut g = EmissionGuard::new(3);
        g.screen(&[Note::concern("check the join"), Note::nit("style")]);
        let mut h = EmissionGuard::new(3);
        h.set_history(g.history());
        assert_eq!(h.history(), g.history());
        assert_eq!(h.accept(&Note::concern("Check the join!")).reason, Reason::Duplicate);
    }
}
