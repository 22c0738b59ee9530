//! The JSON a Claude Code or Codex `Stop` hook receives on stdin.
//!
//! Owns [`HookInput`] and its lenient parsing (unknown fields ignored, only
//! `session_id` required). Must not read transcripts or review anything.

use std::path::PathBuf;

use serde::Deserialize;

/// A `Stop` hook's input.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct HookInput {
    /// The agent session.
    pub session_id: String,
    /// The session's transcript (Claude Code JSONL or a Codex rollout).
    #[serde(default)]
    pub transcript_path: Option<PathBuf>,
    /// Whether the agent is already continuing because of a stop hook.
    #[serde(default)]
    pub stop_hook_active: Option<bool>,
    /// The answer the agent just gave, when the host provides it (fresher than the transcript).
    #[serde(default)]
    pub last_assistant_message: Option<String>,
    /// The session's working directory.
    #[serde(default)]
    pub cwd: Option<PathBuf>,
}

impl HookInput {
    /// Parses the hook JSON. The error describes the problem without quoting the input.
    ///
    /// ```
    /// let i = advisor::transcript::HookInput::parse(r#"{"session_id":"s","transcript_path":"t.jsonl","extra":1}"#).unwrap();
    /// assert_eq!(i.session_id, "s");
    /// assert!(advisor::transcript::HookInput::parse("{}").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<HookInput, String> {
        serde_json::from_str(text).map_err(|e| {
            format!(
                "the hook input is not valid ({})",
                crate::json::describe_serde_error(&e)
            )
        })
    }
}
