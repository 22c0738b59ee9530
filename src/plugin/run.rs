//! The per-run advisor extension: finish and periodic reviews for every
//! configured reviewer.
//!
//! Owns [`AdvisorRun`]: the shared bounded window of the run, one
//! [`Member`] per reviewer, the review routine that turns a reviewer's notes
//! into injected messages (through the shared [`gate_review`]), the trace
//! events and the per-run report. It must not decide when it is consulted (the
//! dispatcher and loop do) and never re-opens a run on a reviewer failure.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use serde_json::Value;

use super::invoke::call_reviewer;
use super::member::Member;
use super::report::RunReport;
use super::{Config, NotesEvent, PLUGIN_NAME, PROGRESS_NOTE, checkpoint};
use crate::budget::{BudgetScope, BudgetStop, TokenBudget};
use crate::error::Error;
use crate::evidence::{Window, bound_final, bound_tools};
use crate::gate::gate_review;
use crate::host::contain::contain;
use crate::host::{
    Checkpoint, Extension, Message, ObservePhase, RunEnd, RunFinalizer, RunObserver, StepInfo, StepInterceptor,
    StopDecision, StopInfo, StopInterceptor,
};
use crate::model::Usage;
use crate::note::{Note, Severity};
use crate::review::{Review, ReviewKind};
use crate::trace::{TraceDecision, TraceError, TraceEvent, TraceEventKind, WindowStats};

/// The advisor's state for one run.
pub struct AdvisorRun {
    config: Arc<Config>,
    window: Window,
    members: Vec<Member>,
    report: RunReport,
    /// Tokens spent on reviews for the current user request.
    request_budget: TokenBudget,
    /// Tokens spent on reviews over the checkpointed lifetime.
    session_budget: TokenBudget,
}

impl std::fmt::Debug for AdvisorRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdvisorRun")
            .field(
                "reviewers",
                &self.members.iter().map(|m| m.cfg.name.as_str()).collect::<Vec<_>>(),
            )
            .field("window", &self.window.messages().len())
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

impl AdvisorRun {
    pub(crate) fn new(config: Arc<Config>) -> AdvisorRun {
        let members = config
            .members
            .iter()
            .map(|cfg| Member::new(cfg.clone(), config.max_notes_per_review, config.similarity))
            .collect();
        AdvisorRun {
            window: Window::new(config.evidence),
            members,
            report: RunReport::default(),
            request_budget: TokenBudget::new(BudgetScope::Request, config.max_review_tokens),
            session_budget: TokenBudget::new(BudgetScope::Session, config.max_session_review_tokens),
            config,
        }
    }

