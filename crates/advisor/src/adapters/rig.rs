//! The rig adapter (feature `rig`): [`RigAdvisor`] is a rig `AgentHook` that
//! runs an [`AdvisorPlugin`] inside a rig agent.
//!
//! Owns the translation between rig's hook events and the host contract:
//! every completion call's history is observed as a `request` (the
//! [`RunObserver`](crate::host::RunObserver) side); a model turn that ends
//! without tool calls is a finish the run chose, so it consults the stop
//! interceptors and, when the advisor's combined injection must reach the
//! model, answers
//! `retry_with_feedback(<injection>)` — rig keeps the rejected answer and
//! appends the advisory as a user message. The advisor runs inside an
//! [`Extensions`] (the same attempt counting and panic containment as every
//! host), kept per run in rig's run-scoped scratchpad with its re-open cap.
//! Must not talk to models itself.
//!
//! # Impact on the agent
//!
//! Each re-open is one more model call and counts against rig's `max_turns`,
//! which defaults to 1: give the run room, e.g. `.max_turns(n + max_rounds)`.

use std::sync::Arc;

use rig_agent::agent::hook::{
    AgentHook, CompletionCallAction, CompletionCallEvent, HookContext, ModelTurnAction, ModelTurnFinished,
};
use rig_core::completion::message::{AssistantContent, Message as RigMessage, ToolResultContent, UserContent};
use tokio::sync::Mutex;

use crate::AdvisorPlugin;
use crate::host::{Extension, Extensions, Message, ObservePhase, StopInfo, ToolCall, ToolTrace};
use crate::plugin::{FinishOutbox, PLUGIN_NAME};

/// The advisor of one run, in its dispatcher, and where it leaves its review result.
struct Advised {
    exts: Extensions,
    outbox: FinishOutbox,
}

/// The advisor's per-run state, kept in rig's scratchpad.
#[derive(Clone, Default)]
struct RunSlot {
    run: Option<Arc<Mutex<Advised>>>,
    tools: Vec<ToolTrace>,
}

/// A rig `AgentHook` running an [`AdvisorPlugin`]. Register it with
/// `AgentBuilder::add_hook` (after any hook that should decide first).
///
/// ```ignore
/// let agent = AgentBuilder::new(model).add_hook(RigAdvisor::new(plugin)).build();
/// let answer = agent.prompt("…").max_turns(6).run().await?;
/// ```
#[derive(Debug, Clone)]
pub struct RigAdvisor {
    plugin: AdvisorPlugin,
}

impl RigAdvisor {
    /// Wraps `plugin` for rig.
    pub fn new(plugin: AdvisorPlugin) -> RigAdvisor {
        RigAdvisor { plugin }
    }

    /// The per-run advisor, created on the run's first event (`None` when the
    /// plugin is disabled).
    fn run_of(&self, ctx: &HookContext) -> Option<Arc<Mutex<Advised>>> {
        if !self.plugin.is_enabled() {
            return None;
        }
        ctx.scratchpad().update::<RunSlot, _>(|slot| {
            if slot.run.is_none() {
                let run = self.plugin.start_run();
                let outbox = run.finish_outbox();
                let exts = Extensions::from_extensions(vec![Box::new(run) as Box<dyn Extension>]).ok()?;
                slot.run = Some(Arc::new(Mutex::new(Advised { exts, outbox })));
            }
            slot.run.clone()
        })
    }
}

