//! Codex rollout JSONL: `{"timestamp","type","payload"}` per line.
//!
//! `response_item` payloads carry the conversation: `message` (user or
//! assistant, `input_text` / `output_text` blocks), `function_call` (`name`,
//! `arguments` as a JSON string, `call_id`) and `function_call_output`
//! (`call_id`, `output`: a JSON envelope with `metadata.exit_code`, or the
//! unified-exec text with `Process exited with code N` / `Process running
//! with session ID N`), `custom_tool_call` / `custom_tool_call_output`
//! (`apply_patch`), `local_shell_call`, `web_search_call` (its `status` is
//! its outcome) and `reasoning` (skipped; often encrypted). A `write_stdin`
//! call continues the `exec_command` whose session id it names: its output
//! is attributed to that command. `event_msg` lines mostly repeat the
//! conversation; read from them: `user_message` (a genuine prompt),
//! `exec_command_end` (the command's exit code), `task_complete` (its
//! `last_agent_message` is the answer), `turn_aborted` (an interrupt); other
//! `*_end` events are counted in `skipped`, never dropped silently. The
//! boilerplate Codex repeats in every file (AGENTS.md in `<INSTRUCTIONS>`,
//! `<environment_context>`, `<user_instructions>`) and a stop hook's
//! continuation (`<hook_prompt …>`) are not the user's request. `compacted`
//! is a rebase. Unknown line and payload types are skipped and counted.
//! Must not review anything.

use std::collections::HashMap;

use serde_json::Value;

use super::{Boundary, Outcome, RawLine, Transcript, is_injected, string_or_json, text_of};
use crate::host::{Message, Role, ToolCall};

/// Longest output kept for a command continued by `write_stdin`, in bytes (the tail is kept).
const MAX_SESSION_OUTPUT: usize = 64 * 1024;

/// Whether a user message is boilerplate Codex injects, not the user's words.
fn is_boilerplate(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("<user_instructions>")
        || t.starts_with("<environment_context>")
        || t.contains("<INSTRUCTIONS>")
        || t.starts_with("# AGENTS.md instructions")
}

/// Whether user text is a genuine request.
fn is_prompt(text: &str) -> bool {
    let t = text.trim_start();
    !t.is_empty() && !is_boilerplate(t) && !is_injected(t) && !t.starts_with("<hook_prompt")
}

/// The user text of a line that may start a turn.
fn prompt_text(line: &Value) -> Option<String> {
    let payload = line.get("payload")?;
    let ty = line.get("type").and_then(Value::as_str)?;
    let text = match (ty, payload.get("type").and_then(Value::as_str)) {
        ("event_msg", Some("user_message")) => payload.get("message").and_then(Value::as_str)?.to_owned(),
        ("response_item", Some("message")) if payload.get("role").and_then(Value::as_str) == Some("user") => {
            text_of(payload.get("content").unwrap_or(&Value::Null))
        }
        _ => return None,
    };
    is_prompt(&text).then_some(text)
}

/// Where `line` stands in the turn structure.
pub(super) fn boundary(line: &Value) -> Boundary {
    if line.get("type").and_then(Value::as_str) == Some("compacted") {
        Boundary::Compaction
    } else if prompt_text(line).is_some() {
        Boundary::TurnStart
    } else {
        Boundary::None
    }
}

/// A function output: its text and what it says about the outcome.
fn output_of(raw: &Value) -> (String, Outcome) {
    let text = match raw {
        Value::String(s) => s.clone(),
        Value::Object(_) => raw.get("content").map(text_of).unwrap_or_else(|| raw.to_string()),
        other => text_of(other),
    };
    if let Ok(Value::Object(env)) = serde_json::from_str::<Value>(&text) {
        let code = env
            .get("metadata")
            .and_then(|m| m.get("exit_code"))
            .and_then(Value::as_i64);
        let inner = env
            .get("output")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .unwrap_or(text.clone());
        return (inner, code.map_or(Outcome::Failed(false), Outcome::Exit));
    }
    // unified exec: "Chunk ID: …\nWall time: …\nProcess exited with code N\n…Output:\n<text>"
    let header = text.split("\nOutput:\n").next().unwrap_or("");
    if text.starts_with("Chunk ID:") || header.contains("Wall time:") {
        let stated = header
            .lines()
            .find_map(|l| match l.strip_prefix("Process exited with code ") {
                Some(code) => code.trim().parse().ok().map(Outcome::Exit),
                None => l
                    .starts_with("Process running with session ID ")
                    .then_some(Outcome::Running),
            });
        if let Some(outcome) = stated {
            return (text, outcome);
        }
    }
    let failed = super::looks_failed(&text);
    (text, Outcome::Failed(failed))
}

