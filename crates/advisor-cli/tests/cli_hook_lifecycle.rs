//! `advisor hook` on real sessions: the reader fixes and the hook lifecycle of
//! issue 12, one test per behaviour, through the built binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod hook_support;

use std::io::Write;
use std::path::Path;

use hook_support::{CLEAN, FLAGGED, Workspace, fixture, fixture_line, hook};
use serde_json::{Value, json};

const GQC: &str = "claude-2.1.39-spotter-gqc-compact-reject-tasknotif.jsonl";

fn stop(ws: &Workspace, session: &str, transcript: &Path, answer: Option<&str>, active: bool) -> String {
    let mut v = json!({
        "session_id": session,
        "transcript_path": transcript,
        "cwd": ws.path(),
        "hook_event_name": "Stop",
        "stop_hook_active": active,
    });
    if let Some(a) = answer {
        v["last_assistant_message"] = json!(a);
    }
    v.to_string()
}

/// A genuine new prompt from the user (derived).
fn new_prompt() -> String {
    json!({"type": "user", "uuid": "new-prompt", "message": {"role": "user", "content": "now export the rest"}})
        .to_string()
}

fn append(path: &Path, line: &str) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    writeln!(f, "{line}").unwrap();
}

// --- item 2: the Claude Code reader, through the hook ---

#[test]
fn an_interrupted_last_turn_is_not_reviewed() {
    let ws = Workspace::with_config("enabled = true\n");
    let t = ws.fixture("claude-2.1.38-spotter-tool-heavy-interrupts-slash.jsonl");
    let run = hook(&stop(&ws, "s", &t, None, false), &[]);
    assert_eq!((run.stdout.as_str(), run.stderr.as_str(), run.code), ("", "", 0));
    assert!(ws.state("s.json").is_none(), "no review ran");
}

#[test]
fn a_rejected_tool_call_is_not_reported_as_a_failure() {
    // before: "The last `Bash` call failed (The user doesn't want to proceed…)"
    let ws = Workspace::with_config("enabled = true\nverdict = \"summary\"\n");
    let t = ws.fixture("claude-2.1.38-spotter-short-reject-interrupt.jsonl");
    let run = hook(
        &stop(
            &ws,
            "s",
            &t,
            Some("I did not run anything: you declined both commands."),
            false,
        ),
        &[],
    );
    assert_eq!((run.stdout.as_str(), run.code), ("", 0), "{}", run.stderr);
}

#[test]
fn lines_that_are_not_prompts_do_not_renew_the_allowance() {
    // each of these, appended after a review, must not count as a fresh request
    let kinds: Vec<(&str, String)> = vec![
        ("task notification (real, l.1847)", fixture_line(GQC, 1847)),
        ("interrupt marker (real, l.495)", fixture_line(GQC, 495)),
        ("compaction summary (real, l.1257)", fixture_line(GQC, 1257)),
        (
            "local command output (real)",
            fixture_line("claude-2.1.38-spotter-tool-heavy-interrupts-slash.jsonl", 22),
        ),
        (
            "slash command /clear (real)",
            fixture_line("claude-2.0.76-codemie-slash-interrupt.jsonl", 3),
        ),
        (
            "another hook's feedback (derived: no real line in the corpus)",
            json!({"type": "user", "uuid": "hf", "message": {"role": "user", "content": "Stop hook feedback:\n[lint.sh]: run the linter"}}).to_string(),
        ),
        (
            "the advisor's own advisory (derived)",
            json!({"type": "user", "uuid": "adv", "message": {"role": "user", "content": "<advisory severity=\"concern\">check</advisory>"}}).to_string(),
        ),
        (
            "isMeta line (derived)",
            json!({"type": "user", "uuid": "meta", "isMeta": true, "message": {"role": "user", "content": "expanded skill text"}}).to_string(),
        ),
    ];
    for (what, line) in kinds {
        let ws = Workspace::with_config("enabled = true\nmax_rounds = 1\n");
        let t = ws.fixture(GQC);
        assert!(
            hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]).blocked().is_some(),
            "{what}: first stop"
        );
        append(&t, &line);
        let again = hook(&stop(&ws, "s", &t, Some(FLAGGED), true), &[]);
        assert_eq!(again.blocked(), None, "{what} renewed the allowance: {}", again.stderr);
    }
    // a genuine prompt does
    let ws = Workspace::with_config("enabled = true\nmax_rounds = 1\n");
    let t = ws.fixture(GQC);
    assert!(hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]).blocked().is_some());
    append(&t, &new_prompt());
    assert!(
        hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]).blocked().is_some(),
        "a new prompt is a fresh request"
    );
}

