//! Gemini CLI session files: the single-JSON `session-*.json` format and the
//! JSONL format Gemini CLI writes since v0.39.
//!
//! Both are read the way Gemini CLI's own loader reads them
//! (`loadConversationRecord` in `packages/core/src/services/chatRecordingService.ts`
//! of google-gemini/gemini-cli):
//!
//! - A line with a string `$rewindTo` removes that message and every message
//!   after it; when the id is unknown it removes all messages.
//! - A line with a string `id` is a message record. A message is appended
//!   again, whole, every time it changes (`pushMessage`), so the **last copy
//!   wins** and keeps the position of the first copy.
//! - A line with an object `$set` merges metadata; when `$set.messages` is an
//!   array it is a checkpoint that replaces every message.
//! - A line with string `sessionId` and `projectHash` is the metadata line; the
//!   legacy single-JSON file is such a record with the whole `messages` array
//!   (pretty-printed over many lines, so it is parsed as one value).
//! - Lines that are not JSON are skipped, as Gemini CLI skips them.
//!
//! Messages are then mapped to the neutral [`Transcript`]: `user` records are
//! prompts — each recorded through the transcript's prompt bookkeeping with
//! the identity `id:<message id>`, so turns, the last prompt and the calls of
//! earlier turns are known as for the other formats — unless they only carry
//! tool responses (`functionResponse` parts, which newer versions record next
//! to `toolCalls[].result`), are what Gemini CLI itself does not resume as
//! user content (empty, starting with `/` or `?`, `<session_context>` or
//! `<hook_context>`, see `isIgnoredUserContent` in
//! `packages/core/src/utils/sessionUtils.ts`), are the continuation Gemini
//! CLI sends on its own (`Please continue.` from the next-speaker check in
//! `packages/core/src/core/client.ts`, `System: Please continue.` from the
//! invalid-stream retry removed in gemini-cli#26340), or are the advisor's
//! own advisories (kept as asides). A `/init` expanded into its long
//! instruction is what the user asked for by typing `/init`, so it is kept as
//! the prompt. `gemini` records carry the model's text (thought parts left
//! out) and `toolCalls[]` whose `result` holds `functionResponse` parts; the
//! answer under review is the text of the last turn's last `gemini` record
//! with text, never every text of the turn joined (as the AfterAgent hook's
//! `prompt_response` is).
//!
//! A call's outcome is what the host recorded: its `status` (`error`,
//! `cancelled`), a `response.error`, and for the shell tool
//! (`run_shell_command`) the fields Gemini CLI writes after the command's
//! output (`packages/core/src/tools/shell.ts`): the last `Exit Code: N` line
//! of that trailing block is the exit code (a non-zero one fails a call
//! recorded `success`), and `Signal: <name>` a kill. The `Error:` field the
//! shell output carries (empty or `(none)` on success) is not a failure, and
//! nothing else the tool printed is read as one. `info`, `error` and
//! `warning` records are not conversation and are skipped (counted), as in
//! Gemini CLI's `convertSessionToClientHistory`; a cancelled turn — an `info`
//! `Request cancelled.`, or a model record whose every call was cancelled,
//! after which Gemini CLI does not call the model again — has no answer
//! unless the model wrote text after it.
//!
//! Must not review anything, and must not read files: it parses text it is given.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{Outcome, Transcript, TranscriptError, TranscriptErrorKind, call_of, string_or_json};
use advisor::host::Message;
use advisor::io::BoundedLine;

/// Tool-call statuses that mean the call did not succeed (Gemini CLI's
/// `CoreToolCallStatus`, `packages/core/src/scheduler/types.ts`).
const FAILED_STATUSES: [&str; 2] = ["error", "cancelled"];

/// User texts Gemini CLI sends on its own to make the model go on.
const CONTINUATIONS: [&str; 2] = ["Please continue.", "System: Please continue."];

