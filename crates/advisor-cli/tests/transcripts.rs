//! The transcript readers on small hand-written files, and on the derived
//! Claude Code and Codex fixtures (`tests/fixtures/derived/README.md` names
//! the documentation and source each one follows).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use advisor::host::Role;
use advisor_cli::transcript::{Transcript, TranscriptErrorKind, TranscriptFormat, parse_transcript, read_transcript};
use serde_json::json;

fn lines(v: &[serde_json::Value]) -> String {
    v.iter().map(|l| l.to_string() + "\n").collect()
}

/// A derived fixture, read forward and (the way the hook reads it) from its
/// end; both reads must agree.
fn derived(name: &str, format: TranscriptFormat) -> Transcript {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/derived")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let (t, read_as) = parse_transcript(name, &text, None).unwrap();
    assert_eq!(read_as, format, "{name}");
    let tail = read_transcript(&path, None).unwrap();
    assert_eq!(
        (tail.last_answer(), &tail.last_prompt, &tail.tools),
        (t.last_answer(), &t.last_prompt, &t.tools),
        "{name}: the read from the end differs"
    );
    t
}

// --- point 1: outcomes from the host's fields, not from what a tool printed

#[test]
fn claude_code_exit_codes_come_from_the_first_line_header_of_an_is_error_result() {
    let t = derived("claude-code-derived-outcomes.jsonl", TranscriptFormat::ClaudeCode);
    let outcome: Vec<(&str, bool, Option<i64>)> = t
        .tools
        .iter()
        .map(|tr| (tr.args.as_str(), tr.error.is_some(), tr.exit_code))
        .map(|(args, failed, code)| {
            let cmd = if args.contains("cargo test --lib") {
                "cargo test --lib"
            } else if args.contains("cargo test") {
                "cargo test"
            } else {
                "cargo build"
            };
            (cmd, failed, code)
        })
        .collect();
    assert_eq!(
        outcome,
        [
            // a later "exit code 0" line and a printed rejection text change nothing
            ("cargo test", true, Some(101)),
            // is_error false: an `Exit code 1` line the build printed invents no failure
            ("cargo build", false, None),
            // a printed "Sibling tool call errored" is no cancellation
            ("cargo test --lib", true, Some(1)),
        ]
    );
    // the rejection is the host's: toolUseResult and the whole marker text
    assert_eq!(t.rejected.len(), 1);
    assert!(t.rejected[0].arguments.contains("rm -rf target"));
    assert_eq!(t.last_answer(), Some("The parse test still fails; I stopped there."));
}

#[test]
fn a_printed_rejection_text_after_an_exit_code_header_is_a_failure_not_a_rejection() {
    let cc = |ty: &str, id: &str, content: serde_json::Value| json!({"type": ty, "uuid": id, "sessionId": "s", "message": {"id": id, "role": ty, "content": content}});
    let marker = "The user doesn't want to take this action right now. STOP what you are doing and wait for the user to tell you how to proceed.";
    let text = lines(&[
        cc("user", "u1", json!("go")),
        cc(
            "assistant",
            "a1",
            json!([{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}, {"type": "tool_use", "id": "t2", "name": "Bash", "input": {}}]),
        ),
        cc(
            "user",
            "u2",
            json!([{"type": "tool_result", "tool_use_id": "t1", "content": format!("Exit code 2\n{marker}"), "is_error": true}]),
        ),
        cc(
            "user",
            "u3",
            json!([{"type": "tool_result", "tool_use_id": "t2", "content": marker, "is_error": true}]),
        ),
    ]);
    let (t, _) = parse_transcript("s.jsonl", &text, None).unwrap();
    assert_eq!(t.tools.len(), 1, "only the call that ran is a trace");
    assert_eq!((t.tools[0].error.is_some(), t.tools[0].exit_code), (true, Some(2)));
    assert_eq!(
        t.rejected.len(),
        1,
        "the whole-content marker is the host's cancellation"
    );
}

