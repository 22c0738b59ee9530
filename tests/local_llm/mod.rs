//! The local SmolLM2 server for real-model tests (`scripts/local-llm.sh`),
//! and a recording wrapper that logs every model call a test's code makes.
//!
//! Uses `ADVISOR_LLM_BASE_URL` (and `ADVISOR_LLM_MODEL`) when set; otherwise
//! starts the server and stops it when the [`Server`] is dropped. Tests call
//! [`skip`] first: `ADVISOR_SKIP_REAL_LLM=1` is the only way to skip them.
#![allow(dead_code, unreachable_pub)]

use std::process::Command;
use std::sync::{Arc, Mutex};

use advisor::model::{ChatModel, ChatRequest, ChatResponse, ModelError, Usage};
use async_trait::async_trait;

/// A server this test started (stopped on drop), or one given by the environment.
pub struct Server {
    pub base_url: String,
    pub model: String,
    pid: Option<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(pid) = &self.pid {
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/local-llm.sh");
            let _ = Command::new("bash").args([script, "stop", pid]).status();
        }
    }
}

/// Whether the real-model tests are skipped (`ADVISOR_SKIP_REAL_LLM=1`), with a message.
pub fn skip(what: &str) -> bool {
    let skipped = std::env::var("ADVISOR_SKIP_REAL_LLM").as_deref() == Ok("1");
    if skipped {
        eprintln!("SKIPPED: {what} (ADVISOR_SKIP_REAL_LLM=1); run scripts/local-llm.sh to enable it");
    }
    skipped
}

/// The local server: the environment's, or one started now.
pub fn server() -> Server {
    if let Ok(url) = std::env::var("ADVISOR_LLM_BASE_URL") {
        let model = std::env::var("ADVISOR_LLM_MODEL").unwrap_or_else(|_| "smollm2-135m".into());
        return Server {
            base_url: url,
            model,
            pid: None,
        };
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/local-llm.sh");
    let out = Command::new("bash")
        .args([script, "start"])
        .output()
        .expect("run scripts/local-llm.sh");
    assert!(
        out.status.success(),
        "scripts/local-llm.sh start failed (set ADVISOR_SKIP_REAL_LLM=1 to skip this test):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let var = |name: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")).map(str::to_owned))
            .unwrap_or_else(|| panic!("scripts/local-llm.sh did not print {name}"))
    };
    Server {
        base_url: var("ADVISOR_LLM_BASE_URL"),
        model: var("ADVISOR_LLM_MODEL"),
        pid: Some(var("ADVISOR_LLM_PID")),
    }
}

/// One recorded call: prompt bytes sent, and the usage or the error.
#[derive(Debug, Clone)]
pub struct Call {
    pub prompt_bytes: usize,
    pub result: Result<Usage, ModelError>,
}

/// A model that records every call it forwards.
#[derive(Clone)]
pub struct Recording<M> {
    pub inner: M,
    pub calls: Arc<Mutex<Vec<Call>>>,
}

impl<M> Recording<M> {
    pub fn new(inner: M) -> Recording<M> {
        Recording {
            inner,
            calls: Arc::new(Mutex::new(Vec::new())),
        }
    }

    pub fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap().clone()
    }
}

#[async_trait]
impl<M: ChatModel> ChatModel for Recording<M> {
    async fn complete(&self, request: ChatRequest) -> Result<ChatResponse, ModelError> {
        let prompt_bytes = request.messages.iter().map(|m| m.content.len()).sum();
        let result = self.inner.complete(request).await;
        self.calls.lock().unwrap().push(Call {
            prompt_bytes,
            result: result.as_ref().map(|r| r.usage).map_err(Clone::clone),
        });
        result
    }

    async fn context_tokens(&self) -> Option<u64> {
        self.inner.context_tokens().await
    }
}
