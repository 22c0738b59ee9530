//! `advisor mcp` end to end (issue 18, item 1): the real binary spawned over
//! stdio with rmcp's own client, its tools listed, `advisor_consult` answered
//! by a model on loopback (wiremock) that the workspace configuration names,
//! `advisor_review` with the offline rules reviewer, and malformed calls that
//! come back as tool errors while the server keeps serving.
#![cfg(feature = "mcp")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const SEED_REQUEST: &str = include_str!("../../../tests/fixtures/advisor-request.seed.json");

struct Workspace(PathBuf);

impl Workspace {
    fn new(name: &str, config: &str) -> Workspace {
        let dir = std::env::temp_dir().join(format!("advisor-mcp-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".advisor")).unwrap();
        std::fs::write(dir.join(".advisor/config.toml"), config).unwrap();
        Workspace(dir)
    }
}

impl Workspace {
    /// The scratch `XDG_CONFIG_HOME` of this test's user (never the real one).
    fn user_home(&self) -> PathBuf {
        self.0.with_extension("home")
    }

    /// `advisor trust` for this workspace, as its user would run it.
    fn trust(&self) {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_advisor"))
            .args(["trust", "--yes"])
            .arg(&self.0)
            .env("XDG_CONFIG_HOME", self.user_home())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        let _ = std::fs::remove_dir_all(self.user_home());
    }
}

async fn spawn(workspace: &Path) -> RunningService<RoleClient, ()> {
    let transport = TokioChildProcess::new(tokio::process::Command::new(env!("CARGO_BIN_EXE_advisor")).configure(
        |cmd| {
            cmd.arg("mcp")
                .arg("--workspace")
                .arg(workspace)
                .env("XDG_CONFIG_HOME", workspace.with_extension("home"));
        },
    ))
    .unwrap();
    ().serve(transport).await.expect("the server initialises")
}

fn args(value: Value) -> JsonObject {
    match value {
        Value::Object(m) => m,
        _ => panic!("arguments must be an object"),
    }
}

async fn call(client: &RunningService<RoleClient, ()>, tool: &'static str, arguments: Value) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(args(arguments)))
        .await
        .expect("a tool result, never a protocol failure")
}

fn text(result: &CallToolResult) -> String {
    serde_json::to_value(&result.content).unwrap()[0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

fn advice() -> Value {
    json!({
        "schema_version": "advisor-response.v1", "decision": "CORRECTION",
        "summary": "the status JSON differs only in key order",
        "executor_instructions": ["Compare the status JSON with sorted keys.", "Re-run tests/test-codex-loop-cli.sh alone."],
        "confidence": 0.7, "stop_reason": null
    })
}

#[tokio::test]
async fn the_tools_are_listed_and_described_with_their_limits() {
    let ws = Workspace::new("list", "enabled = true\n");
    let client = spawn(&ws.0).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["advisor_consult", "advisor_review"]);
    for t in &tools {
        let d = t.description.as_deref().unwrap_or_default();
        assert!(d.contains("may be wrong"), "{}: {d}", t.name);
        assert!(
            d.contains("when you") || d.contains("before you"),
            "{}: says when to call it",
            t.name
        );
        assert_eq!(t.input_schema["type"], "object");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn consult_asks_the_configured_model_and_the_ledger_and_store_apply() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "x", "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": advice().to_string()}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 400, "completion_tokens": 60, "total_tokens": 460}
        })))
        .mount(&server)
        .await;
    let ws = Workspace::new(
        "consult",
        &format!(
            "enabled = true\n[reviewer]\nkind = \"model\"\nmodel = \"advisor-model\"\nbase_url = \"{}/v1\"\n",
            server.uri()
        ),
    );
    let request: Value = serde_json::from_str(SEED_REQUEST).unwrap();

    // Untrusted: a cloned repository's config cannot point the server at a model.
    let client = spawn(&ws.0).await;
    let refused = call(&client, "advisor_consult", request.clone()).await;
    assert_eq!(refused.is_error, Some(true));
    assert!(text(&refused).contains("advisor trust"), "{}", text(&refused));
    assert!(server.received_requests().await.unwrap().is_empty(), "nothing was sent");
    client.cancel().await.unwrap();

    ws.trust();
    let client = spawn(&ws.0).await;
    let result = call(&client, "advisor_consult", request.clone()).await;
    assert_eq!(result.is_error, Some(false), "{}", text(&result));
    assert_eq!(result.structured_content.as_ref().unwrap(), &advice());
    assert!(text(&result).contains("may be wrong"));
    let sent: Value = server.received_requests().await.unwrap()[0].body_json().unwrap();
    assert_eq!(
        sent["model"], "advisor-model",
        "the model came from the workspace configuration"
    );
    assert!(sent["messages"][1]["content"].as_str().unwrap().contains("43.3.1"));

    // The same trigger again: the ledger refuses without asking the model.
    let again = call(&client, "advisor_consult", request.clone()).await;
    assert_eq!(again.is_error, Some(true));
    assert!(text(&again).contains("already consulted"), "{}", text(&again));
    assert_eq!(server.received_requests().await.unwrap().len(), 1);

    // The per-task cap: 3 consultations of one task per session.
    for i in 0..2 {
        let mut r = request.clone();
        r["trigger_hash"] = json!(format!("43.3.1:retry-threshold:other-{i}"));
        assert_eq!(call(&client, "advisor_consult", r).await.is_error, Some(false));
    }
    let mut fourth = request.clone();
    fourth["trigger_hash"] = json!("43.3.1:retry-threshold:fourth");
    let capped = call(&client, "advisor_consult", fourth).await;
    assert!(
        text(&capped).contains("used all its consultations"),
        "{}",
        text(&capped)
    );
    assert_eq!(server.received_requests().await.unwrap().len(), 3);

    // The pair store recorded each completed consultation.
    let pairs = std::fs::read_dir(ws.0.join(".advisor/consultations"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".advisor-response.json")
        })
        .count();
    assert_eq!(pairs, 3);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn review_runs_the_rules_reviewer_offline_on_a_transcript_inside_the_workspace() {
    let ws = Workspace::new("review", "enabled = true\n[reviewer]\nkind = \"rules\"\n");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-failing-tests.jsonl");
    std::fs::create_dir_all(ws.0.join("logs")).unwrap();
    std::fs::copy(&example, ws.0.join("logs/t.jsonl")).unwrap();
    let client = spawn(&ws.0).await;

    let result = call(
        &client,
        "advisor_review",
        json!({"answer": "All tests pass now; the fix is complete.", "transcript": "logs/t.jsonl"}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{}", text(&result));
    let out = result.structured_content.clone().unwrap();
    assert_eq!(out["status"], "reviewed");
    let notes = out["notes"].as_array().unwrap();
    assert!(!notes.is_empty(), "{out}");
    assert_eq!(notes[0]["severity"], "blocker", "{out}");
    assert_eq!(out["interrupt"], true);
    assert!(out["advisory"].as_str().unwrap().contains("<advisory"));

    // Without a transcript: each call is its own request; a clean answer has no notes.
    let clean = call(
        &client,
        "advisor_review",
        json!({"answer": "Renamed the variable as asked."}),
    )
    .await;
    assert_eq!(clean.is_error, Some(false), "{}", text(&clean));
    assert_eq!(clean.structured_content.unwrap()["notes"], json!([]));

    // Paths leaving the workspace are refused, canonicalised (`..`, absolute, symlinks).
    let outside = std::env::temp_dir().join(format!("advisor-mcp-outside-{}.jsonl", std::process::id()));
    std::fs::copy(&example, &outside).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, ws.0.join("logs/link.jsonl")).unwrap();
    let rel = format!("../{}", outside.file_name().unwrap().to_string_lossy());
    let mut tried = vec![rel, outside.display().to_string()];
    if cfg!(unix) {
        tried.push("logs/link.jsonl".to_owned());
    }
    for p in tried {
        let refused = call(&client, "advisor_review", json!({"answer": "done", "transcript": p})).await;
        assert_eq!(refused.is_error, Some(true), "{p}");
        assert!(
            text(&refused).contains("outside the workspace"),
            "{p}: {}",
            text(&refused)
        );
    }
    let _ = std::fs::remove_file(&outside);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn malformed_calls_are_tool_errors_with_the_validators_messages_and_the_server_keeps_serving() {
    let ws = Workspace::new("malformed", "enabled = true\n");
    let client = spawn(&ws.0).await;

    let mut bad = serde_json::from_str::<Value>(SEED_REQUEST).unwrap();
    bad["schema_version"] = json!("advisor-request.v2");
    let r = call(&client, "advisor_consult", bad).await;
    assert_eq!(r.is_error, Some(true));
    assert!(
        text(&r).contains("schema_version: must be \"advisor-request.v1\""),
        "{}",
        text(&r)
    );

    let r = call(
        &client,
        "advisor_consult",
        json!({"schema_version": "advisor-request.v1"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("invalid advisor-request.v1"), "{}", text(&r));

    // A valid request, but no model configured: a tool error naming the fix.
    let r = call(&client, "advisor_consult", serde_json::from_str(SEED_REQUEST).unwrap()).await;
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("needs a model"), "{}", text(&r));

    let r = call(&client, "advisor_review", json!({"answer": 42})).await;
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("invalid advisor_review arguments"), "{}", text(&r));
    let r = call(
        &client,
        "advisor_review",
        json!({"answer": "x", "model": "evil", "base_url": "http://x"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true), "unknown arguments (a model, a URL) are refused");
    let r = call(
        &client,
        "advisor_review",
        json!({"answer": "x", "transcript": "missing.jsonl"}),
    )
    .await;
    assert_eq!(r.is_error, Some(true));
    let r = call(&client, "no_such_tool", json!({})).await;
    assert_eq!(r.is_error, Some(true));

    // Still serving.
    assert_eq!(client.list_all_tools().await.unwrap().len(), 2);
    let r = call(&client, "advisor_review", json!({"answer": "Renamed the variable."})).await;
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_broken_workspace_config_is_a_tool_error_not_a_crash() {
    let ws = Workspace::new("broken", "enabled = true\nmax_round = 3\n");
    let client = spawn(&ws.0).await;
    let r = call(&client, "advisor_review", json!({"answer": "done"})).await;
    assert_eq!(r.is_error, Some(true));
    assert!(text(&r).contains("max_round"), "{}", text(&r));
    client.cancel().await.unwrap();
}

#[test]
fn a_malformed_json_rpc_line_does_not_crash_the_server() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let ws = Workspace::new("rawline", "enabled = true\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_advisor"))
        .args(["mcp", "--workspace"])
        .arg(&ws.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
    writeln!(stdin, "{init}").unwrap();
    writeln!(
        stdin,
        "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}}"
    )
    .unwrap();
    writeln!(stdin, "this is not json {{{{").unwrap();
    writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})).unwrap();
    stdin.flush().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut answered = Vec::new();
    for line in lines.by_ref().take(4) {
        let line = line.unwrap();
        let v: Value = serde_json::from_str(&line).unwrap();
        let is_list = v["id"] == 2;
        answered.push(v);
        if is_list {
            break;
        }
    }
    drop(stdin);
    let status = child.wait().unwrap();
    let list = answered
        .iter()
        .find(|v| v["id"] == 2)
        .expect("tools/list answered after the bad line");
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 2);
    assert!(
        status.success() || status.code().is_some(),
        "exited, not killed by a signal: {status:?}"
    );
}

