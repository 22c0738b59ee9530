//! The transcript readers on the real-session corpus (`tests/fixtures/real/`):
//! a compact snapshot of what they make of each file, the behaviours issue 12
//! names, one test each, and the read from the end against a forward read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use advisor::host::Role;
use advisor_cli::transcript::{ReadOptions, Transcript, TranscriptFormat, parse_transcript, read_transcript_with};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real")
        .join(name)
}

fn forward(name: &str) -> (Transcript, TranscriptFormat) {
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    parse_transcript(name, &text, None).unwrap()
}

fn clip(text: &str, n: usize) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = one.chars().take(n).collect();
    if one.chars().count() > n {
        out.push('…');
    }
    out
}

/// One turn in a line: its prompt, how many assistant messages and tool
/// results it holds.
fn turns(t: &Transcript) -> Vec<String> {
    let mut out = Vec::new();
    for (k, &start) in t.turn_starts.iter().enumerate() {
        let end = t.turn_starts.get(k + 1).copied().unwrap_or(t.messages.len());
        let slice = &t.messages[start..end];
        let assistant = slice.iter().filter(|m| m.role == Role::Assistant).count();
        let tools = slice.iter().filter(|m| m.role == Role::Tool).count();
        let asides = slice.iter().skip(1).filter(|m| m.role == Role::User).count();
        out.push(format!(
            "turn at msg {start}: {:?} — {assistant} assistant, {tools} tool results, {asides} other user-channel",
            clip(&t.messages[start].content, 60)
        ));
    }
    out
}

fn summary(name: &str) -> String {
    let (t, format) = forward(name);
    let mut s = String::new();
    writeln!(
        s,
        "format {}: {} messages, {} prompts, {} compactions, {} elided, skipped {:?}",
        format.as_str(),
        t.messages.len(),
        t.user_prompts,
        t.compactions,
        t.elided,
        t.skipped
    )
    .unwrap();
    let before = t.messages.len() - t.turn_starts.first().copied().unwrap_or(t.messages.len());
    writeln!(s, "messages before the first prompt: {}", t.messages.len() - before).unwrap();
    for line in turns(&t) {
        writeln!(s, "{line}").unwrap();
    }
    match (&t.final_answer, t.answer_index) {
        (Some(a), at) => writeln!(s, "answer (msg {at:?}): {:?}", clip(a, 100)).unwrap(),
        (None, _) => writeln!(s, "answer: none (nothing to review)").unwrap(),
    }
    writeln!(s, "tools ({}):", t.tools.len()).unwrap();
    for tool in &t.tools {
        match &tool.error {
            None => writeln!(s, "  {} ok", tool.name).unwrap(),
            Some(e) => writeln!(s, "  {} FAILED: {}", tool.name, clip(e, 70)).unwrap(),
        }
    }
    for call in &t.rejected {
        writeln!(s, "  {} REJECTED by the user", call.name).unwrap();
    }
    s
}

macro_rules! snapshot {
    ($test:ident, $file:literal) => {
        #[test]
        fn $test() {
            insta::assert_snapshot!(summary($file));
        }
    };
}

snapshot!(cc_2_0_64_main, "claude-2.0.64-codemie-main.jsonl");
snapshot!(cc_2_0_64_subagent, "claude-2.0.64-codemie-subagent-36541525.jsonl");
snapshot!(cc_2_0_76_slash_interrupt, "claude-2.0.76-codemie-slash-interrupt.jsonl");
snapshot!(
    cc_2_0_76_compact_stophook,
    "claude-2.0.76-fasthooks-compact-stophook.jsonl"
);
snapshot!(cc_2_0_76_subagent, "claude-2.0.76-fasthooks-subagent-af1ff21.jsonl");
snapshot!(
    cc_2_1_38_main_task_tool,
    "claude-2.1.38-spotter-main-uses-task-tool-interrupt.jsonl"
);
snapshot!(
    cc_2_1_38_short_reject,
    "claude-2.1.38-spotter-short-reject-interrupt.jsonl"
);
snapshot!(cc_2_1_38_subagent, "claude-2.1.38-spotter-subagent-afc096d.jsonl");
snapshot!(
    cc_2_1_38_tool_heavy,
    "claude-2.1.38-spotter-tool-heavy-interrupts-slash.jsonl"
);
snapshot!(
    cc_2_1_39_gqc,
    "claude-2.1.39-spotter-gqc-compact-reject-tasknotif.jsonl"
);
snapshot!(cc_2_1_39_subagent, "claude-2.1.39-spotter-gqc-subagent-a881341.jsonl");
snapshot!(
    cc_2_1_39_compact_agent,
    "claude-2.1.39-spotter-gqc-subagent-acompact-fffbd0.jsonl"
);
snapshot!(cc_2_1_4_reject, "claude-2.1.4-codemie-reject-interrupt.jsonl");
snapshot!(cc_2_1_7_subagent, "claude-2.1.7-codemie-subagent-a485154.jsonl");
snapshot!(cc_2_1_7_parent, "claude-2.1.7-codemie-task-parent.jsonl");
snapshot!(
    codex_0_125_unified_exec,
    "codex-0.125.0-tui-unified-exec-websearch-patch.jsonl"
);
snapshot!(codex_desktop_0_128, "codex-desktop-0.128.0-alpha.1-exec-command.jsonl");