#[test]
fn a_subagent_is_reviewed_on_its_own_transcript_with_its_own_allowance() {
    let ws = Workspace::with_config("enabled = true\nmax_rounds = 1\n");
    let parent = ws.fixture(GQC);
    let agent = ws.fixture("claude-2.1.39-spotter-gqc-subagent-a881341.jsonl");
    let sub = |agent_type: &str, answer: &str| {
        json!({"session_id": "s", "transcript_path": parent, "cwd": ws.path(), "hook_event_name": "SubagentStop",
            "stop_hook_active": false, "agent_id": "a881341", "agent_type": agent_type,
            "agent_transcript_path": agent, "last_assistant_message": answer})
        .to_string()
    };
    // the parent spends its allowance
    assert!(
        hook(&stop(&ws, "s", &parent, Some(FLAGGED), false), &[])
            .blocked()
            .is_some()
    );
    // the sub-agent still has its own
    let run = hook(&sub("general-purpose", FLAGGED), &[]);
    assert!(run.blocked().is_some(), "{}", run.stderr);
    assert!(ws.state("s~a881341.json").is_some(), "state keyed by session and agent");
    assert_eq!(
        ws.state("s.json").unwrap()["checkpoint"]["reviewers"]["advisor"]["finished"],
        1
    );
    // internal agents (empty agent_type) are not reviewed
    let ws2 = Workspace::with_config("enabled = true\n");
    let internal = json!({"session_id": "s", "hook_event_name": "SubagentStop", "cwd": ws2.path(), "agent_id": "acompact-1",
        "agent_type": "", "agent_transcript_path": fixture("claude-2.1.39-spotter-gqc-subagent-acompact-fffbd0.jsonl"),
        "last_assistant_message": FLAGGED});
    let run = hook(&internal.to_string(), &[]);
    assert_eq!((run.stdout.as_str(), run.stderr.as_str()), ("", ""));
}

#[test]
fn a_sidechain_transcript_alone_is_reviewed() {
    // no last_assistant_message: the answer comes from the sub-agent's own file
    let ws = Workspace::with_config("enabled = true\n");
    let agent = ws.fixture("claude-2.1.38-spotter-subagent-afc096d.jsonl");
    let input = json!({"session_id": "s", "hook_event_name": "SubagentStop", "cwd": ws.path(), "agent_id": "afc096d",
        "agent_type": "Explore", "agent_transcript_path": agent});
    let run = hook(&input.to_string(), &[]);
    assert_eq!(run.code, 0);
    let state = ws.state("s~afc096d.json").expect("the sub-agent's answer was reviewed");
    assert_eq!(state["checkpoint"]["reviewers"]["advisor"]["finished"], 1);
}

// --- item 3: the Codex reader, through the hook ---

#[test]
fn a_codex_run_that_went_red_then_green_passes() {
    // l.269 exits 1 (TDD red), l.292/302/347 are green; the final claim holds
    let ws = Workspace::with_config("enabled = true\n");
    let t = ws.fixture("codex-0.125.0-tui-unified-exec-websearch-patch.jsonl");
    let input = json!({"session_id": "c", "turn_id": "019e162b", "transcript_path": t, "cwd": ws.path(),
        "hook_event_name": "Stop", "model": "gpt-5", "permission_mode": "default", "stop_hook_active": false,
        "last_assistant_message": null});
    let run = hook(&input.to_string(), &[]);
    assert_eq!((run.stdout.as_str(), run.code), ("", 0), "{}", run.stderr);
    assert!(ws.state("c.json").is_some(), "it was reviewed");
}