#[test]
fn codex_0_171_item_completed_gives_the_exit_code_in_either_order() {
    let t = derived("codex-0.171-derived-item-completed.jsonl", TranscriptFormat::Codex);
    let outcome: Vec<(bool, Option<i64>)> = t.tools.iter().map(|tr| (tr.error.is_some(), tr.exit_code)).collect();
    assert_eq!(
        outcome,
        [
            // item first, then an output whose body prints "Process exited with code 0"
            (true, Some(101)),
            // output first, then the item; `error:` printed by the build is no failure
            (false, Some(0)),
            // still running at the output; the item says it failed, with no code
            (true, None),
        ]
    );
    assert!(t.tools[0].error.as_deref().unwrap().starts_with("exit code 101"));
    assert_eq!(t.last_answer(), Some("The parse test fails (exit 101)."));
}

#[test]
fn codex_headers_are_read_only_before_output() {
    let rollout = |ty: &str, payload: serde_json::Value| json!({"timestamp": "t", "type": ty, "payload": payload});
    let call = |id: &str| {
        rollout(
            "response_item",
            json!({"type": "function_call", "name": "exec_command", "arguments": "{}", "call_id": id}),
        )
    };
    let output = |id: &str, text: &str| {
        rollout(
            "response_item",
            json!({"type": "function_call_output", "call_id": id, "output": text}),
        )
    };
    let text = lines(&[
        rollout("event_msg", json!({"type": "user_message", "message": "go"})),
        call("c1"),
        output(
            "c1",
            "Chunk ID: a\nWall time: 1.0 seconds\nProcess exited with code 2\nOutput:\nProcess exited with code 0\n",
        ),
        call("c2"),
        output(
            "c2",
            "Chunk ID: b\nWall time: 1.0 seconds\nProcess exited with code 0\nOutput:\nProcess exited with code 1\n",
        ),
        call("c3"),
        output("c3", "{\"output\":\"exit code 0\",\"metadata\":{\"exit_code\":3}}"),
        call("c4"),
        rollout(
            "event_msg",
            json!({"type": "exec_command_end", "call_id": "c4", "exit_code": 0, "status": "completed", "aggregated_output": "exit code 7"}),
        ),
        output("c4", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nexit code 7\n"),
    ]);
    let (t, _) = parse_transcript("r.jsonl", &text, None).unwrap();
    let outcome: Vec<(bool, Option<i64>)> = t.tools.iter().map(|tr| (tr.error.is_some(), tr.exit_code)).collect();
    assert_eq!(
        outcome,
        [(true, Some(2)), (false, Some(0)), (true, Some(3)), (false, Some(0))]
    );
}

// --- point 2: non-answers are not reviewed

#[test]
fn claude_code_api_error_lines_are_skipped_and_are_no_answer() {
    let t = derived("claude-code-derived-api-error.jsonl", TranscriptFormat::ClaudeCode);
    assert_eq!(
        t.skipped["api-error"], 2,
        "one attributed to the model, one <synthetic>"
    );
    assert_eq!(
        t.last_answer(),
        Some("Looking at `parse`."),
        "the turn's last genuine text"
    );
    assert_eq!(t.last_prompt.as_deref(), Some("uuid:u-2"));
    assert!(t.messages.iter().all(|m| !m.content.contains("API Error")));
}

#[test]
fn claude_code_an_interrupt_beside_the_interrupted_result_leaves_no_answer() {
    let t = derived("claude-code-derived-interrupted.jsonl", TranscriptFormat::ClaudeCode);
    assert_eq!(t.last_answer(), None);
    assert_eq!(t.rejected.len(), 1);
    assert!(t.tools.is_empty());
}

#[test]
fn claude_code_a_compaction_summary_is_no_answer() {
    let t = derived(
        "claude-code-derived-compact-summary.jsonl",
        TranscriptFormat::ClaudeCode,
    );
    assert_eq!(t.compactions, 1);
    assert_eq!(t.last_answer(), None, "nothing was answered since the compaction");
    assert_eq!(t.turn_starts, Vec::<usize>::new(), "the summary is no prompt");
}

#[test]
fn codex_turn_aborted_leaves_no_answer_and_its_marker_is_no_prompt() {
    let t = derived("codex-derived-turn-aborted.jsonl", TranscriptFormat::Codex);
    assert_eq!(t.last_answer(), None);
    assert_eq!(t.user_prompts, 1, "`<turn_aborted>` is Codex's, not the user's");
}

#[test]
fn codex_error_events_are_skipped_and_are_no_answer() {
    let t = derived("codex-derived-error-event.jsonl", TranscriptFormat::Codex);
    assert_eq!(t.skipped["event_msg:error"], 1);
    assert_eq!(t.skipped["event_msg:stream_error"], 1);
    assert_eq!(t.user_prompts, 2);
    assert_eq!(
        t.last_answer(),
        Some("Profiling first."),
        "the turn's last genuine text"
    );
}

#[test]
fn codex_a_compaction_summary_is_no_answer() {
    let t = derived("codex-derived-compacted.jsonl", TranscriptFormat::Codex);
    assert_eq!(t.compactions, 1);
    assert_eq!(t.last_answer(), None);
    assert_eq!(t.skipped["event_msg:context_compacted"], 1);
}

// --- point 3: every Codex type the reader does not use is counted

#[test]
fn codex_unused_event_item_and_line_types_are_counted() {
    let t = derived("codex-0.171-derived-item-completed.jsonl", TranscriptFormat::Codex);
    for key in [
        "event_msg:task_started",
        "event_msg:thread_settings_applied",
        "event_msg:token_count",
        "event_msg:item_completed:AgentMessage",
        "line:world_state",
        "line:token_usage_record",
        "line:session_meta",
        "line:turn_context",
    ] {
        assert_eq!(t.skipped.get(key), Some(&1), "{key}: {:?}", t.skipped);
    }
    assert!(
        t.skipped
            .keys()
            .all(|k| !k.contains("CommandExecution") && !k.contains("task_complete")),
        "used types are not counted: {:?}",
        t.skipped
    );
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

// older Codex reports a command that failed under its sandbox in its own prefix
#[test]
fn an_older_codex_sandbox_failure_is_a_failed_call() {
    let r =
        |ty: &str, p: serde_json::Value| serde_json::json!({"timestamp": "t", "type": ty, "payload": p}).to_string();
    let text = [
        r("session_meta", serde_json::json!({"id": "x", "cli_version": "0.45.0"})),
        r(
            "event_msg",
            serde_json::json!({"type": "user_message", "message": "build it"}),
        ),
        r(
            "response_item",
            serde_json::json!({"type": "function_call", "name": "shell",
            "arguments": "{\"command\":[\"bash\",\"-lc\",\"go test ./...\"]}", "call_id": "c1"}),
        ),
        r(
            "response_item",
            serde_json::json!({"type": "function_call_output", "call_id": "c1",
            "output": "failed in sandbox: # app/cmd\ncmd/main.go:6:2: \"os\" imported and not used\n"}),
        ),
    ]
    .join("\n");
    let (t, _) = advisor_cli::transcript::parse_transcript("codex.jsonl", &text, None).unwrap();
    assert_eq!(t.tools.len(), 1);
    assert!(t.tools[0].error.is_some(), "{:?}", t.tools[0]);
}

// Codex 0.114's tool router reports a command the sandbox denied in its own
// prefix (`exec_command failed: CreateProcess { … Sandbox(Denied { … exit_code:
// 128 …`): the real rollout of tests/fixtures/real/repos/deweyou-design/, l.107/l.109
#[test]
fn a_codex_sandbox_denial_is_a_failed_call_with_its_exit_code() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real/repos/deweyou-design/codex-cli-0.114.0-2026-03-15-019cf140.jsonl");
    let text: String = std::fs::read_to_string(path)
        .unwrap()
        .split_inclusive('\n')
        .take(109)
        .collect();
    let (t, _) = parse_transcript("codex.jsonl", &text, None).unwrap();
    let last = t.tools.last().unwrap();
    assert!(last.args.contains("git commit"), "{last:?}");
    assert_eq!(last.exit_code, Some(128), "{last:?}");
    assert!(last.error.is_some(), "{last:?}");
}

// Codex 0.48 reports a patch it could not apply in its own prefix, with no
// envelope and no exit code (`apply_patch verification failed: Failed to find
// expected lines in …`): the real rollout of
// tests/fixtures/real/repos/gordondalos-mail-agent/, l.633/l.634
#[test]
fn a_codex_patch_it_could_not_apply_is_a_failed_call() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real/repos/gordondalos-mail-agent/codex-cli-0.48.0-2025-10-25-019a17ae.jsonl");
    let text: String = std::fs::read_to_string(path)
        .unwrap()
        .split_inclusive('\n')
        .take(634)
        .collect();
    let (t, _) = parse_transcript("codex.jsonl", &text, None).unwrap();
    let last = t.tools.last().unwrap();
    assert!(last.args.contains("apply_patch"), "{last:?}");
    assert!(last.error.is_some(), "{last:?}");
    // the call before it, a README read that printed its text, succeeded
    assert!(t.tools[t.tools.len() - 2].error.is_none());
}

