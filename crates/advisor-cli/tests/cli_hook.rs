//! `advisor hook`, `advisor init` and `advisor review` through the built binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use assert_cmd::Command;
use serde_json::{Value, json};

/// A scratch workspace under the system temp dir, removed on drop.
struct Workspace(PathBuf);

impl Workspace {
    fn new(opted_in: bool) -> Workspace {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "advisor-cli-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if opted_in {
            Command::cargo_bin("advisor")
                .unwrap()
                .args(["init", "--dir"])
                .arg(&dir)
                .assert()
                .success();
            // stub markers interrupt in these tests (the default makes them
            // nits), and a concern sends the agent back (the starter's
            // `interrupt = "blocker"` shows it to the user instead)
            let config = dir.join(".advisor/config.toml");
            let text = std::fs::read_to_string(&config).unwrap();
            assert!(text.contains("\ninterrupt = \"blocker\"\n"), "{text}");
            let text = text.replace("\ninterrupt = \"blocker\"\n", "\ninterrupt = \"concern\"\n");
            std::fs::write(&config, format!("{text}\n[rules]\nstub_markers = \"concern\"\n")).unwrap();
        }
        Workspace(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn example(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples/transcripts")
            .join(name),
    )
    .unwrap()
}

fn hook(ws: &Workspace, session: &str, transcript: &Path) -> (String, String, i32) {
    let input = json!({
        "session_id": session,
        "transcript_path": transcript,
        "cwd": ws.path(),
        "hook_event_name": "Stop",
        "stop_hook_active": false,
    });
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .arg("hook")
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn blocked(stdout: &str) -> Option<String> {
    let v: Value = serde_json::from_str(stdout.trim()).ok()?;
    assert_eq!(v["decision"], "block");
    Some(v["reason"].as_str()?.to_owned())
}

fn cc_line(ty: &str, content: Value, id: &str) -> String {
    json!({"type": ty, "uuid": id, "sessionId": "s", "message": {"id": id, "role": ty, "content": content}}).to_string()
        + "\n"
}

#[test]
fn a_workspace_that_has_not_opted_in_lets_every_stop_through_without_reading_the_transcript() {
    let ws = Workspace::new(false);
    let (stdout, stderr, code) = hook(&ws, "s1", Path::new("no/such/transcript.jsonl"));
    assert_eq!((stdout.as_str(), stderr.as_str(), code), ("", "", 0));
}

#[test]
fn three_stops_of_one_session_block_block_then_let_through() {
    let ws = Workspace::new(true);
    let mut text = example("claude-failing-tests.jsonl");
    let t = ws.write("t.jsonl", &text);
    let (out1, _, code) = hook(&ws, "sess-a", &t);
    assert_eq!(code, 0);
    let reason = blocked(&out1).expect("first stop blocked");
    assert!(reason.contains("<advisory severity=\"blocker\""));
    assert!(reason.contains("COMPLETE answer"));

    // the agent answers again, now with a stub in its answer: a new concern
    text += &cc_line("user", json!(reason), "r1");
    text += &cc_line(
        "assistant",
        json!([{"type": "text", "text": "Added a TODO for the last page; all tests pass."}]),
        "a9",
    );
    std::fs::write(&t, &text).unwrap();
    let (out2, _, _) = hook(&ws, "sess-a", &t);
    let reason2 = blocked(&out2).expect("second stop blocked by a new note");
    assert!(reason2.contains("TODO"));
    assert!(!reason2.contains("claims success"), "the repeated blocker was deduped");

    // a third answer with yet another problem: MaxRounds (2) is spent
    text += &cc_line("user", json!(reason2), "r2");
    text += &cc_line(
        "assistant",
        json!([{"type": "text", "text": "Replaced it with a placeholder; done."}]),
        "a10",
    );
    std::fs::write(&t, &text).unwrap();
    let (out3, err3, code3) = hook(&ws, "sess-a", &t);
    assert_eq!((out3.as_str(), code3), ("", 0), "{err3}");

    // a new user prompt is a fresh request: the allowance starts over
    text += &cc_line("user", json!("Now also fix the first page."), "u-new");
    text += &cc_line(
        "assistant",
        json!([{"type": "text", "text": "All tests pass and it is fixed."}]),
        "a11",
    );
    std::fs::write(&t, &text).unwrap();
    let (out4, _, _) = hook(&ws, "sess-a", &t);
    assert!(blocked(&out4).is_some(), "a fresh request gets a new review allowance");
}

#[test]
fn a_silent_review_prints_nothing() {
    let ws = Workspace::new(true);
    let t = ws.write("t.jsonl", &example("claude-passing-rerun.jsonl"));
    let (out, err, code) = hook(&ws, "s", &t);
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
}

#[test]
fn the_last_assistant_message_from_the_hook_input_is_preferred() {
    let ws = Workspace::new(true);
    let t = ws.write("t.jsonl", &example("claude-passing-rerun.jsonl"));
    let input = json!({"session_id": "s", "transcript_path": t, "cwd": ws.path(),
        "last_assistant_message": "Done, though the export is still a placeholder."});
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .arg("hook")
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    let reason = blocked(&String::from_utf8_lossy(&out.stdout)).expect("the fresher answer was reviewed");
    assert!(reason.contains("placeholder"));
}

#[test]
fn a_corrupt_state_file_is_reported_and_the_advisor_sits_out_the_request() {
    let ws = Workspace::new(true);
    let t = ws.write("t.jsonl", &example("claude-failing-tests.jsonl"));
    let state_dir = ws.path().join(".advisor/state");
    std::fs::create_dir_all(&state_dir).unwrap();
    std::fs::write(state_dir.join("sess-c.json"), "{ not json").unwrap();
    let (out, err, code) = hook(&ws, "sess-c", &t);
    assert_eq!(code, 0);
    assert!(err.contains("corrupt") && err.contains("sits out"), "{err}");
    assert!(
        !err.contains("answer"),
        "a state error does not speak of an answer: {err}"
    );
    let reply: Value = serde_json::from_str(out.trim()).unwrap();
    assert!(
        reply.get("decision").is_none(),
        "a bad state never refills the allowance: {out}"
    );
    assert!(
        reply["systemMessage"].as_str().unwrap().contains("sits out"),
        "the user is told why: {out}"
    );
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(state_dir.join("sess-c.json")).unwrap()).unwrap();
    assert_eq!(
        saved["checkpoint"]["reviewers"]["advisor"]["finished"], 2,
        "saved as spent for this request"
    );
}

#[test]
fn a_state_file_with_an_unknown_severity_is_rejected_not_read_as_a_nit() {
    let ws = Workspace::new(true);
    let t = ws.write("t.jsonl", &example("claude-failing-tests.jsonl"));
    let state_dir = ws.path().join(".advisor/state");
    std::fs::create_dir_all(&state_dir).unwrap();
    let member = json!({"finished": 0, "periodic": 0, "ticks": 0, "last_review": 0, "cooldown_until": 0,
        "delivered": [{"text": "check the join", "severity": "critical"}], "seen": []});
    let state = json!({"version": 2, "checkpoint": {"version": 1, "reviewers": {"advisor": member}}});
    std::fs::write(state_dir.join("sess-s.json"), state.to_string()).unwrap();
    let (_, err, code) = hook(&ws, "sess-s", &t);
    assert_eq!(code, 0);
    assert!(err.contains("rejected") && err.contains("unknown variant"), "{err}");
    let mut fixed = state.clone();
    fixed["checkpoint"]["reviewers"]["advisor"]["delivered"][0]["severity"] = json!("concern");
    std::fs::write(state_dir.join("sess-s.json"), fixed.to_string()).unwrap();
    let (_, err, _) = hook(&ws, "sess-s", &t);
    assert!(
        !err.contains("rejected"),
        "the same state with a known severity restores: {err}"
    );
}

#[test]
fn concurrent_hooks_of_two_sessions_keep_separate_valid_state() {
    let ws = Workspace::new(true);
    let t = ws.write("t.jsonl", &example("claude-failing-tests.jsonl"));
    let spawn = |session: &str| {
        let input = json!({"session_id": session, "transcript_path": t, "cwd": ws.path()});
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("advisor"))
            .arg("hook")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.to_string().as_bytes())
            .unwrap();
        child
    };
    let children: Vec<_> = (0..4).map(|i| spawn(if i % 2 == 0 { "one" } else { "two" })).collect();
    let outputs: Vec<_> = children.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
    assert!(outputs.iter().all(|o| o.status.success()));
    for s in ["one", "two"] {
        let text = std::fs::read_to_string(ws.path().join(format!(".advisor/state/{s}.json"))).unwrap();
        let v: Value = serde_json::from_str(&text).expect("state is whole JSON, never interleaved");
        let finished = v["checkpoint"]["reviewers"]["advisor"]["finished"].as_u64().unwrap();
        assert!((1..=2).contains(&finished));
    }
    let mut left: Vec<String> = std::fs::read_dir(ws.path().join(".advisor/state"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["one.json", "one.lock", "two.json", "two.lock"],
        "no temporary files left behind"
    );
}

