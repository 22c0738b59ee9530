//! The model reviewer's tool loop: the model asks for workspace tool calls,
//! gets their results as `role: "tool"` messages, and finally answers with
//! the notes.
//!
//! Owns the bounds of the loop: at most [`WorkspaceTools::call_limit`]
//! calls are run per review (further ones are answered with a refusal, never
//! run), every result is counted against the review's prompt budget (a
//! result that would not fit is refused instead), every model call's usage
//! is charged to the review, and a model that still asks for tools once
//! refused twice past the limit is an unusable answer. The review timeout
//! bounds the whole loop (the plugin drops the future); each call runs off
//! the async threads under its own deadline ([`ToolDeadline`]), which the
//! loop also reaches when its future is dropped: a call still working when
//! the review times out stops there instead of holding a blocking thread
//! (and the process's exit) after the review is gone. Must not parse the
//! final answer (the reviewer does) or execute a tool itself (the tools do).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::tools::{ToolDeadline, ToolResult, WorkspaceTools};
use super::{Review, ReviewError};
use crate::anchor::Shown;
use crate::host::Message;
use crate::kind::ReviewErrorKind;
use crate::model::{ChatModel, ChatRequest, ChatResponse, estimate_tokens};

/// Tokens a chat template adds around each tool message.
const MESSAGE_TOKENS: u64 = 16;

/// The estimated prompt tokens of `request`.
fn prompt_tokens(request: &ChatRequest) -> u64 {
    request
        .messages
        .iter()
        .map(|m| {
            let calls: u64 = m
                .tool_calls
                .iter()
                .map(|c| estimate_tokens(&c.arguments) + MESSAGE_TOKENS)
                .sum();
            estimate_tokens(&m.content) + MESSAGE_TOKENS + calls
        })
        .sum()
}

/// Raises its flag when dropped: the call it guards is done, or the review
/// that waited for it was dropped, and the call must stop either way.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs tool rounds from `answer` (which asked for calls) until the model
/// answers without asking for any; that answer is returned. Every result the
/// model read (not a refusal) goes to `shown`: a blocker may quote it.
pub(super) async fn run(
    model: &dyn ChatModel,
    tools: &Arc<WorkspaceTools>,
    review: &Review,
    mut request: ChatRequest,
    mut answer: ChatResponse,
    budget: u64,
    shown: &mut Shown,
) -> Result<ChatResponse, ReviewError> {
    let limit = tools.call_limit();
    let mut made = 0usize;
    let mut refused_rounds = 0usize;
    while !answer.tool_calls.is_empty() {
        if made >= limit {
            refused_rounds += 1;
            if refused_rounds > 2 {
                return Err(ReviewError::with_kind(
                    ReviewErrorKind::Unusable,
                    format!("the reviewer kept asking for tools past its limit of {limit} calls"),
                ));
            }
        }
        let before = made;
        let calls = std::mem::take(&mut answer.tool_calls);
        request.messages.push(Message::assistant_with_tools(
            std::mem::take(&mut answer.text),
            calls.clone(),
        ));
        for call in &calls {
            let result = if made >= limit {
                ToolResult::error(format!(
                    "refused: this review may make at most {limit} tool calls; answer now with the notes"
                ))
            } else {
                made += 1;
                let (tools, call) = (tools.clone(), call.clone());
                let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
                let deadline = ToolDeadline::after(tools.timeout()).or_when(stop.0.clone());
                let ran = tokio::task::spawn_blocking(move || tools.call_until(&call, &deadline)).await;
                drop(stop);
                let result = ran.unwrap_or_else(|_| ToolResult::error("the tool failed"));
                let cost = estimate_tokens(&result.content) + MESSAGE_TOKENS;
                if prompt_tokens(&request).saturating_add(cost) > budget {
                    ToolResult::error("refused: the result does not fit the review's token budget; answer now")
                } else {
                    result
                }
            };
            tracing::debug!(tool = %crate::text::clamp_chars(&call.name, 64), error = result.error, "reviewer tool call");
            if !result.error {
                shown.push(&result.content);
            }
            request.messages.push(Message::tool_result(call, result.content));
        }
        review.usage.add_tool_calls(made.saturating_sub(before) as u64);
        answer = model.complete(request.clone()).await.map_err(|e| {
            review.usage.charge(e.usage());
            ReviewError::model("the reviewer model failed", e)
        })?;
        review.usage.charge(answer.usage.or_estimate(&request, &answer.text));
    }
    Ok(answer)
}
