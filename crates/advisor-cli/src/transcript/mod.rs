//! Reading agent transcripts from disk: Claude Code session JSONL, OpenAI-style
//! message JSONL, Codex rollout JSONL, Gemini CLI sessions (JSON or JSONL),
//! GitHub Copilot CLI `events.jsonl`, Qwen Code chat JSONL and Factory droid
//! session JSONL, auto-detected.
//!
//! Owns the neutral [`Transcript`] (messages, paired tool traces, genuine user
//! prompts, compaction points, skipped line counts) and [`TranscriptError`],
//! which always names the file and, where it applies, the line. Each format
//! lives in its own file. Must not review anything: `advisor review` and
//! `advisor hook` feed the result to the plugin.

mod claude_code;
mod codex;
mod codex_code_mode;
mod copilot;
mod droid;
mod file;
mod gemini;
mod openai;
mod outcome;
mod qwen;
mod reverse;

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use advisor::host::{Message, Role, ToolCall, ToolTrace};

use advisor_rules::looks_failed;
use file::Boundary;
pub(crate) use file::DEFAULT_MAX_LINE;
#[cfg(feature = "mcp")]
pub(crate) use file::read_transcript_from;
pub use file::{ReadOptions, StopRecord, read_transcript, read_transcript_with};
use outcome::Outcome;

/// A transcript file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[derive(clap::ValueEnum)]
pub enum TranscriptFormat {
    /// Claude Code session JSONL (`{"type":"user"|"assistant",…,"message":{…}}`).
    #[value(name = "claude-code", alias = "claude", alias = "claudecode")]
    ClaudeCode,
    /// One OpenAI-style message per line (`{"role","content",…}`).
    #[value(name = "openai", alias = "messages")]
    OpenAi,
    /// Codex rollout JSONL (`{"timestamp","type","payload"}`).
    Codex,
    /// Gemini CLI session: one JSON record, or JSONL with `$set`/`$rewindTo` edits.
    #[value(alias = "gemini-cli")]
    Gemini,
    /// GitHub Copilot CLI `events.jsonl` (`{"type":"user.message",…,"data":{…}}`).
    #[value(alias = "copilot-cli")]
    Copilot,
    /// Qwen Code chat JSONL (Claude Code's line shape, Gemini-style `message.parts`).
    #[value(alias = "qwen-code")]
    Qwen,
    /// Factory droid session JSONL (`{"type":"message","message":{role,content}}`).
    Droid,
}

impl TranscriptFormat {
    /// Parses a format name: `claude-code`, `openai`, `codex`, `gemini`,
    /// `copilot`, `qwen` or `droid`.
    pub fn parse(name: &str) -> Option<TranscriptFormat> {
        match name.trim().to_ascii_lowercase().as_str() {
            "claude-code" | "claude" | "claudecode" => Some(TranscriptFormat::ClaudeCode),
            "openai" | "messages" => Some(TranscriptFormat::OpenAi),
            "codex" => Some(TranscriptFormat::Codex),
            "gemini" | "gemini-cli" => Some(TranscriptFormat::Gemini),
            "copilot" | "copilot-cli" => Some(TranscriptFormat::Copilot),
            "qwen" | "qwen-code" => Some(TranscriptFormat::Qwen),
            "droid" => Some(TranscriptFormat::Droid),
            _ => None,
        }
    }

    /// The format's name.
    pub fn as_str(self) -> &'static str {
        match self {
            TranscriptFormat::ClaudeCode => "claude-code",
            TranscriptFormat::OpenAi => "openai",
            TranscriptFormat::Codex => "codex",
            TranscriptFormat::Gemini => "gemini",
            TranscriptFormat::Copilot => "copilot",
            TranscriptFormat::Qwen => "qwen",
            TranscriptFormat::Droid => "droid",
        }
    }

    /// Guesses the format from one parsed line. A format added later (a
    /// Gemini CLI session, say) adds its own test here.
    fn detect(line: &Value) -> Option<TranscriptFormat> {
        let ty = line.get("type").and_then(Value::as_str);
        if line.get("payload").is_some()
            && matches!(
                ty,
                Some("session_meta" | "turn_context" | "response_item" | "event_msg" | "compacted")
            )
        {
            return Some(TranscriptFormat::Codex);
        }
        // the three below before Claude Code, whose test their lines would pass
        if copilot::is_line(line) {
            return Some(TranscriptFormat::Copilot);
        }
        if droid::is_line(line) {
            return Some(TranscriptFormat::Droid);
        }
        if qwen::is_line(line) {
            return Some(TranscriptFormat::Qwen);
        }
        if ty.is_some()
            && (line.get("message").is_some() || line.get("sessionId").is_some() || line.get("uuid").is_some())
        {
            return Some(TranscriptFormat::ClaudeCode);
        }
        if line.get("role").and_then(Value::as_str).is_some() {
            return Some(TranscriptFormat::OpenAi);
        }
        None
    }
}

