//! Issue 30, item 1: no command silently does nothing. Each case either does
//! the right thing or says on stderr what it did not do, with a non-zero exit
//! where nothing useful happened (the hook keeps exit 0: hosts read 2 as
//! "block"). Also the review text's plural ("1 tool call").
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use assert_cmd::Command;

fn advisor() -> Command {
    Command::cargo_bin("advisor").unwrap()
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/transcripts")
        .join(name)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("advisor-noop-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn review_with_a_base_url_but_no_model_is_refused_not_the_rules_reviewer() {
    let out = advisor()
        .args(["review", "--base-url", "http://127.0.0.1:9/v1"])
        .arg(example("claude-failing-tests.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(stderr(&out).contains("--model"), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "no review ran: {out:?}");
}

#[test]
fn review_with_a_format_the_file_is_not_in_says_which_format_it_is() {
    let out = advisor()
        .args(["review", "--format", "codex"])
        .arg(example("claude-failing-tests.jsonl"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = stderr(&out);
    assert!(err.contains("read as codex") && err.contains("claude-code"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("nothing to review"));
    // the right format still reviews
    advisor()
        .args(["review", "--format", "claude-code"])
        .arg(example("claude-failing-tests.jsonl"))
        .assert()
        .success();
}

#[test]
fn hook_with_a_missing_workspace_says_so_and_lets_the_stop_through() {
    let dir = scratch("hook");
    let missing = dir.join("no-such-dir");
    let payload = serde_json::json!({
        "session_id": "s1",
        "transcript_path": example("claude-failing-tests.jsonl"),
        "cwd": dir,
        "hook_event_name": "Stop",
        "stop_hook_active": false,
    })
    .to_string();
    let out = advisor()
        .arg("hook")
        .arg("--workspace")
        .arg(&missing)
        .write_stdin(payload)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "the hook never blocks: {out:?}");
    let err = stderr(&out);
    assert!(
        err.contains("is not a directory") && err.contains("not reviewed"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn summarize_of_a_directory_without_traces_fails_saying_so() {
    let dir = scratch("summarize");
    for json in [false, true] {
        let mut cmd = advisor();
        cmd.arg("summarize").arg(&dir);
        if json {
            cmd.arg("--json");
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        assert!(stderr(&out).contains("no rollout attempt found"), "{}", stderr(&out));
        if !json {
            assert!(out.stdout.is_empty(), "no table of nothing: {out:?}");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn replay_refuses_an_unknown_severity_and_a_note_without_text_naming_the_line() {
    for (input, why) in [
        (
            "{\"notes\":[{\"text\":\"ok\",\"severity\":\"nit\"}]}\n{\"notes\":[{\"text\":\"the join double-counts\",\"severity\":\"high\"}]}\n",
            "unknown severity",
        ),
        (
            "{\"notes\":[{\"text\":\"ok\",\"severity\":\"nit\"}]}\n{\"notes\":[{\"severity\":\"blocker\"}]}\n",
            "has no text",
        ),
        (
            "{\"notes\":[{\"text\":\"ok\",\"severity\":\"nit\"}]}\n{\"notes\":[{\"text\":\"  \",\"severity\":\"blocker\"}]}\n",
            "has no text",
        ),
    ] {
        let out = advisor()
            .args(["replay", "--json", "-"])
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let err = stderr(&out);
        assert!(err.contains("<stdin>:2:") && err.contains(why), "{why}: {err}");
        assert!(!err.contains("high"), "the value is not echoed: {err}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            !stdout.contains("\"severity\":\"blocker\""),
            "no empty blocker: {stdout}"
        );
    }
}

#[test]
fn one_tool_call_is_singular() {
    let dir = scratch("plural");
    let t = dir.join("one-tool.jsonl");
    std::fs::write(
        &t,
        concat!(
            "{\"role\":\"user\",\"content\":\"run the tests\"}\n",
            "{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"bash\",\"arguments\":\"{\\\"cmd\\\":\\\"cargo test\\\"}\"}}]}\n",
            "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"test result: ok. 3 passed\"}\n",
            "{\"role\":\"assistant\",\"content\":\"All three tests pass.\"}\n",
        ),
    )
    .unwrap();
    let out = advisor().arg("review").arg(&t).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("(4 messages, 1 tool call)"), "{stdout}");
    let _ = std::fs::remove_dir_all(dir);
}
