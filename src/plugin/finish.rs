//! The per-run advisor extension and its finish review.
//!
//! Owns [`AdvisorRun`]: the bounded window of the last request, the emission
//! guard, the delivered list and the finish-round counter, and the review
//! routine that turns a reviewer's notes into a [`StopDecision`]. It must not
//! decide when it is consulted (the dispatcher and loop do) and must never
//! re-open a run on a reviewer failure.

use std::collections::VecDeque;
use std::sync::Arc;

use async_trait::async_trait;

use super::invoke::call_reviewer;
use super::{Config, DELIVERED_CAPACITY, NotesEvent, PLUGIN_NAME, PROGRESS_NOTE};
use crate::evidence::{Window, bound_final, bound_tools};
use crate::gate::gate_review;
use crate::guard::EmissionGuard;
use crate::host::contain::contain;
use crate::host::{Extension, Message, ObservePhase, RunObserver, StopDecision, StopInfo, StopInterceptor};
use crate::note::Note;
use crate::review::{Review, ReviewError, ReviewKind};

/// The advisor's state for one run.
pub struct AdvisorRun {
    config: Arc<Config>,
    window: Window,
    guard: EmissionGuard,
    delivered: VecDeque<Note>,
    finished: u32,
}

impl std::fmt::Debug for AdvisorRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdvisorRun")
            .field("finished", &self.finished)
            .field("delivered", &self.delivered.len())
            .field("window", &self.window.messages().len())
            .finish_non_exhaustive()
    }
}

impl AdvisorRun {
    pub(crate) fn new(config: Arc<Config>) -> AdvisorRun {
        AdvisorRun {
            window: Window::new(config.evidence),
            guard: EmissionGuard::new(config.max_notes_per_review),
            delivered: VecDeque::new(),
            finished: 0,
            config,
        }
    }

    /// Finish consultations used for the current user request.
    pub fn finish_rounds_used(&self) -> u32 {
        self.finished
    }

    /// Notes delivered to the agent, oldest first (at most 32).
    pub fn delivered(&self) -> Vec<Note> {
        self.delivered.iter().cloned().collect()
    }

    /// The bounded window the next review would read.
    pub fn window(&self) -> &Window {
        &self.window
    }

    /// Starts over for a fresh user request: allowances, delivered notes and
    /// dedupe history are reset; the window is kept.
    fn fresh_request(&mut self) {
        self.finished = 0;
        self.delivered.clear();
        self.guard.reset();
    }

    /// Runs one review and turns its notes into messages to inject (empty when
    /// nothing must reach the agent).
    async fn review(&mut self, review: Review) -> Vec<Message> {
        let kind = review.kind;
        let round = review.round;
        let notes = match call_reviewer(self.config.reviewer.clone(), review, self.config.timeout).await {
            Ok(notes) => notes,
            Err(e) => {
                self.reviewer_failed(kind, &e);
                return Vec::new();
            }
        };
        if notes.is_empty() {
            return Vec::new();
        }
        let gate = gate_review(&mut self.guard, &notes, kind);
        let accepted = gate.accepted();
        if accepted.is_empty() {
            return Vec::new();
        }
        self.notify(kind, round, &accepted, gate.interrupts());
        let Some(injection) = gate.injection else {
            return Vec::new();
        };
        for note in accepted {
            if self.delivered.len() == DELIVERED_CAPACITY {
                self.delivered.pop_front();
            }
            self.delivered.push_back(note);
        }
        vec![Message::user(injection)]
    }

    fn reviewer_failed(&mut self, kind: ReviewKind, error: &ReviewError) {
        tracing::warn!(%kind, error_kind = ?error.kind(), %error, "advisor review failed; the finish is accepted");
    }

    fn notify(&self, kind: ReviewKind, round: u32, notes: &[Note], delivered: bool) {
        let event = NotesEvent {
            reviewer: PLUGIN_NAME,
            kind,
            round,
            notes,
            delivered,
        };
        for callback in &self.config.on_notes {
            if contain(|| callback(&event)).is_none() {
                tracing::warn!("an on_notes callback panicked; ignored");
            }
        }
    }
}

impl RunObserver for AdvisorRun {
    fn observe_messages(&mut self, phase: ObservePhase, turn: u32, messages: &[Message]) {
        match phase {
            ObservePhase::Request | ObservePhase::Restore => self.window.replace(messages),
            ObservePhase::Append => self.window.extend(messages),
            ObservePhase::Rebase => {
                self.window.replace(messages);
                self.guard.reset();
            }
            ObservePhase::ExternalInput => {
                if turn == 0 && !messages.is_empty() && self.finished > 0 {
                    self.fresh_request();
                }
            }
        }
    }
}

#[async_trait]
impl StopInterceptor for AdvisorRun {
    async fn turn_stopping(&mut self, info: &StopInfo) -> StopDecision {
        let rounds = self.config.max_rounds;
        if info.attempt >= rounds || self.finished >= rounds {
            return StopDecision::accept();
        }
        self.finished += 1;
        let bounds = &self.config.evidence;
        let (tools, omitted_tools) = bound_tools(&info.tools, bounds);
        let review = Review {
            kind: ReviewKind::Finish,
            reviewer: PLUGIN_NAME.to_owned(),
            final_answer: Some(bound_final(&info.final_answer, bounds)),
            turns: info.turns,
            messages: self.window.messages().to_vec(),
            omitted_messages: self.window.omitted(),
            tools,
            omitted_tools,
            round: self.finished - 1,
            delivered: self.delivered(),
        };
        let inject = self.review(review).await;
        if inject.is_empty() {
            StopDecision::accept()
        } else {
            StopDecision::reopen(inject, Some(PROGRESS_NOTE.to_owned()))
        }
    }
}

impl Extension for AdvisorRun {
    fn name(&self) -> &str {
        PLUGIN_NAME
    }

    fn observer(&mut self) -> Option<&mut dyn RunObserver> {
        Some(self)
    }

    fn stop_interceptor(&mut self) -> Option<&mut dyn StopInterceptor> {
        Some(self)
    }
}
