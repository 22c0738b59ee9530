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

/// The input had no transcript: the user is told on stderr and in a
/// `systemMessage`, and nothing else is said but the block, if any.
fn said_blind(run: &Run) -> bool {
    let message = run.json().and_then(|v| v["systemMessage"].as_str().map(str::to_owned));
    run.stderr.contains("reviewed without tool evidence")
        && message.is_some_and(|m| m.contains("reviewed without tool evidence"))
}

#[test]
fn codex_pass_block_cap_and_bad_input_with_only_codex_keys() {
    // `transcript_path: null` (codex exec --ephemeral): reviewed alone, and said so
    let ws = Workspace::with_config(CAP_1);
    let run = hook(&codex(&ws, CLEAN, false), &[]);
    assert_eq!(keys(&run), ["systemMessage"], "pass");
    assert!(said_blind(&run), "{}", run.stderr);
    let ws = Workspace::with_config(CAP_1);
    let run = hook(&codex(&ws, FLAGGED, false), &[]);
    assert_eq!(
        keys(&run),
        ["decision", "reason", "systemMessage"],
        "Codex rejects any other key"
    );
    assert!(run.blocked().is_some() && said_blind(&run));
    let run = hook(&codex(&ws, FLAGGED, true), &[]);
    assert_eq!(keys(&run), ["systemMessage"], "cap reached (same turn)");
    // a new turn is a fresh request
    let next = codex(&ws, FLAGGED, false).replace("turn-1", "turn-2");
    assert!(hook(&next, &[]).blocked().is_some());
    bad_input_fails_open("codex", "not json");
}

#[test]
fn gemini_pass_block_cap_and_bad_input() {
    // `transcript_path` empty (chat recording off): reviewed alone, and said so
    let ws = Workspace::with_config(CAP_1);
    let run = hook(&gemini(&ws, CLEAN, false), &[]);
    assert_eq!(keys(&run), ["systemMessage"], "pass");
    assert!(said_blind(&run));
    let ws = Workspace::with_config(CAP_1);
    let run = hook(&gemini(&ws, FLAGGED, false), &[]);
    assert_eq!(
        keys(&run),
        ["decision", "reason", "systemMessage"],
        "no stopReason: it would replace the reason"
    );
    assert!(run.blocked().unwrap().contains("placeholder"));
    let run = hook(&gemini(&ws, FLAGGED, true), &[]);
    assert!(run.blocked().is_none() && said_blind(&run), "cap reached");
    bad_input_fails_open(
        "gemini",
        "{\"hook_event_name\":\"AfterAgent\",\"prompt_response\":\"x\"}",
    );
}

#[test]
fn cursor_with_no_readable_transcript_says_it_reviewed_nothing() {
    // Cursor sends no answer field: with a null or unreadable transcript there
    // is nothing to review, and stderr says so (Cursor shows no systemMessage)
    let ws = Workspace::with_config(CAP_1);
    let null =
        cursor(&ws, Path::new("x"), "completed", 0).replace("\"transcript_path\":\"x\"", "\"transcript_path\":null");
    assert!(null.contains("\"transcript_path\":null"));
    let gone = cursor(&ws, &ws.path().join("gone.jsonl"), "completed", 0);
    for (what, input) in [("null", null), ("unreadable", gone)] {
        let run = hook(&input, &[]);
        assert_eq!((run.stdout.as_str(), run.code), ("", 0), "{what}");
        assert_eq!(run.stderr.lines().count(), 1, "{what}: {}", run.stderr);
        assert!(
            run.stderr.contains("and no answer; the stop goes through"),
            "{what}: {}",
            run.stderr
        );
    }
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

/// A Gemini CLI JSONL session file (derived, written here): one metadata line,
/// then each `(prompt id, prompt, answer)` as a user and a gemini record.
fn gemini_session(ws: &Workspace, turns: &[(&str, &str, &str)]) -> std::path::PathBuf {
    let mut lines = vec![
        json!({"sessionId": "gm-1", "projectHash": "h", "startTime": "2026-12-01T10:00:00Z",
        "lastUpdated": "2026-12-01T10:00:00Z", "kind": "main"}),
    ];
    for (id, prompt, answer) in turns {
        lines.push(
            json!({"id": id, "timestamp": "2026-12-01T10:00:01Z", "type": "user", "content": [{"text": prompt}]}),
        );
        lines.push(
            json!({"id": format!("{id}-a"), "timestamp": "2026-12-01T10:00:02Z", "type": "gemini", "content": answer}),
        );
    }
    ws.write(
        "session.jsonl",
        &lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
}

fn gemini_with(ws: &Workspace, t: &Path, joined: &str, active: bool) -> String {
    json!({"session_id": "gm-1", "transcript_path": t, "cwd": ws.path(), "hook_event_name": "AfterAgent",
        "timestamp": "2026-12-01T10:00:03.000Z", "prompt": "export the report",
        "prompt_response": joined, "stop_hook_active": active})
    .to_string()
}

#[test]
fn gemini_reviews_the_final_answer_and_a_resumed_prompt_is_a_fresh_request() {
    let ws = Workspace::with_config("enabled = true\nmax_rounds = 2\n");
    let t = gemini_session(&ws, &[("p1", "export the report", FLAGGED)]);
    assert!(hook(&gemini_with(&ws, &t, FLAGGED, false), &[]).blocked().is_some());
    // the retry answered cleanly: prompt_response joins both texts, the final one is reviewed
    let t = gemini_session(&ws, &[("p1", "export the report", CLEAN)]);
    let run = hook(&gemini_with(&ws, &t, &format!("{FLAGGED}\n{CLEAN}"), false), &[]);
    assert!(run.blocked().is_none(), "the joined turn was reviewed: {}", run.stdout);
    // the allowance (two reviews) is spent; stop_hook_active is false, as on a
    // Gemini retry that called a tool: the cap holds all the same
    let t = gemini_session(&ws, &[("p1", "export the report", FLAGGED)]);
    assert!(
        hook(&gemini_with(&ws, &t, FLAGGED, false), &[]).blocked().is_none(),
        "cap reached"
    );
    // the same prompt typed again in the resumed session: a new request, a fresh allowance
    let t = gemini_session(
        &ws,
        &[
            ("p1", "export the report", FLAGGED),
            ("p2", "export the report", FLAGGED),
        ],
    );
    assert!(
        hook(&gemini_with(&ws, &t, FLAGGED, false), &[]).blocked().is_some(),
        "fresh allowance"
    );
}
