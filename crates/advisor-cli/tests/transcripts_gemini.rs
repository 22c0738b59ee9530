//! The Gemini CLI session reader on real single-JSON sessions (byte copies,
//! provenance in `tests/fixtures/real/README.md`) and on derived JSONL sessions
//! written from Gemini CLI's source (`tests/fixtures/derived/README.md`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fmt::Write as _;
use std::path::Path;

use advisor::host::Role;
use advisor_cli::transcript::{Transcript, TranscriptErrorKind, TranscriptFormat, parse_transcript, read_transcript};
use proptest::prelude::*;
use serde_json::json;

fn fixture(dir: &str, name: &str) -> (Transcript, TranscriptFormat) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(dir)
        .join(name);
    let text = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
    parse_transcript(name, &text, None).unwrap()
}

fn clip(s: &str, n: usize) -> String {
    let one_line = s.replace('\n', "⏎");
    let mut out: String = one_line.chars().take(n).collect();
    if one_line.chars().count() > n {
        out.push('…');
    }
    out
}

/// What a reviewer gets from the reader, one line per item.
fn render(t: &Transcript, format: TranscriptFormat) -> String {
    let mut out = String::new();
    writeln!(out, "format: {}", format.as_str()).unwrap();
    writeln!(
        out,
        "user_prompts: {}  compactions: {}  assistant_turns: {}",
        t.user_prompts,
        t.compactions,
        t.assistant_turns()
    )
    .unwrap();
    writeln!(out, "skipped: {:?}", t.skipped).unwrap();
    writeln!(out, "messages:").unwrap();
    for m in &t.messages {
        let calls: Vec<&str> = m.tool_calls.iter().map(|c| c.name.as_str()).collect();
        writeln!(
            out,
            "  {:<9} {}{}",
            m.role.as_str(),
            clip(&m.content, 90),
            if calls.is_empty() {
                String::new()
            } else {
                format!("  calls={calls:?}")
            }
        )
        .unwrap();
    }
    writeln!(out, "tools:").unwrap();
    for tr in &t.tools {
        writeln!(
            out,
            "  {} {} -> {}{}",
            tr.name,
            clip(&tr.args, 50),
            clip(&tr.output, 60),
            tr.error
                .as_deref()
                .map(|e| format!("  ERROR: {}", clip(e, 60)))
                .unwrap_or_default()
        )
        .unwrap();
    }
    writeln!(
        out,
        "last_answer: {}",
        t.last_answer().map(|a| clip(a, 120)).unwrap_or_default()
    )
    .unwrap();
    out
}

#[test]
fn real_gemini_json_session_2025_12() {
    let (t, format) = fixture("real", "gemini-json-2025-12-codemie-5b959dae.json");
    assert_eq!(format, TranscriptFormat::Gemini);
    assert_eq!(t.user_prompts, 3);
    assert!(t.tools.iter().all(|tr| tr.error.is_none()), "every call succeeded");
    insta::assert_snapshot!(render(&t, format));
}

#[test]
fn real_gemini_json_session_2026_01() {
    let (t, format) = fixture("real", "gemini-json-2026-01-codemie-file-ops-37b7abef.json");
    assert_eq!(format, TranscriptFormat::Gemini);
    assert_eq!(t.user_prompts, 5);
    assert_eq!(
        t.last_answer(),
        Some("I have removed the 2nd and 3rd lines from `hello.md`.")
    );
    insta::assert_snapshot!(render(&t, format));
}

#[test]
fn real_gemini_session_reads_from_disk_and_with_forced_format() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real/gemini-json-2025-12-codemie-5b959dae.json");
    let detected = read_transcript(&path, None).unwrap();
    let forced = read_transcript(&path, TranscriptFormat::parse("gemini")).unwrap();
    assert_eq!(detected, forced);
}

