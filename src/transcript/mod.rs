//! Reading agent transcripts from disk: Claude Code session JSONL, OpenAI-style
//! message JSONL, Codex rollout JSONL and Gemini CLI sessions (JSON or JSONL),
//! auto-detected.
//!
//! Owns the neutral [`Transcript`] (messages, paired tool traces, genuine user
//! prompts, compaction points, skipped line counts) and [`TranscriptError`],
//! which always names the file and, where it applies, the line. Each format
//! lives in its own file. Must not review anything: `advisor review` and
//! `advisor hook` feed the result to the plugin.

mod claude_code;
mod codex;
mod gemini;
mod hook_input;
mod openai;

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::host::{Message, Role, ToolCall, ToolTrace};

pub use hook_input::HookInput;

/// A transcript file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TranscriptFormat {
    /// Claude Code session JSONL (`{"type":"user"|"assistant",…,"message":{…}}`).
    ClaudeCode,
    /// One OpenAI-style message per line (`{"role","content",…}`).
    OpenAi,
    /// Codex rollout JSONL (`{"timestamp","type","payload"}`).
    Codex,
    /// Gemini CLI session: one JSON record, or JSONL with `$set`/`$rewindTo` edits.
    Gemini,
}

impl TranscriptFormat {
    /// Parses a format name: `claude-code`, `openai`, `codex` or `gemini`.
    pub fn parse(name: &str) -> Option<TranscriptFormat> {
        match name.trim().to_ascii_lowercase().as_str() {
            "claude-code" | "claude" | "claudecode" => Some(TranscriptFormat::ClaudeCode),
            "openai" | "messages" => Some(TranscriptFormat::OpenAi),
            "codex" => Some(TranscriptFormat::Codex),
            "gemini" | "gemini-cli" => Some(TranscriptFormat::Gemini),
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
        }
    }

    /// Guesses the format from one parsed line.
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

/// A transcript in the crate's neutral shape.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Transcript {
    /// The conversation since the last compaction, oldest first (boilerplate,
    /// meta lines and side chains left out).
    pub messages: Vec<Message>,
    /// Tool calls paired with their results, oldest first.
    pub tools: Vec<ToolTrace>,
    /// How many genuine user prompts the whole file holds (not tool results,
    /// not advisories, not boilerplate): a count that grows when the user asks
    /// something new.
    pub user_prompts: usize,
    /// How many compactions (rebases) the file records.
    pub compactions: usize,
    /// Lines or payloads of unknown types that were skipped, by type.
    pub skipped: BTreeMap<String, usize>,
}

impl Transcript {
    /// The last assistant message with text: the answer under review.
    pub fn last_answer(&self) -> Option<&str> {
        self.messages
            .iter()
            .rev()
            .find(|m| m.role == Role::Assistant && !m.content.trim().is_empty())
            .map(|m| m.content.as_str())
    }

    /// The messages before the answer under review (all of them when there is none).
    pub fn history_before_answer(&self) -> &[Message] {
        let cut = self
            .messages
            .iter()
            .rposition(|m| m.role == Role::Assistant && !m.content.trim().is_empty())
            .unwrap_or(self.messages.len());
        &self.messages[..cut]
    }

    /// Assistant turns in the transcript.
    pub fn assistant_turns(&self) -> u32 {
        u32::try_from(self.messages.iter().filter(|m| m.role == Role::Assistant).count()).unwrap_or(u32::MAX)
    }

    fn skip(&mut self, what: &str) {
        *self.skipped.entry(what.to_owned()).or_default() += 1;
    }

    fn compact(&mut self) {
        self.compactions += 1;
        self.messages.clear();
        self.tools.clear();
    }

    /// Records a user prompt unless it is an advisory the advisor itself injected.
    fn user_prompt(&mut self, text: String) {
        if !is_injected(&text) {
            self.user_prompts += 1;
        }
        self.messages.push(Message::user(text));
    }

    /// Records a tool result and pairs it with its call.
    fn tool_result(&mut self, call_id: &str, output: String, failed: bool) {
        let call = self
            .messages
            .iter()
            .rev()
            .flat_map(|m| m.tool_calls.iter())
            .find(|c| c.id == call_id)
            .cloned()
            .unwrap_or_else(|| ToolCall {
                id: call_id.to_owned(),
                name: "tool".into(),
                arguments: String::new(),
            });
        let failed = failed || looks_failed(&output);
        self.messages.push(Message::tool_result(&call, output.clone()));
        self.tools.push(ToolTrace {
            name: call.name,
            args: call.arguments,
            error: failed.then(|| first_line_with_failure(&output)),
            output,
        });
    }
}

/// Whether a user message is an advisory the advisor injected (directly or as a
/// Stop hook's reason), which is not a new request from the user.
pub fn is_injected(text: &str) -> bool {
    text.contains("<advisory severity=")
}

