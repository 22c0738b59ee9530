//! Issue 48, finding 5, through the built binary: trusting a workspace's
//! command reviewer trusts the content of every workspace file its
//! `command` names (`["./tools/review.sh"]`, `["sh", "tools/review.sh"]`),
//! not the name. A pull that changes the file untrusts the table: the new
//! content never runs, the user is told once (with the command to re-trust)
//! and stderr says it at every stop. `advisor trust` says the program is a
//! workspace file and gives no base-URL warning for a command table. Failed
//! on the code before the fix (see docs/security.md).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::{Value, json};

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("advisor-cli-cmdfiles-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["ws/.advisor", "ws/tools", "home"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let example =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-passing-rerun.jsonl");
        std::fs::copy(example, dir.join("t.jsonl")).unwrap();
        Scratch(std::fs::canonicalize(&dir).unwrap())
    }

    fn ws(&self) -> PathBuf {
        self.0.join("ws")
    }

    /// The workspace's reviewer script: records `tag` as having run, then
    /// answers with a blocker note carrying `tag`.
    fn script(&self, tag: &str) {
        let path = self.ws().join("tools/review.sh");
        let note = format!(
            r#"{{"notes":[{{"text":"{tag}: the rerun output shows no summary.","severity":"blocker","evidence":"test result: FAILED. 41 passed; 1 failed"}}]}}"#
        );
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\n# derived: written by this test\ncat > /dev/null\ntouch \"$SCRATCH/{tag}\"\necho '{note}'\n"
            ),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }

    fn ran(&self, tag: &str) -> bool {
        self.0.join(tag).exists()
    }

    fn cmd(&self) -> Command {
        let mut c = Command::cargo_bin("advisor").unwrap();
        c.env_clear()
            .env("HOME", self.0.join("home"))
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("SCRATCH", &self.0)
            .current_dir(self.ws());
        c
    }

    fn trust(&self) -> (String, String) {
        let out = self.cmd().args(["trust", "--yes"]).arg(self.ws()).output().unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        (text(&out.stdout), text(&out.stderr))
    }

    /// Runs the hook; stdout and stderr.
    fn hook(&self) -> (String, String) {
        let input = json!({"session_id": "s1", "transcript_path": self.0.join("t.jsonl"), "cwd": self.ws(),
                           "hook_event_name": "Stop", "stop_hook_active": false});
        let out = self.cmd().arg("hook").write_stdin(input.to_string()).output().unwrap();
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

/// The `systemMessage` of a hook's reply, if any.
fn shown(stdout: &str) -> Option<String> {
    let v: Value = serde_json::from_str(stdout.trim()).ok()?;
    v["systemMessage"].as_str().map(str::to_owned)
}

/// Trust, run, change the file, run twice, re-trust, run: for `command`.
fn a_changed_workspace_program_never_runs_until_trusted_again(name: &str, command: &str) {
    let s = Scratch::new(name);
    s.script("RAN_V1");
    std::fs::write(
        s.ws().join(".advisor/config.toml"),
        format!("timeout_secs = 30\n\n[reviewer]\nkind = \"command\"\ncommand = {command}\nscope = \"full\"\n"),
    )
    .unwrap();
    let (display, _) = s.trust();
    let (out, err) = s.hook();
    assert!(s.ran("RAN_V1") && out.contains("RAN_V1"), "{out}\n{err}");

    // a pull changes the script: the new content never runs
    s.script("RAN_V2");
    let (out, err) = s.hook();
    assert!(
        !s.ran("RAN_V2"),
        "{command}: the changed workspace script ran without a new trust step: {out}\n{err}"
    );
    let trust = format!("advisor trust {}", s.ws().display());
    let told = shown(&out).unwrap_or_default();
    assert!(
        told.contains(&trust) && told.contains("tools/review.sh"),
        "the user was not told, with the command to re-trust: {out}\n{err}"
    );
    assert!(err.contains(&trust), "{err}");
    // told once: the next stop says it on stderr only
    let (out, err) = s.hook();
    assert!(!s.ran("RAN_V2"), "{out}\n{err}");
    assert_eq!(shown(&out), None, "told the user a second time: {out}");
    assert!(err.contains(&trust), "{err}");

    // trusted again: the new content runs
    let (out, _) = s.trust();
    assert!(out.contains("tools/review.sh"), "{out}");
    let (out, err) = s.hook();
    assert!(s.ran("RAN_V2") && out.contains("RAN_V2"), "{out}\n{err}");
    // what the person was shown at the first trust
    assert!(
        display.contains("workspace file") && display.contains("tools/review.sh"),
        "the trust display does not say the program is a workspace file: {display}"
    );
    assert!(
        !display.contains("base URL"),
        "a base-URL warning for a command table: {display}"
    );
}

#[test]
fn a_changed_workspace_program_named_as_the_command_never_runs_until_trusted_again() {
    a_changed_workspace_program_never_runs_until_trusted_again("dot", r#"["./tools/review.sh"]"#);
}

#[test]
fn a_changed_workspace_script_given_to_an_interpreter_never_runs_until_trusted_again() {
    a_changed_workspace_program_never_runs_until_trusted_again("sh", r#"["sh", "tools/review.sh"]"#);
}

#[test]
fn a_workspace_file_reached_through_a_link_or_an_absolute_path_is_fingerprinted_too() {
    for (name, command) in [
        ("abs", "[\"sh\", \"{ws}/tools/review.sh\"]".to_owned()),
        ("up", "[\"sh\", \"../ws/tools/review.sh\"]".to_owned()),
        ("opt", "[\"sh\", \"--script=tools/review.sh\"]".to_owned()),
    ] {
        let s = Scratch::new(name);
        s.script("RAN_V1");
        let command = command.replace("{ws}", &s.ws().display().to_string());
        std::fs::write(
            s.ws().join(".advisor/config.toml"),
            format!("[reviewer]\nkind = \"command\"\ncommand = {command}\nscope = \"full\"\n"),
        )
        .unwrap();
        let (display, _) = s.trust();
        s.script("RAN_V2");
        let (out, err) = s.hook();
        assert!(!s.ran("RAN_V2"), "{command}: the changed script ran: {out}\n{err}");
        assert!(err.contains("changed since you trusted"), "{command}: {err}");
        assert!(display.contains("workspace file"), "{command}: {display}");
    }
}

#[test]
fn the_trust_display_of_a_command_table_warns_of_a_workspace_directory_and_not_of_a_url() {
    let s = Scratch::new("display");
    std::fs::write(
        s.ws().join(".advisor/config.toml"),
        "[reviewer]\nkind = \"command\"\ncommand = [\"node\", \"tools\"]\n",
    )
    .unwrap();
    let (out, _) = s.trust();
    assert!(!out.contains("base URL") && !out.contains("host:"), "{out}");
    assert!(out.contains("workspace directory") && out.contains("tools"), "{out}");
}
