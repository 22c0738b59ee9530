//! Issue 48, finding 3, through `advisor hook`: a `PATH` entry is judged by
//! the directory it resolves to, not by how it is written. A reviewer
//! program and `git_diff`'s `git` planted in the workspace's `bin` are never
//! run through `/proc/self/cwd/bin` (the hook runs in the workspace),
//! `<elsewhere>/../<workspace>/bin` or a link to the folder; one outside the
//! workspace still is. Failed on the code before the fix (docs/security.md).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("advisor-cli-pathlookup-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["ws/.advisor", "ws/bin", "home/.config/advisor", "elsewhere", "outside"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let example =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-passing-rerun.jsonl");
        std::fs::copy(example, dir.join("t.jsonl")).unwrap();
        let dir = std::fs::canonicalize(&dir).unwrap();
        std::os::unix::fs::symlink(dir.join("ws/bin"), dir.join("link-to-ws-bin")).unwrap();
        Scratch(dir)
    }

    fn ws(&self) -> PathBuf {
        self.0.join("ws")
    }

    /// `PATH` entries that all resolve to the workspace's `bin`, written
    /// without the workspace's path as a prefix.
    fn disguised(&self) -> Vec<String> {
        vec![
            "/proc/self/cwd/bin".to_owned(),
            format!("{}/../ws/bin", self.0.join("elsewhere").display()),
            self.0.join("link-to-ws-bin").display().to_string(),
        ]
    }

    /// A program `dir/name` that records that it ran as `<scratch>/tag`
    /// (`git_diff` clears `git`'s environment: the path is written in), then
    /// runs `then`.
    fn program(&self, dir: &Path, name: &str, tag: &str, then: &str) {
        let path = dir.join(name);
        let marker = self.0.join(tag);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\n# derived: written by this test\ntouch '{}'\n{then}\n",
                marker.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }

    /// Runs `advisor hook` in the workspace with `path` as `PATH`; stdout and stderr.
    fn hook(&self, path: &str) -> (String, String) {
        // a session of its own each run: a note already given is not repeated
        static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let session = format!("s{}", RUN.fetch_add(1, std::sync::atomic::Ordering::SeqCst));
        let input = json!({"session_id": session, "transcript_path": self.0.join("t.jsonl"), "cwd": self.ws(),
                           "hook_event_name": "Stop", "stop_hook_active": false});
        let out = Command::cargo_bin("advisor")
            .unwrap()
            .env_clear()
            .env("HOME", self.0.join("home"))
            .env("PATH", path)
            .env("SCRATCH", &self.0)
            .current_dir(self.ws())
            .arg("hook")
            .write_stdin(input.to_string())
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (text(&out.stdout), text(&out.stderr))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const NOTE: &str = r#"{"notes":[{"text":"PATH_NOTE: the rerun output shows no test summary.","severity":"blocker","evidence":"test result: FAILED. 41 passed; 1 failed"}]}"#;

fn system_path() -> String {
    std::env::var("PATH").unwrap_or_default()
}

#[test]
fn a_reviewer_program_is_never_taken_from_a_path_entry_that_resolves_into_the_workspace() {
    let s = Scratch::new("reviewer");
    let answer = format!("cat > /dev/null\necho '{NOTE}'");
    s.program(&s.ws().join("bin"), "fake-reviewer", "PLANTED", &answer);
    s.program(&s.0.join("outside"), "fake-reviewer", "OUTSIDE", &answer);
    let user = format!(
        "[reviewer]\nkind = \"command\"\ncommand = [\"fake-reviewer\"]\nscope = \"full\"\n\n[workspaces.\"{}\"]\nopt_in = true\n",
        s.ws().display()
    );
    std::fs::write(s.0.join("home/.config/advisor/config.toml"), user).unwrap();
    std::fs::write(s.ws().join(".advisor/config.toml"), "timeout_secs = 30\n").unwrap();
    for entry in s.disguised() {
        // only the planted one: not found, said, the stop goes through
        let (out, err) = s.hook(&format!("{entry}:{}", system_path()));
        assert!(
            !s.0.join("PLANTED").exists(),
            "the planted reviewer ran through PATH entry {entry}: {out}\n{err}"
        );
        assert!(err.contains("is not on PATH"), "{entry}: {err}");
        // the planted one first, then one outside: the outside one runs
        let (out, err) = s.hook(&format!("{entry}:{}:{}", s.0.join("outside").display(), system_path()));
        assert!(!s.0.join("PLANTED").exists(), "{entry}: {out}\n{err}");
        assert!(
            out.contains("PATH_NOTE") && s.0.join("OUTSIDE").exists(),
            "{entry}: {out}\n{err}"
        );
        std::fs::remove_file(s.0.join("OUTSIDE")).unwrap();
    }
}

/// Asks for one `git_diff` call, then answers with no notes.
struct GitDiffOnce;

impl Respond for GitDiffOnce {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or_default();
        let answered = body["messages"]
            .as_array()
            .is_some_and(|m| m.iter().any(|m| m["role"] == "tool"));
        let reply = if answered {
            json!({"choices": [{"message": {"role": "assistant", "content": "{\"notes\":[]}"}, "finish_reason": "stop"}]})
        } else {
            let calls = json!([{"id": "g", "type": "function", "function": {"name": "git_diff", "arguments": "{}"}}]);
            json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls}, "finish_reason": "tool_calls"}]})
        };
        ResponseTemplate::new(200).set_body_json(reply)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn git_diffs_git_is_never_taken_from_a_path_entry_that_resolves_into_the_workspace() {
    let s = Scratch::new("git");
    let ws = s.ws();
    let git = |args: &[&str]| {
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
    std::fs::write(ws.join("app.py"), "x = 1\n").unwrap();
    git(&["init", "-q"]);
    git(&["add", "app.py"]);
    git(&["commit", "-qm", "one"]);
    std::fs::write(ws.join("app.py"), "x = 2  # CHANGED_MARKER\n").unwrap();
    s.program(&ws.join("bin"), "git", "PLANTED", "echo 'PLANTED_GIT_OUTPUT'");
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(GitDiffOnce)
        .mount(&server)
        .await;
    let user = format!(
        "[reviewer]\nkind = \"model\"\nmodel = \"m\"\nbase_url = \"{}/v1\"\ntools = [\"git_diff\"]\nmax_tool_calls = 1\nscope = \"full\"\n\n[workspaces.\"{}\"]\nopt_in = true\n",
        server.uri(),
        ws.display()
    );
    std::fs::write(s.0.join("home/.config/advisor/config.toml"), user).unwrap();
    std::fs::write(ws.join(".advisor/config.toml"), "timeout_secs = 30\n").unwrap();
    // every disguised entry first, then the system's PATH (with the real git)
    let path = format!("{}:{}", s.disguised().join(":"), system_path());
    let (out, err) = s.hook(&path);
    let mut results = Vec::new();
    for r in server.received_requests().await.unwrap_or_default() {
        let body: Value = serde_json::from_slice(&r.body).unwrap_or_default();
        for m in body["messages"].as_array().into_iter().flatten() {
            if m["role"] == "tool" {
                results.push(m["content"].as_str().unwrap_or_default().to_owned());
            }
        }
    }
    assert!(
        !s.0.join("PLANTED").exists(),
        "the workspace's bin/git ran for git_diff: {results:?}\n{out}\n{err}"
    );
    assert_eq!(results.len(), 1, "{out}\n{err}");
    assert!(results[0].contains("CHANGED_MARKER"), "{}", results[0]);
}
