//! The transcript readers on small hand-written files.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use advisor::host::Role;
use advisor::transcript::{TranscriptErrorKind, TranscriptFormat, parse_transcript};
use serde_json::json;

fn lines(v: &[serde_json::Value]) -> String {
    v.iter().map(|l| l.to_string() + "\n").collect()
}

#[test]
fn codex_rollouts_pair_calls_skip_boilerplate_and_count_unknown_types() {
    let text = lines(&[
        json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<environment_context>\n<cwd>/repo</cwd>\n</environment_context>"}]}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "# AGENTS.md instructions\n<INSTRUCTIONS>run tests</INSTRUCTIONS>"}]}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "fix the parser"}]}}),
        json!({"timestamp": "t", "type": "event_msg", "payload": {"type": "user_message", "message": "fix the parser"}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "reasoning", "encrypted_content": "xyz"}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"pytest\"]}", "call_id": "c1"}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": "{\"output\":\"1 passed\",\"metadata\":{\"exit_code\":1}}"}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c2"}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c2", "output": "plain text, all fine"}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "web_search_call", "query": "x"}}),
        json!({"timestamp": "t", "type": "brand_new_line_type", "payload": {}}),
        json!({"timestamp": "t", "type": "event_msg", "payload": {"type": "agent_message", "message": "dup"}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "fixed"}]}}),
    ]);
    let (t, format) = parse_transcript("rollout.jsonl", &text, None).unwrap();
    assert_eq!(format, TranscriptFormat::Codex);
    assert_eq!(
        t.user_prompts, 1,
        "only event_msg user_message counts, boilerplate never"
    );
    assert_eq!(t.messages.iter().filter(|m| m.role == Role::User).count(), 1);
    assert_eq!(t.tools.len(), 3, "a web search is a tool call too");
    assert!(
        t.tools[0].error.is_some(),
        "a non-zero exit code marks the trace failed"
    );
    assert!(t.tools[1].error.is_none());
    assert_eq!(t.tools[0].name, "shell");
    assert_eq!(t.tools[2].name, "web_search");
    assert_eq!(t.skipped["line:brand_new_line_type"], 1);
    assert_eq!(t.last_answer(), Some("fixed"));
}

#[test]
fn a_codex_compaction_is_a_rebase() {
    let text = lines(&[
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "old"}]}}),
        json!({"timestamp": "t", "type": "compacted", "payload": {"message": "summary of earlier work"}}),
        json!({"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "new"}]}}),
    ]);
    let (t, _) = parse_transcript("r", &text, Some(TranscriptFormat::Codex)).unwrap();
    assert_eq!(t.compactions, 1);
    assert!(t.messages.iter().all(|m| m.content != "old"));
    assert_eq!(t.messages[0].content, "summary of earlier work");
}

#[test]
fn claude_code_merges_turn_blocks_skips_side_chains_and_honours_is_error() {
    let cc = |ty: &str, id: &str, content: serde_json::Value| json!({"type": ty, "uuid": id, "sessionId": "s", "message": {"id": id, "role": ty, "content": content}});
    let text = lines(&[
        cc("user", "u1", json!("do it")),
        cc("assistant", "m1", json!([{"type": "text", "text": "checking"}])),
        cc(
            "assistant",
            "m1",
            json!([{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}]),
        ),
        cc(
            "user",
            "u2",
            json!([{"type": "tool_result", "tool_use_id": "t1", "content": "ok", "is_error": true}]),
        ),
        json!({"type": "assistant", "isSidechain": true, "message": {"role": "assistant", "content": "sub-agent"}}),
        json!({"type": "user", "isMeta": true, "message": {"role": "user", "content": "<local-command-caveat>"}}),
        json!({"type": "system", "subtype": "compact_boundary"}),
        cc("user", "u3", json!("next thing")),
        cc("assistant", "m2", json!("done")),
    ]);
    let (t, format) = parse_transcript("s.jsonl", &text, None).unwrap();
    assert_eq!(format, TranscriptFormat::ClaudeCode);
    assert_eq!(t.compactions, 1);
    assert_eq!(t.user_prompts, 2);
    assert_eq!(t.messages.len(), 2, "only what follows the compaction");
    assert_eq!(t.skipped["sidechain"], 1);
    assert_eq!(t.skipped["meta"], 1);

    let before = lines(&[
        cc("assistant", "m1", json!([{"type": "text", "text": "checking"}])),
        cc(
            "assistant",
            "m1",
            json!([{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]),
        ),
        cc(
            "user",
            "u2",
            json!([{"type": "tool_result", "tool_use_id": "t1", "content": "looks fine", "is_error": true}]),
        ),
    ]);
    let (t, _) = parse_transcript("s", &before, None).unwrap();
    assert_eq!(t.assistant_turns(), 1, "blocks of one turn are one message");
    assert!(t.tools[0].error.is_some(), "is_error marks the call failed");
}

#[test]
fn errors_name_the_line() {
    let e = parse_transcript("f.jsonl", "{\"role\":\"user\",\"content\":\"x\"}\n[oops\n", None).unwrap_err();
    assert_eq!((e.kind(), e.line()), (TranscriptErrorKind::NotJson, Some(2)));
    assert!(e.to_string().starts_with("f.jsonl:2:"));
    let e = parse_transcript("f.jsonl", "{\"x\":1}\n", None).unwrap_err();
    assert_eq!(e.kind(), TranscriptErrorKind::UnknownFormat);
    let e = parse_transcript("f.jsonl", "\n", None).unwrap_err();
    assert_eq!(e.kind(), TranscriptErrorKind::Empty);
    let e = parse_transcript("f.jsonl", "{\"role\":\"wizard\",\"content\":\"x\"}\n", None).unwrap_err();
    assert_eq!((e.kind(), e.line()), (TranscriptErrorKind::Malformed, Some(1)));
}
