//! `rollout::Advisor`: the privileged advisor of one solver attempt.
//!
//! Owns the gate g_t = [n_t < B]·[Finish(draft) ∨ t mod k = 0], the decision
//! (asked of a [`ChatModel`], retried up to `max_advisor_attempts`), selective
//! intervention (CONTINUE commits the draft; any other action regenerates the
//! turn with a solver-safe cue, the finish tool withheld unless
//! CONFIRM_AND_SUBMIT; a revision that calls finish anyway is resampled up to
//! `max_revision_attempts`), fail-open, and the state carried across reviews
//! of one attempt (`solver_calls`, `interventions`, `plan`, `delivered_cues`),
//! and the attempt's token budget (`max_review_tokens`: every advisor call
//! charged; once spent, no advisor call starts and the draft is kept). Must not touch the repository or act on the task.
//!
//! # What the solver sees
//!
//! Only a [`Revision`]: a fixed self-check sentence per action, or (on the
//! reasoning-prefill path) the advisor's screened first-person hint — never
//! the plan or the private diagnosis.

use std::fmt;
use std::future::Future;
use std::sync::Arc;

use super::config::{AdvisorConfig, CuePath, TaskMaterial};
use super::cue::{CompiledCue, Revision, compile_cue};
use super::decision::{AdvisorDecision, DecisionReason, parse_decision};
use super::error::RolloutError;
use super::prompt::{PromptInput, system_prompt, user_prompt};
use super::screen::ScreenInput;
use super::trace::{EventKind, RolloutTrace, Trigger};
use crate::ask::{Failure, FeedbackPolicy, GaveUp, ask_with_feedback};
use crate::budget::{BudgetScope, BudgetStop, TokenBudget};
use crate::error::ValidationError;
use crate::evidence::Window;
use crate::host::{Message, ToolCall};
use crate::model::{ChatModel, ChatRequest, ChatResponse};
use crate::usage::Usage;

/// The solver's response for one turn.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Draft {
    /// The text.
    pub text: String,
    /// Tool calls (the finish tool among them, when the solver tries to finish).
    pub tool_calls: Vec<ToolCall>,
}

impl Draft {
    /// A draft with text only.
    pub fn text(text: impl Into<String>) -> Draft {
        Draft {
            text: text.into(),
            tool_calls: Vec::new(),
        }
    }

    /// A draft that calls `tool`.
    pub fn calling(text: impl Into<String>, tool: impl Into<String>) -> Draft {
        Draft {
            text: text.into(),
            tool_calls: vec![ToolCall {
                id: "call_0".into(),
                name: tool.into(),
                arguments: "{}".into(),
            }],
        }
    }

    /// Whether the draft calls the tool named `finish_tool`.
    pub fn calls(&self, finish_tool: &str) -> bool {
        self.tool_calls.iter().any(|c| c.name == finish_tool)
    }
}

impl From<ChatResponse> for Draft {
    fn from(r: ChatResponse) -> Draft {
        Draft {
            text: r.text,
            tool_calls: r.tool_calls,
        }
    }
}

/// The privileged advisor of one attempt.
pub struct Advisor {
    config: Arc<AdvisorConfig>,
    task: Arc<TaskMaterial>,
    model: Arc<dyn ChatModel>,
    trace: Option<RolloutTrace>,
    solver_calls: u32,
    interventions: u32,
    reviews: u32,
    plan: String,
    delivered_cues: Vec<CompiledCue>,
    reasons: Vec<DecisionReason>,
    budget: TokenBudget,
}

/// Records `kind` at turn `totals.2` and the totals (reviews, interventions,
/// solver calls) in `trace`.
fn record_event(trace: Option<&RolloutTrace>, totals: (u32, u32, u32), kind: EventKind) {
    if let Some(t) = trace {
        t.record(Some(totals.2), kind);
        t.set_totals(totals.0, totals.1, totals.2);
    }
}

/// The advisor's decision loop as a retry policy: parse strictly, feed the
/// problems back, retry failed calls, charge and trace every attempt.
struct DecisionPolicy<'a> {
    budget: &'a mut TokenBudget,
    record: &'a (dyn Fn(EventKind) + Sync),
}

