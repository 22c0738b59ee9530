//! The JSON a stop-time hook receives on stdin, from each host it supports.
//!
//! Owns [`CodingAgent`], [`HookEvent`] and [`HookInput`]: recognising the host from
//! the input (`hook_event_name` and the field set) unless it is named, and
//! mapping each host's fields to one neutral shape. GitHub Copilot CLI, Qwen
//! Code and Factory droid are never recognised: they must be named
//! (`--host copilot|qwen|droid`), since Qwen Code and droid send Claude
//! Code's shape and Copilot CLI no event name. Lenient where hosts add
//! fields (unknown fields ignored, a UTF-8 byte-order mark skipped), strict
//! where the review depends on them (a session id is required). Field names
//! follow the hosts' own documentation and source (see `docs/hooks.md`).
//! Must not read transcripts or review anything, and its errors describe the
//! input without quoting it.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::transcript::{StopRecord, TranscriptFormat};

/// The coding agent that runs the hook; its wire name is the one `--host`
/// takes (`claude`, `codex`, `gemini`, `cursor`, `copilot`, `qwen`, `droid`;
/// as a `clap::ValueEnum` it also takes `claude-code`, `gemini-cli`,
/// `copilot-cli`, `qwen-code` and `factory`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
pub enum CodingAgent {
    /// Claude Code (`Stop`, `SubagentStop`).
    #[value(name = "claude", alias = "claude-code", alias = "claudecode")]
    #[serde(rename = "claude")]
    ClaudeCode,
    /// Codex (`Stop`, `SubagentStop`, with `turn_id`).
    #[serde(rename = "codex")]
    Codex,
    /// Gemini CLI (`AfterAgent`).
    #[value(alias = "gemini-cli")]
    #[serde(rename = "gemini")]
    Gemini,
    /// Cursor (`stop`).
    #[serde(rename = "cursor")]
    Cursor,
    /// GitHub Copilot CLI (`agentStop`, `subagentStop`; no event name in its input).
    #[value(alias = "copilot-cli")]
    #[serde(rename = "copilot")]
    Copilot,
    /// Qwen Code (`Stop`, `SubagentStop`, in Claude Code's shape).
    #[value(alias = "qwen-code")]
    #[serde(rename = "qwen")]
    Qwen,
    /// Factory droid (`Stop`, `SubagentStop`, in Claude Code's shape).
    #[value(alias = "factory")]
    #[serde(rename = "droid")]
    Droid,
}

impl CodingAgent {
    /// The value as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            CodingAgent::ClaudeCode => "claude",
            CodingAgent::Codex => "codex",
            CodingAgent::Gemini => "gemini",
            CodingAgent::Cursor => "cursor",
            CodingAgent::Copilot => "copilot",
            CodingAgent::Qwen => "qwen",
            CodingAgent::Droid => "droid",
        }
    }
}

impl std::fmt::Display for CodingAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which stop the hook is called for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HookEvent {
    /// The main agent is about to stop (`Stop`, `AfterAgent`, Cursor `stop`).
    Stop,
    /// A sub-agent is about to stop (`SubagentStop`).
    SubagentStop,
}

