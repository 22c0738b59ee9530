//! One reviewer's run state: its guard, delivered list and counters, and the
//! scheduling rules that read them.
//!
//! Owns [`Member`] and its private counters: the finish cap, the periodic
//! cadence (completed-turn ticks, interval, cap, cooldown), the fresh-request
//! reset, sitting out after a rejected state, the gate with this reviewer's
//! settings and the delivered history. Must not call the reviewer; the run
//! does.

use std::collections::VecDeque;

use super::DELIVERED_CAPACITY;
use super::named_reviewer::NamedReviewer;
use crate::gate::{Admitted, admit};
use crate::guard::GuardSettings;
use crate::guard::{EmissionGuard, SeenKey};
use crate::kind::ReviewKind;
use crate::note::Note;

/// The counters a member keeps; all but `last_turn` are checkpointed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Counters {
    /// Finish consultations since the last fresh request.
    pub(crate) finished: u32,
    /// Periodic reviews since the last fresh request.
    pub(crate) periodic: u32,
    /// Completed turns counted across the runs of a request.
    pub(crate) ticks: u32,
    /// The last completed turn number seen in this run (not checkpointed).
    pub(crate) last_turn: u32,
    /// `ticks` at the last periodic review.
    pub(crate) last_review: u32,
    /// No periodic review before `ticks` reaches this.
    pub(crate) cooldown_until: u32,
}

/// One reviewer taking part in a run. Owns its counters: the run asks it
/// whether a review may run and tells it when one does.
pub(crate) struct Member {
    pub(crate) cfg: NamedReviewer,
    settings: GuardSettings,
    guard: EmissionGuard,
    delivered: VecDeque<Note>,
    c: Counters,
}

impl Member {
    pub(crate) fn new(cfg: NamedReviewer, max_notes_per_review: usize, similarity: bool) -> Member {
        let settings = GuardSettings {
            max_notes_per_review,
            similarity,
            max_severity: cfg.max_severity,
            interrupt: cfg.interrupt,
        };
        Member {
            cfg,
            guard: settings.guard(),
            settings,
            delivered: VecDeque::new(),
            c: Counters::default(),
        }
    }

    /// The settings this member's notes are gated with.
    pub(crate) fn settings(&self) -> GuardSettings {
        self.settings
    }

    /// The counters, for a checkpoint.
    pub(crate) fn counters(&self) -> Counters {
        self.c
    }

    /// The delivered notes, oldest first.
    pub(crate) fn delivered(&self) -> impl Iterator<Item = &Note> {
        self.delivered.iter()
    }

    /// The dedupe history, for a checkpoint.
    pub(crate) fn history(&self) -> Vec<SeenKey> {
        self.guard.history()
    }

    /// Replaces the state with a validated saved one.
    pub(crate) fn restore(&mut self, counters: Counters, delivered: Vec<Note>, seen: Vec<SeenKey>) {
        self.c = counters;
        self.delivered = delivered.into();
        self.guard.set_history(seen);
    }

    /// After a rejected saved state: the allowances of the current request
    /// count as spent (never refilled by a bad state), until a fresh request.
    pub(crate) fn sit_out(&mut self) {
        self.c.finished = self.cfg.max_rounds;
        self.c.periodic = self.cfg.max_periodic_reviews;
    }

    /// Whether a fresh user request resets this member: only after it ran a
    /// finish review for the previous request.
    pub(crate) fn fresh_request(&mut self) -> bool {
        if self.c.finished == 0 {
            return false;
        }
        self.c = Counters::default();
        self.delivered.clear();
        self.guard.reset();
        true
    }

    /// The history was rebased: dedupe starts over.
    pub(crate) fn rebase(&mut self) {
        self.guard.reset();
    }

    /// Counts a finish consultation and returns its 0-based round, or `None`
    /// when the allowance is spent (`attempt` is ignored in group mode, where
    /// the dispatcher counts the whole group as one extension).
    pub(crate) fn begin_finish(&mut self, attempt: Option<u32>) -> Option<u32> {
        let rounds = self.cfg.max_rounds;
        if self.c.finished >= rounds || attempt.is_some_and(|a| a >= rounds) {
            return None;
        }
        self.c.finished += 1;
        Some(self.c.finished - 1)
    }

    /// Counts the turns completed before `upcoming_turn` (1-based) and says
    /// whether a periodic review is due now.
    pub(crate) fn periodic_due(&mut self, upcoming_turn: u32) -> bool {
        self.settle(upcoming_turn.saturating_sub(1));
        let c = &self.c;
        self.cfg.interval_turns > 0
            && c.periodic < self.cfg.max_periodic_reviews
            && c.ticks.saturating_sub(c.last_review) >= self.cfg.interval_turns
            && c.ticks >= c.cooldown_until
    }

    /// Counts a periodic review; returns its 0-based round and the completed
    /// turns counted so far.
    pub(crate) fn begin_periodic(&mut self) -> (u32, u32) {
        self.c.periodic += 1;
        self.c.last_review = self.c.ticks;
        (self.c.periodic - 1, self.c.ticks)
    }

    /// Counts turns up to and including `completed_turn`.
    pub(crate) fn settle(&mut self, completed_turn: u32) {
        let new = completed_turn.saturating_sub(self.c.last_turn);
        self.c.ticks = self.c.ticks.saturating_add(new);
        self.c.last_turn = self.c.last_turn.max(completed_turn);
    }

    /// Pushes periodic reviews back after a failed review.
    pub(crate) fn cool_down(&mut self) {
        self.c.cooldown_until = self.c.ticks.saturating_add(self.cfg.cooldown_turns);
    }

    /// Gates a review's raw notes with this member's settings and guard.
    pub(crate) fn gate(&mut self, notes: &[Note], kind: ReviewKind) -> Admitted {
        admit(
            &mut self.guard,
            notes,
            kind,
            self.settings.max_severity,
            self.settings.interrupt,
        )
    }

    /// Remembers notes delivered to the agent, keeping the last 32.
    pub(crate) fn remember(&mut self, notes: &[Note]) {
        self.delivered.extend(notes.iter().cloned());
        let extra = self.delivered.len().saturating_sub(DELIVERED_CAPACITY);
        self.delivered.drain(..extra);
    }
}
