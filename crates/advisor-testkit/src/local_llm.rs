//! The local SmolLM2 server for real-model tests (`scripts/local-llm.sh`),
//! and a recording wrapper that logs every model call a test's code makes.
//!
//! Uses `ADVISOR_LLM_BASE_URL` (and `ADVISOR_LLM_MODEL`) when set; otherwise
//! starts the server and stops it when the [`Server`] is dropped. The tests
//! run under [`crate::trials`]: `ADVISOR_SKIP_REAL_LLM=1` is the only way to
//! skip them, and then the runner reports them as ignored.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
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
    ///
    /// The panic goes through [`std::panic::resume_unwind`], not the panic
    /// hook: it prints nothing itself (no "thread panicked" line, no
    /// backtrace), so a test that provokes it on purpose and catches it
    /// passes without a crash report in its output; uncaught, the runner
    /// ([`crate::trials`]) reports the test failed with this message.
    pub fn check<T, E: std::fmt::Debug>(&self, what: &str, result: Result<T, E>) -> T {
        match result {
            Ok(v) => v,
            Err(e) => {
                let message = match self.died() {
                    Some(died) => format!("{what} failed: {died}\n(the client saw: {e:?})"),
                    None => format!("{what} failed: {e:?} (the local model server is still running)"),
                };
                std::panic::resume_unwind(Box::new(message))
            }
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

/// Lines of the script's stderr kept for the panic message when it fails.
const SCRIPT_TAIL_LINES: usize = 40;

/// A server started now by `scripts/local-llm.sh start`, whatever the environment says.
///
/// The script's stderr — the first run's setup progress (downloading the
/// model, compiling the server: minutes), then "ready at …" — is shown line
/// by line as it comes, written to the process's stderr directly, so that
/// neither the test harness's capture nor waiting for the script holds it.
pub fn start_server() -> Server {
    let (status, stdout, tail) = run_echoing(
        Command::new("bash").args([SCRIPT, "start"]),
        Box::new(std::io::stderr()),
    );
    assert!(
        status.success(),
        "scripts/local-llm.sh start failed (set ADVISOR_SKIP_REAL_LLM=1 to skip this test); the last lines it printed:\n{tail}"
    );
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

/// Runs `cmd` with no stdin: its stdout is collected, each stderr line is
/// written to `echo` as it comes (for the tests, this process's stderr
/// itself: past any capture). Gives the exit status, the stdout and the last
/// [`SCRIPT_TAIL_LINES`] stderr lines.
fn run_echoing(cmd: &mut Command, mut echo: Box<dyn Write + Send>) -> (std::process::ExitStatus, String, String) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run scripts/local-llm.sh");
    let stderr = child.stderr.take().expect("piped stderr");
    let echoing = std::thread::spawn(move || {
        let mut tail = VecDeque::new();
        for line in BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let _ = writeln!(echo, "{line}");
            let _ = echo.flush();
            if tail.len() == SCRIPT_TAIL_LINES {
                tail.pop_front();
            }
            tail.push_back(line);
        }
        Vec::from(tail).join("\n")
    });
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_to_string(&mut stdout)
        .expect("read the script's stdout");
    let status = child.wait().expect("wait for the script");
    (status, stdout, echoing.join().unwrap_or_default())
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// What was echoed, shared with the test.
    #[derive(Clone, Default)]
    struct Echoed(Arc<Mutex<Vec<u8>>>);

    impl Write for Echoed {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_script_s_stderr_is_echoed_line_by_line_and_its_stdout_collected() {
        let echoed = Echoed::default();
        let (status, stdout, tail) = run_echoing(
            Command::new("sh").args([
                "-c",
                "echo 'local-llm: compiling: 20 s so far' >&2; echo ADVISOR_LLM_PID=7; echo 'local-llm: ready' >&2; exit 3",
            ]),
            Box::new(echoed.clone()),
        );
        assert_eq!(status.code(), Some(3));
        assert_eq!(stdout, "ADVISOR_LLM_PID=7\n");
        assert_eq!(tail, "local-llm: compiling: 20 s so far\nlocal-llm: ready");
        let echoed = String::from_utf8(echoed.0.lock().unwrap().clone()).unwrap();
        assert_eq!(echoed, "local-llm: compiling: 20 s so far\nlocal-llm: ready\n");
    }

    /// A line is echoed while the script still runs, not when it ends.
    #[test]
    fn a_line_is_echoed_before_the_script_ends() {
        let echoed = Echoed::default();
        let seen = echoed.clone();
        let watcher = std::thread::spawn(move || {
            let started = std::time::Instant::now();
            while started.elapsed() < std::time::Duration::from_secs(20) {
                if !seen.0.lock().unwrap().is_empty() {
                    return Some(started.elapsed());
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            None
        });
        let started = std::time::Instant::now();
        run_echoing(
            Command::new("sh").args(["-c", "echo 'local-llm: downloading' >&2; sleep 2"]),
            Box::new(echoed),
        );
        let whole = started.elapsed();
        let first = watcher.join().unwrap().expect("the line was echoed");
        assert!(
            first + std::time::Duration::from_millis(1500) < whole,
            "echoed at {first:?} of {whole:?}"
        );
    }

    #[test]
    fn only_the_last_lines_are_kept() {
        let (_, _, tail) = run_echoing(
            Command::new("sh").args(["-c", "i=0; while [ $i -lt 100 ]; do echo line $i >&2; i=$((i+1)); done"]),
            Box::new(std::io::sink()),
        );
        assert_eq!(tail.lines().count(), SCRIPT_TAIL_LINES);
        assert_eq!(tail.lines().last(), Some("line 99"));
    }

    /// A failed check unwinds with its message and never calls the panic hook
    /// (which would print "thread … panicked" and, with RUST_BACKTRACE, a backtrace).
    #[test]
    fn a_failed_check_unwinds_with_its_message_and_prints_nothing() {
        static HOOK_CALLS: AtomicUsize = AtomicUsize::new(0);
        let me = std::thread::current().id();
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().id() == me {
                HOOK_CALLS.fetch_add(1, Ordering::SeqCst);
            }
            eprintln!("{info}");
        }));
        let server = Server {
            base_url: "http://127.0.0.1:9/v1".into(),
            model: "m".into(),
            pid: None,
            log: None,
            status: None,
        };
        let result: Result<(), &str> = Err("connection refused");
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.check("the review", result)));
        let _ = std::panic::take_hook();
        std::panic::set_hook(previous);
        let payload = caught.expect_err("the check fails");
        let message = payload.downcast_ref::<String>().expect("a String payload");
        assert!(
            message.starts_with("the review failed: \"connection refused\""),
            "{message}"
        );
        assert_eq!(HOOK_CALLS.load(Ordering::SeqCst), 0, "the panic hook ran");
    }
}
