//! The per-run advisor extension: finish and periodic reviews for every
//! configured reviewer.
//!
//! Owns [`AdvisorRun`]: the shared bounded window of the run, one
//! [`Member`] per reviewer, the review routine that turns a reviewer's notes
//! into a review record (its [`TraceEvent`], through the member's gate) and
//! the consultation's one [`Advice`], the trace and the per-run report. It must not
//! decide when it is consulted (the dispatcher and loop do) and never re-opens
//! a run on a reviewer failure.

use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use serde_json::Value;

use super::advice::{Advice, FinishOutbox};
use super::invoke::call_reviewer;
use super::member::Member;
use super::report::RunReport;
use super::{Config, NotesEvent, PLUGIN_NAME, PROGRESS_NOTE, checkpoint};
use crate::budget::{BudgetScope, BudgetStop, TokenBudget};
use crate::error::Error;
use crate::evidence::{EvidenceBounds, Window, bound_final, bound_tools};
use crate::host::contain::contain;
use crate::host::{
    Checkpoint, Extension, Message, ObservePhase, RunEnd, RunFinalizer, RunObserver, StepInfo, StepInterceptor,
    StopDecision, StopInfo, StopInterceptor,
};
use crate::kind::ReviewKind;
use crate::note::Note;
use crate::review::Review;
use crate::trace::{ErrorRecord, TraceEvent, TraceEventKind, WindowStats};
use crate::usage::Usage;

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
    /// Where the last finish consultation waits for the host.
    finish: FinishOutbox,
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