    fn member(&self, reviewer: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.cfg.name == reviewer)
    }

    /// Finish consultations `reviewer` used for the current user request.
    pub fn finish_rounds_used(&self, reviewer: &str) -> u32 {
        self.member(reviewer).map_or(0, |m| m.c.finished)
    }

    /// Periodic reviews `reviewer` ran for the current user request.
    pub fn periodic_reviews_used(&self, reviewer: &str) -> u32 {
        self.member(reviewer).map_or(0, |m| m.c.periodic)
    }

    /// Notes delivered to the agent by `reviewer`, oldest first (at most 32).
    pub fn delivered(&self, reviewer: &str) -> Vec<Note> {
        self.member(reviewer)
            .map(|m| m.delivered.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Review tokens spent for the current user request and over the
    /// checkpointed lifetime (session), in that order.
    pub fn review_tokens_spent(&self) -> (u64, u64) {
        (self.request_budget.spent(), self.session_budget.spent())
    }

    /// The spent budget that stops the next review, if any.
    pub fn budget_stop(&self) -> Option<BudgetStop> {
        self.session_budget
            .exhausted()
            .or_else(|| self.request_budget.exhausted())
    }

    /// Records that member `idx`'s review did not run because `stop`'s budget
    /// was spent: the report and a `budget_spent` trace event say why.
    fn skip_for_budget(&mut self, idx: usize, kind: ReviewKind, stop: BudgetStop) {
        tracing::info!(reviewer = %self.members[idx].cfg.name, %kind, %stop, "advisor review skipped");
        self.report.budget_skipped += 1;
        self.report.budget_stop = Some(stop);
        let mut event = TraceEvent::new(TraceEventKind::BudgetSpent, self.members[idx].cfg.name.clone());
        event.kind = Some(kind);
        event.budget = Some(stop);
        self.trace(&event);
        self.publish_report();
    }

    /// The bounded window the next review would read.
    pub fn window(&self) -> &Window {
        &self.window
    }

    /// What the advisor did so far in this run.
    pub fn report(&self) -> RunReport {
        self.report
    }

    fn publish_report(&self) {
        if let Ok(mut last) = self.config.last_report.lock() {
            *last = Some(self.report);
        }
    }

    /// Whether a trace sink is configured; trace events (and the copies of
    /// notes, keys and injections they carry) are built only then.
    fn tracing(&self) -> bool {
        self.config.trace.is_some()
    }

    fn trace(&self, event: &TraceEvent) {
        if let Some(sink) = &self.config.trace {
            if contain(|| sink.record(event)).is_none() {
                tracing::warn!("the advisor trace sink panicked; ignored");
            }
        }
    }

    fn review_for(&self, idx: usize, kind: ReviewKind, round: u32, turns: u32) -> Review {
        let m = &self.members[idx];
        Review {
            kind,
            reviewer: m.cfg.name.clone(),
            final_answer: None,
            turns,
            messages: self.window.messages().to_vec(),
            omitted_messages: self.window.omitted(),
            tools: Vec::new(),
            omitted_tools: 0,
            round,
            delivered: m.delivered.iter().cloned().collect(),
            max_prompt_tokens: self.config.max_prompt_tokens,
            usage: crate::review::UsageMeter::new(),
        }
    }

    /// Runs member `idx`'s reviewer and returns the message to inject, if any.
    async fn run_review(&mut self, idx: usize, review: Review) -> Option<Message> {
        let kind = review.kind;
        let round = review.round;
        let mut event = TraceEvent::new(TraceEventKind::Review, self.members[idx].cfg.name.clone());
        event.kind = Some(kind);
        event.round = Some(round);
        let tracing = self.tracing();
        event.window = tracing.then(|| WindowStats {
            messages: review.messages.len(),
            bytes: review.messages.iter().map(|m| m.content.len()).sum(),
            omitted_messages: review.omitted_messages,
            tools: review.tools.len(),
        });
        let (reviewer, shadow, cap) = {
            let cfg = &self.members[idx].cfg;
            (cfg.reviewer.clone(), cfg.shadow, cfg.max_severity)
        };
        event.shadow = shadow;
        event.max_severity = (cap < Severity::Blocker).then_some(cap);
        self.report.reviewed(kind);
        let meter = review.usage.clone();
        let started = Instant::now();
        let result = call_reviewer(reviewer, review, self.config.timeout).await;
        event.latency_ms = Some(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
        let usage = meter.total();
        if usage != Usage::default() {
            self.request_budget.charge(usage);
            self.session_budget.charge(usage);
            self.report.usage += usage;
            event.usage = Some(usage);
            for callback in &self.config.on_usage {
                if contain(|| callback(&event.reviewer, usage)).is_none() {
                    tracing::warn!("an on_usage callback panicked; ignored");
                }
            }
        }
        let inject = match result {
            Err(error) => {
                tracing::warn!(reviewer = %event.reviewer, %kind, error_kind = ?error.kind(), %error,
                    "advisor review failed; the run goes on as without an advisor");
                self.report.failed(error.kind());
                self.members[idx].cool_down();
                event.error = Some(TraceError {
                    kind: error.kind(),
                    message: error.to_string(),
                });
                None
            }
            Ok(notes) => {
                if tracing {
                    event.notes = notes.clone();
                }
                self.gate(idx, kind, round, notes, shadow, cap, &mut event)
            }
        };
        if tracing {
            self.trace(&event);
        }
        self.publish_report();
        inject
    }

    #[allow(clippy::too_many_arguments)]
    fn gate(
        &mut self,
        idx: usize,
        kind: ReviewKind,
        round: u32,
        mut notes: Vec<Note>,
        shadow: bool,
        cap: Severity,
        event: &mut TraceEvent,
    ) -> Option<Message> {
        for n in &mut notes {
            n.severity = n.severity.min(cap);
        }
        let tracing = self.tracing();
        let member = &mut self.members[idx];
        let gate = gate_review(&mut member.guard, &notes, kind);
        for a in &gate.outcome.admissions {
            self.report.suppressed.count(a.reason);
            if tracing {
                event.decisions.push(TraceDecision {
                    note: a.index,
                    severity: a.note.severity,
                    reason: a.reason,
                    key: a.key.clone(),
                });
            }
        }
        let accepted = gate.accepted();
        self.report.notes_admitted += u32::try_from(accepted.len()).unwrap_or(u32::MAX);
        if accepted.is_empty() {
            return None;
        }
        let interrupts = gate.interrupts();
        let delivered = interrupts && !shadow;
        let name = member.cfg.name.clone();
        let event_for_callbacks = NotesEvent {
            reviewer: &name,
            kind,
            round,
            notes: &accepted,
            delivered,
            shadow,
        };
        for callback in &self.config.on_notes {
            if contain(|| callback(&event_for_callbacks)).is_none() {
                tracing::warn!("an on_notes callback panicked; ignored");
            }
        }
        let injection = gate.injection?;
        member.remember(&accepted);
        if tracing {
            event.injection = Some(injection.clone());
        }
        if shadow {
            self.report.shadow_interruptions += 1;
            return None;
        }
        event.interrupted = true;
        self.report.interruptions += 1;
        self.report.notes_delivered += u32::try_from(accepted.len()).unwrap_or(u32::MAX);
        Some(Message::user(injection))
    }
}

impl RunObserver for AdvisorRun {
    fn observe_messages(&mut self, phase: ObservePhase, turn: u32, messages: &[Message]) {
        match phase {
            ObservePhase::Request | ObservePhase::Restore => self.window.replace(messages),
            ObservePhase::Append => self.window.extend(messages),
            ObservePhase::Rebase => {
                self.window.replace(messages);
                for i in 0..self.members.len() {
                    self.members[i].guard.reset();
                    if self.tracing() {
                        let event = TraceEvent::new(TraceEventKind::Rebase, self.members[i].cfg.name.clone());
                        self.trace(&event);
                    }
                }
            }
            ObservePhase::ExternalInput => {
                if turn == 0 && !messages.is_empty() {
                    for i in 0..self.members.len() {
                        if self.members[i].fresh_request() {
                            self.request_budget.reset();
                            if self.tracing() {
                                let event =
                                    TraceEvent::new(TraceEventKind::FreshRequest, self.members[i].cfg.name.clone());
                                self.trace(&event);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[async_trait]
impl StopInterceptor for AdvisorRun {
    async fn turn_stopping(&mut self, info: &StopInfo) -> StopDecision {
        let single = self.members.len() == 1;
        let bounds = self.config.evidence;
        let (tools, omitted_tools) = bound_tools(&info.tools, &bounds);
        let final_answer = bound_final(&info.final_answer, &bounds);
        let mut inject = Vec::new();
        // the bounded answer and tools are moved into the last review that
        // needs them and copied only for the others
        let mut evidence = Some((final_answer, tools));
        let count = self.members.len();
        for idx in 0..count {
            let attempt = single.then_some(info.attempt);
            if !self.members[idx].finish_allowed(attempt) {
                continue;
            }
            // A finish consultation the budget declines still counts, so the
            // next user request is recognised as fresh and resets the allowance.
            self.members[idx].c.finished += 1;
            if let Some(stop) = self.budget_stop() {
                self.skip_for_budget(idx, ReviewKind::Finish, stop);
                continue;
            }
            let round = self.members[idx].c.finished - 1;
            let mut review = self.review_for(idx, ReviewKind::Finish, round, info.turns);
            let (final_answer, tools) = if idx + 1 == count {
                evidence.take().unwrap_or_default()
            } else {
                evidence.clone().unwrap_or_default()
            };
            review.final_answer = Some(final_answer);
            review.tools = tools;
            review.omitted_tools = omitted_tools;
            if let Some(message) = self.run_review(idx, review).await {
                inject.push(message);
            }
        }
        if inject.is_empty() {
            StopDecision::accept()
        } else {
            StopDecision::reopen(inject, Some(PROGRESS_NOTE.to_owned()))
        }
    }
}

#[async_trait]
impl StepInterceptor for AdvisorRun {
    async fn before_step(&mut self, info: &StepInfo) -> Vec<Message> {
        let mut added = Vec::new();
        for idx in 0..self.members.len() {
            self.members[idx].tick_before(info.turn);
            if !self.members[idx].periodic_due() {
                continue;
            }
            if let Some(stop) = self.budget_stop() {
                self.skip_for_budget(idx, ReviewKind::Periodic, stop);
                continue;
            }
            let m = &mut self.members[idx];
            m.c.periodic += 1;
            m.c.last_review = m.c.ticks;
            let (round, ticks) = (m.c.periodic - 1, m.c.ticks);
            let review = self.review_for(idx, ReviewKind::Periodic, round, ticks);
            if let Some(message) = self.run_review(idx, review).await {
                added.push(message);
            }
        }
        added
    }
}

impl RunFinalizer for AdvisorRun {
    fn finalize_run(&mut self, end: &RunEnd) {
        for m in &mut self.members {
            m.settle(end.turns);
        }
    }
}

impl Checkpoint for AdvisorRun {
    fn save(&self) -> Result<Value, Error> {
        let spent = checkpoint::Spent {
            request: self.request_budget.spent(),
            session: self.session_budget.spent(),
        };
        Ok(checkpoint::save(&self.members, spent))
    }

    fn restore(&mut self, state: Value) -> Result<(), Error> {
        let spent = checkpoint::restore(&mut self.members, state)?;
        self.request_budget.set_spent(spent.request);
        self.session_budget.set_spent(spent.session);
        Ok(())
    }
}

impl Extension for AdvisorRun {
    fn name(&self) -> &str {
        PLUGIN_NAME
    }

    fn observer(&mut self) -> Option<&mut dyn RunObserver> {
        Some(self)
    }

    fn step_interceptor(&mut self) -> Option<&mut dyn StepInterceptor> {
        Some(self)
    }

    fn stop_interceptor(&mut self) -> Option<&mut dyn StopInterceptor> {
        Some(self)
    }

    fn checkpoint(&mut self) -> Option<&mut dyn Checkpoint> {
        Some(self)
    }

    fn finalizer(&mut self) -> Option<&mut dyn RunFinalizer> {
        Some(self)
    }
}
