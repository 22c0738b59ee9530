//! Bounded evidence: the window of a run a reviewer is allowed to read.
//!
//! Owns [`EvidenceBounds`], the rolling message [`Window`] and the bounding of
//! tool traces and the final answer. Observation costs O(window), never
//! O(history): a `request` with 100 000 messages only looks at the newest
//! ones. It must not render evidence for a model (reviewers do that) and must
//! never split a UTF-8 code point.
//!
//! # Token effect
//!
//! Caps what a reviewer reads at roughly `max_bytes` of transcript plus
//! `max_tools` tool traces and `max_final_bytes` of answer, however long the
//! run is.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::host::{Message, Role, ToolTrace};
use crate::text::{truncate_bytes, truncate_middle, truncate_middle_tail};

/// Limits on what a reviewer reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceBounds {
    /// Newest messages kept (32).
    pub max_messages: usize,
    /// Total bytes of message content kept, newest first (32 000).
    pub max_bytes: usize,
    /// Bytes kept of any one message (4 000).
    pub max_message_bytes: usize,
    /// Tool calls of one assistant message projected into its text (8).
    pub max_tool_calls_per_message: usize,
    /// Newest tool traces kept (32).
    pub max_tools: usize,
    /// Bytes kept of a tool trace's arguments, output and error each (1 000).
    pub max_tool_field_bytes: usize,
    /// Bytes kept of the final answer (8 000).
    pub max_final_bytes: usize,
}

impl Default for EvidenceBounds {
    fn default() -> Self {
        EvidenceBounds {
            max_messages: 32,
            max_bytes: 32_000,
            max_message_bytes: 4_000,
            max_tool_calls_per_message: 8,
            max_tools: 32,
            max_tool_field_bytes: 1_000,
            max_final_bytes: 8_000,
        }
    }
}

impl EvidenceBounds {
    /// Checks that every bound is more than zero (`max_tool_calls_per_message`
    /// may be zero: no tool calls projected). The error names `{prefix}.{field}`.
    pub fn validate(&self, prefix: &str) -> Result<(), crate::error::Error> {
        let fields = [
            ("max_messages", self.max_messages),
            ("max_bytes", self.max_bytes),
            ("max_message_bytes", self.max_message_bytes),
            ("max_tools", self.max_tools),
            ("max_tool_field_bytes", self.max_tool_field_bytes),
            ("max_final_bytes", self.max_final_bytes),
        ];
        fields.iter().find(|(_, v)| *v == 0).map_or(Ok(()), |(field, _)| {
            Err(crate::error::Error::config(
                format!("{prefix}.{field}"),
                "must be more than zero: a reviewer with no evidence can only guess",
            ))
        })
    }
}

const MAX_NAME_BYTES: usize = 64;
const MAX_CALL_ID_BYTES: usize = 128;
const MAX_CALL_ARGS_BYTES: usize = 1_024;

/// The reviewer's detached view of one message: role, bounded name and call
/// id, and content with its tool calls projected as text.
fn bound_message(m: &Message, bounds: &EvidenceBounds, budget: usize) -> Message {
    let limit = bounds.max_message_bytes.min(budget);
    let mut content = truncate_middle(&m.content, limit);
    // content is within `limit` already, so without calls the second cut keeps it
    for call in m.tool_calls.iter().take(bounds.max_tool_calls_per_message) {
        let _ = write!(
            content,
            "\nTool call {}: {}",
            truncate_bytes(&call.name, MAX_NAME_BYTES),
            truncate_middle(&call.arguments, MAX_CALL_ARGS_BYTES)
        );
    }
    content = truncate_middle(&content, limit);
    Message {
        role: m.role,
        content,
        tool_calls: Vec::new(),
        tool_call_id: m.tool_call_id.as_deref().map(|s| truncate_bytes(s, MAX_CALL_ID_BYTES)),
        name: m.name.as_deref().map(|s| truncate_bytes(s, MAX_NAME_BYTES)),
    }
}

/// Bounds `msgs`: the newest `max_messages`, walked newest first against the
/// byte budget; a message that exhausts the budget is the oldest kept.
/// Returns the kept messages, oldest first.
fn bound_tail<'a, I>(newest_first: I, bounds: &EvidenceBounds) -> Vec<Message>
where
    I: Iterator<Item = &'a Message>,
{
    let mut kept = Vec::new();
    let mut budget = bounds.max_bytes;
    for m in newest_first.take(bounds.max_messages) {
        if budget == 0 {
            break;
        }
        let b = bound_message(m, bounds, budget);
        budget = budget.saturating_sub(b.content.len());
        kept.push(b);
    }
    kept.reverse();
    kept
}