/// The command's own output: a unified-exec output without its header.
fn body(output: &str) -> &str {
    match output.split_once("\nOutput:\n") {
        Some((header, rest)) if header.contains("Wall time:") => rest,
        _ => output,
    }
}

/// The session id a running unified-exec output names.
fn running_session(output: &str) -> Option<i64> {
    output
        .split("\nOutput:\n")
        .next()?
        .lines()
        .find_map(|l| l.strip_prefix("Process running with session ID "))
        .and_then(|s| s.trim().parse().ok())
}

#[derive(Default)]
struct State {
    /// Running unified-exec sessions: session id → trace index of the command.
    sessions: HashMap<i64, usize>,
    /// `write_stdin` call id → the session it continues.
    stdin_calls: HashMap<String, i64>,
    /// Call id → trace index.
    traces: HashMap<String, usize>,
    /// Text of the last prompt, while no assistant output followed it (the
    /// same prompt arrives as a `response_item` and an `event_msg`).
    open_prompt: Option<String>,
}

pub(super) fn read(lines: &[RawLine]) -> Result<Transcript, (usize, String)> {
    let mut t = Transcript::default();
    let mut s = State::default();
    for (i, raw) in lines.iter().enumerate() {
        let Some(line) = t.parsed(raw) else { continue };
        let ty = line.get("type").and_then(Value::as_str).unwrap_or("");
        let payload = line.get("payload").unwrap_or(&Value::Null);
        if let Some(text) = prompt_text(line) {
            prompt(&mut t, &mut s, raw, text);
            continue;
        }
        match ty {
            "session_meta" | "turn_context" => {}
            "compacted" => {
                let summary = payload.get("message").and_then(Value::as_str).unwrap_or_default();
                t.compact(raw.identity(summary));
                s = State::default();
                if !summary.trim().is_empty() {
                    t.aside(summary.to_owned());
                }
            }
            "event_msg" => event(&mut t, &mut s, payload),
            "response_item" => response_item(&mut t, &mut s, payload).map_err(|m| (i, m))?,
            other => t.skip(&format!("line:{}", if other.is_empty() { "untyped" } else { other })),
        }
    }
    Ok(t)
}

fn prompt(t: &mut Transcript, s: &mut State, raw: &RawLine, text: String) {
    let id = raw.identity(&text);
    if s.open_prompt.as_deref().map(str::trim) == Some(text.trim()) {
        // the same prompt again (response_item, then event_msg): one turn,
        // identified by the later line so a read from the end agrees
        t.last_prompt = Some(id);
        return;
    }
    s.open_prompt = Some(text.clone());
    t.prompt(text, id);
}

fn event(t: &mut Transcript, s: &mut State, p: &Value) {
    let ty = p.get("type").and_then(Value::as_str).unwrap_or("");
    match ty {
        "exec_command_end" => {
            let call_id = p.get("call_id").and_then(Value::as_str).unwrap_or_default();
            let Some(&at) = s.traces.get(call_id) else {
                t.skip("event_msg:exec_command_end:unpaired");
                return;
            };
            if let Some(code) = p.get("exit_code").and_then(Value::as_i64) {
                let trace = &mut t.tools[at];
                let output = p
                    .get("aggregated_output")
                    .and_then(Value::as_str)
                    .filter(|o| !o.is_empty())
                    .unwrap_or(&trace.output)
                    .to_owned();
                trace.error = Outcome::Exit(code).error(body(&output));
            }
        }
        "task_complete" => {
            if let Some(text) = p.get("last_agent_message").and_then(Value::as_str) {
                t.recorded_answer = Some((t.messages.len(), text.to_owned()));
            }
        }
        "turn_aborted" => {
            let reason = p.get("reason").and_then(Value::as_str).unwrap_or("interrupted");
            t.interrupt(format!("[turn aborted: {reason}]"));
        }
        // known ends that repeat a response item's outcome; every other event
        // repeats the conversation or has no outcome
        "patch_apply_end" | "web_search_end" | "mcp_tool_call_end" => {}
        other if other.ends_with("_end") => t.skip(&format!("event_msg:{other}")),
        _ => {}
    }
}

