//! The model reviewer's workspace tools through `advisor hook` (issue 28,
//! item 2): `[reviewer] tools` from the user config reach a scripted
//! OpenAI-compatible server on loopback, a file of the workspace reaches the
//! next request, a denied one never does; and a workspace table naming tools
//! is a reviewer setting like `base_url` — untrusted it sends nothing, and
//! changing its tools after `advisor trust` untrusts it again.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use assert_cmd::Command;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("advisor-cli-tools-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("ws/.advisor")).unwrap();
        std::fs::create_dir_all(dir.join("ws/src")).unwrap();
        std::fs::create_dir_all(dir.join("home/.config/advisor")).unwrap();
        let example =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-failing-tests.jsonl");
        std::fs::copy(example, dir.join("t.jsonl")).unwrap();
        std::fs::write(dir.join("ws/src/auth.rs"), "fn check() { INSIDE_MARKER }\n").unwrap();
        std::fs::write(dir.join("ws/.env"), "KEY=ENV_SECRET_MARKER\n").unwrap();
        Scratch(std::fs::canonicalize(&dir).unwrap())
    }

    fn ws(&self) -> PathBuf {
        self.0.join("ws")
    }

    fn cmd(&self) -> Command {
        let mut c = Command::cargo_bin("advisor").unwrap();
        c.env_clear()
            .env("HOME", self.0.join("home"))
            .env("PATH", std::env::var_os("PATH").unwrap_or_default());
        c
    }

    fn hook(&self) -> String {
        let input = json!({"session_id": "s1", "transcript_path": self.0.join("t.jsonl"), "cwd": self.ws(),
                           "hook_event_name": "Stop", "stop_hook_active": false});
        let out = self.cmd().arg("hook").write_stdin(input.to_string()).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stderr).into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Asks for two reads, then answers with no notes.
struct Script(AtomicUsize);

impl Respond for Script {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let body = if self.0.fetch_add(1, Ordering::SeqCst) % 2 == 0 {
            let calls = json!([
                {"id": "a", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\": \"src/auth.rs\"}"}},
                {"id": "b", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\": \".env\"}"}}
            ]);
            json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls}, "finish_reason": "tool_calls"}]})
        } else {
            json!({"choices": [{"message": {"role": "assistant", "content": "{\"notes\":[]}"}, "finish_reason": "stop"}]})
        };
        ResponseTemplate::new(200).set_body_json(body)
    }
}

async fn server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Script(AtomicUsize::new(0)))
        .mount(&server)
        .await;
    server
}

async fn bodies(server: &MockServer) -> Vec<Value> {
    (server.received_requests().await.unwrap())
        .iter()
        .filter(|r| r.url.path().ends_with("/chat/completions"))
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect()
}

/// A model reviewer with workspace `tools`, one full review per stop
/// (`scope = "full"`: as the judge of the default `claims` scope it would
/// get the short prompt, with no tools).
fn table(base: &str, tools: &str) -> String {
    format!(
        "[reviewer]\nkind = \"model\"\nmodel = \"m\"\nbase_url = \"{base}/v1\"\ntools = {tools}\nmax_tool_calls = 4\nscope = \"full\"\n"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_from_the_user_config_read_the_workspace_and_never_a_denied_file() {
    let s = Scratch::new("user");
    let server = server().await;
    let user = format!(
        "{}\n[workspaces.\"{}\"]\nopt_in = true\n",
        table(&server.uri(), "[\"read_file\", \"grep\"]"),
        s.ws().display()
    );
    std::fs::write(s.0.join("home/.config/advisor/config.toml"), user).unwrap();
    let err = s.hook();
    let got = bodies(&server).await;
    assert_eq!(got.len(), 2, "{err}");
    let names: Vec<&str> = got[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["read_file", "grep"]);
    let second = got[1].to_string();
    assert!(second.contains("INSIDE_MARKER"), "{second}");
    assert!(second.contains("denied"), "{second}");
    assert!(!got.iter().any(|b| b.to_string().contains("ENV_SECRET_MARKER")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_workspace_table_with_tools_runs_only_after_trust_and_a_tools_change_untrusts_it() {
    let s = Scratch::new("trust");
    let server = server().await;
    std::fs::write(
        s.ws().join(".advisor/config.toml"),
        table(&server.uri(), "[\"read_file\"]"),
    )
    .unwrap();
    let err = s.hook();
    assert!(err.contains("advisor trust"), "{err}");
    assert_eq!(bodies(&server).await.len(), 0, "an untrusted table reached the server");

    let out = s.cmd().args(["trust", "--yes"]).arg(s.ws()).output().unwrap();
    let out = if out.status.success() {
        out
    } else {
        s.cmd().arg("trust").arg(s.ws()).output().unwrap()
    };
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("read-only workspace tools read_file"));
    let err = s.hook();
    assert_eq!(bodies(&server).await.len(), 2, "{err}");

    std::fs::write(
        s.ws().join(".advisor/config.toml"),
        table(&server.uri(), "[\"read_file\", \"git_diff\"]"),
    )
    .unwrap();
    let err = s.hook();
    assert!(err.contains("changed since you trusted"), "{err}");
    assert_eq!(bodies(&server).await.len(), 2);
}