/// Every JSONL fixture of the corpus.
fn corpus() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixture(""))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    names.sort();
    names
}

// --- Claude Code reader (issue 12, item 2) ---

#[test]
fn an_interrupted_last_turn_without_final_text_has_nothing_to_review() {
    // l.39 "[Request interrupted by user]" ends the last turn (prompt l.26)
    let (t, _) = forward("claude-2.1.38-spotter-tool-heavy-interrupts-slash.jsonl");
    assert_eq!(t.last_answer(), None);
    // and the short session ends on rejections + an interrupt for tool use
    let (t, _) = forward("claude-2.1.38-spotter-short-reject-interrupt.jsonl");
    assert_eq!(t.last_answer(), None);
}

#[test]
fn a_rejected_tool_call_is_a_rejection_not_a_failure() {
    let (t, _) = forward("claude-2.1.38-spotter-short-reject-interrupt.jsonl");
    assert_eq!(t.rejected.len(), 2, "l.11 and l.12");
    assert!(t.tools.iter().all(|tool| tool.error.is_none()), "{:?}", t.tools);
    let (t, _) = forward("claude-2.1.4-codemie-reject-interrupt.jsonl");
    assert_eq!(
        t.rejected.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["Write"]
    );
}

#[test]
fn task_notifications_and_interrupts_are_not_prompts() {
    // l.494-496: rejection, interrupt, task notification; l.1847 notification; last prompt l.1858
    let (t, _) = forward("claude-2.1.39-spotter-gqc-compact-reject-tasknotif.jsonl");
    let prompts: Vec<&str> = t.turn_starts.iter().map(|&i| t.messages[i].content.as_str()).collect();
    assert!(
        prompts.iter().all(|p| !p.contains("<task-notification>")),
        "{prompts:?}"
    );
    assert_eq!(prompts.last(), Some(&"did you push?"));
    assert!(t.last_answer().unwrap().starts_with("Yes — everything is pushed"));
    assert_eq!(
        t.last_prompt.as_deref(),
        Some("uuid:41fc1786-c22e-45ab-89c6-527c89c66d26")
    );
}

#[test]
fn local_and_slash_command_output_is_not_a_prompt_but_a_plugin_command_is() {
    // /clear (l.3) and its empty stdout (l.4) are not prompts; the first prompt is l.6
    let (t, _) = forward("claude-2.0.76-codemie-slash-interrupt.jsonl");
    let first = &t.messages[t.turn_starts[0]].content;
    assert!(first.starts_with("ultrathink"), "{first}");
    assert!(
        t.last_answer()
            .unwrap()
            .contains("specs/session-lifecycle-detection.md")
    );
    // /mcp (l.21-22) is not a prompt
    let (t, _) = forward("claude-2.1.38-spotter-tool-heavy-interrupts-slash.jsonl");
    assert!(
        t.turn_starts
            .iter()
            .all(|&i| !t.messages[i].content.contains("<command-name>/mcp"))
    );
    // a plugin slash command with arguments is the user's request (l.4)
    let (t, _) = forward("claude-2.1.38-spotter-main-uses-task-tool-interrupt.jsonl");
    assert!(
        t.messages[t.turn_starts[0]]
            .content
            .contains("/handgemacht:create-beads")
    );
}

#[test]
fn a_compaction_summary_is_not_a_prompt() {
    // compact_boundary l.1256, isCompactSummary l.1257
    let (t, _) = forward("claude-2.1.39-spotter-gqc-compact-reject-tasknotif.jsonl");
    assert_eq!(t.compactions, 1);
    assert!(t.messages[0].content.starts_with("This session is being continued"));
    assert!(t.turn_starts.iter().all(|&i| i > 0));
    assert!(t.last_compaction.as_deref().unwrap().starts_with("uuid:"));
}

fn cc(ty: &str, uuid: &str, content: serde_json::Value) -> serde_json::Value {
    serde_json::json!({"type": ty, "uuid": uuid, "sessionId": "s", "message": {"id": uuid, "role": ty, "content": content}})
}

