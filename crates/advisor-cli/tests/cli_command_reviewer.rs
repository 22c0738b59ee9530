//! The command reviewer through `advisor hook` (issue 28, item 1), with a
//! fake reviewer CLI (a shell script written by the test, marked derived):
//! its answer becomes the block; the prompt goes on stdin and the child runs
//! in the workspace; a timeout kills the child's whole process group; huge
//! output, non-JSON and exit 1 are reviewer errors that let the stop
//! through; a hook started inside the review lets its stop through while a
//! forged marker does not; an untrusted workspace command never runs; and a
//! program named bare is never taken from a `PATH` folder inside the workspace.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::json;

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("advisor-cmd-{name}-{}", std::process::id()));
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

    /// A fake reviewer CLI: `body` is its shell script after the shebang.
    fn fake(&self, body: &str) -> PathBuf {
        let path = self.0.join("fake-cli");
        std::fs::write(
            &path,
            format!("#!/bin/sh\n# derived: a stand-in reviewer CLI written by this test\n{body}\n"),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        path
    }

    /// The user config: opt in this workspace, the command reviewer `argv`
    /// reviewing every stop in full (`scope = "full"`: the transcript here
    /// is a passing rerun, which the rules of the default `claims` scope
    /// would not contest, so the reviewer would never run).
    fn user_config(&self, argv: &[&Path], timeout_secs: u64) {
        let argv: Vec<String> = argv.iter().map(|p| p.display().to_string()).collect();
        let text = format!(
            "[reviewer]\nkind = \"command\"\ncommand = {}\nscope = \"full\"\n\n[workspaces.\"{}\"]\nopt_in = true\n",
            serde_json::to_string(&argv).unwrap(),
            self.ws().display()
        );
        std::fs::write(self.0.join("home/.config/advisor/config.toml"), text).unwrap();
        std::fs::write(
            self.ws().join(".advisor/config.toml"),
            format!("timeout_secs = {timeout_secs}\n"),
        )
        .unwrap();
    }

    fn cmd(&self) -> Command {
        let mut c = Command::cargo_bin("advisor").unwrap();
        c.env_clear()
            .env("HOME", self.0.join("home"))
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("ADVISOR_BIN", env!("CARGO_BIN_EXE_advisor"))
            .env("SCRATCH", &self.0);
        c
    }

    /// Runs the hook; stdout, stderr, and how long it took.
    fn hook(&self, env: &[(&str, &str)]) -> (String, String, Duration) {
        let input = json!({"session_id": "s1", "transcript_path": self.0.join("t.jsonl"), "cwd": self.ws(),
                           "hook_event_name": "Stop", "stop_hook_active": false});
        let mut c = self.cmd();
        for (k, v) in env {
            c.env(k, v);
        }
        let start = Instant::now();
        let out = c.arg("hook").write_stdin(input.to_string()).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let took = start.elapsed();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            took,
        )
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The fake's blocker, quoting a line of the transcript it was shown (its
/// evidence anchors, so it stays a blocker and re-opens the run).
const NOTE: &str = r#"{"notes":[{"text":"FAKE_CLI_NOTE: the first run failed and the answer does not say so.","severity":"blocker","evidence":"test result: FAILED. 41 passed; 1 failed"}]}"#;

#[test]
fn the_clis_answer_becomes_the_block_with_the_prompt_on_stdin_in_the_workspace() {
    let s = Scratch::new("answer");
    let fake = s.fake(&format!(
        "pwd > \"$SCRATCH/cwd\"\ncat > \"$SCRATCH/stdin\"\necho '{NOTE}'"
    ));
    s.user_config(&[&fake], 30);
    let (out, err, _) = s.hook(&[]);
    assert!(
        out.contains("\"decision\":\"block\"") && out.contains("FAKE_CLI_NOTE"),
        "{out}\n{err}"
    );
    let cwd = std::fs::read_to_string(s.0.join("cwd")).unwrap();
    assert_eq!(Path::new(cwd.trim()), s.ws());
    let stdin = std::fs::read_to_string(s.0.join("stdin")).unwrap();
    assert!(
        stdin.contains("You review the work of an AI agent") && stdin.contains("\"notes\""),
        "{stdin}"
    );
}

#[test]
fn a_timeout_kills_the_whole_process_group_and_the_stop_goes_through() {
    let s = Scratch::new("timeout");
    let fake = s.fake("sleep 300 &\necho $! > \"$SCRATCH/grandchild\"\nsleep 300");
    s.user_config(&[&fake], 1);
    let (out, err, took) = s.hook(&[]);
    assert!(!out.contains("\"block\""), "{out}");
    assert!(took < Duration::from_secs(20), "the hook waited {took:?}");
    assert!(err.contains("review failed") || err.contains("did not answer"), "{err}");
    let pid = std::fs::read_to_string(s.0.join("grandchild")).unwrap();
    // the grandchild (same process group) is gone: `kill -0` fails
    let mut alive = true;
    for _ in 0..50 {
        alive = std::process::Command::new("kill")
            .args(["-0", pid.trim()])
            .status()
            .unwrap()
            .success();
        if !alive {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!alive, "the reviewer's grandchild {pid} survived the timeout");
}

#[test]
fn huge_output_non_json_and_exit_1_are_reviewer_errors_that_let_the_stop_through() {
    for (name, body, want) in [
        ("huge", "head -c 5000000 /dev/zero | tr '\\0' x", "more than"),
        ("prose", "echo 'Looks good to me!'", "unusable"),
        ("exit1", &*format!("echo '{NOTE}'\nexit 1"), "exited with status 1"),
    ] {
        let s = Scratch::new(name);
        let fake = s.fake(body);
        s.user_config(&[&fake], 30);
        let (out, err, _) = s.hook(&[]);
        assert!(!out.contains("\"block\""), "{name}: {out}");
        // the user is told (once a session) that the stop was not reviewed;
        // stderr says why
        assert!(out.contains("could not review this stop"), "{name}: {out}");
        assert!(err.contains(want), "{name}: {err}");
        assert!(
            !err.contains("FAKE_CLI_NOTE") && !err.contains("Looks good"),
            "{name}: the child's output is not echoed: {err}"
        );
    }
}

#[test]
fn a_hook_inside_the_review_lets_its_stop_through_and_a_forged_marker_does_not() {
    let s = Scratch::new("nested");
    // the fake CLI fires its own Stop hook (as the real CLIs do), then answers
    let nested_input = json!({"session_id": "inner", "transcript_path": s.0.join("t.jsonl"), "cwd": s.ws(),
                              "hook_event_name": "Stop", "stop_hook_active": false});
    std::fs::write(s.0.join("nested-input.json"), nested_input.to_string()).unwrap();
    let fake = s.fake(&format!(
        "cat > /dev/null\n\"$ADVISOR_BIN\" hook < \"$SCRATCH/nested-input.json\" > \"$SCRATCH/nested-out\" 2> \"$SCRATCH/nested-err\"\necho $? > \"$SCRATCH/nested-code\"\necho '{NOTE}'"
    ));
    s.user_config(&[&fake], 30);
    let (out, err, _) = s.hook(&[]);
    assert!(out.contains("FAKE_CLI_NOTE"), "{out}\n{err}");
    let nested_err = std::fs::read_to_string(s.0.join("nested-err")).unwrap();
    assert!(nested_err.contains("inside an advisor review"), "{nested_err}");
    assert_eq!(
        std::fs::read_to_string(s.0.join("nested-out")).unwrap(),
        "",
        "the nested stop was not blocked"
    );
    assert_eq!(std::fs::read_to_string(s.0.join("nested-code")).unwrap().trim(), "0");
    let reviews = s.0.join("home/.local/state/advisor/reviews");
    assert_eq!(
        std::fs::read_dir(&reviews).unwrap().count(),
        0,
        "the nonce is gone after the review"
    );

    // a repository's host config setting the marker itself: ignored, the review runs
    std::fs::remove_file(s.0.join("nested-out")).unwrap();
    let (out, err, _) = s.hook(&[("ADVISOR_REVIEW_NONCE", "0123456789abcdef0123456789abcdef")]);
    assert!(err.contains("ignoring a recursion marker"), "{err}");
    // the reviewer ran (its nested hook wrote again); the repeated note itself is the guard's to drop
    assert!(s.0.join("nested-out").exists(), "the review did not run: {out}\n{err}");
}

#[test]
fn an_untrusted_workspace_command_never_runs() {
    let s = Scratch::new("untrusted");
    let fake = s.fake("touch \"$SCRATCH/ran\"\necho '{\"notes\":[]}'");
    let table = format!(
        "[reviewer]\nkind = \"command\"\ncommand = [{:?}]\n",
        fake.display().to_string()
    );
    std::fs::write(s.ws().join(".advisor/config.toml"), &table).unwrap();
    let (out, err, _) = s.hook(&[]);
    assert!(err.contains(&format!("advisor trust {}", s.ws().display())), "{err}");
    assert!(err.contains("runs a program"), "{err}");
    assert!(!s.0.join("ran").exists(), "an untrusted workspace command ran");
    assert!(!out.contains("\"block\""), "{out}");
    let table = "[reviewer]\nkind = \"command\"\npreset = \"claude\"\n";
    std::fs::write(s.ws().join(".advisor/config.toml"), table).unwrap();
    let (_, err, _) = s.hook(&[]);
    assert!(
        err.contains("advisor trust"),
        "a workspace preset is a reviewer setting too: {err}"
    );
}

#[test]
fn a_reviewer_named_by_program_is_never_taken_from_inside_the_workspace() {
    let s = Scratch::new("lookup");
    let planted = s.ws().join("bin");
    let outside = s.0.join("outside");
    for dir in [&planted, &outside] {
        std::fs::create_dir_all(dir).unwrap();
        let tag = if dir == &planted { "PLANTED" } else { "OUTSIDE" };
        let path = dir.join("fake-reviewer");
        std::fs::write(
            &path,
            format!("#!/bin/sh\n# derived: written by this test\ntouch \"$SCRATCH/{tag}\"\necho '{NOTE}'\n"),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    s.user_config(&[Path::new("fake-reviewer")], 30);
    let system = std::env::var("PATH").unwrap_or_default();
    // a host config that puts the workspace's own folder (and a relative one) first
    let path = format!("{}:bin:{}:{system}", planted.display(), outside.display());
    let (out, err, _) = s.hook(&[("PATH", &path)]);
    assert!(out.contains("FAKE_CLI_NOTE"), "{out}\n{err}");
    assert!(s.0.join("OUTSIDE").exists() && !s.0.join("PLANTED").exists());
    // only inside the workspace: not found, said, and the stop goes through
    let _ = std::fs::remove_file(s.0.join("OUTSIDE"));
    let path = format!("{}:{system}", planted.display());
    let (out, err, _) = s.hook(&[("PATH", &path)]);
    assert!(!out.contains("\"block\""), "{out}");
    assert!(out.contains("could not review this stop"), "{out}");
    assert!(err.contains("is not on PATH"), "{err}");
    assert!(!s.0.join("PLANTED").exists());
}

// issue 43 (one finish path; issue 46's first hour): `advisor review` runs
// the reviewer the hook would — the user's, or a workspace's the user
// trusted — and says which; a table the user has not trusted is refused, as
// the hook refuses it
#[test]
fn review_runs_the_reviewer_the_hook_would_and_says_which() {
    let s = Scratch::new("review");
    let fake = s.fake(&format!("cat > /dev/null\necho '{NOTE}'"));
    s.user_config(&[&fake], 30);
    let review = |s: &Scratch| {
        let out = (s.cmd().current_dir(s.ws()).arg("review").arg(s.0.join("t.jsonl")))
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let (code, out, err) = review(&s);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("reviewer: full: command (user config)"), "{out}");
    assert!(out.contains("FAKE_CLI_NOTE"), "{out}");
    // the workspace's own table, once the user trusted it
    let table = format!(
        "[reviewer]\nkind = \"command\"\ncommand = [{:?}]\n",
        fake.display().to_string()
    );
    std::fs::write(s.ws().join(".advisor/config.toml"), &table).unwrap();
    let trust = s.cmd().args(["trust", "--yes"]).arg(s.ws()).output().unwrap();
    assert!(trust.status.success(), "{}", String::from_utf8_lossy(&trust.stderr));
    let (code, out, _) = review(&s);
    assert_eq!(code, Some(0));
    // (no `scope` in the workspace's table: the rules, then the command as
    // the judge of what they contest)
    assert!(
        out.contains("reviewer: claims: rules, then command (trusted workspace config)"),
        "{out}"
    );
    // changed since it was trusted: refused, nothing run
    std::fs::write(
        s.ws().join(".advisor/config.toml"),
        format!("{table}model = \"other\"\n"),
    )
    .unwrap();
    let (code, out, err) = review(&s);
    assert_eq!(code, Some(2), "{out}");
    assert!(err.contains("advisor trust"), "{err}");
}
