//! Issue 48, finding 4 (the process-wide half): `advisor hook` answers and
//! exits within `timeout_secs` plus at most 1 s of its start, and `advisor
//! mcp` answers each request within that and exits as soon as its client
//! goes away, whatever the reviewer's child leaves behind — here a process
//! it detached (`setsid`) that holds the child's stdout open, with the child
//! answering at once or hanging. Failed on the code before the fix (see
//! docs/security.md).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::json;

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("advisor-cli-hookdeadline-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("ws/.advisor")).unwrap();
        std::fs::create_dir_all(dir.join("home/.config/advisor")).unwrap();
        let example =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-passing-rerun.jsonl");
        std::fs::copy(example, dir.join("t.jsonl")).unwrap();
        Scratch(std::fs::canonicalize(&dir).unwrap())
    }

    fn ws(&self) -> PathBuf {
        self.0.join("ws")
    }

    /// The user config: the command reviewer `fake` (a script whose body is
    /// `body`), this workspace opted in with `timeout_secs`.
    fn configure(&self, body: &str, timeout_secs: u64) {
        let fake = self.0.join("fake-cli");
        std::fs::write(
            &fake,
            format!("#!/bin/sh\n# derived: a stand-in reviewer CLI written by this test\n{body}\n"),
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let user = format!(
            "[reviewer]\nkind = \"command\"\nscope = \"full\"\ncommand = [\"{}\"]\n\n[workspaces.\"{}\"]\nopt_in = true\n",
            fake.display(),
            self.ws().display()
        );
        std::fs::write(self.0.join("home/.config/advisor/config.toml"), user).unwrap();
        std::fs::write(
            self.ws().join(".advisor/config.toml"),
            // a concern re-opens too: these tests are about the deadline, not about anchoring
            format!("timeout_secs = {timeout_secs}\ninterrupt = \"concern\"\n"),
        )
        .unwrap();
    }

    /// Runs the hook; stdout, stderr and its wall time.
    fn hook(&self) -> (String, String, Duration) {
        let input = json!({"session_id": "s1", "transcript_path": self.0.join("t.jsonl"), "cwd": self.ws(),
                           "hook_event_name": "Stop", "stop_hook_active": false});
        let started = Instant::now();
        let out = Command::cargo_bin("advisor")
            .unwrap()
            .env_clear()
            .env("HOME", self.0.join("home"))
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("SCRATCH", &self.0)
            .arg("hook")
            .write_stdin(input.to_string())
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        let took = started.elapsed();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (text(&out.stdout), text(&out.stderr), took)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // the detached process escaped the reviewer's process group: end it here
        if let Ok(pid) = std::fs::read_to_string(self.0.join("detached.pid")) {
            let _ = std::process::Command::new("kill").arg(pid.trim()).status();
        }
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const NOTE: &str =
    r#"{"notes":[{"text":"DEADLINE_NOTE: the rerun output shows no test summary.","severity":"blocker"}]}"#;

/// A child that detaches a process holding its stdout for 20 s, then runs `then`.
fn detaching(then: &str) -> String {
    format!("cat > /dev/null\nsetsid sh -c 'echo $$ > \"$SCRATCH/detached.pid\"; exec sleep 20' &\n{then}")
}

#[test]
fn a_detached_process_holding_the_reviewers_stdout_never_holds_the_hook() {
    // the child answers at once: its answer counts, the hook ends long before the detached process
    let s = Scratch::new("answers");
    s.configure(&detaching(&format!("echo '{NOTE}'")), 2);
    let (out, err, took) = s.hook();
    assert!(
        took < Duration::from_secs(3),
        "the hook exited {took:?} after it started, with timeout_secs = 2: {out}\n{err}"
    );
    assert!(
        out.contains("DEADLINE_NOTE"),
        "the child's answer was lost: {out}\n{err}"
    );
}

#[test]
fn a_hanging_reviewer_with_a_detached_process_lets_the_stop_through_within_the_timeout() {
    let s = Scratch::new("hangs");
    s.configure(&detaching("sleep 20"), 2);
    let (out, err, took) = s.hook();
    assert!(
        took < Duration::from_secs(3),
        "the hook exited {took:?} after it started, with timeout_secs = 2: {out}\n{err}"
    );
    assert!(!out.contains("\"block\""), "{out}");
    assert!(err.contains("the stop goes through"), "{err}");
}

#[test]
fn the_watchdog_lets_the_stop_through_at_the_deadline_whatever_holds_the_hook() {
    // the offline rules reviewer; timeout_secs = 1, and another process holds
    // the session's lock (the hook would wait 2 s for it)
    let s = Scratch::new("watchdog");
    std::fs::write(
        s.ws().join(".advisor/config.toml"),
        "timeout_secs = 1
",
    )
    .unwrap();
    let (_, err, _) = s.hook();
    let lock = s.ws().join(".advisor/state/s1.lock");
    let file = std::fs::File::open(&lock).unwrap_or_else(|e| panic!("{lock:?}: {e}\n{err}"));
    let mut held = fd_lock::RwLock::new(file);
    let _guard = held.write().unwrap();
    let (out, err, took) = s.hook();
    assert!(
        took < Duration::from_millis(1900),
        "the hook exited {took:?} after it started, with timeout_secs = 1: {err}"
    );
    assert_eq!(out, "", "the host's pass shape is no output");
    assert!(err.contains("no answer within 1 s of the hook's start"), "{err}");
}

/// `advisor mcp` (built only with its feature).
#[cfg(feature = "mcp")]
mod mcp {
    use super::*;
    use serde_json::Value;
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    /// One JSON-RPC line to the server.
    fn send(stdin: &mut impl Write, message: &Value) {
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    #[test]
    fn the_mcp_server_answers_within_the_timeout_and_exits_when_its_client_goes_away() {
        let s = Scratch::new("mcp");
        s.configure(&detaching("sleep 20"), 2);
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_advisor"))
            .arg("mcp")
            .arg("--workspace")
            .arg(s.ws())
            .env_clear()
            .env("HOME", s.0.join("home"))
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("SCRATCH", &s.0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut answer = |id: u64| loop {
            let line = lines.next().unwrap().unwrap();
            let v: Value = serde_json::from_str(&line).unwrap_or_default();
            if v["id"] == id {
                return v;
            }
        };
        send(
            &mut stdin,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-03-26",
                    "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}),
        );
        answer(1);
        send(
            &mut stdin,
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        );
        let asked = Instant::now();
        send(
            &mut stdin,
            &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "advisor_review", "arguments": {"answer": "All tests pass."}}}),
        );
        let reply = answer(2);
        let took = asked.elapsed();
        assert!(
            took < Duration::from_secs(3),
            "the review answered after {took:?}: {reply}"
        );
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        // the client goes away: the server exits at once
        drop(stdin);
        let closed = Instant::now();
        let exited = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if closed.elapsed() > Duration::from_secs(30) {
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let after = closed.elapsed();
        if exited.is_none() {
            let _ = child.kill();
            let _ = child.wait();
        }
        assert!(
            after < Duration::from_secs(1),
            "the server exited {after:?} after its client closed stdin"
        );
    }
}