/// Most bytes of the user's request a [`Window`] keeps (head and tail).
pub const MAX_REQUEST_BYTES: usize = 8_000;
/// Most messages, newest first, a [`Window`] looks through for the user's
/// request when it is older than the window.
const MAX_REQUEST_SCAN: usize = 4_096;

/// Starts of user messages that are no request of the user's: the advisor's
/// own injections, the marker a host writes for a new request, hosts' hook
/// feedback and notices (Claude Code's background-task notifications and
/// reminders, Codex's hook prompts).
const NOT_A_REQUEST: &[&str] = &[
    "[System: a reviewer",
    "(a new request from the user)",
    "Stop hook feedback",
    "<hook_prompt",
    "<task-notification>",
    "<system-reminder>",
    "Caveat: The messages below were generated by the user while running local commands",
];

/// The newest genuine user message of `newest_first` — not one of the
/// advisor's injections or a host's notices —, bounded to
/// [`MAX_REQUEST_BYTES`]; it looks through at most 4 096 messages.
pub fn latest_request<'a>(newest_first: impl Iterator<Item = &'a Message>) -> Option<String> {
    newest_first
        .take(MAX_REQUEST_SCAN)
        .filter(|m| m.role == Role::User)
        .map(|m| m.content.trim())
        .find(|c| !c.is_empty() && !NOT_A_REQUEST.iter().any(|p| c.starts_with(p)))
        .map(|c| truncate_middle(c, MAX_REQUEST_BYTES))
}

/// A rolling, bounded window on a run's messages, with a count of how many
/// older messages it left out, and the user's latest request (kept even when
/// the messages after it pushed it out of the window).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Window {
    bounds: EvidenceBounds,
    messages: Vec<Message>,
    omitted: usize,
    request: Option<String>,
}

impl Window {
    /// An empty window with these bounds.
    pub fn new(bounds: EvidenceBounds) -> Window {
        Window {
            bounds,
            ..Window::default()
        }
    }

    /// Replaces the window with the newest part of `history`. Looks at no more
    /// than `max_messages` of it.
    pub fn replace(&mut self, history: &[Message]) {
        self.messages = bound_tail(history.iter().rev(), &self.bounds);
        self.omitted = history.len() - self.messages.len();
        if let Some(r) = latest_request(history.iter().rev()) {
            self.request = Some(r);
        }
    }

    /// Appends `msgs` to the window, dropping the oldest as the bounds require.
    ///
    /// Only the new messages are bounded when the result fits the byte budget
    /// (the common case); otherwise the whole window is bounded again, newest
    /// first. Both give the same window.
    pub fn extend(&mut self, msgs: &[Message]) {
        if let Some(r) = latest_request(msgs.iter().rev()) {
            self.request = Some(r);
        }
        let b = self.bounds;
        let fresh = &msgs[msgs.len().saturating_sub(b.max_messages)..];
        let new: Vec<Message> = fresh
            .iter()
            .map(|m| bound_message(m, &b, b.max_message_bytes))
            .collect();
        let keep_old = b.max_messages - new.len();
        let drop_old = self.messages.len().saturating_sub(keep_old);
        let bytes: usize = self.messages[drop_old..]
            .iter()
            .chain(&new)
            .map(|m| m.content.len())
            .sum();
        if bytes <= b.max_bytes {
            self.messages.drain(..drop_old);
            self.messages.extend(new);
            self.omitted += drop_old + (msgs.len() - fresh.len());
            return;
        }
        let before = self.messages.len() + msgs.len();
        let kept = bound_tail(msgs.iter().rev().chain(self.messages.iter().rev()), &self.bounds);
        self.omitted += before - kept.len();
        self.messages = kept;
    }

    /// Empties the window.
    pub fn clear(&mut self) {
        self.messages.clear();
        self.omitted = 0;
        self.request = None;
    }

    /// The user's latest request (the newest user message that is not the
    /// advisor's own injection), bounded to [`MAX_REQUEST_BYTES`], whether or
    /// not it is still in the window.
    pub fn request(&self) -> Option<&str> {
        self.request.as_deref()
    }

    /// The kept messages, oldest first.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// How many older messages were left out.
    pub fn omitted(&self) -> usize {
        self.omitted
    }

