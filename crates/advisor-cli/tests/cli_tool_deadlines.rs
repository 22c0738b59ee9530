//! Issue 48, finding 4 (the tools' half), through `advisor hook`: a blocking
//! tool call never holds the hook past its review timeout — a `grep` whose
//! pattern sends the regex engine down its slow path on non-ASCII text
//! stops when the review times out — and `git_diff` takes at most its own
//! 10 s per call, both `git` runs together, even when `git` leaves a
//! process holding its stdout (its process group is killed). Each test
//! failed on the code before the fix (see docs/security.md).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("advisor-cli-deadline-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("ws/.advisor")).unwrap();
        std::fs::create_dir_all(dir.join("home/.config/advisor")).unwrap();
        let example =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-failing-tests.jsonl");
        std::fs::copy(example, dir.join("t.jsonl")).unwrap();
        Scratch(std::fs::canonicalize(&dir).unwrap())
    }

    fn ws(&self) -> PathBuf {
        self.0.join("ws")
    }

    /// The user config: a model reviewer on `server` offering `tool`, one
    /// full review per stop (the judge of the default `claims` scope gets no
    /// tools), and the workspace opted in with `timeout_secs`.
    fn configure(&self, server: &MockServer, tool: &str, timeout_secs: u64) {
        let user = format!(
            "[reviewer]\nkind = \"model\"\nmodel = \"m\"\nbase_url = \"{}/v1\"\ntools = [\"{tool}\"]\nmax_tool_calls = 2\nscope = \"full\"\n\n[workspaces.\"{}\"]\nopt_in = true\n",
            server.uri(),
            self.ws().display()
        );
        std::fs::write(self.0.join("home/.config/advisor/config.toml"), user).unwrap();
        std::fs::write(
            self.ws().join(".advisor/config.toml"),
            format!("timeout_secs = {timeout_secs}\n"),
        )
        .unwrap();
    }

    /// Runs `advisor hook` with `path` as `PATH`; its stderr and wall time.
    fn hook(&self, path: &str) -> (String, Duration) {
        let input = json!({"session_id": "s1", "transcript_path": self.0.join("t.jsonl"), "cwd": self.ws(),
                           "hook_event_name": "Stop", "stop_hook_active": false});
        let started = Instant::now();
        let out = Command::cargo_bin("advisor")
            .unwrap()
            .env_clear()
            .env("HOME", self.0.join("home"))
            .env("PATH", path)
            .arg("hook")
            .write_stdin(input.to_string())
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let took = started.elapsed();
        assert_eq!(out.status.code(), Some(0));
        (String::from_utf8_lossy(&out.stderr).into_owned(), took)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Asks for one call of `tool` with `args`, then answers with no notes.
struct Script {
    tool: &'static str,
    args: String,
}

impl Respond for Script {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or_default();
        let answered = body["messages"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["role"] == "tool"));
        let reply = if answered {
            json!({"choices": [{"message": {"role": "assistant", "content": "{\"notes\":[]}"}, "finish_reason": "stop"}]})
        } else {
            let calls =
                json!([{"id": "t", "type": "function", "function": {"name": self.tool, "arguments": self.args}}]);
            json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls}, "finish_reason": "tool_calls"}]})
        };
        ResponseTemplate::new(200).set_body_json(reply)
    }
}

async fn server(tool: &'static str, args: Value) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Script {
            tool,
            args: args.to_string(),
        })
        .mount(&server)
        .await;
    server
}

/// The tool results the server received.
async fn tool_results(server: &MockServer) -> Vec<String> {
    let mut out = Vec::new();
    for r in server.received_requests().await.unwrap_or_default() {
        let body: Value = serde_json::from_slice(&r.body).unwrap_or_default();
        for m in body["messages"].as_array().into_iter().flatten() {
            if m["role"] == "tool" {
                out.push(m["content"].as_str().unwrap_or_default().to_owned());
            }
        }
    }
    out
}

fn host_path() -> String {
    std::env::var("PATH").unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_grep_ends_with_the_review_timeout_and_the_hook_exits() {
    let s = Scratch::new("grep");
    let text: String = "привет мир ".chars().cycle().take(128 * 1024).collect();
    for i in 0..4 {
        std::fs::write(s.ws().join(format!("text{i}.txt")), &text).unwrap();
    }
    let server = server("grep", json!({"pattern": r"(?:\b\w+\b\s*){5,}X"})).await;
    s.configure(&server, "grep", 2);
    let (stderr, took) = s.hook(&host_path());
    assert!(stderr.contains("did not answer within 2s"), "{stderr}");
    assert!(
        took < Duration::from_millis(3500),
        "the hook exited {took:?} after it started, with a 2 s review timeout: {stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn git_diff_takes_at_most_its_own_ten_seconds_whatever_git_does() {
    let s = Scratch::new("git");
    let ws = s.ws();
    let real = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.invalid",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(&ws)
            .env_remove("GIT_DIR")
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    real(&["init", "-q"]);
    std::fs::write(ws.join("app.py"), "x = 1\n").unwrap();
    real(&["add", "app.py"]);
    real(&["commit", "-qm", "one"]);
    std::fs::write(ws.join("app.py"), "x = 2\n").unwrap();
    // a `git` (on PATH, outside the workspace) that is slow, and leaves a
    // process holding its stdout: each run just under the old 10 s per run
    let bin = s.0.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("git"), "#!/bin/sh\nsleep 15 &\nsleep 6\nprintf 'app.py\\0'\n").unwrap();
    std::fs::set_permissions(bin.join("git"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let server = server("git_diff", json!({})).await;
    s.configure(&server, "git_diff", 60);
    let (stderr, took) = s.hook(&format!("{}:{}", bin.display(), host_path()));
    assert!(
        took < Duration::from_millis(12_500),
        "one git_diff call kept the hook {took:?}: {stderr}"
    );
    let results = tool_results(&server).await;
    assert_eq!(results.len(), 1, "{stderr}");
    assert!(results[0].contains("git did not finish"), "{}", results[0]);
}