impl FeedbackPolicy for DecisionPolicy<'_> {
    type Valid = AdvisorDecision;
    type Invalid = ValidationError;
    const RETRY_FAILED_CALLS: bool = true;

    fn budget_spent(&mut self) -> Option<BudgetStop> {
        self.budget.exhausted()
    }

    fn check(&mut self, answer: &str) -> Result<AdvisorDecision, ValidationError> {
        parse_decision(answer)
    }

    fn feedback(&self, invalid: &ValidationError) -> String {
        format!("{invalid}\nAnswer again with only the corrected JSON decision.")
    }

    fn attempted(&mut self, attempt: u32, usage: Usage, failure: Option<Failure<'_, ValidationError>>) {
        self.budget.charge(usage);
        let (error_kind, error) = match failure {
            None => (None, None),
            Some(Failure::Call(e)) => (Some("model".into()), Some(e.to_string())),
            Some(Failure::Invalid(e)) => (Some("decision".into()), Some(e.to_string())),
        };
        (self.record)(EventKind::AdvisorAttempt {
            attempt,
            ok: error.is_none(),
            error_kind,
            error,
            usage,
        });
    }
}

/// What asking the advisor model came to.
enum Decided {
    Decision(AdvisorDecision),
    /// The attempt's token budget was spent before a valid decision (the
    /// stop is already traced).
    Budget,
}

impl fmt::Debug for Advisor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Advisor")
            .field("solver_calls", &self.solver_calls)
            .field("interventions", &self.interventions)
            .field("reviews", &self.reviews)
            .finish_non_exhaustive()
    }
}

impl Advisor {
    /// An advisor for one attempt at `task`. Config and task may be shared
    /// (`Arc`) across the attempts of a rollout farm.
    pub fn new(
        config: impl Into<Arc<AdvisorConfig>>,
        task: impl Into<Arc<TaskMaterial>>,
        model: impl ChatModel + 'static,
    ) -> Advisor {
        Advisor::with_shared_model(config, task, Arc::new(model))
    }

    /// Like [`new`](Self::new) with an already shared model (many attempts, one client).
    pub fn with_shared_model(
        config: impl Into<Arc<AdvisorConfig>>,
        task: impl Into<Arc<TaskMaterial>>,
        model: Arc<dyn ChatModel>,
    ) -> Advisor {
        let config: Arc<AdvisorConfig> = config.into();
        Advisor {
            budget: TokenBudget::new(BudgetScope::Attempt, config.max_review_tokens),
            config,
            task: task.into(),
            model,
            trace: None,
            solver_calls: 0,
            interventions: 0,
            reviews: 0,
            plan: String::new(),
            delivered_cues: Vec::new(),
            reasons: Vec::new(),
        }
    }

    /// Records this attempt's private trace.
    pub fn with_trace(mut self, trace: RolloutTrace) -> Advisor {
        self.trace = Some(trace);
        self
    }

    getters! {
        /// Solver calls seen so far (drafts and revisions): t.
        solver_calls: u32;

        /// Interventions delivered: n_t.
        interventions: u32;
    }

    /// The plan carried from the last decision (private).
    pub fn plan(&self) -> &str {
        &self.plan
    }

    /// Tokens the advisor model spent in this attempt (every call).
    pub fn tokens_spent(&self) -> u64 {
        self.budget.spent()
    }

    /// Cues delivered so far.
    pub fn delivered_cues(&self) -> &[CompiledCue] {
        &self.delivered_cues
    }

    fn record(&self, kind: EventKind) {
        record_event(
            self.trace.as_ref(),
            (self.reviews, self.interventions, self.solver_calls),
            kind,
        );
    }

    /// The streak of the most recent reason code among delivered cues.
    fn streak(&self) -> Option<(DecisionReason, u32)> {
        let last = *self.reasons.last()?;
        let n = self.reasons.iter().rev().take_while(|r| **r == last).count();
        Some((last, u32::try_from(n).unwrap_or(u32::MAX)))
    }

    async fn decide(
        &mut self,
        history: &[Message],
        draft: &Draft,
        pre_submit: bool,
        trigger: Trigger,
    ) -> Result<Decided, RolloutError> {
        let mut window = Window::new(self.config.history);
        window.replace(history);
        let input = PromptInput {
            task: &self.task,
            history: window.messages(),
            omitted: window.omitted(),
            draft_text: &draft.text,
            draft_calls: &draft.tool_calls,
            pre_submit,
            turn: self.solver_calls,
            plan: &self.plan,
            delivered: &self.delivered_cues,
            streak: self.config.repeat_streak_escalation.then(|| self.streak()).flatten(),
            remaining: self.config.max_interventions.saturating_sub(self.interventions),
        };
        let request = ChatRequest::new(vec![
            Message::system(system_prompt(self.config.cue_path)),
            Message::user(user_prompt(&input)),
        ]);
        let (trace, totals) = (&self.trace, (self.reviews, self.interventions, self.solver_calls));
        let mut policy = DecisionPolicy {
            budget: &mut self.budget,
            record: &|kind| record_event(trace.as_ref(), totals, kind),
        };
        let model = self.model.clone();
        let attempts = self.config.max_advisor_attempts;
        match ask_with_feedback(model.as_ref(), request, attempts, &mut policy)
            .await
            .outcome
        {
            Ok(d) => Ok(Decided::Decision(d)),
            Err(GaveUp::Budget(stop)) => {
                self.record(EventKind::BudgetSpent { trigger, budget: stop });
                Ok(Decided::Budget)
            }
            Err(GaveUp::Call(e)) => Err(RolloutError::model(e)),
            Err(GaveUp::Invalid(e)) => Err(RolloutError::decision(e)),
        }
    }

