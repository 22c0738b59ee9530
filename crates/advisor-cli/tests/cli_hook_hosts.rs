//! `advisor hook` for every host (issue 17, item 1): for Claude Code, Codex,
//! Gemini CLI and Cursor a pass, a block, the cap reached and bad input,
//! each with that host's own input shape and output keys.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod hook_support;

use std::path::Path;

use hook_support::{CLEAN, FLAGGED, Run, Workspace, hook};
use serde_json::{Value, json};

const CAP_1: &str = "enabled = true\nmax_rounds = 1\n";

/// Claude Code `Stop` input (docs/hooks.md: Claude Code).
fn claude(ws: &Workspace, t: &Path, answer: &str, active: bool) -> String {
    json!({"session_id": "cc-1", "transcript_path": t, "cwd": ws.path(), "permission_mode": "default",
        "hook_event_name": "Stop", "stop_hook_active": active, "last_assistant_message": answer})
    .to_string()
}

/// Codex `Stop` input: every key present, `transcript_path` nullable.
fn codex(ws: &Workspace, answer: &str, active: bool) -> String {
    json!({"session_id": "cx-1", "turn_id": "turn-1", "transcript_path": null, "cwd": ws.path(),
        "hook_event_name": "Stop", "model": "gpt-5", "permission_mode": "default",
        "stop_hook_active": active, "last_assistant_message": answer})
    .to_string()
}

/// Gemini CLI `AfterAgent` input (`transcript_path` empty when recording is off).
fn gemini(ws: &Workspace, answer: &str, active: bool) -> String {
    json!({"session_id": "gm-1", "transcript_path": "", "cwd": ws.path(), "hook_event_name": "AfterAgent",
        "timestamp": "2026-11-30T07:00:00.000Z", "prompt": "export the report",
        "prompt_response": answer, "stop_hook_active": active})
    .to_string()
}

/// Cursor `stop` input: a byte-order mark and undocumented extra fields, as real payloads carry.
fn cursor(ws: &Workspace, t: &Path, status: &str, loop_count: u64) -> String {
    let body = json!({"conversation_id": "cu-1", "generation_id": "g-1", "hook_event_name": "stop",
        "workspace_roots": [ws.path()], "transcript_path": t, "status": status, "loop_count": loop_count,
        "model": "auto", "cursor_version": "1.7.0", "session_id": "cu-1", "input_tokens": 1200});
    format!("\u{feff}{body}")
}

/// A transcript whose last answer is `answer` (OpenAI-style, which every reader build knows).
fn transcript(ws: &Workspace, answer: &str) -> std::path::PathBuf {
    let text = [
        json!({"role": "user", "content": "export the report"}),
        json!({"role": "assistant", "content": answer}),
    ]
    .iter()
    .map(|v| v.to_string() + "\n")
    .collect::<String>();
    ws.write("t.jsonl", &text)
}

fn keys(run: &Run) -> Vec<String> {
    run.json()
        .map(|v| v.as_object().unwrap().keys().cloned().collect())
        .unwrap_or_default()
}

fn bad_input_fails_open(host: &str, input: &str) {
    let run = hook(input, &["--host", host]);
    assert_eq!((run.stdout.as_str(), run.code), ("", 0), "{host}");
    assert_eq!(run.stderr.lines().count(), 1, "{host}: {}", run.stderr);
    assert!(run.stderr.contains("the stop goes through"));
}

#[test]
fn claude_code_pass_block_cap_and_bad_input() {
    let ws = Workspace::with_config(CAP_1);
    let t = transcript(&ws, CLEAN);
    assert_eq!(hook(&claude(&ws, &t, CLEAN, false), &[]).stdout, "", "pass");
    let ws = Workspace::with_config(CAP_1);
    let t = transcript(&ws, FLAGGED);
    let run = hook(&claude(&ws, &t, FLAGGED, false), &[]);
    assert_eq!(keys(&run), ["decision", "reason"]);
    assert!(run.blocked().unwrap().contains("placeholder"));
    assert_eq!(hook(&claude(&ws, &t, FLAGGED, true), &[]).stdout, "", "cap reached");
    bad_input_fails_open("claude", "{\"hook_event_name\":\"Stop\"}");
}

