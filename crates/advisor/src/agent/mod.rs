//! A small reference agent loop over a [`ChatModel`], wired to the host
//! contract.
//!
//! Owns [`Agent`]: when each hook is called, which stops consult the stop
//! interceptors, and what a run returns ([`RunOutcome`]). It exists to show —
//! and test — how a host keeps the contract; it is not a production agent
//! runtime. It must never name a particular extension.
//!
//! Per turn: abort and max-turns checks → (budget exhausted: one wrap-up turn
//! with no tools and no step hooks, whose answer ends the run) →
//! `before_step` → `request` observation → model call → `append` → tool calls
//! (a turn ending in tool calls never consults stop interceptors; a terminal
//! tool ends the run) → otherwise the stop interceptors decide; an injection is
//! observed as `external_input`, appended, and the run goes on.

mod outcome;
mod tools;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::Error;
use crate::host::{
    ExtensionFactory, Extensions, Message, ObservePhase, RunEnd, StepInfo, StopDecision, StopInfo, ToolTrace,
};
use crate::model::{ChatModel, ChatRequest, ToolSpec};
use crate::usage::Usage;

pub use crate::host::StopReason;
pub use outcome::RunOutcome;
pub use tools::{FnTool, Tool, tool_fn};

/// The steer sent on a budget wrap-up turn.
pub const WRAP_UP_STEER: &str =
    "[System: the budget for this task is spent. Give your best final answer now, without calling tools.]";

/// Stops a run between turns. Cheap to clone; all clones share the flag.
#[derive(Debug, Clone, Default)]
pub struct AbortHandle(Arc<AtomicBool>);

impl AbortHandle {
    /// A handle that has not fired.
    pub fn new() -> AbortHandle {
        AbortHandle::default()
    }

    /// Asks the run to stop before its next turn.
    pub fn abort(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`abort`](Self::abort) was called.
    pub fn is_aborted(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// Whether the budget is spent, asked before each turn.
pub type BudgetCheck = Arc<dyn Fn(u32, Usage) -> bool + Send + Sync>;

/// A reference agent: a model, tools, and extensions in registration order.
#[derive(Clone)]
pub struct Agent {
    model: Arc<dyn ChatModel>,
    system: Option<String>,
    factories: Vec<Arc<dyn ExtensionFactory>>,
    tools: BTreeMap<String, (ToolSpec, Arc<dyn Tool>, bool)>,
    max_turns: u32,
    budget: Option<BudgetCheck>,
    abort: AbortHandle,
}

impl std::fmt::Debug for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Agent")
            .field(
                "extensions",
                &self.factories.iter().map(|x| x.name().to_owned()).collect::<Vec<_>>(),
            )
            .field("tools", &self.tools.keys().collect::<Vec<_>>())
            .field("max_turns", &self.max_turns)
            .finish_non_exhaustive()
    }
}

impl Agent {
    /// An agent over `model` with no tools, no extensions and 16 turns.
    pub fn new(model: impl ChatModel + 'static) -> Agent {
        Agent::with_shared_model(Arc::new(model))
    }

    /// An agent over an already shared model.
    pub fn with_shared_model(model: Arc<dyn ChatModel>) -> Agent {
        Agent {
            model,
            system: None,
            factories: Vec::new(),
            tools: BTreeMap::new(),
            max_turns: 16,
            budget: None,
            abort: AbortHandle::new(),
        }
    }

    /// The system prompt.
    pub fn system(mut self, prompt: impl Into<String>) -> Agent {
        self.system = Some(prompt.into());
        self
    }

    /// Registers an extension factory. Order matters: stop interceptors are
    /// consulted in registration order (goal gate, finish rules, then the advisor).
    pub fn extension(mut self, factory: impl ExtensionFactory + 'static) -> Agent {
        self.factories.push(Arc::new(factory));
        self
    }

    /// Offers a tool to the model. A `terminal` tool ends the run when called.
    pub fn tool(mut self, spec: ToolSpec, tool: impl Tool + 'static, terminal: bool) -> Agent {
        self.tools.insert(spec.name.clone(), (spec, Arc::new(tool), terminal));
        self
    }

    /// The turn limit (default 16); zero is an
    /// [`ErrorKind::Config`](crate::ErrorKind::Config) error naming `max_turns`.
    pub fn max_turns(mut self, turns: u32) -> Result<Agent, Error> {
        if turns == 0 {
            return Err(Error::config("max_turns", "must be at least 1, got 0"));
        }
        self.max_turns = turns;
        Ok(self)
    }

    /// A budget check: when it returns `true` before a turn, the run takes one
    /// wrap-up turn without tools and ends with [`StopReason::BudgetExhausted`].
    pub fn budget(mut self, exhausted: impl Fn(u32, Usage) -> bool + Send + Sync + 'static) -> Agent {
        self.budget = Some(Arc::new(exhausted));
        self
    }

    /// The handle that aborts this agent's runs.
    pub fn abort_handle(&self) -> AbortHandle {
        self.abort.clone()
    }

    /// Runs a fresh conversation with `input`.
    pub async fn run(&self, input: impl Into<String>) -> Result<RunOutcome, Error> {
        self.run_from(Vec::new(), &serde_json::Map::new(), input.into()).await
    }