/// The consultation's injection as the messages a hook adds.
fn injected(advice: &Advice) -> Vec<Message> {
    advice
        .injection
        .iter()
        .map(|text| Message::user(text.clone()))
        .collect()
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
            finish: FinishOutbox::default(),
            config,
        }
    }

    fn member(&self, reviewer: &str) -> Option<&Member> {
        self.members.iter().find(|m| m.cfg.name == reviewer)
    }

    /// Finish consultations `reviewer` used for the current user request.
    pub fn finish_rounds_used(&self, reviewer: &str) -> u32 {
        self.member(reviewer).map_or(0, |m| m.counters().finished)
    }

    /// Periodic reviews `reviewer` ran for the current user request.
    pub fn periodic_reviews_used(&self, reviewer: &str) -> u32 {
        self.member(reviewer).map_or(0, |m| m.counters().periodic)
    }

    /// Notes delivered to the agent by `reviewer`, oldest first (at most 32).
    pub fn delivered(&self, reviewer: &str) -> Vec<Note> {
        self.member(reviewer)
            .map(|m| m.delivered().cloned().collect())
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

    /// Where this run leaves each finish consultation — every reviewer's
    /// record and the one combined injection. Take the handle before handing
    /// the run to [`Extensions`](crate::Extensions); read it after each stop.
    pub fn finish_outbox(&self) -> FinishOutbox {
        self.finish.clone()
    }

    /// Records that member `idx`'s review did not run because `stop`'s budget
    /// was spent: the report and a `budget_spent` trace event say why.
    fn skip_for_budget(&mut self, idx: usize, kind: ReviewKind, stop: BudgetStop) {
        tracing::info!(reviewer = %self.members[idx].cfg.name, %kind, %stop, "advisor review skipped");
        self.report.budget_skipped += 1;
        self.report.budget_stop = Some(stop);
        self.trace_event(idx, TraceEventKind::BudgetSpent, |event| {
            event.kind = Some(kind);
            event.budget = Some(stop);
        });
        self.publish_report();
    }

    /// After a rejected saved state (`why`): every member sits out the
    /// current request — its allowances count as spent, never refilled, until
    /// a fresh request — and the report and a `checkpoint_rejected` trace
    /// event say why. [`Checkpoint::restore`] does this itself; a host that
    /// could not even read its saved state calls it.
    pub fn sit_out(&mut self, why: impl std::fmt::Display) {
        tracing::warn!(error = %why, "the advisor's saved state was rejected; it sits out the current request");
        self.report.checkpoint_rejected = true;
        for idx in 0..self.members.len() {
            self.members[idx].sit_out();
            self.trace_event(idx, TraceEventKind::CheckpointRejected, |event| {
                event.rejected = Some(why.to_string());
            });
        }
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

    /// Traces a `kind` event about member `idx`, filled in by `fill` — built
    /// only when a trace sink is configured.
    fn trace_event(&self, idx: usize, kind: TraceEventKind, fill: impl FnOnce(&mut TraceEvent)) {
        if self.config.trace.is_some() {
            let mut event = TraceEvent::new(kind, self.members[idx].cfg.name.clone());
            fill(&mut event);
            self.trace(&event);
        }
    }

    fn trace(&self, event: &TraceEvent) {
        if (self.config.trace.as_ref()).is_some_and(|sink| contain(|| sink.record(event)).is_none()) {
            tracing::warn!("the advisor trace sink panicked; ignored");
        }
    }

    /// The review member `idx` reads; `window` is shared by every reviewer of
    /// the consultation (copied from the run's window once, when first needed).
    fn review_for(
        &self,
        idx: usize,
        kind: ReviewKind,
        round: u32,
        turns: u32,
        window: &mut Option<Arc<[Message]>>,
    ) -> Review {
        let m = &self.members[idx];
        let messages = window.get_or_insert_with(|| Arc::from(self.window.messages())).clone();
        // the answer and the tools are a finish review's, set by its caller
        Review {
            kind,
            reviewer: m.cfg.name.clone(),
            turns,
            messages,
            request: self.window.request().map(str::to_owned),
            omitted_messages: self.window.omitted(),
            round,
            delivered: m.delivered().cloned().collect(),
            max_prompt_tokens: self.config.max_prompt_tokens,
            max_notes: Some(self.config.max_notes_per_review),
            ..Review::default()
        }
    }

    /// Runs member `idx`'s reviewer and records what its review amounts to
    /// (traced when a sink is configured).
    async fn run_review(&mut self, idx: usize, review: Review) -> TraceEvent {
        let member = &self.members[idx];
        let reviewer = member.cfg.reviewer.clone();
        let mut record = TraceEvent::new(TraceEventKind::Review, member.cfg.name.clone());
        record.kind = Some(review.kind);
        record.round = Some(review.round);
        record.shadow = member.cfg.shadow;
        record.guard = Some(member.settings());
        record.window = Some(WindowStats {
            messages: review.messages.len(),
            bytes: review.messages.iter().map(|m| m.content.len()).sum(),
            omitted_messages: review.omitted_messages,
            tools: review.tools.len(),
        });
        let kind = review.kind;
        self.report.reviewed(kind);
        let meter = review.usage.clone();
        let started = Instant::now();
        let result = call_reviewer(reviewer, review, self.config.timeout).await;
        record.latency_ms = Some(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
        record.usage = Some(meter.total()).filter(|u| *u != Usage::default());
        record.fallback = meter.fallback();
        if let Some(usage) = record.usage {
            self.request_budget.charge(usage);
            self.session_budget.charge(usage);
            self.report.usage += usage;
            for callback in &self.config.on_usage {
                if contain(|| callback(&record.reviewer, usage)).is_none() {
                    tracing::warn!("an on_usage callback panicked; ignored");
                }
            }
        }
        match result {
            Err(error) => {
                tracing::warn!(reviewer = %record.reviewer, %kind, error_kind = ?error.kind(), %error,
                    "advisor review failed; the run goes on as without an advisor");
                self.report.failed(error.kind());
                self.members[idx].cool_down();
                record.error = Some(ErrorRecord {
                    kind: error.kind(),
                    message: error.to_string(),
                });
            }
            Ok(notes) => self.admit(idx, kind, &mut record, notes),
        }
        self.trace(&record);
        self.publish_report();
        record
    }

    /// Gates `notes` with member `idx`'s guard and fills in the record.
    fn admit(&mut self, idx: usize, kind: ReviewKind, record: &mut TraceEvent, notes: Vec<Note>) {
        let member = &mut self.members[idx];
        let gate = member.gate(&notes, kind);
        for a in &gate.outcome.admissions {
            self.report.suppressed.count(a.reason);
        }
        record.decisions = gate.decisions();
        record.notes = notes;
        record.to_user = gate.to_user.clone();
        let accepted = gate.accepted();
        self.report.notes_admitted += u32::try_from(accepted.len()).unwrap_or(u32::MAX);
        if accepted.is_empty() {
            return;
        }
        let event_for_callbacks = NotesEvent {
            reviewer: &record.reviewer,
            kind,
            round: record.round.unwrap_or_default(),
            notes: &accepted,
            delivered: gate.interrupts() && !record.shadow,
            shadow: record.shadow,
        };
        for callback in &self.config.on_notes {
            if contain(|| callback(&event_for_callbacks)).is_none() {
                tracing::warn!("an on_notes callback panicked; ignored");
            }
        }
        let Some(injection) = gate.injection else {
            return;
        };
        member.remember(&accepted);
        record.injection = Some(injection);
        if record.shadow {
            self.report.shadow_interruptions += 1;
            return;
        }
        record.interrupted = true;
        self.report.interruptions += 1;
        self.report.notes_delivered += u32::try_from(accepted.len()).unwrap_or(u32::MAX);
    }

    /// Consults every member whose allowance is left for a finish.
    async fn consult_finish(&mut self, info: &StopInfo) -> Advice {
        let single = self.members.len() == 1;
        let bounds = self.config.evidence;
        let bounded = |b: &EvidenceBounds| {
            let (tools, omitted) = bound_tools(&info.tools, b);
            (bound_final(&info.final_answer, b), tools, omitted)
        };
        // each member reads with its own bounds (the rules read more of each
        // output); the evidence under the configured ones is bounded once, only
        // if a member reads with them, moved into the last such review and
        // copied for the others
        let own: Vec<EvidenceBounds> = (self.members.iter())
            .map(|m| m.cfg.reviewer.evidence_bounds(bounds))
            .collect();
        let last_shared = own.iter().rposition(|b| *b == bounds);
        let mut shared = last_shared.map(|_| bounded(&bounds));
        let mut advice = Advice::default();
        let mut window = None;
        let count = self.members.len();
        for idx in 0..count {
            // A finish consultation the budget declines still counts, so the
            // next user request is recognised as fresh and resets the allowance.
            let Some(round) = self.members[idx].begin_finish(single.then_some(info.attempt)) else {
                continue;
            };
            if let Some(stop) = self.budget_stop() {
                self.skip_for_budget(idx, ReviewKind::Finish, stop);
                continue;
            }
            let mut review = self.review_for(idx, ReviewKind::Finish, round, info.turns, &mut window);
            let (final_answer, tools, omitted_tools) = match own.get(idx) {
                Some(b) if *b != bounds => bounded(b),
                _ if last_shared == Some(idx) => shared.take().unwrap_or_default(),
                _ => shared.clone().unwrap_or_default(),
            };
            review.final_answer = Some(final_answer);
            review.tools = tools;
            review.omitted_tools = omitted_tools;
            review.earlier_tools = info.earlier_tools.saturating_sub(omitted_tools);
            let record = self.run_review(idx, review).await;
            advice.push(record);
        }
        advice
    }

    /// Runs every member's periodic review that is due before `turn`.
    async fn consult_periodic(&mut self, turn: u32) -> Advice {
        let mut advice = Advice::default();
        let mut window = None;
        for idx in 0..self.members.len() {
            if !self.members[idx].periodic_due(turn) {
                continue;
            }
            if let Some(stop) = self.budget_stop() {
                self.skip_for_budget(idx, ReviewKind::Periodic, stop);
                continue;
            }
            let (round, ticks) = self.members[idx].begin_periodic();
            let review = self.review_for(idx, ReviewKind::Periodic, round, ticks, &mut window);
            let record = self.run_review(idx, review).await;
            advice.push(record);
        }
        advice
    }
}

impl RunObserver for AdvisorRun {
    fn observe_messages(&mut self, phase: ObservePhase, turn: u32, messages: &[Message]) {
        match phase {
            ObservePhase::Request | ObservePhase::Restore => self.window.replace(messages),
            ObservePhase::Append => self.window.extend(messages),
            ObservePhase::Rebase => {
                self.window.replace(messages);
                for idx in 0..self.members.len() {
                    self.members[idx].rebase();
                    self.trace_event(idx, TraceEventKind::Rebase, |_| {});
                }
            }
            ObservePhase::ExternalInput => {
                if turn == 0 && !messages.is_empty() {
                    for idx in 0..self.members.len() {
                        if self.members[idx].fresh_request() {
                            self.request_budget.reset();
                            self.trace_event(idx, TraceEventKind::FreshRequest, |_| {});
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
        self.finish.put(None);
        let advice = self.consult_finish(info).await;
        let decision = StopDecision::reopen(injected(&advice), Some(PROGRESS_NOTE.to_owned()));
        self.finish.put(Some(advice));
        decision
    }
}

#[async_trait]
impl StepInterceptor for AdvisorRun {
    async fn before_step(&mut self, info: &StepInfo) -> Vec<Message> {
        injected(&self.consult_periodic(info.turn).await)
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

    /// Restores a saved state; a rejected one is applied in no part and the
    /// advisor sits out the current request (see [`AdvisorRun::sit_out`]).
    fn restore(&mut self, state: Value) -> Result<(), Error> {
        let spent = checkpoint::restore(&mut self.members, state).inspect_err(|why| self.sit_out(why))?;
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