/// Reads `text` as a Gemini CLI session when it looks like one, else `None`.
/// `forced` reads it as one whatever it looks like.
pub(super) fn try_read(name: &str, text: &str, forced: bool) -> Option<Result<Transcript, TranscriptError>> {
    let trimmed = text.trim_start_matches('\u{feff}');
    // The single-JSON format (or a one-line JSONL file) is one JSON value.
    if let Ok(whole) = serde_json::from_str::<Value>(trimmed) {
        return (forced || is_metadata(&whole)).then(|| Ok(read_records(std::iter::once(Some(whole)))));
    }
    let mut lines = trimmed.lines().filter(|l| !l.trim().is_empty()).peekable();
    let first = lines.peek().and_then(|l| serde_json::from_str::<Value>(l).ok());
    let gemini = first.as_ref().is_some_and(|v| is_metadata(v) || is_edit(v));
    if !gemini && !forced {
        return None;
    }
    let records: Vec<Option<Value>> = lines.map(|l| serde_json::from_str::<Value>(l).ok()).collect();
    if records.iter().all(Option::is_none) {
        return Some(Err(TranscriptError::new(
            TranscriptErrorKind::NotJson,
            name,
            None,
            "no line of this Gemini CLI session is JSON",
        )));
    }
    Some(Ok(read_records(records)))
}

/// Whether `file` looks like a Gemini CLI session from its first
/// line alone: a Gemini metadata or edit line, or — the legacy format, one
/// JSON value over many lines — a first line that is not JSON by itself.
/// Reads at most `max_line` bytes (and one more, to tell a line at the cap
/// from a longer one), blank lines before it included.
pub(super) fn sniff(file: &std::fs::File, max_line: usize) -> bool {
    let Ok(file) = super::file::from_start(file) else {
        return false;
    };
    let head = std::io::Read::take(file, (max_line as u64).saturating_add(1));
    let mut lines = advisor::io::BoundedLines::new(std::io::BufReader::new(head), max_line);
    // the first line that is not blank (or cannot be read, or is over the cap)
    let first =
        lines.find(|l| !matches!(l, Ok(BoundedLine { bytes: Ok(b), .. }) if b.iter().all(u8::is_ascii_whitespace)));
    let Some(Ok(BoundedLine { bytes: Ok(bytes), .. })) = first else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim_start_matches('\u{feff}');
    match serde_json::from_str::<Value>(text) {
        Ok(v) => is_metadata(&v) || is_edit(&v),
        Err(_) => text.trim_start().starts_with('{'),
    }
}

/// The metadata line (or legacy whole record): string `sessionId` and
/// `projectHash`, and no `type` (Claude Code lines carry `sessionId` and a
/// `type`).
fn is_metadata(v: &Value) -> bool {
    v.get("sessionId").is_some_and(Value::is_string)
        && v.get("projectHash").is_some_and(Value::is_string)
        && v.get("type").is_none()
}

/// A `$set` or `$rewindTo` line.
fn is_edit(v: &Value) -> bool {
    v.get("$set").is_some_and(Value::is_object) || v.get("$rewindTo").is_some_and(Value::is_string)
}

/// The conversation as Gemini CLI's loader rebuilds it: message records in
/// first-seen order, each holding its last copy.
#[derive(Default)]
struct Conversation {
    order: Vec<String>,
    by_id: HashMap<String, Value>,
    /// Ids of every user record that was a genuine prompt, rewound or not.
    prompts_seen: HashSet<String>,
}

impl Conversation {
    fn set(&mut self, msg: Value) {
        let Some(id) = msg.get("id").and_then(Value::as_str).map(str::to_owned) else {
            return;
        };
        if is_prompt(&msg) {
            self.prompts_seen.insert(id.clone());
        }
        if self.by_id.insert(id.clone(), msg).is_none() {
            self.order.push(id);
        }
    }

    fn rewind_to(&mut self, id: &str) {
        let cut = self.order.iter().position(|o| o == id).unwrap_or(0);
        for gone in self.order.drain(cut..) {
            self.by_id.remove(&gone);
        }
    }

    fn replace_all(&mut self, messages: &[Value]) {
        self.order.clear();
        self.by_id.clear();
        for m in messages {
            self.set(m.clone());
        }
    }
}

fn read_records(records: impl IntoIterator<Item = Option<Value>>) -> Transcript {
    let mut t = Transcript::default();
    let mut conv = Conversation::default();
    for record in records {
        let Some(record) = record else {
            t.skip("line:not-json");
            continue;
        };
        if let Some(id) = record.get("$rewindTo").and_then(Value::as_str) {
            conv.rewind_to(id);
        } else if record.get("id").is_some_and(Value::is_string) {
            conv.set(record);
        } else if let Some(set) = record.get("$set").filter(|s| s.is_object()) {
            if let Some(Value::Array(messages)) = set.get("messages") {
                conv.replace_all(messages);
            }
        } else if record.get("sessionId").is_some_and(Value::is_string) {
            if let Some(Value::Array(messages)) = record.get("messages") {
                for m in messages {
                    conv.set(m.clone());
                }
            }
        } else {
            t.skip("line:unknown");
        }
    }
    let mut answered: HashSet<String> = HashSet::new();
    for id in &conv.order {
        if let Some(msg) = conv.by_id.get(id) {
            message(&mut t, id, msg, &mut answered);
        }
    }
    // Every prompt the file ever recorded, rewound ones included: the count
    // grows when the user asks something new, even after a rewind.
    t.user_prompts = conv.prompts_seen.len();
    t
}