// Codex CLI 0.115 opens each unified-exec output with a `Command: …` line
// above `Chunk ID`, `Process exited with code N` / `Process running with
// session ID N`: the header is read from there, so exit codes are recorded and
// `write_stdin` polls fold into the command they continue (the real rollout of
// tests/fixtures/real/repos/twyr-twyr-backend-monorepo/, l.337–l.353: a
// regeneration run polled three times, then `Process exited with code 0`)
#[test]
fn a_codex_0_115_header_under_its_command_line_is_read() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real/repos/twyr-twyr-backend-monorepo/codex-cli-0.115.0-2026-03-18-019d0025.jsonl");
    let text: String = std::fs::read_to_string(path)
        .unwrap()
        .split_inclusive('\n')
        .take(353)
        .collect();
    let (t, _) = parse_transcript("codex.jsonl", &text, None).unwrap();
    // polls fold into their command; the one write Codex refused (l.157) is a call of its own
    let stdin: Vec<_> = t.tools.iter().filter(|tool| tool.name == "write_stdin").collect();
    assert_eq!(stdin.len(), 1, "{stdin:?}");
    assert!(stdin[0].error.is_some(), "{stdin:?}");
    let run = t
        .tools
        .iter()
        .rev()
        .find(|tool| tool.args.contains("regenerate_pincode_locales.py\""))
        .unwrap();
    assert_eq!(run.exit_code, Some(0), "{run:?}");
    assert!(t.tools.iter().filter(|tool| tool.exit_code.is_some()).count() > 40);
}