fn lines(v: &[serde_json::Value]) -> String {
    v.iter().map(|l| l.to_string() + "\n").collect()
}

#[test]
fn derived_hook_feedback_and_advisories_are_not_prompts() {
    // derived: the corpus holds no "Stop hook feedback" line (see the corpus README)
    let text = lines(&[
        cc("user", "u1", serde_json::json!("fix it")),
        cc(
            "assistant",
            "a1",
            serde_json::json!([{"type": "text", "text": "fixed"}]),
        ),
        cc(
            "user",
            "u2",
            serde_json::json!("Stop hook feedback:\n[lint.sh]: run the linter"),
        ),
        cc(
            "assistant",
            "a2",
            serde_json::json!([{"type": "text", "text": "linted"}]),
        ),
        cc(
            "user",
            "u3",
            serde_json::json!("<advisory severity=\"blocker\">tests fail</advisory>"),
        ),
        cc(
            "assistant",
            "a3",
            serde_json::json!([{"type": "text", "text": "now they pass"}]),
        ),
        serde_json::json!({"type": "user", "isMeta": true, "uuid": "m", "message": {"role": "user", "content": "Caveat: meta"}}),
    ]);
    let (t, _) = parse_transcript("s.jsonl", &text, None).unwrap();
    assert_eq!(t.user_prompts, 1);
    assert_eq!(t.last_prompt.as_deref(), Some("uuid:u1"));
    assert_eq!(t.last_answer(), Some("now they pass"));
}

#[test]
fn a_sidechain_transcript_is_reviewable_on_its_own() {
    let (t, _) = forward("claude-2.1.38-spotter-subagent-afc096d.jsonl");
    assert_eq!(t.user_prompts, 1);
    assert!(t.last_answer().is_some());
    assert!(!t.tools.is_empty());
    let (t, _) = forward("claude-2.1.39-spotter-gqc-subagent-a881341.jsonl");
    assert!(t.last_answer().is_some());
}

// --- Codex reader (issue 12, item 3) ---

#[test]
fn codex_write_stdin_output_is_attributed_to_its_exec_command() {
    let (t, _) = forward("codex-0.125.0-tui-unified-exec-websearch-patch.jsonl");
    // polls fold into exec_command; a write Codex refused is a failed call of its own
    let refused: Vec<_> = t.tools.iter().filter(|tool| tool.name == "write_stdin").collect();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(
        refused[0]
            .error
            .as_deref()
            .is_some_and(|e| e.starts_with("write_stdin failed: stdin is closed")),
        "{refused:?}"
    );
    // l.269: the TDD-red `npm test … -t "Compaction Config"` exits 1
    let red = t
        .tools
        .iter()
        .find(|tool| {
            tool.name == "exec_command" && tool.args.contains("npm test") && tool.args.contains("Compaction Config")
        })
        .expect("the red test run");
    assert!(
        red.error.as_deref().unwrap().starts_with("exit code 1"),
        "{:?}",
        red.error
    );
    assert!(
        t.tools
            .iter()
            .any(|tool| tool.name == "apply_patch" && tool.error.is_none())
    );
    assert_eq!(t.tools.iter().filter(|tool| tool.name == "web_search").count(), 3);
    assert!(
        t.skipped
            .keys()
            .all(|k| !k.contains("custom_tool_call") && !k.contains("web_search"))
    );
    assert!(
        t.last_answer()
            .unwrap()
            .starts_with("Implemented the default context compaction")
    );
}

#[test]
fn codex_write_stdin_exit_code_marks_the_command() {
    use serde_json::json;
    let rollout = |ty: &str, payload: serde_json::Value| json!({"timestamp": "t", "type": ty, "payload": payload});
    let text = lines(&[
        rollout("event_msg", json!({"type": "user_message", "message": "run the tests"})),
        rollout(
            "response_item",
            json!({"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\":\"npm test\"}", "call_id": "c1"}),
        ),
        rollout(
            "response_item",
            json!({"type": "function_call_output", "call_id": "c1", "output": "Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 7\nOutput:\nstarting\n"}),
        ),
        rollout(
            "response_item",
            json!({"type": "function_call", "name": "write_stdin", "arguments": "{\"session_id\":7,\"chars\":\"\"}", "call_id": "c2"}),
        ),
        rollout(
            "response_item",
            json!({"type": "function_call_output", "call_id": "c2", "output": "Chunk ID: b\nWall time: 3.0 seconds\nProcess exited with code 1\nOutput:\n1 failed\n"}),
        ),
        rollout(
            "event_msg",
            json!({"type": "task_complete", "last_agent_message": "All tests pass."}),
        ),
    ]);
    let (t, _) = parse_transcript("r.jsonl", &text, None).unwrap();
    assert_eq!(t.tools.len(), 1);
    assert_eq!(t.tools[0].name, "exec_command");
    assert!(t.tools[0].output.contains("1 failed"));
    assert!(t.tools[0].error.as_deref().unwrap().starts_with("exit code 1"));
    assert_eq!(
        t.last_answer(),
        Some("All tests pass."),
        "task_complete's message is the answer"
    );
}

