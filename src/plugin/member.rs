//! One reviewer's run state: its guard, delivered list and counters, and the
//! scheduling rules that read them.
//!
//! Owns [`Member`]: the finish cap, the periodic cadence (completed-turn
//! ticks, interval, cap, cooldown), the fresh-request reset and the delivered
//! history. Must not call the reviewer; the run does.

use std::collections::VecDeque;

use super::DELIVERED_CAPACITY;
use super::reviewer_config::ReviewerConfig;
use crate::guard::EmissionGuard;
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

/// One reviewer taking part in a run.
pub(crate) struct Member {
    pub(crate) cfg: ReviewerConfig,
    pub(crate) guard: EmissionGuard,
    pub(crate) delivered: VecDeque<Note>,
    pub(crate) c: Counters,
}

impl Member {
    pub(crate) fn new(cfg: ReviewerConfig, max_notes_per_review: usize, similarity: bool) -> Member {
        Member {
            cfg,
            guard: EmissionGuard::new(max_notes_per_review).with_similarity(similarity),
            delivered: VecDeque::new(),
            c: Counters::default(),
        }
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

    /// Whether a finish review may run (`attempt` is ignored in group mode,
    /// where the dispatcher counts the whole group as one extension).
    pub(crate) fn finish_allowed(&self, attempt: Option<u32>) -> bool {
        let rounds = self.cfg.max_rounds;
        self.c.finished < rounds && attempt.is_none_or(|a| a < rounds)
    }

    /// Counts the turns completed before `upcoming_turn` (1-based).
    pub(crate) fn tick_before(&mut self, upcoming_turn: u32) {
        self.settle(upcoming_turn.saturating_sub(1));
    }

    /// Counts turns up to and including `completed_turn`.
    pub(crate) fn settle(&mut self, completed_turn: u32) {
        let new = completed_turn.saturating_sub(self.c.last_turn);
        self.c.ticks = self.c.ticks.saturating_add(new);
        self.c.last_turn = self.c.last_turn.max(completed_turn);
    }

    /// Whether a periodic review is due now.
    pub(crate) fn periodic_due(&self) -> bool {
        let c = &self.c;
        self.cfg.interval_turns > 0
            && c.periodic < self.cfg.max_periodic_reviews
            && c.ticks.saturating_sub(c.last_review) >= self.cfg.interval_turns
            && c.ticks >= c.cooldown_until
    }

    /// Pushes periodic reviews back after a failed review.
    pub(crate) fn cool_down(&mut self) {
        self.c.cooldown_until = self.c.ticks.saturating_add(self.cfg.cooldown_turns);
    }

    /// Remembers notes delivered to the agent, keeping the last 32.
    pub(crate) fn remember(&mut self, notes: &[Note]) {
        for note in notes {
            if self.delivered.len() == DELIVERED_CAPACITY {
                self.delivered.pop_front();
            }
            self.delivered.push_back(note.clone());
        }
    }
}