// A `write_stdin` Codex refused (`write_stdin failed: stdin is closed for this
// session`, codex-rs core/src/tools/handlers/unified_exec.rs) is a failed call
// of its own: the command it named stays as the host last recorded it, still
// running (the real rollout of tests/fixtures/real/repos/twyr-twyr-backend-monorepo/,
// l.129-l.157: a regeneration run polled four times, then a refused Ctrl-C)
#[test]
fn a_refused_codex_write_stdin_is_a_failed_call_of_its_own() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real/repos/twyr-twyr-backend-monorepo/codex-cli-0.115.0-2026-03-18-019d0025.jsonl");
    let text: String = std::fs::read_to_string(path)
        .unwrap()
        .split_inclusive('\n')
        .take(157)
        .collect();
    let (t, _) = parse_transcript("codex.jsonl", &text, None).unwrap();
    let refused = t.tools.last().unwrap();
    assert_eq!(refused.name, "write_stdin");
    assert!(
        refused.error.as_deref().is_some_and(|e| e.contains("stdin is closed")),
        "{refused:?}"
    );
    let run = &t.tools[t.tools.len() - 2];
    assert!(run.args.contains("node <<'NODE'"), "{run:?}");
    assert_eq!((run.exit_code, run.error.as_deref()), (None, None), "{run:?}");
    assert!(!run.output.contains("write_stdin failed"), "{run:?}");
    assert!(run.output.trim_end().ends_with("Output:"), "still running: {run:?}");
}

// --- Codex code mode: shell commands inside JavaScript `exec` cells (the
// real Codex Desktop 0.144.2 rollout, tests/fixtures/real/repos/jdx-hk/)

/// The first `n` whole lines of the real code-mode rollout.
fn code_mode_prefix(n: usize) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real/repos/jdx-hk/codex-desktop-0.144.2-2026-07-16-019f690c.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    text.split_inclusive('\n').take(n).collect()
}

fn cmd(trace: &advisor::host::ToolTrace) -> String {
    let args: serde_json::Value = serde_json::from_str(&trace.args).unwrap();
    args["cmd"].as_str().unwrap().to_owned()
}