/// The parts of a `PartListUnion`: a string, one part, or a list of both.
fn parts(content: &Value) -> Vec<Value> {
    match content {
        Value::Null => Vec::new(),
        Value::String(s) => vec![serde_json::json!({ "text": s })],
        Value::Array(list) => list
            .iter()
            .map(|p| match p {
                Value::String(s) => serde_json::json!({ "text": s }),
                other => other.clone(),
            })
            .collect(),
        other => vec![other.clone()],
    }
}

/// Text of the non-thought text parts, joined by newlines.
fn text_parts(parts: &[Value]) -> String {
    parts
        .iter()
        .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_prompt(msg: &Value) -> bool {
    if msg.get("type").and_then(Value::as_str) != Some("user") {
        return false;
    }
    let parts = parts(msg.get("content").unwrap_or(&Value::Null));
    if parts.iter().any(|p| p.get("functionResponse").is_some()) && text_parts(&parts).trim().is_empty() {
        return false;
    }
    let text = text_parts(&parts);
    let text = text.trim();
    !(is_ignored_user_content(text) || CONTINUATIONS.contains(&text) || super::is_injected(text))
}

/// Gemini CLI's `isIgnoredUserContent`: user content it does not resume.
fn is_ignored_user_content(trimmed: &str) -> bool {
    trimmed.is_empty()
        || trimmed.starts_with('/')
        || trimmed.starts_with('?')
        || trimmed.starts_with("<session_context>")
        || trimmed.starts_with("<hook_context>")
}

/// Whether an `info` record says the user cancelled the request (Gemini
/// CLI's `Request cancelled.`).
fn is_cancellation(parts: &[Value]) -> bool {
    text_parts(parts).trim_start().starts_with("Request cancelled")
}

fn message(t: &mut Transcript, id: &str, msg: &Value, answered: &mut HashSet<String>) {
    let ty = msg.get("type").and_then(Value::as_str).unwrap_or("");
    let parts = parts(msg.get("content").unwrap_or(&Value::Null));
    match ty {
        "user" => user(t, id, msg, &parts, answered),
        "gemini" => gemini(t, msg, &parts, answered),
        // the turn was cancelled: the text before it is no answer
        "info" if is_cancellation(&parts) => t.interrupt(format!("[{}]", text_parts(&parts).trim())),
        // `info`, `error` and `warning` records are not conversation
        "" => t.skip("message:untyped"),
        other => t.skip(&format!("message:{other}")),
    }
}

fn user(t: &mut Transcript, id: &str, msg: &Value, parts: &[Value], answered: &mut HashSet<String>) {
    // Tool responses recorded as a user turn: pair the ones `toolCalls` did not.
    for resp in parts.iter().filter_map(|p| p.get("functionResponse")) {
        let call_id = resp.get("id").and_then(Value::as_str).unwrap_or_default();
        if !call_id.is_empty() && answered.insert(call_id.to_owned()) {
            let name = resp.get("name").and_then(Value::as_str).unwrap_or_default();
            let (output, failed) = response_output(resp);
            traced(t, call_id, name, output, failed);
        }
    }
    let text = text_parts(parts);
    if is_prompt(msg) {
        t.prompt(text, format!("id:{id}"));
        return;
    }
    match text.trim() {
        "" if parts.iter().any(|p| p.get("functionResponse").is_some()) => {}
        "" => t.skip("user:empty"),
        trimmed if CONTINUATIONS.contains(&trimmed) => t.skip("user:continuation"),
        trimmed if is_ignored_user_content(trimmed) => t.skip("user:not-a-prompt"),
        // an advisory the advisor injected: not a new request
        _ => t.aside(text),
    }
}

fn gemini(t: &mut Transcript, msg: &Value, parts: &[Value], answered: &mut HashSet<String>) {
    let text = text_parts(parts);
    let mut calls = Vec::new();
    let mut results = Vec::new();
    let mut cancelled = 0;
    if let Some(Value::Array(records)) = msg.get("toolCalls") {
        for tc in records {
            let call = call_of(tc, "args");
            let status = tc.get("status").and_then(Value::as_str).unwrap_or("");
            let status_failed = FAILED_STATUSES.contains(&status);
            cancelled += usize::from(status == "cancelled");
            match tc.get("result") {
                Some(result) if !result.is_null() => {
                    let (output, failed) = result_output(result);
                    results.push((call.id.clone(), call.name.clone(), output, failed || status_failed));
                }
                _ if status_failed => {
                    results.push((call.id.clone(), call.name.clone(), format!("tool call {status}"), true))
                }
                _ => {}
            }
            calls.push(call);
        }
    }
    let all_cancelled = cancelled > 0 && cancelled == calls.len();
    // Checkpointed history keeps calls as `functionCall` parts of the content.
    for call in parts
        .iter()
        .filter_map(|p| p.get("functionCall"))
        .map(|fc| call_of(fc, "args"))
    {
        if !calls.iter().any(|c| c.id == call.id) {
            calls.push(call);
        }
    }
    if text.trim().is_empty() && calls.is_empty() {
        t.skip("gemini:empty");
        return;
    }
    t.messages.push(Message::assistant_with_tools(text, calls));
    for (id, name, output, failed) in results {
        if id.is_empty() || answered.insert(id.clone()) {
            traced(t, &id, &name, output, failed);
        }
    }
    if all_cancelled {
        // Gemini CLI does not call the model again after this: the turn ends here
        t.interrupt("[tool calls cancelled]".to_owned());
    }
}

/// Shell tool names whose output ends in the fields Gemini CLI writes.
const SHELL_TOOLS: [&str; 2] = ["run_shell_command", "shell"];

/// Records a tool result with the outcome the host recorded: `failed` (its
/// status or `response.error`), and for the shell tool the exit code and
/// signal in the fields after the output.
fn traced(t: &mut Transcript, call_id: &str, name: &str, output: String, failed: bool) {
    let (code, signal) = if SHELL_TOOLS.contains(&name) {
        shell_fields(&output)
    } else {
        (None, false)
    };
    let failed = failed || signal || code.is_some_and(|c| c != 0);
    let at = t.tool_outcome(call_id, output, Outcome::Failed(failed));
    t.tools[at].exit_code = code;
}

/// The exit code and whether a signal is named, from the block of fields
/// Gemini CLI's shell tool writes after the command's output (`Error:`,
/// `Exit Code:`, `Signal:`, `Background PIDs:`, `Process Group PGID:`, inside
/// `<untrusted_context>` in newer versions). Read from the end: the last
/// `Exit Code:` line is the host's; a line of the output never counts.
fn shell_fields(output: &str) -> (Option<i64>, bool) {
    const TRAILING: [&str; 3] = ["Error:", "Background PIDs:", "Process Group PGID:"];
    let mut code = None;
    let mut seen_code = false;
    let mut signal = false;
    for line in output.lines().rev().map(str::trim) {
        if line.is_empty() || line == "</untrusted_context>" {
            continue;
        }
        if let Some(value) = line.strip_prefix("Exit Code:") {
            if !seen_code {
                seen_code = true;
                code = value.trim().parse().ok();
            }
        } else if let Some(value) = line.strip_prefix("Signal:") {
            let value = value.trim();
            signal |= !value.is_empty() && value != "(none)";
        } else if !TRAILING.iter().any(|k| line.starts_with(k)) {
            break;
        }
    }
    (code, signal)
}

/// Output text of a `toolCalls[].result` (`PartListUnion`), and whether it
/// reports an error (`response.error`).
fn result_output(result: &Value) -> (String, bool) {
    let mut texts = Vec::new();
    let mut failed = false;
    for p in parts(result) {
        if let Some(resp) = p.get("functionResponse") {
            let (text, f) = response_output(resp);
            failed |= f;
            texts.push(text);
        } else if let Some(text) = p.get("text").and_then(Value::as_str) {
            texts.push(text.to_owned());
        }
    }
    (texts.join("\n"), failed)
}

/// Output text of a `functionResponse`: `response.output`, or
/// `response.error` (a failure), or the response as JSON.
fn response_output(resp: &Value) -> (String, bool) {
    let response = resp.get("response").unwrap_or(&Value::Null);
    match (response.get("error"), response.get("output")) {
        (Some(err), _) => (string_or_json(Some(err)), true),
        (None, None) if !response.is_null() => (response.to_string(), false),
        (None, output) => (string_or_json(output), false),
    }
}