#[test]
fn internal_errors_let_the_stop_through_with_one_line_on_stderr() {
    let ws = Workspace::new(true);
    // unreadable hook input
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .arg("hook")
        .write_stdin("not json")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    // missing transcript, and no answer from the host: said on stderr and to the user
    let (stdout, stderr, code) = hook(&ws, "s", &ws.path().join("missing.jsonl"));
    assert_eq!(code, 0);
    assert!(
        stdout.contains("systemMessage") && stdout.contains("without a review"),
        "{stdout}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("missing.jsonl") && stderr.contains("and no answer"),
        "{stderr}"
    );
    // a transcript line that is not JSON
    let t = ws.write("bad.jsonl", "{\"role\":\"user\",\"content\":\"hi\"}\nnot json\n");
    let (stdout, stderr, code) = hook(&ws, "s", &t);
    assert_eq!(code, 0);
    assert!(stdout.contains("without a review"), "{stdout}");
    assert!(stderr.contains("bad.jsonl:2"), "{stderr}");
    // model down, with one full review per stop: the stop goes through,
    // one line on stderr, and the user is told (once a session) that the
    // advisor could not review it
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let table = format!("[reviewer]\nkind = \"model\"\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\n");
    let t = ws.write("t.jsonl", &example("claude-failing-tests.jsonl"));
    // (a workspace's model settings run only once the user trusts them)
    // (outside the workspace: a user config inside it is refused)
    let xdg = ws.path().with_extension("xdg");
    let model_down = |scope: &str, session: &str| {
        ws.write(".advisor/config.toml", &format!("{table}scope = \"{scope}\"\n"));
        Command::cargo_bin("advisor")
            .unwrap()
            .env("XDG_CONFIG_HOME", &xdg)
            .args(["trust", "--yes"])
            .arg(ws.path())
            .assert()
            .success();
        let input = json!({"session_id": session, "transcript_path": t, "cwd": ws.path(), "stop_hook_active": false});
        let out = Command::cargo_bin("advisor")
            .unwrap()
            .env("XDG_CONFIG_HOME", &xdg)
            .arg("hook")
            .write_stdin(input.to_string())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (stdout, stderr) = model_down("full", "s-model");
    let v: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert!(v.get("decision").is_none(), "the stop goes through: {stdout}");
    assert!(
        v["systemMessage"]
            .as_str()
            .unwrap()
            .contains("could not review this stop (it failed)"),
        "{stdout}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("review failed"),
        "the reason, on stderr from the first failure: {stderr}"
    );
    // the next stop of the session: stderr only, with the reason
    let (stdout, stderr) = model_down("full", "s-model");
    assert_eq!(stdout, "", "told once a session");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("review failed"), "{stderr}");
    // the default scope (claims): the model is the judge of what the rules
    // contest; it cannot answer, so the rules' verdict stands and the user
    // is told the judge could not run
    let (stdout, _) = model_down("claims", "s-judge");
    let _ = std::fs::remove_dir_all(&xdg);
    let reason = blocked(&stdout).expect("the rules' blocker stands");
    assert!(reason.contains("`cargo test` failed"), "{reason}");
    let v: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(
        v["systemMessage"],
        "advisor: the judge could not run (it failed); the offline rules decided"
    );
}