#[test]
fn derived_jsonl_last_copy_wins_rewind_truncates_and_exit_code_fails_a_success() {
    let (t, format) = fixture("derived", "gemini-jsonl-derived-rewrites-rewind.jsonl");
    assert_eq!(format, TranscriptFormat::Gemini);
    // The message appended four times appears once, as its last copy.
    assert_eq!(
        t.messages
            .iter()
            .filter(|m| m.content == "I'll run the tests first.")
            .count(),
        1
    );
    // `status: "success"` but `Exit Code: 101` in the text: a failure, once.
    assert_eq!(t.tools.len(), 1);
    assert!(t.tools[0].error.is_some());
    assert!(t.tools[0].output.contains("Exit Code: 101"));
    // `$rewindTo: g-2` dropped g-2 and everything after it.
    assert!(
        t.messages
            .iter()
            .all(|m| !m.content.contains("from scratch") && m.content != "Reverted.")
    );
    // The thought part is not the answer.
    assert_eq!(
        t.last_answer(),
        Some("Fixed the off-by-one in `parse`; all tests pass now.")
    );
    // Two typed prompts, one of them rewound away; `Please continue.` is not one.
    assert_eq!(t.user_prompts, 2);
    assert!(t.messages.iter().all(|m| m.content != "Please continue."));
    assert_eq!(t.skipped["user:continuation"], 1);
    assert_eq!(t.skipped["line:not-json"], 1, "the half-written last line");
    insta::assert_snapshot!(render(&t, format));
}

#[test]
fn derived_jsonl_checkpoint_replaces_messages_and_init_is_the_prompt() {
    let (t, format) = fixture("derived", "gemini-jsonl-derived-checkpoint-init.jsonl");
    assert_eq!(format, TranscriptFormat::Gemini);
    // The checkpoint dropped the failed read_file and `System: Please continue.`.
    assert_eq!(t.tools.len(), 1);
    assert_eq!(t.tools[0].name, "list_directory");
    assert!(t.tools[0].error.is_none());
    let users: Vec<&str> = t
        .messages
        .iter()
        .filter(|m| m.role == Role::User)
        .map(|m| m.content.as_str())
        .collect();
    assert_eq!(users.len(), 1, "`System: Please continue.` is not a prompt");
    assert_eq!(t.skipped["user:continuation"], 1);
    assert!(users[0].contains("generate a comprehensive GEMINI.md"));
    assert_eq!(t.last_answer(), Some("Wrote GEMINI.md describing the Rust crate."));
    insta::assert_snapshot!(render(&t, format));
}

#[test]
fn a_failed_status_or_error_response_is_a_failure() {
    let text = [
        json!({"sessionId": "s", "projectHash": "p"}),
        json!({"id": "u", "type": "user", "content": "go"}),
        json!({"id": "g", "type": "gemini", "content": "", "toolCalls": [
            {"id": "a", "name": "read_file", "args": {}, "status": "error", "result": [{"functionResponse": {"id": "a", "name": "read_file", "response": {"error": "ENOENT"}}}]},
            {"id": "b", "name": "run_shell_command", "args": {}, "status": "cancelled"},
            {"id": "c", "name": "run_shell_command", "args": {}, "status": "success", "result": [{"functionResponse": {"id": "c", "name": "run_shell_command", "response": {"output": "Output: (empty)\nSignal: SIGTERM"}}}]},
            {"id": "d", "name": "run_shell_command", "args": {}, "status": "success", "result": [{"functionResponse": {"id": "d", "name": "run_shell_command", "response": {"output": "Output: (empty)\nExit Code: 1"}}}]},
            {"id": "e", "name": "run_shell_command", "args": {}, "status": "success", "result": [{"functionResponse": {"id": "e", "name": "run_shell_command", "response": {"output": "Output: ok"}}}]}
        ]}),
    ]
    .iter()
    .map(|v| v.to_string() + "\n")
    .collect::<String>();
    let (t, _) = parse_transcript("s.jsonl", &text, None).unwrap();
    let failed: Vec<bool> = t.tools.iter().map(|tr| tr.error.is_some()).collect();
    assert_eq!(failed, [true, true, true, true, false]);
    assert_eq!(t.tools[3].error.as_deref(), Some("Exit Code: 1"));
}