#[test]
fn a_codex_failure_reported_on_write_stdin_blocks_a_success_claim() {
    let ws = Workspace::with_config("enabled = true\n");
    let r = |ty: &str, p: Value| json!({"timestamp": "t", "type": ty, "payload": p}).to_string();
    let text = [
        r("session_meta", json!({"id": "x", "cli_version": "0.125.0"})),
        r("event_msg", json!({"type": "user_message", "message": "make the tests pass"})),
        r("response_item", json!({"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\":\"npm test\"}", "call_id": "c1"})),
        r("response_item", json!({"type": "function_call_output", "call_id": "c1", "output": "Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 9\nOutput:\n"})),
        r("response_item", json!({"type": "function_call", "name": "write_stdin", "arguments": "{\"session_id\":9,\"chars\":\"\"}", "call_id": "c2"})),
        r("response_item", json!({"type": "function_call_output", "call_id": "c2", "output": "Chunk ID: b\nWall time: 2.0 seconds\nProcess exited with code 1\nOutput:\nTests: 2 failed, 10 passed\n"})),
        r("response_item", json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "All tests pass now."}]})),
        r("event_msg", json!({"type": "task_complete", "last_agent_message": "All tests pass now."})),
    ]
    .join("\n")
        + "\n";
    let t = ws.write("rollout.jsonl", &text);
    let input = json!({"session_id": "c", "turn_id": "t1", "transcript_path": t, "cwd": ws.path(),
        "hook_event_name": "Stop", "model": "m", "permission_mode": "default", "stop_hook_active": false,
        "last_assistant_message": "All tests pass now."});
    let run = hook(&input.to_string(), &[]);
    let reason = run.blocked().expect("the failing run was attributed to exec_command");
    // the run is named by the command the exec_command session ran
    assert!(reason.contains("`npm test` failed"), "{reason}");
}

// --- item 4: the hook lifecycle ---

#[test]
fn a_null_transcript_path_reviews_the_answer_alone() {
    let ws = Workspace::with_config("enabled = true\n");
    let input = json!({"session_id": "c", "turn_id": "t1", "transcript_path": null, "cwd": ws.path(),
        "hook_event_name": "Stop", "model": "m", "permission_mode": "default", "stop_hook_active": false,
        "last_assistant_message": FLAGGED});
    assert!(hook(&input.to_string(), &[]).blocked().is_some());
    // an unreadable one too, saying so on stderr
    let input = json!({"session_id": "d", "transcript_path": ws.path().join("gone.jsonl"), "cwd": ws.path(),
        "hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": FLAGGED});
    let run = hook(&input.to_string(), &[]);
    assert!(run.blocked().is_some());
    assert!(run.stderr.contains("without tool evidence"), "{}", run.stderr);
}

#[test]
fn an_unsavable_state_lets_a_continuing_stop_through() {
    for how in ["state dir is a file", "state dir is read-only"] {
        let ws = Workspace::with_config("enabled = true\nmax_rounds = 5\n");
        let state_dir = ws.path().join("state");
        if how == "state dir is a file" {
            std::fs::write(&state_dir, "not a directory").unwrap();
        } else {
            std::fs::create_dir_all(&state_dir).unwrap();
            let mut perms = std::fs::metadata(&state_dir).unwrap().permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o500);
            std::fs::set_permissions(&state_dir, perms).unwrap();
            if std::fs::write(state_dir.join("probe"), "x").is_ok() {
                continue; // running as a user that ignores permissions: only the file case applies
            }
        }
        let t = ws.fixture(GQC);
        let args = ["--state-dir", state_dir.to_str().unwrap()];
        let first = hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &args);
        assert!(first.blocked().is_some(), "{how}: the first stop is still reviewed");
        let again = hook(&stop(&ws, "s", &t, Some(FLAGGED), true), &args);
        assert_eq!((again.stdout.as_str(), again.code), ("", 0), "{how}: {}", again.stderr);
        assert!(again.stderr.contains("already sent the agent back"), "{}", again.stderr);
    }
}

#[test]
fn fifty_parallel_stops_of_one_session_block_exactly_once() {
    let ws = Workspace::with_config("enabled = true\nmax_rounds = 1\n");
    let t = ws.fixture("claude-2.1.7-codemie-task-parent.jsonl");
    let input = stop(&ws, "par", &t, Some(FLAGGED), false);
    let children: Vec<_> = (0..50)
        .map(|_| {
            let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("advisor"))
                .arg("hook")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
            child
        })
        .collect();
    let outputs: Vec<_> = children.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
    assert!(outputs.iter().all(|o| o.status.success()));
    let blocks = outputs.iter().filter(|o| !o.stdout.is_empty()).count();
    assert_eq!(blocks, 1, "max_rounds = 1 holds under 50 parallel stops");
}