    fn fail(&self, stage: &str, error: RolloutError, draft: Draft) -> Result<Draft, RolloutError> {
        let (stage, message) = (stage.to_owned(), error.to_string());
        if self.config.fail_open {
            self.record(EventKind::FailOpen { stage, error: message });
            return Ok(draft);
        }
        self.record(EventKind::Failed { stage, error: message });
        Err(error)
    }

    /// Reviews one solver turn: returns the response to commit (the draft, or
    /// a revision produced by `regenerate`).
    pub async fn review<F, Fut>(
        &mut self,
        history: &[Message],
        draft: Draft,
        mut regenerate: F,
    ) -> Result<Draft, RolloutError>
    where
        F: FnMut(Revision) -> Fut,
        Fut: Future<Output = Result<Draft, String>>,
    {
        self.solver_calls += 1;
        let t = self.solver_calls;
        let finish = draft.calls(&self.config.finish_tool);
        let periodic = self.config.periodic_review_interval.is_some_and(|k| t % k.get() == 0);
        let trigger = if finish { Trigger::Finish } else { Trigger::Periodic };
        if !(finish || periodic) {
            return Ok(draft);
        }
        if self.interventions >= self.config.max_interventions {
            self.record(EventKind::ReviewSkipped { trigger });
            return Ok(draft);
        }
        if let Some(stop) = self.budget.exhausted() {
            self.record(EventKind::BudgetSpent { trigger, budget: stop });
            return Ok(draft);
        }
        self.record(EventKind::ReviewGated {
            trigger,
            interventions_used: self.interventions,
        });
        let decision = match self.decide(history, &draft, finish, trigger).await {
            Ok(Decided::Decision(d)) => d,
            Ok(Decided::Budget) => return Ok(draft),
            Err(e) => return self.fail("advisor", e, draft),
        };
        self.reviews += 1;
        self.plan = decision.plan.clone();
        self.record(EventKind::Decision {
            decision: decision.clone(),
        });
        if !decision.intervenes() {
            return Ok(draft);
        }
        let visible: Vec<&str> = std::iter::once(self.task.instruction.as_str())
            .chain(history.iter().map(|m| m.content.as_str()))
            .chain(std::iter::once(draft.text.as_str()))
            .collect();
        let privileged: Vec<(&str, &str)> = self.task.files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let screen =
            (self.config.screen_hints && self.config.cue_path == CuePath::ReasoningPrefill).then_some(ScreenInput {
                privileged: &privileged,
                visible: &visible,
            });
        let (cue, screened) = match compile_cue(&decision, self.config.cue_path, screen) {
            Ok(c) => c,
            Err(e) => return self.fail("advisor", RolloutError::decision(e), draft),
        };
        if let Some(result) = screened {
            self.record(EventKind::Screened { result });
        }
        let offered = decision.action == super::decision::Action::ConfirmAndSubmit;
        self.interventions += 1;
        self.delivered_cues.push(cue.clone());
        self.reasons.push(decision.reason_code);
        self.record(EventKind::CueDelivered {
            cue: cue.clone(),
            finish_tool_offered: offered,
        });
        let revision = Revision {
            cue,
            finish_tool_offered: offered,
        };
        for attempt in 1..=self.config.max_revision_attempts.get() {
            let revised = match regenerate(revision.clone()).await {
                Ok(r) => r,
                Err(e) => return self.fail("revision", RolloutError::revision(e), draft),
            };
            self.solver_calls += 1;
            if !offered && revised.calls(&self.config.finish_tool) {
                self.record(EventKind::RevisionResampled { attempt });
                continue;
            }
            if let Some(t) = &self.trace {
                t.set_totals(self.reviews, self.interventions, self.solver_calls);
            }
            return Ok(revised);
        }
        let why = format!(
            "every revision ({}) called the finish tool it was not offered",
            self.config.max_revision_attempts
        );
        self.fail("revision", RolloutError::revision(why), draft)
    }
}