#[test]
fn codex_pass_block_cap_and_bad_input_with_only_codex_keys() {
    let ws = Workspace::with_config(CAP_1);
    assert_eq!(hook(&codex(&ws, CLEAN, false), &[]).stdout, "", "pass");
    let ws = Workspace::with_config(CAP_1);
    let run = hook(&codex(&ws, FLAGGED, false), &[]);
    assert_eq!(keys(&run), ["decision", "reason"], "Codex rejects any other key");
    assert!(run.blocked().is_some());
    assert_eq!(
        hook(&codex(&ws, FLAGGED, true), &[]).stdout,
        "",
        "cap reached (same turn)"
    );
    // a new turn is a fresh request
    let next = codex(&ws, FLAGGED, false).replace("turn-1", "turn-2");
    assert!(hook(&next, &[]).blocked().is_some());
    bad_input_fails_open("codex", "not json");
}

#[test]
fn gemini_pass_block_cap_and_bad_input() {
    let ws = Workspace::with_config(CAP_1);
    assert_eq!(hook(&gemini(&ws, CLEAN, false), &[]).stdout, "", "pass");
    let ws = Workspace::with_config(CAP_1);
    let run = hook(&gemini(&ws, FLAGGED, false), &[]);
    assert_eq!(
        keys(&run),
        ["decision", "reason"],
        "no stopReason: it would replace the reason"
    );
    assert!(run.blocked().unwrap().contains("placeholder"));
    assert_eq!(hook(&gemini(&ws, FLAGGED, true), &[]).stdout, "", "cap reached");
    bad_input_fails_open(
        "gemini",
        "{\"hook_event_name\":\"AfterAgent\",\"prompt_response\":\"x\"}",
    );
}

#[test]
fn cursor_pass_block_cap_aborted_and_bad_input() {
    let ws = Workspace::with_config(CAP_1);
    let t = transcript(&ws, CLEAN);
    assert_eq!(hook(&cursor(&ws, &t, "completed", 0), &[]).stdout, "", "pass");
    let ws = Workspace::with_config(CAP_1);
    let t = transcript(&ws, FLAGGED);
    let run = hook(&cursor(&ws, &t, "completed", 0), &[]);
    let v: Value = run.json().unwrap();
    assert_eq!(keys(&run), ["followup_message"]);
    assert!(v["followup_message"].as_str().unwrap().contains("placeholder"));
    assert_eq!(hook(&cursor(&ws, &t, "completed", 1), &[]).stdout, "", "cap reached");
    // an aborted or failed generation goes through unreviewed
    let ws = Workspace::with_config(CAP_1);
    let t = transcript(&ws, FLAGGED);
    for status in ["aborted", "error"] {
        let run = hook(&cursor(&ws, &t, status, 0), &[]);
        assert_eq!((run.stdout.as_str(), run.stderr.as_str()), ("", ""), "{status}");
    }
    assert!(ws.state("cu-1.json").is_none());
    bad_input_fails_open("cursor", "{\"hook_event_name\":\"stop\",\"status\":\"completed\"}");
}

#[test]
fn the_host_is_recognised_without_the_flag_and_unknown_input_fails_open() {
    let ws = Workspace::with_config(CAP_1);
    let t = transcript(&ws, FLAGGED);
    let run = hook(&cursor(&ws, &t, "completed", 0), &[]);
    assert_eq!(keys(&run), ["followup_message"]);
    let run = hook(
        &json!({"hook_event_name": "Notification", "session_id": "s"}).to_string(),
        &[],
    );
    assert_eq!((run.stdout.as_str(), run.code, run.stderr.lines().count()), ("", 0, 1));
    let run = hook(&json!({"what": "ever"}).to_string(), &[]);
    assert_eq!((run.stdout.as_str(), run.code, run.stderr.lines().count()), ("", 0, 1));
    let run = hook("{}", &["--host", "vim"]);
    assert!(run.stderr.contains("--host"), "{}", run.stderr);
}

#[test]
fn a_state_problem_with_a_cursor_loop_count_lets_the_stop_through() {
    let ws = Workspace::with_config("enabled = true\nmax_rounds = 5\n");
    let t = transcript(&ws, FLAGGED);
    let state = ws.write("state-is-a-file", "x");
    let args = ["--state-dir", state.to_str().unwrap()];
    assert!(hook(&cursor(&ws, &t, "completed", 0), &args).json().is_some());
    let run = hook(&cursor(&ws, &t, "completed", 1), &args);
    assert_eq!(run.stdout, "", "{}", run.stderr);
}
