//! `advisor hook --host copilot|qwen|droid` (issue 47) on the payloads and
//! session files the real hosts wrote (`tests/fixtures/captured`, see its
//! README: GitHub Copilot CLI 1.0.102, Qwen Code 0.24.4, droid 0.215.0 on
//! this project's machine, paths rewritten): each host's input read, its
//! session file read by its own reader (the failing command's exit code
//! reaches the review: the captured command is no test runner, so the rules
//! make it a note that `verdict = "summary"` shows), the output shape, the
//! cap, the sub-agent stops, and Copilot CLI's late session file.
//! Must not run a host or reach past the machine: the captures are replayed
//! from disk, and every workspace is a scratch directory.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod hook_support;

use std::path::{Path, PathBuf};
use std::time::Duration;

use hook_support::{CLEAN, FLAGGED, Run, Workspace, hook};
use serde_json::{Value, json};

const SUMMARY: &str = "enabled = true\nverdict = \"summary\"\n";
const CAP_1: &str = "enabled = true\nmax_rounds = 1\n";
/// The note the rules reviewer gives the captured failing command, per host
/// (its shell tool's name and the error line the host recorded).
const EXIT_1: &str = "The last `bash` call failed (exit code 1: 1 failed, 2 passed)";
const QWEN_EXIT_1: &str = "The last `run_shell_command` call failed (exit code 1: Command: python3";
const DROID_FAILED: &str = "The last `Execute` call failed (Error: Command failed (exit code: 1))";