#[test]
fn a_half_written_last_line_is_ignored_when_the_answer_is_given() {
    let ws = Workspace::with_config("enabled = true\n");
    let t = ws.fixture("claude-2.0.64-codemie-main.jsonl");
    let mut f = std::fs::OpenOptions::new().append(true).open(&t).unwrap();
    write!(f, "{{\"type\":\"assistant\",\"message\":{{\"role\":\"assis").unwrap();
    drop(f);
    assert!(hook(&stop(&ws, "a", &t, Some(FLAGGED), false), &[]).blocked().is_some());
    // without an answer from the host the transcript is all there is: said, not reviewed
    let run = hook(&stop(&ws, "b", &t, None, false), &[]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("without a review"), "{}", run.stdout);
    assert!(run.stderr.contains("not JSON"), "{}", run.stderr);
}

#[test]
fn a_closed_stdout_exits_0_and_does_not_count_the_round() {
    let ws = Workspace::with_config("enabled = true\nmax_rounds = 1\n");
    let t = ws.fixture("claude-2.0.64-codemie-main.jsonl");
    let input = stop(&ws, "s", &t, Some(FLAGGED), false);
    // the reader goes away before the hook answers: its write meets a closed pipe
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("advisor"))
        .arg("hook")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(ws.state("s.json").is_none(), "the round was not counted");
    assert!(hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]).blocked().is_some());
}

#[test]
fn summary_verdicts_reach_the_user_on_a_pass_with_notes_in_shadow_mode_and_at_the_cap() {
    // shadow mode
    let ws = Workspace::with_config("enabled = true\nshadow = true\nverdict = \"summary\"\n");
    let t = ws.fixture("claude-2.0.64-codemie-main.jsonl");
    let v = hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]).json().unwrap();
    assert_eq!(v.as_object().unwrap().len(), 1, "{v}");
    assert!(v["systemMessage"].as_str().unwrap().contains("shadow"), "{v}");
    // a pass with nits
    let ws = Workspace::with_config("enabled = true\nmax_severity = \"nit\"\nverdict = \"summary\"\n");
    let t = ws.fixture("claude-2.0.64-codemie-main.jsonl");
    let v = hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]).json().unwrap();
    assert!(v.get("decision").is_none());
    assert!(v["systemMessage"].as_str().unwrap().contains("not sent"), "{v}");
    // the cap
    let ws = Workspace::with_config("enabled = true\nmax_rounds = 1\nverdict = \"summary\"\n");
    let t = ws.fixture("claude-2.0.64-codemie-main.jsonl");
    let first = hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]).json().unwrap();
    assert_eq!(first["decision"], "block");
    let v = hook(&stop(&ws, "s", &t, Some(FLAGGED), true), &[]).json().unwrap();
    assert!(v.get("decision").is_none());
    assert!(v["systemMessage"].as_str().unwrap().contains("spent"), "{v}");
    // quiet (the default) says nothing on a clean pass
    let ws = Workspace::with_config("enabled = true\n");
    let t = ws.fixture("claude-2.0.64-codemie-main.jsonl");
    assert_eq!(hook(&stop(&ws, "s", &t, Some(CLEAN), false), &[]).stdout, "");
}

// --- item 5: bounded reads ---

#[test]
fn special_files_as_transcript_or_state_are_refused_at_once() {
    let ws = Workspace::with_config("enabled = true\n");
    for special in ["/dev/zero".to_owned(), ws.path().display().to_string()] {
        let run = hook(&stop(&ws, "s", Path::new(&special), None, false), &[]);
        assert_eq!(run.code, 0);
        assert!(run.stdout.contains("without a review"), "{}", run.stdout);
        assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    }
    let fifo = ws.path().join("pipe");
    if std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let run = hook(&stop(&ws, "s", &fifo, None, false), &[]);
        assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
        // a FIFO where the state file goes: reported, treated as fresh, never waited on
        let state_dir = ws.path().join(".advisor/state");
        std::fs::create_dir_all(&state_dir).unwrap();
        std::process::Command::new("mkfifo")
            .arg(state_dir.join("f.json"))
            .status()
            .unwrap();
        let t = ws.fixture("claude-2.0.64-codemie-main.jsonl");
        let run = hook(&stop(&ws, "f", &t, Some(FLAGGED), false), &[]);
        assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    }
}