fn user_text(content: &[UserContent]) -> String {
    content
        .iter()
        .filter_map(|c| match c {
            UserContent::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn tool_output(content: &[ToolResultContent]) -> String {
    content
        .iter()
        .map(|c| match c {
            ToolResultContent::Text(t) => t.text.clone(),
            ToolResultContent::Json { value } => value.to_string(),
            _ => "[non-text tool output]".to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn assistant(content: &[AssistantContent]) -> Message {
    let mut text = Vec::new();
    let mut calls = Vec::new();
    for c in content {
        match c {
            AssistantContent::Text(t) => text.push(t.text.clone()),
            AssistantContent::ToolCall(call) => calls.push(ToolCall {
                id: call.id.to_string(),
                name: call.function.name.to_string(),
                arguments: serde_json::Value::Object(call.function.arguments.clone()).to_string(),
            }),
            _ => {}
        }
    }
    Message::assistant_with_tools(text.join("\n"), calls)
}

/// rig's history in the crate's neutral shape, with tool calls paired with
/// their results into traces.
fn convert(history: &[RigMessage], prompt: &RigMessage) -> (Vec<Message>, Vec<ToolTrace>) {
    let mut messages = Vec::new();
    let mut tools = Vec::new();
    for m in history.iter().chain(std::iter::once(prompt)) {
        match m {
            RigMessage::System { content } => messages.push(Message::system(content.clone())),
            RigMessage::Assistant(a) => messages.push(assistant(&a.content)),
            RigMessage::User { content } => {
                for c in content {
                    if let UserContent::ToolResult(r) = c {
                        let call_id = r.call.to_string();
                        let call = messages
                            .iter()
                            .rev()
                            .flat_map(|m: &Message| m.tool_calls.iter())
                            .find(|c| c.id == call_id)
                            .cloned()
                            .unwrap_or_else(|| ToolCall {
                                id: call_id,
                                name: r.name.to_string(),
                                arguments: String::new(),
                            });
                        let output = tool_output(&r.content);
                        messages.push(Message::tool_result(&call, output.clone()));
                        tools.push(ToolTrace {
                            name: call.name,
                            args: call.arguments,
                            error: r.is_error.then(|| crate::text::clamp_chars(&output, 300).to_owned()),
                            output,
                            exit_code: None,
                        });
                    }
                }
                let text = user_text(content);
                if !text.is_empty() {
                    messages.push(Message::user(text));
                }
            }
        }
    }
    (messages, tools)
}

impl AgentHook for RigAdvisor {
    fn name(&self) -> Option<String> {
        Some(PLUGIN_NAME.to_owned())
    }

    async fn on_completion_call(&self, ctx: &HookContext, event: CompletionCallEvent<'_>) -> CompletionCallAction {
        if let Some(run) = self.run_of(ctx) {
            let (messages, tools) = convert(event.history, event.prompt);
            let turn = u32::try_from(event.turn).unwrap_or(u32::MAX);
            run.lock().await.exts.observe(ObservePhase::Request, turn, &messages);
            ctx.scratchpad().update::<RunSlot, _>(|slot| slot.tools = tools);
        }
        CompletionCallAction::continue_run()
    }

    async fn on_model_turn_finished(&self, ctx: &HookContext, event: ModelTurnFinished<'_>) -> ModelTurnAction {
        if event.content.iter().any(|c| matches!(c, AssistantContent::ToolCall(_))) {
            return ModelTurnAction::continue_run(); // not a finish: the model is still working
        }
        let Some(run) = self.run_of(ctx) else {
            return ModelTurnAction::continue_run();
        };
        let answer = assistant(event.content);
        let slot = ctx.scratchpad().get::<RunSlot>().unwrap_or_default();
        let turn = u32::try_from(event.turn).unwrap_or(u32::MAX);
        let info = StopInfo {
            final_answer: answer.content.clone(),
            turns: turn,
            tools: slot.tools,
            earlier_tools: 0,
            attempt: 0,
        };
        let consultation = {
            let mut advised = run.lock().await;
            advised
                .exts
                .observe(ObservePhase::Append, turn, std::slice::from_ref(&answer));
            let reopens = advised.exts.turn_stopping(&info).await.reopens();
            advised.outbox.take().filter(|_| reopens)
        };
        match consultation.and_then(|c| c.injection) {
            Some(feedback) => ModelTurnAction::retry_with_feedback(feedback),
            None => ModelTurnAction::continue_run(),
        }
    }
}