#[test]
fn codex_code_mode_cells_are_shell_calls_and_a_wait_belongs_to_its_cell() {
    // l.246: an `exec` cell running `mise run lint && …`; l.247: "Script running with cell ID 27";
    // l.250/l.251: `wait` on cell 27 brings the failing lint output
    let (t, _) = parse_transcript("codex.jsonl", &code_mode_prefix(251), None).unwrap();
    let last: Vec<(&str, String)> = t.tools[t.tools.len() - 5..]
        .iter()
        .map(|tr| (tr.name.as_str(), cmd(tr)))
        .collect();
    assert_eq!(
        last,
        [
            ("exec_command", "git status --short --branch\nhk fix -S pkl-format\ngit diff --check\ngit diff -- pkl/builtins/no_commit_to_branch.pkl".to_owned()),
            ("exec_command", "target/debug/hk fix -S pkl-format\ngit diff --check\ngit diff -- pkl/builtins/no_commit_to_branch.pkl".to_owned()),
            ("exec_command", "target/debug/hk fix --all -S pkl-format\ngit diff --check\ngit diff -- pkl/builtins/no_commit_to_branch.pkl".to_owned()),
            ("exec_command", "mise exec -- pkl --version && mise exec -- pkl format --write pkl/builtins/no_commit_to_branch.pkl && git diff --check && git diff -- pkl/builtins/no_commit_to_branch.pkl".to_owned()),
            ("exec_command", "mise run lint && cargo test test_get_current_branch -- --nocapture && cargo run --quiet --bin hk -- test --step no_commit_to_branch && mise run build".to_owned()),
        ]
    );
    let lint = t.tools.last().unwrap();
    let args: serde_json::Value = serde_json::from_str(&lint.args).unwrap();
    assert_eq!(args["workdir"], "/Users/jdx/.codex/worktrees/090e/hk");
    // the wait's output is the cell's, below the host's `Output:` line only
    assert!(
        lint.output.starts_with("Output:\n[pkl:gen] $ "),
        "{}",
        &lint.output[..80]
    );
    assert!(
        lint.output
            .contains("error: could not compile `hk` (bin \"hk\") due to 6 previous errors")
    );
    assert!(lint.output.trim_end().ends_with("[lint] ERROR task failed"));
    assert!(!lint.output.contains("Script running") && !lint.output.contains("Wall time"));
    // code mode records no exit code: none is invented from the printed text
    assert_eq!(lint.exit_code, None);
    assert!(lint.error.is_some(), "the printed failure still marks the call");
    // no `wait` trace; the only `exec` traces left are cells without a shell command
    assert!(t.tools.iter().all(|tr| tr.name != "wait"));
    for tr in t.tools.iter().filter(|tr| tr.name == "exec") {
        assert!(!tr.args.contains("tools.exec_command"), "{}", tr.args);
        assert!(!tr.output.starts_with("Script "), "{}", tr.output);
    }
    assert_eq!(t.unanswered_calls(), 0, "the wait call is answered in the messages");
}

#[test]
fn codex_code_mode_every_cell_of_the_real_rollout_is_read() {
    let (t, _) = parse_transcript("codex.jsonl", &code_mode_prefix(usize::MAX), None).unwrap();
    let count = |name: &str| t.tools.iter().filter(|tr| tr.name == name).count();
    // of 73 cells: 47 run shell commands; 26 do not (4 tool searches, 4 patches,
    // a pull request through an app tool, 17 `tools.write_stdin` polls); the 23 waits are attached
    assert_eq!((count("exec_command"), count("exec"), count("wait")), (47, 26, 0));
    assert!(t.tools.iter().all(|tr| !tr.output.starts_with("Script ")));
    assert!(t.tools.iter().all(|tr| tr.exit_code.is_none()));
    // the hook's read from the end agrees
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real/repos/jdx-hk/codex-desktop-0.144.2-2026-07-16-019f690c.jsonl");
    let tail = read_transcript(&path, None).unwrap();
    assert_eq!((&tail.tools, tail.last_answer()), (&t.tools, t.last_answer()));
}