#[test]
fn a_rewind_to_an_unknown_id_clears_everything_like_gemini_cli() {
    let text = [
        json!({"sessionId": "s", "projectHash": "p"}),
        json!({"id": "u", "type": "user", "content": "one"}),
        json!({"id": "g", "type": "gemini", "content": "answer"}),
        json!({"$rewindTo": "nope"}),
    ]
    .iter()
    .map(|v| v.to_string() + "\n")
    .collect::<String>();
    let (t, _) = parse_transcript("s.jsonl", &text, None).unwrap();
    assert!(t.messages.is_empty());
    assert_eq!(t.user_prompts, 1, "the prompt was asked, even if rewound");
}

#[test]
fn claude_code_lines_with_session_id_are_not_mistaken_for_gemini() {
    let line = json!({"type": "user", "sessionId": "s", "projectHash": "p", "uuid": "u", "message": {"role": "user", "content": "hi"}});
    let (_, format) = parse_transcript("c.jsonl", &(line.to_string() + "\n"), None).unwrap();
    assert_eq!(format, TranscriptFormat::ClaudeCode);
}

#[test]
fn a_forced_gemini_read_of_garbage_is_an_error_not_a_panic() {
    let err = parse_transcript("x", "not json\nstill not\n", Some(TranscriptFormat::Gemini)).unwrap_err();
    assert_eq!(err.kind(), TranscriptErrorKind::NotJson);
}

// --- point 1: outcomes from the host's fields

#[test]
fn derived_shell_outcomes_come_from_status_and_the_trailing_exit_code() {
    let (t, _) = fixture("derived", "gemini-jsonl-derived-shell-outcomes.jsonl");
    let outcome: Vec<(bool, Option<i64>)> = t.tools.iter().map(|tr| (tr.error.is_some(), tr.exit_code)).collect();
    assert_eq!(
        outcome,
        [
            // `Error: (none)` with `Exit Code: 0`: a success
            (false, Some(0)),
            // a printed `Exit Code: 0` before the host's `Exit Code: 101`
            (true, Some(101)),
            // `error:` printed by the command, no exit code recorded: a success
            (false, None),
        ]
    );
    assert_eq!(
        t.last_answer(),
        Some("`cargo test` fails in `parse` (exit code 101); the build and clippy are clean.")
    );
}

#[test]
fn a_successful_shell_call_with_an_empty_error_field_is_not_failed() {
    let text = [
        json!({"sessionId": "s", "projectHash": "p"}),
        json!({"id": "u", "type": "user", "content": "go"}),
        json!({"id": "g", "type": "gemini", "content": "", "toolCalls": [
            {"id": "a", "name": "run_shell_command", "args": {}, "status": "success", "result": [{"functionResponse": {"id": "a", "name": "run_shell_command", "response": {"output": "Command: ls\nDirectory: (root)\nOutput: a\nError: \nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 1"}}}]},
            {"id": "b", "name": "read_file", "args": {}, "status": "success", "result": [{"functionResponse": {"id": "b", "name": "read_file", "response": {"output": "error: a line of the file\nExit Code: 3"}}}]}
        ]}),
    ]
    .iter()
    .map(|v| v.to_string() + "\n")
    .collect::<String>();
    let (t, _) = parse_transcript("s.jsonl", &text, None).unwrap();
    let outcome: Vec<(bool, Option<i64>)> = t.tools.iter().map(|tr| (tr.error.is_some(), tr.exit_code)).collect();
    assert_eq!(
        outcome,
        [(false, Some(0)), (false, None)],
        "only the shell tool writes Exit Code"
    );
}

// --- point 2: non-answers are not reviewed

#[test]
fn derived_error_records_are_skipped_and_a_cancelled_turn_has_no_answer() {
    let (t, _) = fixture("derived", "gemini-jsonl-derived-non-answers.jsonl");
    assert_eq!(t.skipped["message:error"], 1);
    assert_eq!(t.skipped["message:warning"], 1);
    assert!(t.messages.iter().all(|m| !m.content.contains("API Error")));
    assert_eq!(t.last_prompt.as_deref(), Some("id:u-3"));
    assert_eq!(t.last_answer(), None, "the user cancelled the last turn");
    // without the cancelled turn, the answer is the turn's last genuine text
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/derived/gemini-jsonl-derived-non-answers.jsonl");
    let text = std::fs::read_to_string(path).unwrap();
    let head: String = text.lines().take(7).map(|l| l.to_owned() + "\n").collect();
    let (t, _) = parse_transcript("s.jsonl", &head, None).unwrap();
    assert_eq!(t.last_answer(), Some("Profiling first."));
}