/// A stop-time hook's input, in one shape for every host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookInput {
    /// The host that sent it.
    pub host: CodingAgent,
    /// The stop it is for.
    pub event: HookEvent,
    /// The agent session (Cursor: the conversation).
    pub session_id: String,
    /// The sub-agent's id (`SubagentStop`).
    pub agent_id: Option<String>,
    /// The sub-agent's type; empty for Claude Code's internal agents
    /// (compaction, summaries), which are not reviewed.
    pub agent_type: Option<String>,
    /// The transcript to review: the session's, or the sub-agent's own for
    /// `SubagentStop`. `None` when the host sent none (null or empty).
    pub transcript_path: Option<PathBuf>,
    /// Whether the agent is already continuing because of a stop hook.
    pub stop_hook_active: bool,
    /// Cursor: how many follow-ups its stop hooks already sent in this loop.
    pub loop_count: Option<u64>,
    /// Cursor: how the generation ended (`completed`, `aborted`, `error`).
    pub status: Option<String>,
    /// The answer the agent just gave, when the host provides it (fresher
    /// than the transcript): `last_assistant_message` (Claude Code, Codex).
    pub last_assistant_message: Option<String>,
    /// Gemini CLI's `prompt_response`: every text of the turn joined with
    /// `\n` — an answer a stop hook already sent back included — so never
    /// the answer itself when the session file says which text is last
    /// (the hook takes the session file's answer when it can).
    pub joined_response: Option<String>,
    /// The request the answer is for, when the host provides it (Gemini `prompt`).
    pub prompt: Option<String>,
    /// Codex: the turn the stop ends (a new request has a new turn).
    pub turn_id: Option<String>,
    /// The session's working directory (Cursor: its first workspace root).
    pub cwd: Option<PathBuf>,
    /// The session file's format, for a host whose lines are not told
    /// apart by their shape alone (Copilot CLI, Qwen Code, droid); `None`:
    /// detected.
    pub transcript_format: Option<TranscriptFormat>,
    /// The sub-agent whose lines the transcript is read for: Copilot CLI
    /// writes a sub-agent's lines into the parent's file (`subagentStop`).
    pub transcript_agent: Option<String>,
    /// The host's own record of this stop in its session file, waited for
    /// before the review: Copilot CLI's `hook.start` of this call, droid's
    /// `message_id` (the answer).
    pub stop_record: Option<StopRecord>,
    /// The host ignores a block of this stop, so it goes through unreviewed:
    /// Copilot CLI's `agentStop` inside a sub-agent (its `subagentStop` is
    /// the one to review), droid's `SubagentStop` (droid 0.215.0 discards
    /// its output).
    pub cannot_block: bool,
}

/// Largest hook input read, in bytes.
pub(crate) const MAX_HOOK_INPUT_BYTES: u64 = 4 << 20;

fn string(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn non_empty(s: Option<String>) -> Option<String> {
    s.filter(|s| !s.trim().is_empty())
}

impl HookInput {
    /// Parses the hook JSON, recognising the host from it. The error
    /// describes the problem without quoting the input.
    ///
    /// ```
    /// use advisor_cli::hook_input::{HookInput, CodingAgent};
    /// let i = HookInput::parse(r#"{"session_id":"s","transcript_path":"t.jsonl","extra":1}"#).unwrap();
    /// assert_eq!((i.session_id.as_str(), i.host), ("s", CodingAgent::ClaudeCode));
    /// assert!(HookInput::parse("{}").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<HookInput, String> {
        HookInput::parse_for(text, None)
    }

    /// Parses the hook JSON of `host`, or of the host recognised from it.
    pub(crate) fn parse_for(text: &str, host: Option<CodingAgent>) -> Result<HookInput, String> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value: Value =
            serde_json::from_str(text).map_err(|e| advisor::io::describe_json_error("the hook input", &e))?;
        let Value::Object(map) = value else {
            return Err("the hook input is not a JSON object".into());
        };
        let event_name = string(&map, "hook_event_name").unwrap_or_default();
        let host = host.map_or_else(|| detect(&map, &event_name), Ok)?;
        if host == CodingAgent::Copilot {
            return copilot(&map);
        }
        let event = event(host, &event_name)?;
        let session_id = session_id(&map, host)?;
        let transcript_path = match event {
            HookEvent::SubagentStop => string(&map, "agent_transcript_path"),
            HookEvent::Stop => string(&map, "transcript_path"),
        };
        let (answer, joined) = match host {
            CodingAgent::Gemini => (
                None,
                string(&map, "prompt_response").filter(|r| r != "[no response text]"),
            ),
            _ => (string(&map, "last_assistant_message"), None),
        };
        let cwd = string(&map, "cwd").or_else(|| first_root(&map));
        let transcript_path = match (host, event) {
            (CodingAgent::Qwen, HookEvent::SubagentStop) => qwen_agent_transcript(&map, &session_id),
            _ => non_empty(transcript_path),
        };
        Ok(HookInput {
            host,
            event,
            session_id,
            agent_id: non_empty(string(&map, "agent_id")),
            agent_type: string(&map, "agent_type"),
            transcript_path: transcript_path.map(PathBuf::from),
            stop_hook_active: map.get("stop_hook_active").and_then(Value::as_bool) == Some(true),
            loop_count: map.get("loop_count").and_then(Value::as_u64),
            status: string(&map, "status"),
            last_assistant_message: non_empty(answer),
            joined_response: non_empty(joined),
            prompt: non_empty(string(&map, "prompt")),
            turn_id: non_empty(string(&map, "turn_id")),
            cwd: non_empty(cwd).map(PathBuf::from),
            transcript_format: match host {
                CodingAgent::Qwen => Some(TranscriptFormat::Qwen),
                CodingAgent::Droid => Some(TranscriptFormat::Droid),
                _ => None,
            },
            transcript_agent: None,
            stop_record: match host {
                CodingAgent::Droid => non_empty(string(&map, "message_id")).map(StopRecord::Message),
                _ => None,
            },
            cannot_block: host == CodingAgent::Droid && event == HookEvent::SubagentStop,
        })
    }

    /// Whether a stop hook may already have sent the agent back in this loop
    /// (`stop_hook_active`, or Cursor's `loop_count` above zero): the
    /// backstop when the advisor's own state cannot be trusted. Gemini CLI's
    /// `stop_hook_active` is false on a retry that called a tool, so a
    /// Gemini stop always counts as possibly continuing: with a state it
    /// cannot trust, the hook lets it through rather than lean on the flag.
    pub(crate) fn continuing(&self) -> bool {
        self.host == CodingAgent::Gemini || self.stop_hook_active || self.loop_count.is_some_and(|n| n > 0)
    }

    /// The answer under review, given the transcript's own (`transcript`,
    /// the last turn's final text): the host's `last_assistant_message`
    /// first (Claude Code writes the final line late); for Gemini CLI the
    /// transcript's answer when `prompt_response` ends with it, else the
    /// text `prompt_response` holds after it (the session file lags), else
    /// the whole `prompt_response` (no session file to tell the texts apart).
    pub(crate) fn answer(&self, transcript: Option<&str>) -> Option<String> {
        if let Some(a) = &self.last_assistant_message {
            return Some(a.clone());
        }
        let Some(joined) = &self.joined_response else {
            return transcript.map(str::to_owned);
        };
        let Some(last) = transcript.map(str::trim).filter(|t| !t.is_empty()) else {
            return Some(joined.clone());
        };
        let joined_trim = joined.trim_end();
        if joined_trim.ends_with(last) {
            return Some(last.to_owned());
        }
        match joined_trim.rfind(last) {
            Some(at) => {
                let newer = joined_trim[at + last.len()..].trim();
                Some(if newer.is_empty() { last } else { newer }.to_owned())
            }
            None => Some(joined.clone()),
        }
    }
}