/// What kind of failure a [`TranscriptError`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TranscriptErrorKind {
    /// The file could not be read.
    Io,
    /// The file holds no lines.
    Empty,
    /// A line is not JSON.
    NotJson,
    /// The format could not be recognised.
    UnknownFormat,
    /// A line is JSON but not what its format requires.
    Malformed,
}

/// A transcript could not be read. Displays as `file:line: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranscriptError {
    kind: TranscriptErrorKind,
    path: String,
    line: Option<usize>,
    message: String,
}

impl TranscriptError {
    fn new(kind: TranscriptErrorKind, path: &str, line: Option<usize>, message: impl Into<String>) -> Self {
        TranscriptError {
            kind,
            path: path.to_owned(),
            line,
            message: message.into(),
        }
    }

    /// At the line `number`, or at the byte `offset` when the number is unknown.
    fn at(kind: TranscriptErrorKind, path: &str, number: Option<usize>, offset: u64, message: String) -> Self {
        match number {
            Some(n) => TranscriptError::new(kind, path, Some(n), message),
            None => TranscriptError::new(kind, &format!("{path} (byte {offset})"), None, message),
        }
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> TranscriptErrorKind {
        self.kind
    }

    /// The 1-based line at fault, when there is one.
    pub fn line(&self) -> Option<usize> {
        self.line
    }
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}: {}", self.path, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for TranscriptError {}

/// A transcript in the crate's neutral shape: what was read of the file's
/// end (see [`ReadOptions`]), turn by turn.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Transcript {
    /// The conversation since the last compaction, oldest first (boilerplate,
    /// meta lines and side chains left out; a line over the line cap is a
    /// system message saying it was elided).
    pub messages: Vec<Message>,
    /// Tool calls that ran, paired with their results, oldest first.
    pub tools: Vec<ToolTrace>,
    /// Tool calls the user declined: they never ran, so they are neither
    /// successes nor failures and are not in [`tools`](Self::tools).
    pub rejected: Vec<ToolCall>,
    /// Where each turn starts: the index in [`messages`](Self::messages) of
    /// each genuine user prompt, oldest first.
    pub turn_starts: Vec<usize>,
    /// How many of [`tools`](Self::tools) were made before the last genuine
    /// prompt (earlier turns); the rest belong to the turn under review.
    pub earlier_tools: usize,
    /// Genuine user prompts in what was read (not tool results, not
    /// notifications, command output, interrupt markers, summaries, hook
    /// feedback or advisories).
    pub user_prompts: usize,
    /// The identity of the last genuine prompt (`uuid:<uuid>` for Claude
    /// Code, `id:<message id>` for Gemini CLI, `at:<offset>:<hash>`
    /// otherwise): a new value means a new request.
    pub last_prompt: Option<String>,
    /// How many compactions (rebases) were read.
    pub compactions: usize,
    /// The identity of the last compaction read, as for prompts.
    pub last_compaction: Option<String>,
    /// Lines over the line cap, skipped and marked in the window.
    pub elided: usize,
    /// Whether the read stopped at the byte cap before it reached the last
    /// turn's prompt (the turn is then only partly known).
    pub truncated: bool,
    /// The answer under review: the last turn's final assistant text, or the
    /// host's own record of it (Codex `task_complete`). `None` when the last
    /// turn has no final text, e.g. the user interrupted it.
    pub final_answer: Option<String>,
    /// The index in [`messages`](Self::messages) of the answer, when it is one.
    pub answer_index: Option<usize>,
    /// Lines or payloads of unknown types that were skipped, by type.
    pub skipped: BTreeMap<String, usize>,
    /// Message index of the last interrupt marker.
    interrupted_at: Option<usize>,
    /// The host's record of the last turn's answer (Codex `task_complete`).
    recorded_answer: Option<(usize, String)>,
    /// Whether the host's own record of the stop under review
    /// ([`ReadOptions::stop`]) was read: a host that writes its session file
    /// late has written the turn once it is there.
    pub(crate) stop_seen: bool,
}