#[test]
fn codex_exec_command_end_exit_codes_decide_the_outcome() {
    let (t, _) = forward("codex-0.125.0-tui-unified-exec-websearch-patch.jsonl");
    let failed = t.tools.iter().filter(|tool| tool.error.is_some()).count();
    assert!(failed >= 4, "rg exit 2, rg exit 1 (twice), npm test exit 1: {failed}");
}

// --- reading from the end (issue 12, item 5) ---

fn tail(name: &str, window: u64) -> Transcript {
    let options = ReadOptions {
        window_bytes: window,
        ..ReadOptions::default()
    };
    read_transcript_with(&fixture(name), &options).unwrap().0
}

/// The turns a transcript's last `n` turns amount to: prompt, assistant texts,
/// tool names and outcomes.
fn last_turns(t: &Transcript, n: usize) -> Vec<Vec<String>> {
    let k = t.turn_starts.len();
    let mut out = Vec::new();
    for j in k.saturating_sub(n)..k {
        let start = t.turn_starts[j];
        let end = t.turn_starts.get(j + 1).copied().unwrap_or(t.messages.len());
        out.push(
            t.messages[start..end]
                .iter()
                .map(|m| format!("{:?}|{}|{}", m.role, m.content, m.tool_calls.len()))
                .collect(),
        );
    }
    out
}

fn same_end(name: &str, window: u64) -> Result<(), String> {
    let (full, _) = forward(name);
    let part = tail(name, window);
    let n = part.turn_starts.len();
    if last_turns(&part, n) != last_turns(&full, n) {
        return Err(format!("{name}: the last {n} turns differ"));
    }
    if (part.last_answer(), &part.last_prompt) != (full.last_answer(), &full.last_prompt) {
        return Err(format!("{name}: answer or prompt identity differ"));
    }
    if full.compactions > 0 && part.last_compaction.is_some() && part.last_compaction != full.last_compaction {
        return Err(format!("{name}: compaction identity differs"));
    }
    Ok(())
}

#[test]
fn reading_from_the_end_reads_only_what_the_window_needs() {
    let name = "claude-2.1.39-spotter-gqc-compact-reject-tasknotif.jsonl";
    let part = tail(name, 0);
    assert_eq!(part.turn_starts.len(), 1, "only the last turn");
    assert!(part.messages.len() < 20);
    same_end(name, 0).unwrap();
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    #[test]
    fn the_read_from_the_end_yields_the_same_turns_as_a_forward_read(index in 0usize..17, window in 0u64..400_000) {
        let names = corpus();
        let name = &names[index % names.len()];
        proptest::prop_assert_eq!(same_end(name, window), Ok(()));
    }
}

#[test]
fn special_files_are_refused_at_once() {
    let e = read_transcript_with(Path::new("/dev/zero"), &ReadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    let e = read_transcript_with(&fixture(""), &ReadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
}

#[test]
fn a_line_over_the_line_cap_is_elided_not_fatal() {
    let dir = std::env::temp_dir().join(format!("advisor-elide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.jsonl");
    let image = format!("\"{}\"", "A".repeat(3 << 20));
    let text = lines(&[
        cc("user", "u1", serde_json::json!("describe the image")),
        serde_json::from_str(&format!(
            "{{\"type\":\"user\",\"uuid\":\"img\",\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"image\",\"source\":{{\"data\":{image}}}}}]}}}}"
        ))
        .unwrap(),
        cc("assistant", "a1", serde_json::json!([{"type": "text", "text": "a cat"}])),
    ]);
    std::fs::write(&path, &text).unwrap();
    let (t, _) = read_transcript_with(&path, &ReadOptions::default()).unwrap();
    assert_eq!(t.elided, 1);
    assert_eq!(t.last_answer(), Some("a cat"));
    assert!(t.messages.iter().any(|m| m.content.contains("elided")));
    // a half-written last line is dropped only when asked
    std::fs::write(&path, text + "{\"type\":\"assis").unwrap();
    assert!(read_transcript_with(&path, &ReadOptions::default()).is_err());
    let lenient = ReadOptions {
        allow_partial_last_line: true,
        ..ReadOptions::default()
    };
    assert_eq!(
        read_transcript_with(&path, &lenient).unwrap().0.last_answer(),
        Some("a cat")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