    /// Bytes of content in the window.
    pub fn bytes(&self) -> usize {
        self.messages.iter().map(|m| m.content.len()).sum()
    }
}

/// The newest `max_tools` traces, each field cut to `max_tool_field_bytes`.
/// Returns the kept traces (oldest first) and how many were left out.
pub fn bound_tools(tools: &[ToolTrace], bounds: &EvidenceBounds) -> (Vec<ToolTrace>, usize) {
    let start = tools.len().saturating_sub(bounds.max_tools);
    let n = bounds.max_tool_field_bytes;
    let kept = tools[start..]
        .iter()
        .map(|t| ToolTrace {
            name: truncate_bytes(&t.name, MAX_NAME_BYTES),
            args: truncate_middle(&t.args, n),
            // a runner's summary and exit status come last: keep more of the tail
            output: truncate_middle_tail(&t.output, n),
            error: t.error.as_deref().map(|e| truncate_middle(e, n)),
            exit_code: t.exit_code,
        })
        .collect();
    (kept, start)
}

/// The final answer cut to `max_final_bytes` (head and tail kept).
pub fn bound_final(answer: &str, bounds: &EvidenceBounds) -> String {
    truncate_middle(answer, bounds.max_final_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::ToolCall;

    #[test]
    fn window_keeps_the_newest_32() {
        let history: Vec<Message> = (0..100).map(|i| Message::user(format!("m{i}"))).collect();
        let mut w = Window::new(EvidenceBounds::default());
        w.replace(&history);
        assert_eq!(w.messages().len(), 32);
        assert_eq!(w.messages()[0].content, "m68");
        assert_eq!(w.omitted(), 68);
        w.extend(&[Message::assistant("new")]);
        assert_eq!(w.messages().len(), 32);
        assert_eq!(w.messages()[31].content, "new");
        assert_eq!(w.omitted(), 69);
    }

    #[test]
    fn per_message_and_total_budgets_hold() {
        let big = "x".repeat(10_000);
        let history: Vec<Message> = (0..20).map(|_| Message::user(big.clone())).collect();
        let mut w = Window::new(EvidenceBounds::default());
        w.replace(&history);
        assert!(w.messages().iter().all(|m| m.content.len() <= 4_000));
        // eight full messages fit, then older ones only as slivers of what is left
        assert!((8..20).contains(&w.messages().len()), "{}", w.messages().len());
        assert!(w.bytes() <= 32_000);
        assert!(w.messages().iter().rev().take(8).all(|m| m.content.len() > 3_900));
        assert_eq!(w.omitted(), 20 - w.messages().len());
    }

    #[test]
    fn tool_calls_are_projected_as_text() {
        let call = ToolCall {
            id: "c1".into(),
            name: "run_sql".into(),
            arguments: "{\"q\":1}".into(),
        };
        let mut w = Window::new(EvidenceBounds::default());
        w.replace(&[Message::assistant_with_tools("checking", vec![call])]);
        assert_eq!(w.messages()[0].content, "checking\nTool call run_sql: {\"q\":1}");
        assert!(w.messages()[0].tool_calls.is_empty());
    }

    #[test]
    fn the_fast_path_of_extend_matches_bounding_the_window_again() {
        let bounds = EvidenceBounds {
            max_messages: 5,
            max_bytes: 300,
            max_message_bytes: 120,
            ..EvidenceBounds::default()
        };
        let mut w = Window::new(bounds);
        for i in 0..60 {
            let m = Message::user("x".repeat((i * 37) % 200));
            let slow = bound_tail(std::iter::once(&m).chain(w.messages().iter().rev()), &bounds);
            w.extend(std::slice::from_ref(&m));
            assert_eq!(w.messages(), &slow[..], "after {} messages", i + 1);
            assert!(w.bytes() <= 300 && w.messages().len() <= 5);
        }
    }

    #[test]
    fn tools_and_final_are_bounded() {
        let tools: Vec<ToolTrace> = (0..40)
            .map(|i| ToolTrace {
                name: format!("t{i}"),
                args: "a".repeat(5000),
                ..ToolTrace::default()
            })
            .collect();
        let (kept, omitted) = bound_tools(&tools, &EvidenceBounds::default());
        assert_eq!((kept.len(), omitted), (32, 8));
        assert_eq!(kept[0].name, "t8");
        assert!(kept.iter().all(|t| t.args.len() <= 1000));
        assert!(bound_final(&"é".repeat(9000), &EvidenceBounds::default()).len() <= 8000);
    }
}