#[test]
fn codex_code_mode_waits_chain_a_script_error_fails_the_cell_and_an_unknown_cell_stands_alone() {
    // written after the real 0.144.2 shapes (derived): a cell yields, a first wait finds it
    // still running, a second brings a script error; a wait on a cell never seen is its own call
    let r = |p: serde_json::Value| json!({"timestamp": "t", "type": "response_item", "payload": p}).to_string();
    let parts =
        |head: &str, body: &str| json!([{"type": "input_text", "text": head}, {"type": "input_text", "text": body}]);
    let text = [
        json!({"timestamp": "t", "type": "event_msg", "payload": {"type": "user_message", "message": "test it"}}).to_string(),
        r(
            json!({"type": "custom_tool_call", "name": "exec", "call_id": "c1", "input": "await tools.exec_command({cmd:'cargo test'});"}),
        ),
        r(json!({"type": "custom_tool_call_output", "call_id": "c1", "output": "Script running with cell ID 5\nWall time 10.0 seconds\nOutput:\n"})),
        r(json!({"type": "function_call", "name": "wait", "call_id": "w1", "arguments": "{\"cell_id\":\"5\"}"})),
        r(
            json!({"type": "function_call_output", "call_id": "w1", "output": parts("Script running with cell ID 5\nWall time 30.0 seconds\nOutput:\n", "running 3 tests\n")}),
        ),
        r(json!({"type": "function_call", "name": "wait", "call_id": "w2", "arguments": "{\"cell_id\":\"5\"}"})),
        r(
            json!({"type": "function_call_output", "call_id": "w2", "output": parts("Script error: Error: tool call failed\nWall time 1.0 seconds\nOutput:\n", "")}),
        ),
        r(json!({"type": "function_call", "name": "wait", "call_id": "w3", "arguments": "{\"cell_id\":\"9\"}"})),
        r(
            json!({"type": "function_call_output", "call_id": "w3", "output": parts("Script completed\nWall time 1.0 seconds\nOutput:\n", "done\n")}),
        ),
    ]
    .join("\n");
    let (t, _) = parse_transcript("codex.jsonl", &text, None).unwrap();
    let traces: Vec<(&str, &str, Option<&str>)> = t
        .tools
        .iter()
        .map(|tr| (tr.name.as_str(), tr.output.as_str(), tr.error.as_deref()))
        .collect();
    assert_eq!(
        traces,
        [
            (
                "exec_command",
                "Output:\nrunning 3 tests\n",
                Some("script error: Error: tool call failed")
            ),
            ("wait", "Output:\ndone\n", None),
        ]
    );
    assert_eq!(t.tools[0].args, r#"{"cmd":"cargo test"}"#);
    assert_eq!(t.unanswered_calls(), 0);
}

#[test]
fn a_code_mode_cell_that_prints_an_exit_code_cannot_set_the_hosts() {
    // written (derived): a cell whose printed text opens with `exit code 0` over a failing
    // task with no runner summary; the host's `Output:` line stays above it, so the printed
    // line is never the host's exit status and the claim is held against the answer (issue 25,
    // item 9)
    let r = |p: serde_json::Value| json!({"timestamp": "t", "type": "response_item", "payload": p}).to_string();
    let text = [
        json!({"timestamp": "t", "type": "event_msg", "payload": {"type": "user_message", "message": "run the tests"}}).to_string(),
        r(json!({"type": "custom_tool_call", "name": "exec", "call_id": "c1", "input": "const r = await tools.exec_command({cmd:\"mise run lint\"});text(r.output)"})),
        r(json!({"type": "custom_tool_call_output", "call_id": "c1", "output": [
            {"type": "input_text", "text": "Script completed\nWall time 0.4 seconds\nOutput:\n"},
            {"type": "input_text", "text": "exit code 0\nTraceback (most recent call last):\n  File \"lint.py\", line 3\nValueError: bad rule\n"}
        ]})),
    ]
    .join("\n");
    let (t, _) = parse_transcript("codex.jsonl", &text, None).unwrap();
    let review = advisor::review::Review {
        final_answer: Some("`mise run lint` passes.".into()),
        tools: t.tools.clone(),
        ..Default::default()
    };
    let notes = advisor_rules::RulesReviewer::new().check(&review);
    assert!(notes.iter().any(|n| n.severity.interrupts()), "{notes:?}");
}
