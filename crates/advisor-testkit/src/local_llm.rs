//! The local SmolLM2 server for real-model tests (`scripts/local-llm.sh`),
//! and a recording wrapper that logs every model call a test's code makes.
//!
//! Uses `ADVISOR_LLM_BASE_URL` (and `ADVISOR_LLM_MODEL`) when set; otherwise
//! starts the server and stops it when the [`Server`] is dropped. The tests
//! run under [`crate::trials`]: `ADVISOR_SKIP_REAL_LLM=1` is the only way to
//! skip them, and then the runner reports them as ignored.

use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};

use advisor::model::{ChatModel, ChatRequest, ChatResponse, ModelError};
use advisor::usage::Usage;
use async_trait::async_trait;

/// A server this test started (stopped on drop), or one given by the environment.
pub struct Server {
    /// The server's OpenAI-compatible base URL.
    pub base_url: String,
    /// The model name to ask for.
    pub model: String,
    /// The server's process id, when this test started it (it is then stopped on drop).
    pub pid: Option<String>,
    /// The server's log (`ADVISOR_LLM_LOG`), when known.
    log: Option<PathBuf>,
    /// The supervisor's exit-status file (`ADVISOR_LLM_STATUS`), when known: it
    /// exists once the server has exited.
    status: Option<PathBuf>,
}

impl Drop for Server {
    fn drop(&mut self) {
        // a test that failed for another reason (an assert on an answer that
        // never came) still says that the server died under it
        if std::thread::panicking() {
            if let Some(died) = self.died() {
                eprintln!("{died}");
            }
        }
        if let Some(pid) = &self.pid {
            let _ = Command::new("bash").args([SCRIPT, "stop", pid]).status();
        }
    }
}

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/local-llm.sh");
/// Lines of the server's log quoted when it died.
const LOG_TAIL_LINES: usize = 20;

/// `SIGSEGV` for 11, and so on for the signals a server dies of.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        1 => "SIGHUP",
        2 => "SIGINT",
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => "an unnamed signal",
    }
}

/// How a process ended, from the shell status the supervisor wrote (`128 + N` for signal N).
pub fn ending(status: i32) -> String {
    if status > 128 {
        let signal = status - 128;
        format!("exited with signal {signal} ({})", signal_name(signal))
    } else {
        format!("exited with status {status}")
    }
}

impl Server {
    /// Why the server is gone, when it is: how it exited and the tail of its
    /// log. `None` while it runs (or when nothing is known of it).
    pub fn died(&self) -> Option<String> {
        let status = std::fs::read_to_string(self.status.as_ref()?).ok()?;
        let status: i32 = status.trim().parse().ok()?;
        let tail = self
            .log
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .map(|log| {
                let lines: Vec<&str> = log.lines().collect();
                lines[lines.len().saturating_sub(LOG_TAIL_LINES)..].join("\n")
            })
            .unwrap_or_else(|| "(no log)".into());
        Some(format!(
            "the local model server at {} {} after it started; the last lines of its log ({}):\n{tail}",
            self.base_url,
            ending(status),
            self.log
                .as_ref()
                .map_or_else(|| "unknown".into(), |p| p.display().to_string()),
        ))
    }

    /// The value of a model call, or a panic that says why it failed: when
    /// the server died, how (its signal) and its log's tail — never only the
    /// transport error.
    pub fn check<T, E: std::fmt::Debug>(&self, what: &str, result: Result<T, E>) -> T {
        match result {
            Ok(v) => v,
            Err(e) => match self.died() {
                Some(died) => panic!("{what} failed: {died}\n(the client saw: {e:?})"),
                None => panic!("{what} failed: {e:?} (the local model server is still running)"),
            },
        }
    }
}

/// The local server: the environment's, or one started now.
pub fn server() -> Server {
    if let Ok(url) = std::env::var("ADVISOR_LLM_BASE_URL") {
        let model = std::env::var("ADVISOR_LLM_MODEL").unwrap_or_else(|_| "smollm2-135m".into());
        return Server {
            base_url: url,
            model,
            pid: None,
            log: std::env::var_os("ADVISOR_LLM_LOG").map(PathBuf::from),
            status: std::env::var_os("ADVISOR_LLM_STATUS").map(PathBuf::from),
        };
    }
    start_server()
}

/// A server started now by `scripts/local-llm.sh start`, whatever the environment says.
pub fn start_server() -> Server {
    let out = Command::new("bash")
        .args([SCRIPT, "start"])
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
        log: Some(PathBuf::from(var("ADVISOR_LLM_LOG"))),
        status: Some(PathBuf::from(var("ADVISOR_LLM_STATUS"))),
    }
}

/// One recorded call: prompt bytes sent, and the usage or the error.
#[derive(Debug, Clone)]
pub struct Call {
    /// Bytes of the request's messages.
    pub prompt_bytes: usize,
    /// The call's usage, or its error.
    pub result: Result<Usage, ModelError>,
}

/// A model that records every call it forwards.
#[derive(Clone)]
pub struct Recording<M> {
    /// The wrapped model.
    pub inner: M,
    /// Every call so far, shared with clones.
    pub calls: Arc<Mutex<Vec<Call>>>,
}

impl<M> Recording<M> {
    /// Wraps `inner`, with no calls recorded.
    pub fn new(inner: M) -> Recording<M> {
        Recording {
            inner,
            calls: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// A copy of the calls recorded so far.
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