/// GitHub Copilot CLI's input (1.0.102): camelCase `sessionId`,
/// `transcriptPath`, `cwd`, `timestamp` (epoch milliseconds), `stopReason`
/// and one snake_case `stop_hook_active`, no event name. `subagentStop` is
/// the one that carries the sub-agent's answer (`response`, with `agentId`,
/// `agentType`, `agentName`); an `agentStop` with `parentAgentId` (or
/// `agentId`) is fired inside a sub-agent, and Copilot CLI ignores a block
/// of it. Both events name the parent's `events.jsonl`.
fn copilot(map: &Map<String, Value>) -> Result<HookInput, String> {
    let host = CodingAgent::Copilot;
    if !map.contains_key("stopReason") {
        return Err(
            "the copilot hook input is not a stop (no stopReason): register it for agentStop and subagentStop".into(),
        );
    }
    let session_id = non_empty(string(map, "sessionId")).ok_or("the copilot hook input has no session id")?;
    let answer = map.get("response").and_then(Value::as_str).map(str::to_owned);
    let event = if answer.is_some() {
        HookEvent::SubagentStop
    } else {
        HookEvent::Stop
    };
    let agent_id = non_empty(string(map, "agentId"));
    let inside_subagent = event == HookEvent::Stop && (map.contains_key("parentAgentId") || agent_id.is_some());
    let flag = |k: &str| map.get(k).and_then(Value::as_bool) == Some(true);
    let timestamp = map.get("timestamp").and_then(Value::as_i64);
    let hook = match event {
        HookEvent::Stop => "agentStop",
        HookEvent::SubagentStop => "subagentStop",
    };
    Ok(HookInput {
        host,
        event,
        session_id,
        transcript_agent: agent_id.clone().filter(|_| event == HookEvent::SubagentStop),
        agent_id,
        agent_type: string(map, "agentType"),
        transcript_path: non_empty(string(map, "transcriptPath")).map(PathBuf::from),
        stop_hook_active: flag("stop_hook_active") || flag("stopHookActive"),
        loop_count: None,
        status: None,
        last_assistant_message: non_empty(answer),
        joined_response: None,
        prompt: None,
        turn_id: None,
        cwd: non_empty(string(map, "cwd").or_else(|| string(map, "workingDirectory"))).map(PathBuf::from),
        transcript_format: Some(TranscriptFormat::Copilot),
        stop_record: timestamp.map(|timestamp| StopRecord::HookStart {
            hook: hook.to_owned(),
            timestamp,
        }),
        cannot_block: inside_subagent,
    })
}

