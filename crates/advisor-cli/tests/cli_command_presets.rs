//! The command reviewer's presets through `advisor hook`, with stand-in
//! `claude` and `gemini` programs on `PATH` (shell scripts written by the
//! test, marked derived; the real CLIs run in the live-host suite, e2e/):
//! a preset's prompt says it has read-only tools for checking the answer's
//! claims and that notes cite what was read (never "you have no tools"),
//! and the `gemini` preset leaves none of the session files Gemini CLI
//! 0.61.0 writes under `~/.gemini` for the folder it ran in, while another
//! project's files there stay.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::json;

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str, preset: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("advisor-preset-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for d in ["ws/.advisor", "home/.config/advisor", "bin"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        let dir = std::fs::canonicalize(&dir).unwrap();
        let example =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/transcripts/claude-passing-rerun.jsonl");
        std::fs::copy(example, dir.join("t.jsonl")).unwrap();
        let config = format!(
            "[reviewer]\nkind = \"command\"\npreset = \"{preset}\"\n\n[workspaces.\"{}\"]\nopt_in = true\n",
            dir.join("ws").display()
        );
        std::fs::write(dir.join("home/.config/advisor/config.toml"), config).unwrap();
        std::fs::write(dir.join("ws/.advisor/config.toml"), "timeout_secs = 30\n").unwrap();
        Scratch(dir)
    }

    /// A stand-in for the CLI `name` on PATH: `body` after the shebang.
    fn fake(&self, name: &str, body: &str) {
        let path = self.0.join("bin").join(name);
        std::fs::write(
            &path,
            format!("#!/bin/sh\n# derived: a stand-in for the {name} CLI written by this test\n{body}\n"),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }

    fn hook(&self) -> (String, String) {
        let input = json!({"session_id": "s1", "transcript_path": self.0.join("t.jsonl"), "cwd": self.0.join("ws"),
                           "hook_event_name": "Stop", "stop_hook_active": false});
        let path = format!(
            "{}:{}",
            self.0.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let out = Command::cargo_bin("advisor")
            .unwrap()
            .env_clear()
            .env("HOME", self.0.join("home"))
            .env("PATH", path)
            .env("SCRATCH", &self.0)
            .arg("hook")
            .write_stdin(input.to_string())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn a_presets_prompt_says_it_has_read_only_tools_and_that_notes_cite_what_was_read() {
    let s = Scratch::new("prompt", "claude");
    s.fake(
        "claude",
        r#"cat > "$SCRATCH/stdin"
echo '{"type":"result","is_error":false,"result":"{\"notes\":[]}"}'"#,
    );
    let (_, err) = s.hook();
    let stdin = std::fs::read_to_string(s.0.join("stdin")).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert!(stdin.contains("You review the work of an AI agent"), "{stdin}");
    assert!(!stdin.contains("you have no tools"), "{stdin}");
    assert!(
        stdin.contains("Tools: you may call Read, Grep and Glob") && stdin.contains("read-only"),
        "{stdin}"
    );
    assert!(stdin.contains("cites it (path and line)"), "{stdin}");
    assert!(
        !stdin.contains("at most 8 calls"),
        "a CLI's own tools have no advisor limit: {stdin}"
    );
}

#[test]
fn the_gemini_preset_keeps_no_session_of_its_review() {
    let s = Scratch::new("gemini", "gemini");
    let gemini = s.0.join("home/.gemini");
    // another project's session: it stays
    for base in ["tmp", "history"] {
        let other = gemini.join(base).join("other");
        std::fs::create_dir_all(other.join("chats")).unwrap();
        std::fs::write(other.join(".project_root"), "/elsewhere/other").unwrap();
        std::fs::write(other.join("chats/session-1.jsonl"), "{}\n").unwrap();
    }
    // what Gemini CLI 0.61.0 writes for the folder it runs in (ChatRecordingService,
    // ProjectRegistry): a chat and a history folder named after it, and a registry entry
    s.fake(
        "gemini",
        r#"slug=$(basename "$PWD")
for base in tmp history; do
  mkdir -p "$HOME/.gemini/$base/$slug/chats"
  printf '%s' "$PWD" > "$HOME/.gemini/$base/$slug/.project_root"
done
cat > "$HOME/.gemini/tmp/$slug/chats/session-2026-01-01T00-00-abcd.jsonl"
printf '{"projects":{"/elsewhere/other":"other","%s":"%s"}}' "$PWD" "$slug" > "$HOME/.gemini/projects.json"
touch "$SCRATCH/ran"
echo '{"response":"{\"notes\":[]}","stats":{}}'"#,
    );
    let (_, err) = s.hook();
    assert!(s.0.join("ran").exists(), "the stand-in gemini never ran: {err}");
    for base in ["tmp", "history"] {
        let left: Vec<String> = std::fs::read_dir(gemini.join(base))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["other"], "{base}: {err}");
        assert!(gemini.join(base).join("other/chats/session-1.jsonl").exists());
    }
    let registry: serde_json::Value =
        serde_json::from_slice(&std::fs::read(gemini.join("projects.json")).unwrap()).unwrap();
    assert_eq!(registry, json!({"projects": {"/elsewhere/other": "other"}}), "{err}");
}
