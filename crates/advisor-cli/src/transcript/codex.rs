//! Codex rollout JSONL: `{"timestamp","type","payload"}` per line.
//!
//! `response_item` payloads carry the conversation: `message` (user or
//! assistant, `input_text` / `output_text` blocks), `function_call` (`name`,
//! `arguments` as a JSON string, `call_id`) and `function_call_output`
//! (`call_id`, `output`: a JSON envelope with `metadata.exit_code`, or the
//! unified-exec text whose header — the lines before `Output:` — says
//! `Process exited with code N` / `Process running with session ID N`),
//! `custom_tool_call` / `custom_tool_call_output` (`apply_patch`),
//! `local_shell_call`, `web_search_call` (its `status` is its outcome) and
//! `reasoning` (skipped; often encrypted). A `write_stdin` call continues the
//! `exec_command` whose session id it names: its output is attributed to that
//! command, unless Codex refused the write (`write_stdin failed: …`), a
//! failed call of its own. Code mode's JavaScript `exec` cells and their `wait`s are read by
//! [`codex_code_mode`](super::codex_code_mode). `event_msg` lines mostly repeat the conversation; read from them:
//! `user_message` (a genuine prompt), the host's own record of how a call
//! ended — `exec_command_end` (`exit_code`, `status`), Codex 0.171's
//! `item_completed` with a `CommandExecution` item (`exit_code`, `status`
//! `completed` / `failed` / `declined`, paired to its call by the item's id),
//! `patch_apply_end` (`success`), `mcp_tool_call_end` (`Err` or `isError`),
//! `web_search_end` (the id of the search the next `web_search_call` records)
//! — whichever of a call and its end comes first; `task_complete` (its
//! `last_agent_message` is the answer) and `turn_aborted` (an interrupt: the
//! turn has no answer). Every other event, item, payload and line type is
//! counted in `skipped` (`task_started`, `token_count`, `agent_message`,
//! `error`, `world_state`, `token_usage_record`, …), never dropped silently;
//! an `error` event is no answer, so the answer stays the turn's last genuine
//! assistant text. The boilerplate Codex repeats in every file (AGENTS.md in
//! `<INSTRUCTIONS>`, `<environment_context>`, `<user_instructions>`,
//! `<skill>`), the prefixes it writes as user messages on its own
//! (`<turn_aborted>`, `<user_shell_command>`, `<subagent_notification>`) and a
//! stop hook's continuation (`<hook_prompt …>`) are not the user's request.
//! `compacted` is a rebase.
//!
//! Must not review anything, and must not take an exit code from what a
//! command printed: only from the host's fields and its header.

use std::collections::HashMap;

use serde_json::Value;

use super::codex_code_mode::{Cells, Handled};
use super::{Boundary, Outcome, RawLine, Transcript, is_injected, string_or_json, text_of};
use advisor::host::{Message, Role, ToolCall};

/// Longest output kept for a command continued by `write_stdin`, in bytes (the tail is kept).
const MAX_SESSION_OUTPUT: usize = 64 * 1024;

/// Appends `more` to a command's output, keeping at most [`MAX_SESSION_OUTPUT`]
/// bytes of the tail: the output of later polls (`write_stdin`, `wait`).
pub(super) fn append_bounded(output: &mut String, more: &str) {
    output.push_str(more);
    if output.len() > MAX_SESSION_OUTPUT {
        let cut = output.len() - MAX_SESSION_OUTPUT;
        let cut = (cut..output.len())
            .find(|i| output.is_char_boundary(*i))
            .unwrap_or(output.len());
        output.drain(..cut);
    }
}

/// Whether a user message is boilerplate Codex injects, not the user's words.
fn is_boilerplate(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("<user_instructions>")
        || t.starts_with("<environment_context>")
        || t.starts_with("<skill>")
        || t.contains("<INSTRUCTIONS>")
        || t.starts_with("# AGENTS.md instructions")
}

/// User-role messages Codex writes on its own that carry news (an abort, a
/// shell command the user ran, a sub-agent's notification): kept as asides.
const HOST_PREFIXES: [&str; 4] = [
    "<hook_prompt",
    "<turn_aborted>",
    "<user_shell_command>",
    "<subagent_notification>",
];