/// Qwen Code's `SubagentStop`: the sub-agent's own chat file. Qwen Code
/// 0.24.4 sends `agent_transcript_path` equal to the parent's chat file, and
/// writes the sub-agent's lines to
/// `<project>/subagents/<session id>/agent-<agent id>.jsonl` beside
/// `<project>/chats/`; a path that differs from `transcript_path` is taken as
/// given. `None` (no transcript) when the ids cannot name a file.
fn qwen_agent_transcript(map: &Map<String, Value>, session_id: &str) -> Option<String> {
    let agent = non_empty(string(map, "agent_transcript_path"));
    let main = non_empty(string(map, "transcript_path"));
    if agent.is_some() && agent != main {
        return agent;
    }
    let file_name = |id: &str| {
        let plain = id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        (plain && !id.starts_with('.') && id.len() <= 200).then_some(())
    };
    let agent_id = non_empty(string(map, "agent_id"))?;
    file_name(&agent_id)?;
    file_name(session_id)?;
    let project = Path::new(main.as_deref()?).parent()?.parent()?;
    let path = project
        .join("subagents")
        .join(session_id)
        .join(format!("agent-{agent_id}.jsonl"));
    Some(path.to_string_lossy().into_owned())
}

/// The stop `host` calls the hook for with the event `name` (empty: the
/// host's only stop), or why the input is not a stop.
fn event(host: CodingAgent, name: &str) -> Result<HookEvent, String> {
    match (host, name) {
        (CodingAgent::ClaudeCode | CodingAgent::Codex | CodingAgent::Qwen | CodingAgent::Droid, "SubagentStop") => {
            Ok(HookEvent::SubagentStop)
        }
        (CodingAgent::ClaudeCode | CodingAgent::Codex | CodingAgent::Qwen | CodingAgent::Droid, "Stop" | "")
        | (CodingAgent::Gemini, "AfterAgent" | "")
        | (CodingAgent::Cursor, "stop" | "") => Ok(HookEvent::Stop),
        (_, other) => Err(format!(
            "the hook input is for the `{}` event, not a stop",
            crate::terminal::clamp(other, 40)
        )),
    }
}

/// The session id (Cursor: the conversation), required.
fn session_id(map: &Map<String, Value>, host: CodingAgent) -> Result<String, String> {
    let id = match host {
        CodingAgent::Cursor => string(map, "conversation_id").or_else(|| string(map, "session_id")),
        _ => string(map, "session_id"),
    };
    non_empty(id).ok_or_else(|| format!("the {} hook input has no session id", host.as_str()))
}