    /// Continues a finished run with a new user request: the history and the
    /// extensions' checkpoints are restored before the new input is observed.
    pub async fn resume(&self, prior: &RunOutcome, input: impl Into<String>) -> Result<RunOutcome, Error> {
        self.run_from(prior.history.clone(), &prior.checkpoint, input.into())
            .await
    }

    async fn run_from(
        &self,
        mut history: Vec<Message>,
        checkpoint: &serde_json::Map<String, serde_json::Value>,
        input: String,
    ) -> Result<RunOutcome, Error> {
        let mut exts = Extensions::begin_run(&self.factories)?;
        // a rejected checkpoint is logged by the dispatcher; the run goes on
        exts.restore(checkpoint);
        if history.is_empty() {
            if let Some(system) = &self.system {
                history.push(Message::system(system.clone()));
            }
        } else {
            exts.observe(ObservePhase::Restore, 0, &history);
        }
        let input = vec![Message::user(input)];
        exts.observe(ObservePhase::ExternalInput, 0, &input);
        history.extend(input.iter().cloned());
        exts.observe(ObservePhase::Append, 0, &input);

        let mut run = RunOutcome::default();
        // in name order (the map's), so the request does not depend on registration
        let specs: Vec<ToolSpec> = self.tools.values().map(|(spec, _, _)| spec.clone()).collect();
        let stop_reason = loop {
            if self.abort.is_aborted() {
                break StopReason::Aborted;
            }
            if run.turns >= self.max_turns {
                break StopReason::MaxTurns;
            }
            let turn = run.turns + 1;
            let wrap_up = self.budget.as_ref().is_some_and(|b| b(run.turns, run.usage));
            if wrap_up {
                let steer = vec![Message::user(WRAP_UP_STEER)];
                exts.observe(ObservePhase::ExternalInput, turn, &steer);
                history.extend(steer.iter().cloned());
                exts.observe(ObservePhase::Append, turn, &steer);
            } else {
                let added = exts.before_step(&StepInfo::new(turn)).await;
                if !added.is_empty() {
                    history.extend(added.iter().cloned());
                    exts.observe(ObservePhase::Append, turn, &added);
                }
            }
            exts.observe(ObservePhase::Request, turn, &history);
            let request = ChatRequest {
                messages: history.clone(),
                tools: if wrap_up { Vec::new() } else { specs.clone() },
                response_schema: None,
            };
            let response = self
                .model
                .complete(request)
                .await
                .map_err(|e| Error::with_source(crate::ErrorKind::Model, format!("turn {turn}"), e))?;
            run.turns = turn;
            run.model_calls += 1;
            run.usage += response.usage;
            let tool_calls = if wrap_up { Vec::new() } else { response.tool_calls };
            let answer = Message::assistant_with_tools(response.text, tool_calls.clone());
            run.final_answer = answer.content.clone();
            history.push(answer.clone());
            exts.observe(ObservePhase::Append, turn, std::slice::from_ref(&answer));
            if wrap_up {
                break StopReason::BudgetExhausted;
            }
            if !tool_calls.is_empty() {
                let mut terminal = false;
                let mut results = Vec::with_capacity(tool_calls.len());
                for call in &tool_calls {
                    let (trace, is_terminal) = self.call_tool(call).await;
                    terminal |= is_terminal;
                    results.push(Message::tool_result(
                        call,
                        trace.error.clone().unwrap_or_else(|| trace.output.clone()),
                    ));
                    run.tools.push(trace);
                }
                history.extend(results.iter().cloned());
                exts.observe(ObservePhase::Append, turn, &results);
                if terminal {
                    break StopReason::TerminalTool;
                }
                continue;
            }
            let info = StopInfo {
                final_answer: run.final_answer.clone(),
                turns: turn,
                tools: run.tools.clone(),
                earlier_tools: 0,
                attempt: 0,
            };
            match exts.turn_stopping(&info).await {
                StopDecision::Reopen { inject, progress } => {
                    exts.observe(ObservePhase::ExternalInput, turn, &inject);
                    history.extend(inject.iter().cloned());
                    exts.observe(ObservePhase::Append, turn, &inject);
                    if let Some(line) = progress.filter(|n| !n.is_empty()) {
                        run.progress.push(line);
                    }
                }
                StopDecision::End(reason) => break reason,
                StopDecision::Accept => break StopReason::Stop,
            }
        };
        exts.finalize(&RunEnd::new(run.turns, stop_reason.clone()));
        run.stop_reason = stop_reason;
        run.checkpoint = exts.save()?;
        run.history = history;
        Ok(run)
    }

    async fn call_tool(&self, call: &crate::host::ToolCall) -> (ToolTrace, bool) {
        let mut trace = ToolTrace {
            name: call.name.clone(),
            args: call.arguments.clone(),
            ..ToolTrace::default()
        };
        let Some((_, tool, terminal)) = self.tools.get(&call.name) else {
            trace.error = Some(format!("unknown tool {:?}", call.name));
            return (trace, false);
        };
        match tool.call(&call.arguments).await {
            Ok(out) => trace.output = out,
            Err(e) => trace.error = Some(e),
        }
        (trace, *terminal)
    }
}