/// Whether tool output reports a failure: a non-zero exit code, failed tests,
/// an error line, a traceback or a panic. `0 failed` is not a failure.
pub fn looks_failed(output: &str) -> bool {
    let lower = output.to_lowercase();
    for marker in [
        "exit code",
        "exit status",
        "exited with code",
        "exit_code\":",
        "exit code:",
    ] {
        for (i, _) in lower.match_indices(marker) {
            let rest = lower[i + marker.len()..].trim_start_matches([' ', ':', '"']);
            if rest.chars().next().is_some_and(|c| c.is_ascii_digit() && c != '0') {
                return true;
            }
        }
    }
    if lower.contains("traceback (most recent call last)") || lower.contains("panicked at") || output.contains("FAILED")
    {
        return true;
    }
    if lower
        .lines()
        .any(|l| l.trim_start().starts_with("error:") || l.trim_start().starts_with("error["))
    {
        return true;
    }
    // "3 failed", "1 test failed" — but not "0 failed"
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .any(|w| w[1] == "failed" && w[0].parse::<u64>().is_ok_and(|n| n > 0))
        || words
            .windows(3)
            .any(|w| w[2] == "failed" && w[0].parse::<u64>().is_ok_and(|n| n > 0))
}

fn first_line_with_failure(output: &str) -> String {
    let line = output
        .lines()
        .find(|l| {
            let l = l.to_lowercase();
            l.contains("fail") || l.contains("error") || l.contains("exit") || l.contains("panicked")
        })
        .or_else(|| output.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("failed");
    crate::text::clamp_chars(line.trim(), 300).to_owned()
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

/// Reads the transcript at `path` in `format`, or the detected format.
pub fn read_transcript(path: &Path, format: Option<TranscriptFormat>) -> Result<Transcript, TranscriptError> {
    let name = path.display().to_string();
    let text = std::fs::read(path)
        .map_err(|e| TranscriptError::new(TranscriptErrorKind::Io, &name, None, format!("cannot read it: {e}")))?;
    let text = String::from_utf8_lossy(&text);
    parse_transcript(&name, &text, format).map(|(t, _)| t)
}

/// Parses transcript text; `name` is used in errors. Returns the transcript
/// and the format it was read as.
pub fn parse_transcript(
    name: &str,
    text: &str,
    format: Option<TranscriptFormat>,
) -> Result<(Transcript, TranscriptFormat), TranscriptError> {
    if matches!(format, None | Some(TranscriptFormat::Gemini)) {
        let forced = format.is_some();
        if let Some(read) = gemini::try_read(name, text, forced) {
            return read.map(|t| (t, TranscriptFormat::Gemini));
        }
    }
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(raw).map_err(|e| {
            TranscriptError::new(
                TranscriptErrorKind::NotJson,
                name,
                Some(i + 1),
                format!("not JSON ({e})"),
            )
        })?;
        lines.push((i + 1, value));
    }
    let Some((first_line, first)) = lines.first() else {
        return Err(TranscriptError::new(
            TranscriptErrorKind::Empty,
            name,
            None,
            "the transcript is empty",
        ));
    };
    let format = match format {
        Some(f) => f,
        None => lines
            .iter()
            .find_map(|(_, v)| TranscriptFormat::detect(v))
            .ok_or_else(|| {
                let _ = first;
                TranscriptError::new(
                    TranscriptErrorKind::UnknownFormat,
                    name,
                    Some(*first_line),
                    "unknown transcript format (expected Claude Code, OpenAI-style, Codex JSONL or a Gemini CLI session); pass --format",
                )
            })?,
    };
    let malformed =
        |line: usize, msg: String| TranscriptError::new(TranscriptErrorKind::Malformed, name, Some(line), msg);
    let transcript = match format {
        TranscriptFormat::ClaudeCode => claude_code::read(&lines).map_err(|(l, m)| malformed(l, m))?,
        TranscriptFormat::OpenAi => openai::read(&lines).map_err(|(l, m)| malformed(l, m))?,
        TranscriptFormat::Codex => codex::read(&lines).map_err(|(l, m)| malformed(l, m))?,
        // Read above: `try_read` always answers when the format is forced.
        TranscriptFormat::Gemini => {
            return Err(malformed(*first_line, "not a Gemini CLI session".into()));
        }
    };
    Ok((transcript, format))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_heuristics() {
        assert!(looks_failed("test result: FAILED. 3 passed; 1 failed"));
        assert!(looks_failed("Exit code: 2"));
        assert!(looks_failed("process exited with code 1"));
        assert!(looks_failed("error: could not compile `x`"));
        assert!(looks_failed("Traceback (most recent call last):\n  File"));
        assert!(looks_failed("2 tests failed"));
        assert!(!looks_failed("test result: ok. 5 passed; 0 failed"));
        assert!(!looks_failed("Exit code: 0"));
        assert!(!looks_failed("all good"));
    }
}