fn captured(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/captured")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

/// The captured file `name` cut after its first line that contains `until`
/// (inclusive), or whole.
fn lines_until(name: &str, until: Option<&str>) -> String {
    let mut out = String::new();
    for line in captured(name).lines() {
        out.push_str(line);
        out.push('\n');
        if until.is_some_and(|u| line.contains(u)) {
            return out;
        }
    }
    assert!(until.is_none(), "{name} has no line with {until:?}");
    out
}

/// A captured payload with its paths moved into `ws`.
fn payload(name: &str, ws: &Workspace, edits: &[(&str, Value)]) -> String {
    let mut v: Value = serde_json::from_str(&captured(name)).unwrap();
    for (key, value) in edits {
        v[*key] = value.clone();
    }
    for key in ["cwd"] {
        if v.get(key).is_some() {
            v[key] = json!(ws.path());
        }
    }
    v.to_string()
}

fn keys(run: &Run) -> Vec<String> {
    run.json()
        .map(|v| v.as_object().unwrap().keys().cloned().collect())
        .unwrap_or_default()
}

fn message(run: &Run) -> String {
    run.json()
        .and_then(|v| v["systemMessage"].as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn copilot_payload(name: &str, ws: &Workspace, transcript: &Path) -> String {
    payload(name, ws, &[("transcriptPath", json!(transcript))])
}

#[test]
fn copilot_reads_its_events_file_and_the_exit_code_beats_success_true() {
    let ws = Workspace::with_config(SUMMARY);
    // the file as it stands once the hook's own `hook.start` is written
    let t = ws.write(
        "events.jsonl",
        &lines_until("copilot-1.0.102-events-block.jsonl", Some("\"hook.start\"")),
    );
    let run = hook(
        &copilot_payload("copilot-1.0.102-agentStop.json", &ws, &t),
        &["--host", "copilot"],
    );
    assert_eq!(run.code, 0);
    assert!(message(&run).contains(EXIT_1), "{run:?}");
    assert!(ws.state("8249aa8d-1489-4563-99a1-68e0174c73f0.json").is_some());
    // the second stop: the reason is no prompt, the answer is the admission
    let all = lines_until("copilot-1.0.102-events-block.jsonl", None);
    let second = all
        .lines()
        .filter(|l| l.contains("\"hook.start\""))
        .nth(1)
        .unwrap()
        .to_owned();
    let upto = &all[..all.find(&second).unwrap() + second.len() + 1];
    let t = ws.write("events.jsonl", upto);
    let run = hook(
        &copilot_payload("copilot-1.0.102-agentStop-continuing.json", &ws, &t),
        &["--host", "copilot"],
    );
    assert_eq!(run.code, 0);
    assert!(!run.stdout.contains("decision"), "{run:?}");
}

#[test]
fn copilot_without_the_flag_is_no_host_the_hook_knows() {
    let ws = Workspace::with_config(SUMMARY);
    let t = ws.write(
        "events.jsonl",
        &lines_until("copilot-1.0.102-events-block.jsonl", Some("\"hook.start\"")),
    );
    let run = hook(&copilot_payload("copilot-1.0.102-agentStop.json", &ws, &t), &[]);
    assert_eq!((run.stdout.as_str(), run.code), ("", 0));
    assert!(run.stderr.contains("--host"), "{}", run.stderr);
}

/// Runs the hook on Copilot CLI's file as it was when the real hook started
/// (no answer yet), and writes the rest of the real file `after` later.
fn copilot_race(after: Option<Duration>) -> (Run, Workspace) {
    let ws = Workspace::with_config(SUMMARY);
    let start = captured("copilot-1.0.102-race-events-at-hook-start.jsonl");
    let fin = captured("copilot-1.0.102-race-events-final.jsonl");
    assert!(fin.starts_with(&start));
    let t = ws.write("events.jsonl", &start);
    let input = copilot_payload("copilot-1.0.102-race-agentStop.json", &ws, &t);
    let writer = after.map(|delay| {
        let (t, rest) = (t.clone(), fin[start.len()..].to_owned());
        std::thread::spawn(move || {
            std::thread::sleep(delay);
            let mut f = std::fs::OpenOptions::new().append(true).open(t).unwrap();
            std::io::Write::write_all(&mut f, rest.as_bytes()).unwrap();
        })
    });
    let run = hook(&input, &["--host", "copilot"]);
    if let Some(w) = writer {
        w.join().unwrap();
    }
    (run, ws)
}

#[test]
fn copilot_is_waited_for_until_its_session_file_holds_the_stop() {
    let (run, _ws) = copilot_race(Some(Duration::from_millis(80)));
    assert!(message(&run).contains(EXIT_1), "{run:?}");
    assert!(run.stderr.contains("the transcript lagged"), "{}", run.stderr);
    // never written: not reviewed, and said
    let (run, ws) = copilot_race(None);
    assert_eq!(run.stdout, "", "{run:?}");
    assert!(run.stderr.contains("did not record this stop"), "{}", run.stderr);
    assert!(ws.state("a1602642-fb7a-49cc-920b-d7de24f9074c.json").is_none());
}

#[test]
fn copilot_sub_agent_stops_the_agent_stop_inside_goes_through_the_subagent_stop_is_reviewed() {
    let ws = Workspace::with_config(SUMMARY);
    let t = ws.write("events.jsonl", &captured("copilot-1.0.102-events-subagent.jsonl"));
    let run = hook(
        &copilot_payload("copilot-1.0.102-agentStop-in-subagent.json", &ws, &t),
        &["--host", "copilot"],
    );
    assert_eq!((run.stdout.as_str(), run.stderr.as_str(), run.code), ("", "", 0));
    // subagentStop: the answer is `response`, the evidence the sub-agent's own lines
    let t = ws.write(
        "events.jsonl",
        &lines_until(
            "copilot-1.0.102-events-subagent.jsonl",
            Some("\"hookType\":\"subagentStop\""),
        ),
    );
    let run = hook(
        &copilot_payload("copilot-1.0.102-subagentStop.json", &ws, &t),
        &["--host", "copilot"],
    );
    assert!(message(&run).contains(EXIT_1), "{run:?}");
    let states = std::fs::read_dir(ws.path().join(".advisor/state")).unwrap();
    let names: Vec<String> = states
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().any(|n| n.contains('~') && n.ends_with(".json")),
        "{names:?}"
    );
}

/// A Copilot CLI events file (derived, written here in the captured shape):
/// a prompt, the answer, then this stop's `hook.start`.
fn copilot_events(ws: &Workspace, answer: &str, ts: i64) -> PathBuf {
    let lines = [
        json!({"type": "user.message", "data": {"content": "export the report", "delivery": "idle"}, "id": "e1", "timestamp": "t", "parentId": null}),
        json!({"type": "assistant.message", "data": {"messageId": "m1", "content": answer, "toolRequests": []}, "id": "e2", "timestamp": "t", "parentId": "e1"}),
        json!({"type": "hook.start", "data": {"hookType": "agentStop", "input": {"timestamp": ts}}, "id": "e3", "timestamp": "t", "parentId": "e2"}),
    ];
    ws.write(
        "derived.jsonl",
        &lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
}

#[test]
fn copilot_block_shape_and_the_cap() {
    let ws = Workspace::with_config(CAP_1);
    let t = copilot_events(&ws, FLAGGED, 7);
    let input = |active: bool| {
        json!({"sessionId": "cp-1", "timestamp": 7, "cwd": ws.path(), "transcriptPath": t, "stopReason": "end_turn",
            "stop_hook_active": active})
        .to_string()
    };
    let run = hook(&input(false), &["--host", "copilot"]);
    assert_eq!(keys(&run), ["decision", "reason"]);
    assert!(run.blocked().unwrap().contains("placeholder"));
    // the allowance is spent: advisor's own state holds the cap, whatever the flag says
    assert_eq!(hook(&input(false), &["--host", "copilot"]).stdout, "");
    let ws = Workspace::with_config(CAP_1);
    let t = copilot_events(&ws, CLEAN, 7);
    let clean = json!({"sessionId": "cp-2", "timestamp": 7, "cwd": ws.path(), "transcriptPath": t, "stopReason": "end_turn",
        "stop_hook_active": false});
    assert_eq!(hook(&clean.to_string(), &["--host", "copilot"]).stdout, "");
    // not a stop (another Copilot CLI hook): goes through, said
    let run = hook(
        &json!({"sessionId": "s", "toolName": "bash"}).to_string(),
        &["--host", "copilot"],
    );
    assert!(run.stderr.contains("no stopReason"), "{}", run.stderr);
}

#[test]
fn qwen_reads_its_chat_and_takes_the_answer_from_the_payload() {
    let ws = Workspace::with_config(SUMMARY);
    let t = ws.write(
        "chat.jsonl",
        &lines_until("qwen-0.24.4-chat-block.jsonl", Some("All tests pass.\"}]}")),
    );
    let input = payload("qwen-0.24.4-Stop.json", &ws, &[("transcript_path", json!(t))]);
    let run = hook(&input, &["--host", "qwen"]);
    assert!(message(&run).contains(QWEN_EXIT_1), "{run:?}");
    // a block in Claude Code's shape, and the cap
    let ws = Workspace::with_config(CAP_1);
    let t = ws.write(
        "chat.jsonl",
        &lines_until("qwen-0.24.4-chat-block.jsonl", Some("All tests pass.\"}]}")),
    );
    let with = |active: bool| {
        payload(
            "qwen-0.24.4-Stop.json",
            &ws,
            &[
                ("transcript_path", json!(t)),
                ("last_assistant_message", json!(FLAGGED)),
                ("stop_hook_active", json!(active)),
            ],
        )
    };
    let run = hook(&with(false), &["--host", "qwen"]);
    assert_eq!(keys(&run), ["decision", "reason"]);
    assert_eq!(hook(&with(false), &["--host", "qwen"]).stdout, "", "cap reached");
}

#[test]
fn qwen_subagent_stop_reads_the_sub_agents_own_file() {
    let ws = Workspace::with_config(SUMMARY);
    let input: Value = serde_json::from_str(&captured("qwen-0.24.4-SubagentStop.json")).unwrap();
    let session = input["session_id"].as_str().unwrap();
    let project = ws.path().join("home/.qwen/projects/-home-you-project");
    let chat = project.join("chats").join(format!("{session}.jsonl"));
    let agent = project
        .join("subagents")
        .join(session)
        .join("agent-general-purpose-call_0001.jsonl");
    std::fs::create_dir_all(chat.parent().unwrap()).unwrap();
    std::fs::create_dir_all(agent.parent().unwrap()).unwrap();
    std::fs::write(&chat, captured("qwen-0.24.4-chat-block.jsonl")).unwrap();
    std::fs::write(
        &agent,
        lines_until("qwen-0.24.4-subagent-agent.jsonl", Some("All tests pass.")),
    )
    .unwrap();
    // as Qwen Code 0.24.4 sends it: agent_transcript_path is the parent's chat
    let edits = [("transcript_path", json!(chat)), ("agent_transcript_path", json!(chat))];
    let run = hook(
        &payload("qwen-0.24.4-SubagentStop.json", &ws, &edits),
        &["--host", "qwen"],
    );
    assert!(message(&run).contains(QWEN_EXIT_1), "{run:?}");
    assert!(!run.stderr.contains("lagged"), "{}", run.stderr);
}

#[test]
fn droid_finds_its_answer_by_message_id() {
    let ws = Workspace::with_config(SUMMARY);
    let input: Value = serde_json::from_str(&captured("droid-0.215.0-Stop.json")).unwrap();
    let answer_id = input["message_id"].as_str().unwrap().to_owned();
    let t = ws.write(
        "s.jsonl",
        &lines_until(
            "droid-0.215.0-session-block.jsonl",
            Some(&format!("\"id\":\"{answer_id}\"")),
        ),
    );
    let run = hook(
        &payload("droid-0.215.0-Stop.json", &ws, &[("transcript_path", json!(t))]),
        &["--host", "droid"],
    );
    assert!(message(&run).contains(DROID_FAILED), "{run:?}");
    // the second stop: the reason is no prompt, the admission passes
    let second: Value = serde_json::from_str(&captured("droid-0.215.0-Stop-continuing.json")).unwrap();
    let id = second["message_id"].as_str().unwrap();
    let t = ws.write(
        "s.jsonl",
        &lines_until("droid-0.215.0-session-block.jsonl", Some(&format!("\"id\":\"{id}\""))),
    );
    let run = hook(
        &payload(
            "droid-0.215.0-Stop-continuing.json",
            &ws,
            &[("transcript_path", json!(t))],
        ),
        &["--host", "droid"],
    );
    assert!(!run.stdout.contains("decision"), "{run:?}");
    // an answer that is not on disk: waited for, then not reviewed
    let t = ws.write(
        "s.jsonl",
        &lines_until("droid-0.215.0-session-block.jsonl", Some("\"tool_result\"")),
    );
    let run = hook(
        &payload("droid-0.215.0-Stop.json", &ws, &[("transcript_path", json!(t))]),
        &["--host", "droid"],
    );
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("did not record this stop"), "{}", run.stderr);
}

#[test]
fn droid_block_shape_cap_and_subagent_stop() {
    let ws = Workspace::with_config(CAP_1);
    let lines = [
        json!({"type": "message", "id": "p1", "timestamp": "t", "message": {"role": "user", "content": [{"type": "text", "text": "export the report"}]}}),
        json!({"type": "message", "id": "a1", "parentId": "p1", "timestamp": "t", "message": {"role": "assistant", "content": [{"type": "text", "text": FLAGGED}]}}),
    ];
    let t = ws.write("s.jsonl", &lines.iter().map(|l| format!("{l}\n")).collect::<String>());
    let input = json!({"session_id": "dr-1", "transcript_path": t, "cwd": ws.path(), "permission_mode": "auto-high",
        "hook_event_name": "Stop", "message_id": "a1", "stop_hook_active": false});
    let run = hook(&input.to_string(), &["--host", "droid"]);
    assert_eq!(keys(&run), ["decision", "reason"]);
    // droid has no cap of its own: advisor's state ends the loop
    assert_eq!(hook(&input.to_string(), &["--host", "droid"]).stdout, "", "cap reached");
    // droid 0.215.0 discards a SubagentStop hook's output: let through, quietly
    let sub = json!({"session_id": "dr-2", "transcript_path": t, "cwd": ws.path(), "hook_event_name": "SubagentStop",
        "task_name": "t", "task_result": FLAGGED, "stop_hook_active": false});
    let run = hook(&sub.to_string(), &["--host", "droid"]);
    assert_eq!((run.stdout.as_str(), run.stderr.as_str()), ("", ""));
}