impl Transcript {
    /// The answer under review (see [`final_answer`](Self::final_answer)).
    pub fn last_answer(&self) -> Option<&str> {
        self.final_answer.as_deref()
    }

    /// How many tool calls of the last turn have no result yet (neither a
    /// tool result nor a rejection): a host that is still writing the
    /// transcript (Claude Code calls its Stop hook before the last lines
    /// are on disk) leaves some. Calls without an id cannot be paired and
    /// are not counted.
    pub fn unanswered_calls(&self) -> usize {
        let turn = self.turn_starts.last().copied().unwrap_or(0);
        let recent = self.messages.get(turn..).unwrap_or_default();
        let answered: std::collections::HashSet<&str> = recent
            .iter()
            .filter_map(|m| m.tool_call_id.as_deref())
            .chain(self.rejected.iter().map(|c| c.id.as_str()))
            .collect();
        recent
            .iter()
            .flat_map(|m| m.tool_calls.iter())
            .filter(|c| !c.id.is_empty() && !answered.contains(c.id.as_str()))
            .count()
    }

    /// Whether the last turn holds any assistant message yet (a tool call or
    /// text). A sub-agent's transcript can hold only its prompt when Claude
    /// Code calls `SubagentStop`: its calls and their results come a few
    /// milliseconds later.
    pub(crate) fn last_turn_has_assistant(&self) -> bool {
        let turn = self.turn_starts.last().copied().unwrap_or(0);
        self.messages
            .get(turn..)
            .unwrap_or_default()
            .iter()
            .any(|m| m.role == Role::Assistant)
    }

    /// The messages before the answer under review (all of them when there is none).
    pub fn history_before_answer(&self) -> &[Message] {
        &self.messages[..self.answer_index.unwrap_or(self.messages.len())]
    }

    /// Assistant turns in the transcript.
    pub fn assistant_turns(&self) -> u32 {
        u32::try_from(self.messages.iter().filter(|m| m.role == Role::Assistant).count()).unwrap_or(u32::MAX)
    }

    fn skip(&mut self, what: &str) {
        *self.skipped.entry(what.to_owned()).or_default() += 1;
    }

    fn compact(&mut self, id: String) {
        self.compactions += 1;
        self.last_compaction = Some(id);
        // a compaction is no new request; the prompt before it is not in the
        // window any more (and a read from the end stops at the compaction)
        self.last_prompt = None;
        self.messages.clear();
        self.tools.clear();
        self.rejected.clear();
        self.turn_starts.clear();
        self.earlier_tools = 0;
        self.interrupted_at = None;
        self.recorded_answer = None;
    }

    /// Records a genuine user prompt: a new turn.
    fn prompt(&mut self, text: String, id: String) {
        self.user_prompts += 1;
        self.last_prompt = Some(id);
        self.turn_starts.push(self.messages.len());
        self.earlier_tools = self.tools.len();
        self.messages.push(Message::user(text));
    }

    /// Records a user-channel message that is not a prompt (a notification,
    /// command output, hook feedback, an advisory).
    fn aside(&mut self, text: String) {
        self.messages.push(Message::user(text));
    }

    /// Records an interrupt marker: the turn's earlier text is not its answer.
    fn interrupt(&mut self, text: String) {
        self.interrupted_at = Some(self.messages.len());
        self.messages.push(Message::user(text));
    }