#[test]
fn codex_rollouts_are_reviewed_and_an_unanswered_one_goes_through() {
    let ws = Workspace::new(true);
    let t = ws.write("rollout.jsonl", &example("codex-failing-tests.jsonl"));
    let (out, _, _) = hook(&ws, "codex-1", &t);
    assert!(blocked(&out).unwrap().contains("claims success"));
    let t = ws.write("rollout2.jsonl", &example("codex-no-answer.jsonl"));
    let (out, err, code) = hook(&ws, "codex-2", &t);
    assert_eq!((out.as_str(), err.as_str(), code), ("", "", 0));
}

#[test]
fn init_writes_a_starter_config_and_refuses_to_overwrite() {
    let ws = Workspace::new(true);
    let text = std::fs::read_to_string(ws.path().join(".advisor/config.toml")).unwrap();
    assert!(text.contains("enabled = true"));
    Command::cargo_bin("advisor")
        .unwrap()
        .args(["init", "--dir"])
        .arg(ws.path())
        .assert()
        .code(1);
    Command::cargo_bin("advisor")
        .unwrap()
        .args(["init", "--force", "--dir"])
        .arg(ws.path())
        .assert()
        .success();
}

#[test]
fn a_config_with_an_unknown_key_is_reported_with_its_line() {
    let ws = Workspace::new(true);
    ws.write(
        ".advisor/config.toml",
        "enabled = true\nmax_rounds = 2\nmax_roudns = 3\n",
    );
    let t = ws.write("t.jsonl", &example("claude-failing-tests.jsonl"));
    let (out, err, code) = hook(&ws, "s", &t);
    assert_eq!(code, 0);
    // the line and the kind of problem, never the key itself (issue 26, item 4)
    assert!(err.contains("config.toml:3: unknown key"), "{err}");
    assert!(!err.contains("max_roudns"), "{err}");
    // Claude Code does not show stderr of a hook that exits 0: the user is told in a systemMessage
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 1, "no decision: the stop goes through");
    let shown = v["systemMessage"].as_str().unwrap();
    assert!(
        shown.contains("config.toml:3: unknown key") && !shown.contains("max_roudns"),
        "{shown}"
    );
}