// --- point 4: prompts, turns and the answer

#[test]
fn derived_prompts_are_turns_with_ids_and_the_answer_is_the_last_model_text() {
    let (t, _) = fixture("derived", "gemini-jsonl-derived-turns.jsonl");
    assert_eq!(t.user_prompts, 2);
    assert_eq!(t.turn_starts.len(), 2);
    assert_eq!(t.messages[t.turn_starts[1]].content, "run its tests");
    assert_eq!(t.last_prompt.as_deref(), Some("id:u-2"));
    assert_eq!(t.earlier_tools, 1, "`ls crates` belongs to the first turn");
    assert!(t.tools[t.earlier_tools].args.contains("cargo test"));
    assert_eq!(
        t.last_answer(),
        Some("All 3 tests pass."),
        "not every text of the turn joined"
    );
}

#[derive(Debug, Clone)]
enum Op {
    Put(u8, u8),
    Rewind(u8),
    Checkpoint(Vec<(u8, u8)>),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0u8..6, 0u8..50).prop_map(|(i, v)| Op::Put(i, v)),
        1 => (0u8..7).prop_map(Op::Rewind),
        1 => proptest::collection::vec((0u8..6, 0u8..50), 0..4).prop_map(Op::Checkpoint),
    ]
}

proptest! {
    /// The reader agrees with a plain model of Gemini CLI's loader: last copy
    /// wins in first-seen position, a rewind cuts from the id (all when
    /// unknown), a checkpoint replaces everything.
    #[test]
    fn jsonl_edits_follow_the_loader_model(ops in proptest::collection::vec(op(), 0..30)) {
        let mut model: Vec<(u8, u8)> = Vec::new();
        let mut text = json!({"sessionId": "s", "projectHash": "p"}).to_string() + "\n";
        let msg = |i: u8, v: u8| json!({"id": format!("m{i}"), "type": "gemini", "content": format!("v{v}")});
        let put = |model: &mut Vec<(u8, u8)>, i: u8, v: u8| match model.iter_mut().find(|(k, _)| *k == i) {
            Some(slot) => slot.1 = v,
            None => model.push((i, v)),
        };
        for op in &ops {
            match op {
                Op::Put(i, v) => {
                    text += &(msg(*i, *v).to_string() + "\n");
                    put(&mut model, *i, *v);
                }
                Op::Rewind(i) => {
                    text += &(json!({"$rewindTo": format!("m{i}")}).to_string() + "\n");
                    let cut = model.iter().position(|(k, _)| k == i).unwrap_or(0);
                    model.truncate(cut);
                }
                Op::Checkpoint(list) => {
                    let msgs: Vec<_> = list.iter().map(|(i, v)| msg(*i, *v)).collect();
                    text += &(json!({"$set": {"messages": msgs}}).to_string() + "\n");
                    model.clear();
                    for (i, v) in list {
                        put(&mut model, *i, *v);
                    }
                }
            }
        }
        let (t, format) = parse_transcript("p.jsonl", &text, None).unwrap();
        prop_assert_eq!(format, TranscriptFormat::Gemini);
        let got: Vec<String> = t.messages.iter().map(|m| m.content.clone()).collect();
        let want: Vec<String> = model.iter().map(|(_, v)| format!("v{v}")).collect();
        prop_assert_eq!(got, want);
    }

    /// Arbitrary lines after a Gemini metadata line never panic the reader.
    #[test]
    fn arbitrary_lines_never_panic(lines in proptest::collection::vec(".{0,80}", 0..20)) {
        let mut text = json!({"sessionId": "s", "projectHash": "p"}).to_string() + "\n";
        for l in lines {
            text += &l;
            text.push('\n');
        }
        let _ = parse_transcript("p.jsonl", &text, None);
    }
}