// --- issue 16 item 9: a rejected saved state fails open without refilling the cap ---

#[test]
fn a_rejected_checkpoint_sits_the_advisor_out_until_a_fresh_prompt() {
    let ws = Workspace::with_config("enabled = true\nmax_rounds = 1\n");
    let t = ws.fixture(GQC);
    assert!(hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]).blocked().is_some());
    // the saved checkpoint is tampered with: the plugin rejects it
    let mut state = ws.state("s.json").unwrap();
    state["checkpoint"]["reviewers"]["advisor"]["finished"] = json!(-1);
    ws.write(".advisor/state/s.json", &state.to_string());
    let again = hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]);
    assert_eq!(again.code, 0);
    assert_eq!(again.blocked(), None, "no refilled allowance: {}", again.stderr);
    assert!(again.stderr.contains("rejected"), "{}", again.stderr);
    let message = again.json().unwrap()["systemMessage"].as_str().unwrap().to_owned();
    assert!(
        message.contains("rejected") && message.contains("sits out"),
        "the user is told why: {message}"
    );
    let saved = ws.state("s.json").unwrap();
    assert_eq!(
        saved["checkpoint"]["reviewers"]["advisor"]["finished"], 1,
        "the cap stays spent"
    );
    assert_eq!(
        hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]).blocked(),
        None,
        "still the same request"
    );
    append(&t, &new_prompt());
    assert!(
        hook(&stop(&ws, "s", &t, Some(FLAGGED), false), &[]).blocked().is_some(),
        "a fresh request brings the advisor back"
    );
}

// security, second round, item 3: whoever can open the lock file can hold it; a hook gives up
// within 2 s and lets the stop through, and never waits until the host kills it
#[test]
fn a_lock_held_by_another_process_lets_the_stop_through_within_two_seconds() {
    let ws = Workspace::with_config("enabled = true\nmax_rounds = 5\n");
    let t = ws.write("t.jsonl", "{\"role\":\"user\",\"content\":\"export it\"}\n");
    // a first stop creates the session's state and lock files
    let first = hook(&stop(&ws, "held", &t, Some(FLAGGED), false), &[]);
    assert!(first.blocked().is_some(), "{first:?}");
    let lock = ws.path().join(".advisor/state/held.lock");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&lock).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the lock file is private");
        let state = std::fs::metadata(ws.path().join(".advisor/state/held.json")).unwrap();
        assert_eq!(state.permissions().mode() & 0o777, 0o600, "the state file is private");
    }
    // another process holds it, through a read-only descriptor
    let file = std::fs::File::open(&lock).unwrap();
    let mut held = fd_lock::RwLock::new(file);
    let _guard = held.write().unwrap();
    let started = std::time::Instant::now();
    let run = hook(&stop(&ws, "held", &t, Some(FLAGGED), false), &[]);
    assert_eq!((run.stdout.as_str(), run.code), ("", 0), "let through: {run:?}");
    assert!(
        run.stderr.contains("not reviewed; the stop goes through"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "gave up: {:?}",
        started.elapsed()
    );
}

// security, second round, item 5: a committed `.advisor/state` link is refused, nothing is written through it
#[cfg(unix)]
#[test]
fn a_symlinked_state_directory_is_refused_and_nothing_is_written_through_it() {
    let ws = Workspace::with_config("enabled = true\n");
    let elsewhere = ws.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, ws.path().join(".advisor/state")).unwrap();
    let t = ws.write("t.jsonl", "{\"role\":\"user\",\"content\":\"export it\"}\n");
    let run = hook(&stop(&ws, "linked", &t, Some(FLAGGED), false), &[]);
    assert_eq!((run.stdout.as_str(), run.code), ("", 0), "let through: {run:?}");
    assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert_eq!(
        std::fs::read_dir(&elsewhere).unwrap().count(),
        0,
        "nothing written through the link"
    );
}