fn review(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("advisor")
        .unwrap()
        .arg("review")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn review_prints_each_decision_and_the_injection() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = review(&[&format!("{root}/examples/transcripts/claude-failing-tests.jsonl")]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[blocker] accepted"), "{text}");
    assert!(text.contains("<advisory severity=\"blocker\""));

    let out = review(&[
        "--json",
        &format!("{root}/examples/transcripts/openai-tool-failure.jsonl"),
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "reviewed");
    // a failed call that is not a test or build run is recorded as a nit (issue 13)
    assert_eq!(v["notes"][0]["severity"], "nit");
    assert_eq!(v["notes"][0]["reason"], "accepted");
    assert_eq!(v["interrupt"], false);

    let out = review(&["--json", &format!("{root}/examples/transcripts/openai-clean.jsonl")]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["interrupt"].clone(), v["notes"].as_array().unwrap().len()),
        (json!(false), 0)
    );

    let out = review(&[
        "--json",
        &format!("{root}/examples/transcripts/codex-failing-tests.jsonl"),
    ]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["skipped"]["response_item:ghost_snapshot"], 1,
        "unknown Codex payloads are counted"
    );

    let out = review(&[&format!("{root}/examples/transcripts/codex-no-answer.jsonl")]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("nothing to review"));
}

#[test]
fn review_input_errors_are_one_line_naming_file_and_line_with_exit_2() {
    let ws = Workspace::new(false);
    let cases = [
        (ws.path().join("missing.jsonl"), "missing.jsonl"),
        (ws.write("empty.jsonl", "\n\n"), "empty.jsonl"),
        (ws.write("weird.jsonl", "{\"foo\":1}\n"), "weird.jsonl:1"),
        (
            ws.write("broken.jsonl", "{\"role\":\"user\",\"content\":\"x\"}\n{oops\n"),
            "broken.jsonl:2",
        ),
    ];
    for (path, needle) in cases {
        let out = review(&[path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{needle}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
    let out = review(&["--format", "yaml", "x.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_unknown_hook_flag_lets_the_stop_through_with_exit_0() {
    // exit 2 would mean "block" to Claude Code; a flag a repository's settings add must not
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["hook", "--base-url", "http://127.0.0.1:9"])
        .write_stdin("{}")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("the stop goes through"));
}
