//! Issue 26, item 5, the consultation store: a committed
//! `.advisor/consultations` (or `.advisor`) that is a symbolic link is not
//! followed. Through the built `advisor mcp` with rmcp's own client and a
//! loopback model: the consultation is answered, one stderr line says the
//! store was refused, and nothing is written through the link.
#![cfg(all(feature = "mcp", unix))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Stdio;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, JsonObject};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const SEED_REQUEST: &str = include_str!("../../../tests/fixtures/advisor-request.seed.json");

/// A workspace, its user config beside it and a directory elsewhere, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let root = std::env::temp_dir().join(format!("advisor-mcp-links-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("ws")).unwrap();
        std::fs::create_dir_all(root.join("elsewhere")).unwrap();
        Scratch(root)
    }

    fn ws(&self) -> PathBuf {
        self.0.join("ws")
    }

    fn elsewhere(&self) -> PathBuf {
        self.0.join("elsewhere")
    }

    fn xdg(&self) -> PathBuf {
        self.0.join("xdg")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn model() -> MockServer {
    let advice = json!({
        "schema_version": "advisor-response.v1", "decision": "CORRECTION",
        "summary": "the status JSON differs only in key order",
        "executor_instructions": ["Compare the status JSON with sorted keys."],
        "confidence": 0.7, "stop_reason": null
    });
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "x", "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": advice.to_string()}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 400, "completion_tokens": 60, "total_tokens": 460}
        })))
        .mount(&server)
        .await;
    server
}

/// The model named in the user's own config (outside the workspace).
fn user_config(s: &Scratch, server: &MockServer) {
    std::fs::create_dir_all(s.xdg().join("advisor")).unwrap();
    std::fs::write(
        s.xdg().join("advisor/config.toml"),
        format!(
            "[reviewer]\nkind = \"model\"\nmodel = \"m\"\nbase_url = \"{}/v1\"\n",
            server.uri()
        ),
    )
    .unwrap();
}

/// One `advisor_consult` call; whether it was answered, and the server's stderr.
async fn consult(ws: &Path, xdg: &Path) -> (bool, String) {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_advisor"));
    cmd.arg("mcp").arg("--workspace").arg(ws).env("XDG_CONFIG_HOME", xdg);
    let (transport, stderr) = TokioChildProcess::builder(cmd).stderr(Stdio::piped()).spawn().unwrap();
    let client = ().serve(transport).await.expect("the server initialises");
    let request: Value = serde_json::from_str(SEED_REQUEST).unwrap();
    let Value::Object(arguments) = request else {
        panic!("the seed request is an object")
    };
    let arguments: JsonObject = arguments;
    let result = client
        .call_tool(CallToolRequestParams::new("advisor_consult").with_arguments(arguments))
        .await
        .expect("a tool result");
    client.cancel().await.unwrap();
    let mut err = String::new();
    if let Some(mut e) = stderr {
        let _ = e.read_to_string(&mut err).await;
    }
    (result.is_error == Some(false), err)
}

#[tokio::test]
async fn a_symlinked_consultation_store_is_refused_and_the_consultation_goes_through() {
    let server = model().await;
    for linked in [".advisor/consultations", ".advisor"] {
        let s = Scratch::new(&linked.replace(['.', '/'], "_"));
        user_config(&s, &server);
        let ws = s.ws();
        if linked == ".advisor" {
            std::fs::create_dir_all(s.elsewhere()).unwrap();
        } else {
            std::fs::create_dir_all(ws.join(".advisor")).unwrap();
        }
        std::fs::write(
            if linked == ".advisor" {
                s.elsewhere().join("config.toml")
            } else {
                ws.join(".advisor/config.toml")
            },
            "enabled = true\n",
        )
        .unwrap();
        std::os::unix::fs::symlink(s.elsewhere(), ws.join(linked)).unwrap();
        let before: Vec<_> = std::fs::read_dir(s.elsewhere()).unwrap().collect();
        let (answered, stderr) = consult(&ws, &s.xdg()).await;
        assert!(answered, "{linked}: the consultation goes through: {stderr}");
        assert!(stderr.contains("symbolic link"), "{linked}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{linked}: {stderr}");
        let after: Vec<_> = std::fs::read_dir(s.elsewhere()).unwrap().collect();
        assert_eq!(
            after.len(),
            before.len(),
            "{linked}: a pair was written through the link"
        );
    }
    // without a link, the pair is stored
    let s = Scratch::new("plain");
    user_config(&s, &server);
    std::fs::create_dir_all(s.ws().join(".advisor")).unwrap();
    std::fs::write(s.ws().join(".advisor/config.toml"), "enabled = true\n").unwrap();
    let (answered, stderr) = consult(&s.ws(), &s.xdg()).await;
    assert!(answered && stderr.is_empty(), "{stderr}");
    assert_eq!(
        std::fs::read_dir(s.ws().join(".advisor/consultations"))
            .unwrap()
            .count(),
        2
    );
}
