//! The command reviewer's presets through `advisor hook`, with stand-in
//! `claude` and `gemini` programs on `PATH` (shell scripts written by the
//! test, marked derived; the real CLIs run in the live-host suite, e2e/):
//! a preset's prompt says it has read-only tools for checking the answer's
//! claims and that notes cite what was read (never "you have no tools"),
//! and the `gemini` preset leaves none of the session files Gemini CLI
//! 0.61.0 writes under `~/.gemini` for the folder it ran in, while another
//! project's files there stay; the `gemini` preset passes a `--policy` file
//! of its own (deny every tool but the four read-only ones) from the
//! review's scratch folder, and the `codex` preset runs in the read-only
//! sandbox with web search, sub-agents and goals off.
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
        // one full review per stop (`scope = "full"`): the transcript is a
        // passing rerun, which the rules of the default `claims` scope would
        // not contest, so the preset would never run
        let config = format!(
            "[reviewer]\nkind = \"command\"\npreset = \"{preset}\"\nscope = \"full\"\n\n[workspaces.\"{}\"]\nopt_in = true\n",
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
    // a blocker must quote its evidence from the transcript: the preset's own
    // reads are not in the prompt, so they cannot anchor one
    assert!(
        stdin.contains("must carry \"evidence\"") && stdin.contains("\"evidence\":\"...\""),
        "{stdin}"
    );
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

/// The stand-in's recorded argv, one argument a line.
fn recorded_argv(s: &Scratch, err: &str) -> Vec<String> {
    let argv =
        std::fs::read_to_string(s.0.join("argv")).unwrap_or_else(|e| panic!("the stand-in never ran ({e}): {err}"));
    argv.lines().map(str::to_owned).collect()
}

fn has_pair(argv: &[String], a: &str, b: &str) -> bool {
    argv.windows(2).any(|w| w[0] == a && w[1] == b)
}

#[test]
fn the_gemini_preset_denies_every_tool_but_the_four_read_only_ones_by_a_policy_file_of_its_own() {
    let s = Scratch::new("gemini-policy", "gemini");
    s.fake(
        "gemini",
        r#"printf '%s\n' "$@" > "$SCRATCH/argv"
printf '%s' "$PWD" > "$SCRATCH/cwd"
prev=
for a in "$@"; do
  if [ "$prev" = "--policy" ]; then cp "$a" "$SCRATCH/policy.toml"; fi
  prev="$a"
done
cat > /dev/null
echo '{"response":"{\"notes\":[]}","stats":{}}'"#,
    );
    let (_, err) = s.hook();
    let argv = recorded_argv(&s, &err);
    assert!(has_pair(&argv, "--approval-mode", "plan"), "{argv:?}");
    let at = argv
        .iter()
        .position(|a| a == "--policy")
        .unwrap_or_else(|| panic!("no --policy: {argv:?}"));
    let policy = PathBuf::from(&argv[at + 1]);
    // the file lives in the review's own scratch folder (the CLI's working directory), never the workspace
    let cwd = std::fs::read_to_string(s.0.join("cwd")).unwrap();
    assert_eq!(policy.parent(), Some(Path::new(&cwd)), "{argv:?}");
    assert!(!policy.starts_with(s.0.join("ws")), "{argv:?}");
    assert!(!policy.exists(), "the policy file outlived its review");
    let text = std::fs::read_to_string(s.0.join("policy.toml")).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    let rules = doc["rule"].as_array().unwrap();
    let find = |decision: &str| {
        rules
            .iter()
            .find(|r| r["decision"].as_str() == Some(decision))
            .unwrap_or_else(|| panic!("no {decision} rule: {text}"))
    };
    let (deny, allow) = (find("deny"), find("allow"));
    assert_eq!(rules.len(), 2, "{text}");
    assert_eq!(deny["toolName"].as_str(), Some("*"), "{text}");
    let allowed: Vec<&str> = allow["toolName"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        allowed,
        ["read_file", "list_directory", "glob", "grep_search"],
        "{text}"
    );
    assert!(
        allow["priority"].as_integer() > deny["priority"].as_integer(),
        "the allow rule must win over the catch-all deny: {text}"
    );
    for rule in rules {
        assert!(
            rule.get("modes").is_none() && rule.get("argsPattern").is_none(),
            "a rule for every mode and every call: {text}"
        );
    }
}

#[test]
fn the_codex_preset_runs_in_the_read_only_sandbox_without_web_search_or_sub_agents() {
    let s = Scratch::new("codex-argv", "codex");
    s.fake(
        "codex",
        r#"printf '%s\n' "$@" > "$SCRATCH/argv"
prev=
for a in "$@"; do
  if [ "$prev" = "--output-last-message" ]; then printf '%s' '{"notes":[]}' > "$a"; fi
  prev="$a"
done
cat > /dev/null"#,
    );
    let (_, err) = s.hook();
    let argv = recorded_argv(&s, &err);
    assert_eq!(argv[0], "exec", "{argv:?}");
    for (a, b) in [
        ("--sandbox", "read-only"),
        ("-c", "web_search=\"disabled\""),
        ("--disable", "multi_agent"),
        ("--disable", "goals"),
        ("-c", "tools.experimental_request_user_input.enabled=false"),
        ("--disable", "hooks"),
    ] {
        assert!(has_pair(&argv, a, b), "no {a} {b}: {argv:?}");
    }
    assert!(
        !argv.iter().any(|a| a == "--search" || a.contains("danger")),
        "{argv:?}"
    );
}