/// Whether user text is a genuine request.
fn is_prompt(text: &str) -> bool {
    let t = text.trim_start();
    !t.is_empty() && !is_boilerplate(t) && !is_injected(t) && !HOST_PREFIXES.iter().any(|p| t.starts_with(p))
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

/// Keys of the header Codex writes before a command's `Output:` (unified
/// exec: `Chunk ID`, `Wall time`, `Process exited with code N` or `Process
/// running with session ID N`, `Original token count`, and in Codex CLI
/// 0.115 a first line `Command: /usr/bin/zsh -lc '…'`; the older shell
/// tool: `Exit code: N`, `Wall time`).
const HEADER_KEYS: [&str; 8] = [
    "Command: ",
    "Chunk ID:",
    "Wall time:",
    "Process exited with code ",
    "Process running with session ID ",
    "Original token count:",
    "Exit code: ",
    "Total output lines:",
];

/// The header lines of a command's output: when its first line is a header
/// key, the lines before its first `Output:` line (or, with no such line,
/// the leading lines that are header keys). What comes after `Output:` is the
/// command's own and never read as an outcome.
fn header(text: &str) -> Vec<&str> {
    let is_key = |l: &str| HEADER_KEYS.iter().any(|k| l.starts_with(k));
    if !text.lines().next().is_some_and(is_key) {
        return Vec::new();
    }
    let has_output = text.lines().any(|l| l == "Output:");
    text.lines()
        .take_while(|l| *l != "Output:" && (has_output || is_key(l)))
        .collect()
}

/// What a header says about the outcome, if anything.
fn header_outcome(header: &[&str]) -> Option<Outcome> {
    header.iter().find_map(|l| {
        if let Some(code) = l
            .strip_prefix("Process exited with code ")
            .or_else(|| l.strip_prefix("Exit code: "))
        {
            return code.trim().parse().ok().map(Outcome::Exit);
        }
        l.starts_with("Process running with session ID ")
            .then_some(Outcome::Running)
    })
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
    let head = header(&text);
    if !head.is_empty() {
        if let Some(outcome) = header_outcome(&head) {
            return (text, outcome);
        }
    }
    // older Codex: a command the sandbox ran and that failed is reported as
    // `failed in sandbox: <output>` or `… with execution error: …`, with the
    // exit code (if any) inside that first line
    if let Some(outcome) = sandbox_failure(&text) {
        return (text, outcome);
    }
    // no outcome in the host's fields: only then the output's own words
    let failed = super::looks_failed(&text);
    (text, Outcome::Failed(failed))
}

/// The outcome Codex states in its own prefix of a command that failed to
/// run or was stopped by the sandbox: older versions' `failed in sandbox: …`,
/// `failed in sandbox MacosSeatbelt with execution error: … exit_code: 1 …`,
/// `execution error: …`, and the tool router's `exec_command failed:
/// CreateProcess { message: "Codex(Sandbox(Denied { output: ExecToolCallOutput
/// { exit_code: 128, …` (or `… Rejected(…)`, a command refused before it ran),
/// and its `apply_patch verification failed: Failed to find expected lines …`
/// of a patch it did not apply (Codex 0.48's `shell` call of `apply_patch`: no
/// process ran, so no envelope and no exit code).
fn sandbox_failure(text: &str) -> Option<Outcome> {
    let first = text.lines().next()?;
    if ![
        "failed in sandbox",
        "execution error:",
        "exec_command failed:",
        "apply_patch verification failed:",
    ]
    .iter()
    .any(|p| first.starts_with(p))
    {
        return None;
    }
    let head = crate::terminal::clamp(text, 600);
    let code = ["exit_code: ", "exit code: "].iter().find_map(|m| {
        let rest = &head[head.find(m)? + m.len()..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
        digits.parse::<i64>().ok()
    });
    Some(code.filter(|c| *c != 0).map_or(Outcome::Failed(true), Outcome::Exit))
}

/// The command's own output: a unified-exec output without its header.
fn body(output: &str) -> &str {
    match output.split_once("\nOutput:\n") {
        Some((head, rest)) if !header(output).is_empty() || head.contains("Wall time:") => rest,
        _ => output,
    }
}

/// The session id a running unified-exec output names.
fn running_session(output: &str) -> Option<i64> {
    header(output)
        .iter()
        .find_map(|l| l.strip_prefix("Process running with session ID "))
        .and_then(|s| s.trim().parse().ok())
}

/// How a call ended, as the host recorded it in an end event.
#[derive(Debug, Clone, Copy, Default)]
struct End {
    /// The exit code, when the host recorded one.
    exit_code: Option<i64>,
    /// Failed (`Some(true)`), succeeded (`Some(false)`), or not said.
    failed: Option<bool>,
    /// The user declined the call: it never ran.
    declined: bool,
}

impl End {
    /// A command's end from its `status` and `exit_code` fields.
    fn of_command(status: Option<&str>, exit_code: Option<i64>) -> End {
        End {
            exit_code,
            failed: match status {
                Some("failed") => Some(true),
                Some("completed") => Some(false),
                _ => None,
            },
            declined: status == Some("declined"),
        }
    }
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
    /// Ends that came before their call's output: call id → the end.
    pending: HashMap<String, End>,
    /// The id a `web_search_end` gave the search the next `web_search_call` records.
    search_id: Option<String>,
    /// Code-mode cells and the `wait`s that continue them.
    cells: Cells,
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
            // metadata (`session_meta`, `turn_context`) and every line type
            // this reader does not use (`world_state`, `token_usage_record`, …)
            other => t.skip(&format!("line:{}", if other.is_empty() { "untyped" } else { other })),
        }
    }
    for _ in s.pending.drain() {
        t.skip("event_msg:end:unpaired");
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
    let call_id = || p.get("call_id").and_then(Value::as_str).unwrap_or_default().to_owned();
    match ty {
        "exec_command_end" => {
            let status = p.get("status").and_then(Value::as_str);
            let end = End::of_command(status, p.get("exit_code").and_then(Value::as_i64));
            let output = p.get("aggregated_output").and_then(Value::as_str);
            ended(t, s, &call_id(), end, output);
        }
        "item_completed" => item_completed(t, s, p.get("item").unwrap_or(&Value::Null)),
        "patch_apply_end" => {
            let failed = p.get("success").and_then(Value::as_bool).map(|ok| !ok);
            let end = End {
                failed,
                ..End::default()
            };
            ended(t, s, &call_id(), end, None);
        }
        "mcp_tool_call_end" => {
            let result = p.get("result").unwrap_or(&Value::Null);
            let failed = if result.get("Err").is_some() {
                Some(true)
            } else {
                (result.get("Ok")).map(|ok| {
                    ok.get("isError")
                        .or_else(|| ok.get("is_error"))
                        .and_then(Value::as_bool)
                        == Some(true)
                })
            };
            let end = End {
                failed,
                ..End::default()
            };
            ended(t, s, &call_id(), end, None);
        }
        "web_search_end" => s.search_id = Some(call_id()).filter(|id| !id.is_empty()),
        "task_complete" => {
            if let Some(text) = p.get("last_agent_message").and_then(Value::as_str) {
                t.recorded_answer = Some((t.messages.len(), text.to_owned()));
            }
        }
        "turn_aborted" => {
            let reason = p.get("reason").and_then(Value::as_str).unwrap_or("interrupted");
            t.interrupt(format!("[turn aborted: {reason}]"));
        }
        // a user message that is no prompt repeats its response item
        "user_message" => t.skip("event_msg:user_message:not-a-prompt"),
        // every other event is counted: ones that repeat the conversation
        // (`agent_message`, `agent_reasoning`), bookkeeping (`task_started`,
        // `token_count`, `thread_settings_applied`) and ones that are no
        // answer (`error`, `stream_error`, `warning`, `context_compacted`)
        "" => t.skip("event_msg:untyped"),
        other => t.skip(&format!("event_msg:{other}")),
    }
}

/// Codex 0.171's `item_completed`: a `CommandExecution` item's outcome,
/// paired to its call by the item's id; other items are counted.
fn item_completed(t: &mut Transcript, s: &mut State, item: &Value) {
    let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
    if !matches!(kind, "CommandExecution" | "commandExecution" | "command_execution") {
        let kind = if kind.is_empty() { "untyped" } else { kind };
        t.skip(&format!("event_msg:item_completed:{kind}"));
        return;
    }
    let field = |snake: &str, camel: &str| item.get(snake).or_else(|| item.get(camel));
    let id = (item.get("id").or_else(|| item.get("call_id")))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let code = field("exit_code", "exitCode").and_then(Value::as_i64);
    let end = End::of_command(item.get("status").and_then(Value::as_str), code);
    let output = field("aggregated_output", "aggregatedOutput").and_then(Value::as_str);
    ended(t, s, id, end, output);
}

/// Records the host's end of a call: on its trace, or until its output comes.
fn ended(t: &mut Transcript, s: &mut State, call_id: &str, end: End, output: Option<&str>) {
    match s.traces.get(call_id).copied() {
        Some(at) => settle(t, s, at, call_id, end, output),
        None if call_id.is_empty() => t.skip("event_msg:end:unpaired"),
        None => {
            s.pending.insert(call_id.to_owned(), end);
        }
    }
}

/// Applies the host's end to the trace at `at`: its exit code, and whether
/// it failed. A declined call never ran: it becomes a rejection when it is
/// the newest trace.
fn settle(t: &mut Transcript, s: &mut State, at: usize, call_id: &str, end: End, output: Option<&str>) {
    if end.declined && at + 1 == t.tools.len() {
        t.tools.pop();
        s.traces.remove(call_id);
        s.sessions.retain(|_, trace| *trace != at);
        let call = t.call(call_id);
        t.rejected.push(call);
        return;
    }
    let trace = &mut t.tools[at];
    let text = output.filter(|o| !o.is_empty()).unwrap_or(&trace.output).to_owned();
    if end.exit_code.is_some() {
        trace.exit_code = end.exit_code;
    }
    trace.error = match (end.exit_code, end.failed) {
        (_, _) if end.declined => Some("declined by the user".to_owned()),
        (Some(code), _) if code != 0 => Outcome::Exit(code).error(body(&text)),
        (_, Some(true)) => {
            let line = format!("failed: {}", super::outcome::first_line_with_failure(body(&text)));
            Some(crate::terminal::clamp(&line, 300).to_owned())
        }
        (Some(_), _) | (_, Some(false)) => None,
        (None, None) => trace.error.take(),
    };
}

/// Registers the trace at `at` of call `id` (and the unified-exec session
/// it runs on), and applies an end the host recorded before it.
fn traced(t: &mut Transcript, s: &mut State, id: &str, at: usize, session: Option<i64>) {
    s.traces.insert(id.to_owned(), at);
    if let Some(session) = session {
        s.sessions.insert(session, at);
    }
    if let Some(end) = s.pending.remove(id) {
        settle(t, s, at, id, end, None);
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
                Some(role @ ("developer" | "system")) => t.skip(&format!("response_item:message:{role}")),
                _ => t.skip("response_item:message:unknown-role"),
            }
        }
        kind @ ("function_call" | "custom_tool_call") => {
            let name = p.get("name").and_then(Value::as_str).unwrap_or("tool");
            let args = string_or_json(p.get("arguments").or_else(|| p.get("input")));
            let (name, args) = s.cells.call(kind, &call_id(), name, args);
            let name = name.as_str();
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
            match s.cells.output(t, &id, p.get("output").unwrap_or(&Value::Null)) {
                Handled::Attached => return Ok(()),
                Handled::Traced(at) => {
                    traced(t, s, &id, at, None);
                    return Ok(());
                }
                Handled::No => {}
            }
            let (output, outcome) = output_of(p.get("output").unwrap_or(&Value::Null));
            let continued = s.stdin_calls.get(&id).and_then(|sess| s.sessions.get(sess)).copied();
            match continued {
                // a write Codex refused (`write_stdin failed: stdin is closed
                // for this session`, codex-rs core/src/tools/handlers/
                // unified_exec.rs) reached no process: a failed call of its
                // own, the command it named left as it was (still running)
                Some(_) if output.trim_start().starts_with("write_stdin failed:") => {
                    t.tool_result(&id, output, true);
                }
                Some(at) => {
                    // write_stdin: the output belongs to the command it continues
                    let call = t.call(&id);
                    t.messages.push(Message::tool_result(&call, output.clone()));
                    let trace = &mut t.tools[at];
                    append_bounded(&mut trace.output, &output);
                    if !matches!(outcome, Outcome::Running) {
                        trace.error = outcome.error(body(&output));
                    }
                    if let Outcome::Exit(code) = outcome {
                        trace.exit_code = Some(code);
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
                    traced(t, s, &id, at, running);
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
            let announced = s.search_id.take();
            let id = (p.get("id").and_then(Value::as_str).map(str::to_owned))
                .or(announced)
                .unwrap_or_else(|| format!("web_search:{}", t.tools.len()));
            push_call(t, s, id.clone(), "web_search", query);
            let failed = !matches!(status, "completed" | "in_progress" | "searching");
            t.tool_outcome(&id, format!("web search {status}"), Outcome::Failed(failed));
        }
        other => t.skip(&format!(
            "response_item:{}",
            if other.is_empty() { "untyped" } else { other }
        )),
    }
    Ok(())
}