/// Cursor's first workspace root.
fn first_root(map: &Map<String, Value>) -> Option<String> {
    map.get("workspace_roots")
        .and_then(Value::as_array)
        .and_then(|r| r.first())
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// Recognises the host from the event name and the field set.
fn detect(map: &Map<String, Value>, event: &str) -> Result<CodingAgent, String> {
    match event {
        "AfterAgent" => return Ok(CodingAgent::Gemini),
        "stop" => return Ok(CodingAgent::Cursor),
        "Stop" | "SubagentStop" if map.contains_key("turn_id") => return Ok(CodingAgent::Codex),
        "Stop" | "SubagentStop" => return Ok(CodingAgent::ClaudeCode),
        _ => {}
    }
    if map.contains_key("conversation_id") && (map.contains_key("generation_id") || map.contains_key("loop_count")) {
        return Ok(CodingAgent::Cursor);
    }
    if map.contains_key("prompt_response") {
        return Ok(CodingAgent::Gemini);
    }
    if event.is_empty() && map.contains_key("session_id") {
        // an input without an event name: the oldest Claude Code shape
        return Ok(CodingAgent::ClaudeCode);
    }
    Err(if event.is_empty() {
        "the hook input is from no host this hook knows (no hook_event_name, no session id); Copilot CLI, Qwen Code and droid must be named with --host".to_owned()
    } else {
        format!(
            "the hook input's event `{}` is from no host this hook knows; pass --host",
            crate::terminal::clamp(event, 40)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_host_is_recognised_from_its_own_input() {
        let cc = r#"{"session_id":"s","transcript_path":"t","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}"#;
        let codex = r#"{"session_id":"s","turn_id":"t1","transcript_path":null,"cwd":"/w","hook_event_name":"Stop","model":"m","permission_mode":"default","stop_hook_active":false,"last_assistant_message":null}"#;
        let gemini = r#"{"session_id":"s","transcript_path":"","cwd":"/w","hook_event_name":"AfterAgent","timestamp":"x","prompt":"p","prompt_response":"r","stop_hook_active":true}"#;
        let cursor = "\u{feff}{\"conversation_id\":\"c\",\"generation_id\":\"g\",\"hook_event_name\":\"stop\",\"workspace_roots\":[\"/w\"],\"status\":\"completed\",\"loop_count\":1,\"input_tokens\":5}";
        let i = HookInput::parse(cc).unwrap();
        assert_eq!(
            (i.host, i.last_assistant_message.as_deref()),
            (CodingAgent::ClaudeCode, Some("done"))
        );
        let i = HookInput::parse(codex).unwrap();
        assert_eq!(
            (i.host, i.transcript_path.clone(), i.turn_id.as_deref()),
            (CodingAgent::Codex, None, Some("t1"))
        );
        let i = HookInput::parse(gemini).unwrap();
        assert_eq!(
            (i.host, i.transcript_path.clone(), i.prompt.as_deref()),
            (CodingAgent::Gemini, None, Some("p"))
        );
        assert_eq!(
            (i.last_assistant_message.as_deref(), i.joined_response.as_deref()),
            (None, Some("r"))
        );
        assert!(i.continuing());
        let i = HookInput::parse(cursor).unwrap();
        assert_eq!(
            (i.host, i.session_id.as_str(), i.loop_count),
            (CodingAgent::Cursor, "c", Some(1))
        );
        assert_eq!(i.cwd, Some(PathBuf::from("/w")));
        assert!(i.continuing());
        assert!(HookInput::parse(r#"{"hook_event_name":"PreToolUse","session_id":"s"}"#).is_err());
        assert!(HookInput::parse("[1]").is_err());
        assert!(HookInput::parse(r#"{"hello":"world"}"#).is_err());
    }

    #[test]
    fn gemini_reviews_the_final_answer_never_the_joined_turn() {
        let input = |joined: &str| {
            HookInput::parse(
                &serde_json::json!({"session_id": "s", "hook_event_name": "AfterAgent", "prompt": "p",
                    "prompt_response": joined, "stop_hook_active": false})
                .to_string(),
            )
            .unwrap()
        };
        let retry = input("All tests pass.\nCorrection: 1 test fails.");
        // the session file has the final answer
        assert_eq!(
            retry.answer(Some("Correction: 1 test fails.")).as_deref(),
            Some("Correction: 1 test fails.")
        );
        // the session file lags one answer behind: the newer text is the answer
        assert_eq!(
            retry.answer(Some("All tests pass.")).as_deref(),
            Some("Correction: 1 test fails.")
        );
        // no session file: all there is
        assert_eq!(
            retry.answer(None).as_deref(),
            Some("All tests pass.\nCorrection: 1 test fails.")
        );
        // a stop hook's flag is never needed: a Gemini stop is always possibly continuing
        assert!(retry.continuing());
        // the other hosts: the host's own answer first
        let cc = HookInput::parse(r#"{"session_id":"s","hook_event_name":"Stop","last_assistant_message":"final"}"#)
            .unwrap();
        assert_eq!(cc.answer(Some("older")).as_deref(), Some("final"));
        assert!(!cc.continuing());
    }

    #[test]
    fn errors_name_the_hook_input_not_an_answer() {
        let e = HookInput::parse("{\"session_id\": ").unwrap_err();
        assert!(e.starts_with("the hook input "), "{e}");
        assert!(!e.contains("answer"), "{e}");
    }

    #[test]
    fn copilot_qwen_and_droid_are_read_only_when_named() {
        let copilot = |extra: &str| {
            format!(
                r#"{{"sessionId":"p","timestamp":17,"cwd":"/w","transcriptPath":"/h/e.jsonl","stopReason":"end_turn","stop_hook_active":false{extra}}}"#
            )
        };
        assert!(HookInput::parse(&copilot("")).is_err(), "never guessed");
        let main = HookInput::parse_for(&copilot(""), Some(CodingAgent::Copilot)).unwrap();
        assert_eq!(
            (main.event, main.session_id.as_str(), main.cannot_block),
            (HookEvent::Stop, "p", false)
        );
        assert_eq!(main.transcript_format, Some(TranscriptFormat::Copilot));
        assert_eq!(
            main.stop_record,
            Some(StopRecord::HookStart {
                hook: "agentStop".into(),
                timestamp: 17
            })
        );
        let inside = HookInput::parse_for(
            &copilot(r#","agentId":"a","agentType":"general-purpose","parentAgentId":"p""#),
            Some(CodingAgent::Copilot),
        )
        .unwrap();
        assert!(
            inside.cannot_block,
            "Copilot CLI ignores a block of the agentStop inside a sub-agent"
        );
        let sub = HookInput::parse_for(
            &copilot(
                r#","agentId":"a","agentType":"general-purpose","agentName":"g","response":"done","parentAgentId":"p""#,
            ),
            Some(CodingAgent::Copilot),
        )
        .unwrap();
        assert_eq!((sub.event, sub.cannot_block), (HookEvent::SubagentStop, false));
        assert_eq!(
            (sub.transcript_agent.as_deref(), sub.last_assistant_message.as_deref()),
            (Some("a"), Some("done"))
        );
        assert_eq!(sub.transcript_path, Some(PathBuf::from("/h/e.jsonl")));
        // Qwen Code and droid send Claude Code's shape: read as Claude Code unless named
        let qwen = r#"{"session_id":"s","transcript_path":"/h/.qwen/projects/x/chats/s.jsonl","hook_event_name":"SubagentStop","agent_id":"general-purpose-call_1","agent_type":"general-purpose","agent_transcript_path":"/h/.qwen/projects/x/chats/s.jsonl","last_assistant_message":"ok"}"#;
        assert_eq!(HookInput::parse(qwen).unwrap().host, CodingAgent::ClaudeCode);
        let q = HookInput::parse_for(qwen, Some(CodingAgent::Qwen)).unwrap();
        assert_eq!(
            q.transcript_path,
            Some(PathBuf::from(
                "/h/.qwen/projects/x/subagents/s/agent-general-purpose-call_1.jsonl"
            ))
        );
        let bad = qwen.replace("general-purpose-call_1", "../../etc");
        assert_eq!(
            HookInput::parse_for(&bad, Some(CodingAgent::Qwen))
                .unwrap()
                .transcript_path,
            None
        );
        let droid = r#"{"session_id":"s","transcript_path":"/t.jsonl","hook_event_name":"Stop","message_id":"m1","stop_hook_active":false}"#;
        let d = HookInput::parse_for(droid, Some(CodingAgent::Droid)).unwrap();
        assert_eq!(d.stop_record, Some(StopRecord::Message("m1".into())));
        let d = HookInput::parse_for(&droid.replace("\"Stop\"", "\"SubagentStop\""), Some(CodingAgent::Droid)).unwrap();
        assert!(d.cannot_block, "droid 0.215.0 discards a SubagentStop hook's output");
    }

    #[test]
    fn a_subagent_stop_points_at_the_agent_transcript() {
        let i = HookInput::parse(r#"{"session_id":"s","hook_event_name":"SubagentStop","transcript_path":"parent","agent_transcript_path":"agent","agent_id":"a1","agent_type":""}"#).unwrap();
        assert_eq!(i.event, HookEvent::SubagentStop);
        assert_eq!(i.transcript_path, Some(PathBuf::from("agent")));
        assert_eq!(i.agent_type.as_deref(), Some(""));
    }
}