fn push_call(t: &mut Transcript, s: &mut State, id: String, name: &str, arguments: String) {
    let call = ToolCall {
        id,
        name: name.to_owned(),
        arguments,
    };
    s.open_prompt = None;
    match t.messages.last_mut() {
        Some(last) if last.role == Role::Assistant && last.content.is_empty() => last.tool_calls.push(call),
        _ => t
            .messages
            .push(Message::assistant_with_tools(String::new(), vec![call])),
    }
}

fn response_item(t: &mut Transcript, s: &mut State, p: &Value) -> Result<(), String> {
    let call_id = || p.get("call_id").and_then(Value::as_str).unwrap_or_default().to_owned();
    match p.get("type").and_then(Value::as_str).unwrap_or("") {
        "message" => {
            let text = text_of(p.get("content").unwrap_or(&Value::Null));
            match p.get("role").and_then(Value::as_str) {
                Some("assistant") => {
                    s.open_prompt = None;
                    t.messages.push(Message::assistant(text));
                }
                Some("user") => {
                    // not a prompt (those are read before): boilerplate is left
                    // out, hook continuations and advisories are kept as asides
                    if !is_boilerplate(&text) && !text.trim().is_empty() {
                        t.aside(text);
                    }
                }
                Some("developer" | "system") => {}
                _ => t.skip("response_item:message:unknown-role"),
            }
        }
        "function_call" | "custom_tool_call" => {
            let name = p.get("name").and_then(Value::as_str).unwrap_or("tool");
            let args = string_or_json(p.get("arguments").or_else(|| p.get("input")));
            let session = (name == "write_stdin")
                .then(|| serde_json::from_str::<Value>(&args).ok()?.get("session_id")?.as_i64())
                .flatten();
            if let Some(session) = session {
                s.stdin_calls.insert(call_id(), session);
            }
            push_call(t, s, call_id(), name, args);
        }
        "local_shell_call" => {
            let args = p
                .get("action")
                .and_then(|a| a.get("command"))
                .map(Value::to_string)
                .unwrap_or_default();
            push_call(t, s, call_id(), "shell", args);
        }
        "function_call_output" | "custom_tool_call_output" => {
            let id = call_id();
            let (output, outcome) = output_of(p.get("output").unwrap_or(&Value::Null));
            let continued = s.stdin_calls.get(&id).and_then(|sess| s.sessions.get(sess)).copied();
            match continued {
                Some(at) => {
                    // write_stdin: the output belongs to the command it continues
                    let call = t.call(&id);
                    t.messages.push(Message::tool_result(&call, output.clone()));
                    let trace = &mut t.tools[at];
                    trace.output.push_str(&output);
                    if trace.output.len() > MAX_SESSION_OUTPUT {
                        let cut = trace.output.len() - MAX_SESSION_OUTPUT;
                        let cut = (cut..trace.output.len())
                            .find(|i| trace.output.is_char_boundary(*i))
                            .unwrap_or(trace.output.len());
                        trace.output.drain(..cut);
                    }
                    if !matches!(outcome, Outcome::Running) {
                        trace.error = outcome.error(body(&output));
                    }
                }
                None => {
                    let running = running_session(&output);
                    let at = match outcome {
                        Outcome::Failed(failed) => t.tool_result(&id, output, failed),
                        other => {
                            let at = t.tool_outcome(&id, output, other);
                            let trace = &mut t.tools[at];
                            trace.error = other.error(body(&trace.output));
                            at
                        }
                    };
                    s.traces.insert(id, at);
                    if let Some(session) = running {
                        s.sessions.insert(session, at);
                    }
                }
            }
        }
        "web_search_call" => {
            let action = p.get("action").unwrap_or(&Value::Null);
            let query = action
                .get("query")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .unwrap_or_else(|| action.to_string());
            let status = p.get("status").and_then(Value::as_str).unwrap_or("completed");
            let id = p
                .get("id")
                .and_then(Value::as_str)
                .map(str::to_owned)
                .unwrap_or_else(|| format!("web_search:{}", t.tools.len()));
            push_call(t, s, id.clone(), "web_search", query);
            let failed = !matches!(status, "completed" | "in_progress" | "searching");
            t.tool_outcome(&id, format!("web search {status}"), Outcome::Failed(failed));
        }
        "reasoning" => {}
        other => t.skip(&format!(
            "response_item:{}",
            if other.is_empty() { "untyped" } else { other }
        )),
    }
    Ok(())
}