    /// The parsed line, or `None` once a line over the line cap is recorded
    /// as elided.
    fn parsed<'a>(&mut self, raw: &'a RawLine) -> Option<&'a Value> {
        let bytes = match &raw.value {
            Ok(v) => return Some(v),
            Err(bytes) => *bytes,
        };
        self.elided += 1;
        self.messages.push(Message::system(format!(
            "[a transcript line of {bytes} bytes was over the line cap and is elided]"
        )));
        None
    }

    /// Records a call the user declined.
    fn reject(&mut self, call_id: &str, output: String) {
        let call = self.call(call_id);
        self.messages.push(Message::tool_result(&call, output));
        self.rejected.push(call);
    }

    fn call(&self, call_id: &str) -> ToolCall {
        self.messages
            .iter()
            .rev()
            .flat_map(|m| m.tool_calls.iter())
            .find(|c| c.id == call_id)
            .cloned()
            .unwrap_or_else(|| ToolCall {
                id: call_id.to_owned(),
                name: "tool".into(),
                arguments: String::new(),
            })
    }

    /// Records a tool result and pairs it with its call, failed when the host
    /// says so or (for formats that record no outcome) when the output reads
    /// as a failure; returns the trace's index.
    fn tool_result(&mut self, call_id: &str, output: String, failed: bool) -> usize {
        let failed = failed || looks_failed(&output);
        self.tool_outcome(call_id, output, Outcome::Failed(failed))
    }

    /// Records a tool result whose outcome the host stated; returns the trace's
    /// index. Only [`Outcome::Exit`] sets the trace's exit code; a reader
    /// that knows the code but words the error itself sets it afterwards.
    fn tool_outcome(&mut self, call_id: &str, output: String, outcome: Outcome) -> usize {
        let call = self.call(call_id);
        self.messages.push(Message::tool_result(&call, output.clone()));
        let error = outcome.error(&output);
        let exit_code = match outcome {
            Outcome::Exit(code) => Some(code),
            Outcome::Failed(_) | Outcome::Running => None,
        };
        self.tools.push(ToolTrace {
            name: call.name,
            args: call.arguments,
            error,
            output,
            exit_code,
        });
        self.tools.len() - 1
    }

    /// Decides the answer under review once every line is read.
    fn finish(&mut self) {
        let turn = self.turn_starts.last().copied().unwrap_or(0);
        let text_at = self
            .messages
            .iter()
            .enumerate()
            .skip(turn)
            .rev()
            .find(|(_, m)| m.role == Role::Assistant && !m.content.trim().is_empty())
            .map(|(i, _)| i);
        let interrupted = self
            .interrupted_at
            .is_some_and(|i| i >= turn && text_at.is_none_or(|t| i > t));
        let recorded = self
            .recorded_answer
            .take()
            .filter(|(at, text)| *at >= turn && !text.trim().is_empty());
        (self.final_answer, self.answer_index) = match (recorded, text_at) {
            (_, _) if interrupted => (None, None),
            // assistant text written after the recorded answer is newer
            (Some((recorded_at, _)), Some(i)) if i >= recorded_at => (Some(self.messages[i].content.clone()), Some(i)),
            (Some((_, text)), at) => {
                let at = at.filter(|i| self.messages[*i].content.trim() == text.trim());
                (Some(text), at)
            }
            (None, Some(i)) => (Some(self.messages[i].content.clone()), Some(i)),
            (None, None) => (None, None),
        };
    }
}

use advisor::trace::short_hash;

/// Whether a user message is an advisory the advisor injected (directly or as a
/// Stop hook's reason), which is not a new request from the user.
pub(crate) fn is_injected(text: &str) -> bool {
    text.contains("<advisory severity=")
}

/// A call recorded as a JSON object with `id`, `name` and its arguments under
/// `args_key` (Claude Code `tool_use` blocks, Gemini CLI calls).
fn call_of(v: &Value, args_key: &str) -> ToolCall {
    ToolCall {
        id: v.get("id").and_then(Value::as_str).unwrap_or_default().to_owned(),
        name: v.get("name").and_then(Value::as_str).unwrap_or("tool").to_owned(),
        arguments: v.get(args_key).map(Value::to_string).unwrap_or_default(),
    }
}