/// Issue 26, item 7: a directory on the transcript's path swapped for a link
/// out of the workspace while `advisor_review` runs. The path is opened once
/// beneath the workspace and that descriptor is read, so the outside file
/// (not JSON: reading it is an error naming that) is never read.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_never_reads_an_outside_transcript_through_a_directory_swapped_for_a_link() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let ws = Workspace::new("swap", "enabled = true\n[reviewer]\nkind = \"rules\"\n");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts");
    std::fs::create_dir_all(ws.0.join("logs/sub")).unwrap();
    std::fs::copy(
        examples.join("claude-passing-rerun.jsonl"),
        ws.0.join("logs/sub/t.jsonl"),
    )
    .unwrap();
    let outside = ws.0.with_extension("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let outside_text = "the outside file: not a transcript\n";
    std::fs::write(outside.join("t.jsonl"), outside_text).unwrap();
    std::fs::write(ws.0.join("logs/copy.jsonl"), outside_text).unwrap();
    let client = spawn(&ws.0).await;
    let answer = json!({"answer": "All tests pass now; the fix is complete.", "transcript": "logs/sub/t.jsonl"});

    // The outside file's content, were it read, is an error saying "not JSON".
    let copy = call(
        &client,
        "advisor_review",
        json!({"answer": "done", "transcript": "logs/copy.jsonl"}),
    )
    .await;
    assert!(text(&copy).contains("not JSON"), "{}", text(&copy));
    let clean = call(&client, "advisor_review", answer.clone()).await;
    assert_eq!(clean.is_error, Some(false), "{}", text(&clean));

    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, logs, outside) = (stop.clone(), ws.0.join("logs"), outside.clone());
        std::thread::spawn(move || {
            let (sub, held) = (logs.join("sub"), logs.join("held"));
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                // about as long in each state: the real directory, then the link
                let _ = std::fs::rename(&sub, &held);
                let _ = std::os::unix::fs::symlink(&outside, &sub);
                spin(swaps);
                let _ = std::fs::remove_file(&sub);
                let _ = std::fs::rename(&held, &sub);
                spin(swaps);
                swaps += 1;
            }
            swaps
        })
    };
    let (mut read, mut refused) = (0, 0);
    for _ in 0..400 {
        let r = call(&client, "advisor_review", answer.clone()).await;
        assert!(
            !text(&r).contains("not JSON"),
            "the outside file was read: {}",
            text(&r)
        );
        if r.is_error == Some(true) {
            refused += 1;
        } else {
            read += 1;
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    assert!(swaps > 0 && read > 0, "swaps {swaps}, read {read}, refused {refused}");
    let _ = std::fs::remove_dir_all(&outside);
    client.cancel().await.unwrap();
}

/// Busy-waits a few microseconds (varied, so the swap drifts against the
/// server's open calls).
#[cfg(unix)]
fn spin(seed: u64) {
    let until = std::time::Instant::now() + std::time::Duration::from_micros(5 + seed % 40);
    while std::time::Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// A Claude Code session whose `npm test` failed and whose narrower jest run
/// passed, then "All tests pass.": with the workspace's `package.json`
/// saying `test` is `jest --ci`, the failure is not covered (a blocker);
/// without it, the coverage is undecided (never a block).
const NPM_SESSION: &str = r#"{"type":"user","uuid":"u1","sessionId":"npm","message":{"role":"user","content":"Make the tests pass."}}
{"type":"assistant","uuid":"a1","sessionId":"npm","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"npm test"}}]}}
{"type":"user","uuid":"r1","sessionId":"npm","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"Exit code 1\nTests:       1 failed, 9 passed, 10 total"}]}}
{"type":"assistant","uuid":"a2","sessionId":"npm","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"npx jest src/a.test.ts"}}]}}
{"type":"user","uuid":"r2","sessionId":"npm","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","is_error":false,"content":"Tests:       3 passed, 3 total"}]}}
{"type":"assistant","uuid":"a3","sessionId":"npm","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"All tests pass."}]}}
"#;

/// Whether `advisor hook` (a Claude Code `Stop`) sends the agent back.
fn hook_blocks(ws: &Workspace) -> bool {
    let input = json!({"session_id": "npm", "transcript_path": ws.0.join("t.jsonl"), "cwd": ws.0,
        "hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "All tests pass."});
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_advisor"))
        .arg("hook")
        .env("XDG_CONFIG_HOME", ws.user_home())
        .write_stdin(input.to_string())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout.contains("\"decision\":\"block\"")
}

/// Whether `advisor review --json`, run in the workspace, says the agent
/// would be sent back, and the reviewer it names.
fn review_blocks(ws: &Workspace) -> (bool, String) {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_advisor"))
        .args(["review", "--json", "t.jsonl"])
        .current_dir(&ws.0)
        .env("XDG_CONFIG_HOME", ws.user_home())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    (
        v["interrupt"] == true,
        v["reviewer"].as_str().unwrap_or_default().to_owned(),
    )
}

/// Whether `advisor_review` over MCP says the agent would be sent back.
async fn mcp_blocks(ws: &Workspace) -> bool {
    let client = spawn(&ws.0).await;
    let r = call(
        &client,
        "advisor_review",
        json!({"answer": "All tests pass.", "transcript": "t.jsonl"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    client.cancel().await.unwrap();
    r.structured_content.unwrap()["interrupt"] == true
}

// issue 43, item 2: one finish path with one config loading, package
// scripts included (over MCP they were skipped, so `npm test` was judged
// without knowing what it runs)
#[tokio::test]
async fn an_npm_run_transcript_gets_the_same_verdict_from_the_hook_review_and_mcp() {
    for (name, scripts, blocked) in [
        ("npm-scripts", Some(r#"{"scripts": {"test": "jest --ci"}}"#), true),
        ("npm-no-scripts", None, false),
    ] {
        let ws = Workspace::new(name, "enabled = true\n");
        std::fs::write(ws.0.join("t.jsonl"), NPM_SESSION).unwrap();
        if let Some(scripts) = scripts {
            std::fs::write(ws.0.join("package.json"), scripts).unwrap();
        }
        let (review, reviewer) = review_blocks(&ws);
        assert_eq!(reviewer, "rules");
        let verdicts = (hook_blocks(&ws), review, mcp_blocks(&ws).await);
        assert_eq!(verdicts, (blocked, blocked, blocked), "{name}: hook, review, mcp");
    }
}

// issues 44 and 45: `advisor_review` answers as `advisor review --json`
// does — each note's evidence and whether it was anchored, what goes to the
// user instead of the agent, and why the judge's fallback applied
#[cfg(unix)]
#[tokio::test]
async fn review_names_evidence_anchoring_what_goes_to_the_user_and_the_judges_fallback() {
    // the rules alone: a stub marker as a concern does not send the agent
    // back (interrupt = "blocker", the default); it goes to the user
    let ws = Workspace::new("gate-rules", "enabled = true\n[rules]\nstub_markers = \"concern\"\n");
    let client = spawn(&ws.0).await;
    let stub = "Done. The export still returns a placeholder value.";
    let r = call(&client, "advisor_review", json!({"answer": stub})).await;
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let out = r.structured_content.unwrap();
    assert_eq!(out["interrupt"], false, "{out}");
    let note = &out["notes"][0];
    assert_eq!(note["severity"], "concern", "{out}");
    assert_eq!(
        (note["evidence"].clone(), note["anchored"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(out["to_user"], json!([note["text"]]), "{out}");
    assert_eq!(out["fallback"], Value::Null);
    client.cancel().await.unwrap();

    // a command reviewer (trusted), one full review: a blocker quoting the
    // transcript stays one, a blocker quoting nothing there is a concern
    let ws = Workspace::new("gate-command", "");
    std::fs::create_dir_all(ws.user_home()).unwrap();
    let fake = ws.user_home().join("reviewer");
    let answer = json!({"notes": [
        {"text": "ANCHORED: the last run failed.", "severity": "blocker", "evidence": "test result: FAILED. 41 passed; 1 failed"},
        {"text": "DEMOTED: nine tests fail.", "severity": "blocker", "evidence": "9 failed"}
    ]});
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\n# derived: a stand-in reviewer CLI written by this test\ncat > /dev/null\necho '{answer}'\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let broken = ws.user_home().join("broken");
    std::fs::write(
        &broken,
        "#!/bin/sh\n# derived: a judge that fails\ncat > /dev/null\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&broken, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-failing-tests.jsonl");
    std::fs::copy(&example, ws.0.join("t.jsonl")).unwrap();
    let configure = |program: &Path, scope: &str| {
        std::fs::write(
            ws.0.join(".advisor/config.toml"),
            format!(
                "enabled = true\n[reviewer]\nkind = \"command\"\ncommand = [{:?}]\nscope = \"{scope}\"\n",
                program.display().to_string()
            ),
        )
        .unwrap();
        ws.trust();
    };
    configure(&fake, "full");
    let client = spawn(&ws.0).await;
    let r = call(
        &client,
        "advisor_review",
        json!({"answer": "All tests pass.", "transcript": "t.jsonl"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let out = r.structured_content.unwrap();
    assert_eq!(out["interrupt"], true, "{out}");
    let notes = out["notes"].as_array().unwrap();
    let fields = |n: &Value| (n["severity"].clone(), n["anchored"].clone());
    assert_eq!(fields(&notes[0]), (json!("blocker"), json!(true)), "{out}");
    assert_eq!(notes[0]["evidence"], "test result: FAILED. 41 passed; 1 failed");
    assert_eq!(fields(&notes[1]), (json!("concern"), json!(false)), "{out}");
    assert_eq!(
        out["to_user"],
        json!([]),
        "the blocker's review takes its concerns to the agent"
    );
    client.cancel().await.unwrap();

    // the judge of the claims scope fails: the rules decide, and say why
    configure(&broken, "claims");
    let client = spawn(&ws.0).await;
    let r = call(
        &client,
        "advisor_review",
        json!({"answer": "All tests pass.", "transcript": "t.jsonl"}),
    )
    .await;
    assert_eq!(r.is_error, Some(false), "{}", text(&r));
    let out = r.structured_content.unwrap();
    assert_eq!(out["interrupt"], true, "{out}");
    assert_eq!(
        out["fallback"],
        "the judge could not run (it failed); the offline rules decided"
    );
    client.cancel().await.unwrap();
}