/// A value that is a JSON string (taken as written) or any other value (as
/// JSON text), empty when absent: call arguments, tool outputs.
fn string_or_json(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// Text of a content value that is a string or a list of text blocks.
pub(crate) fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| match p {
                Value::String(s) => Some(s.as_str()),
                _ => p.get("text").and_then(Value::as_str),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// One line of a transcript, as the readers see it.
#[derive(Debug, Clone)]
pub(crate) struct RawLine {
    /// The 1-based line number, when known (a read from the end that did not
    /// reach the file's start does not know it).
    pub(crate) number: Option<usize>,
    /// Byte offset of the line in the file.
    pub(crate) offset: u64,
    /// The parsed line, or the length of a line over the line cap.
    pub(crate) value: Result<Value, u64>,
}

impl RawLine {
    /// An identity for the line that does not depend on how much was read:
    /// its offset and a hash of `text`.
    pub(crate) fn identity(&self, text: &str) -> String {
        format!("at:{}:{}", self.offset, short_hash(text))
    }
}

/// Parses transcript text (all of it); `name` is used in errors. Returns the
/// transcript and the format it was read as. Lines over
/// the default line cap (1 MiB) are elided as in a read from a file.
pub fn parse_transcript(
    name: &str,
    text: &str,
    format: Option<TranscriptFormat>,
) -> Result<(Transcript, TranscriptFormat), TranscriptError> {
    if matches!(format, None | Some(TranscriptFormat::Gemini)) {
        let forced = format.is_some();
        if let Some(read) = gemini::try_read(name, text, forced) {
            return read.map(|mut t| {
                t.finish();
                (t, TranscriptFormat::Gemini)
            });
        }
    }
    let mut raw = Vec::new();
    let mut offset = 0u64;
    for (i, line) in text.split('\n').enumerate() {
        let here = offset;
        offset += line.len() as u64 + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value = if line.len() > DEFAULT_MAX_LINE {
            Err(line.len() as u64)
        } else {
            Ok(serde_json::from_str::<Value>(line).map_err(|e| {
                TranscriptError::new(
                    TranscriptErrorKind::NotJson,
                    name,
                    Some(i + 1),
                    format!("not JSON ({e})"),
                )
            })?)
        };
        raw.push(RawLine {
            number: Some(i + 1),
            offset: here,
            value,
        });
    }
    let options = ReadOptions {
        format,
        ..ReadOptions::default()
    };
    read_lines(name, &raw, &options)
}

/// Detects the format (unless `options` gives it) and runs its reader over
/// `raw`; the readers of Copilot CLI and droid take the sub-agent and the
/// stop record of `options` too.
fn read_lines(
    name: &str,
    raw: &[RawLine],
    options: &ReadOptions,
) -> Result<(Transcript, TranscriptFormat), TranscriptError> {
    let format = options.format;
    if raw.is_empty() {
        return Err(TranscriptError::new(
            TranscriptErrorKind::Empty,
            name,
            None,
            "the transcript is empty",
        ));
    }
    let format = match format {
        Some(f) => f,
        None => raw
            .iter()
            .find_map(|l| l.value.as_ref().ok().and_then(TranscriptFormat::detect))
            .ok_or_else(|| {
                TranscriptError::new(
                    TranscriptErrorKind::UnknownFormat,
                    name,
                    raw.first().and_then(|l| l.number),
                    "unknown transcript format (expected Claude Code, OpenAI-style, Codex JSONL, a Gemini CLI session, Copilot CLI events, Qwen Code or droid JSONL); pass --format",
                )
            })?,
    };
    let mut transcript = match format {
        TranscriptFormat::ClaudeCode => claude_code::read(raw),
        TranscriptFormat::OpenAi => openai::read(raw),
        TranscriptFormat::Codex => codex::read(raw),
        TranscriptFormat::Copilot => copilot::read(raw, options),
        TranscriptFormat::Qwen => qwen::read(raw),
        TranscriptFormat::Droid => droid::read(raw, options),
        // Gemini sessions are whole records, read by `parse_transcript`
        // (the legacy format is one JSON value over many lines).
        TranscriptFormat::Gemini => Err((0, "not a Gemini CLI session".to_owned())),
    }
    .map_err(|(i, m)| TranscriptError::at(TranscriptErrorKind::Malformed, name, raw[i].number, raw[i].offset, m))?;
    transcript.finish();
    Ok((transcript, format))
}
