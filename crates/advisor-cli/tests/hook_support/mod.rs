//! Shared helpers of the hook CLI tests: a scratch workspace, running
//! `advisor hook` with a JSON input, and the real-session fixtures.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use assert_cmd::Command;
use serde_json::Value;

/// A scratch workspace under the system temp dir, removed on drop.
pub(crate) struct Workspace(PathBuf);

impl Workspace {
    /// An opted-in workspace with `config` as its `.advisor/config.toml`.
    pub(crate) fn with_config(config: &str) -> Workspace {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "advisor-hook-test-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".advisor")).unwrap();
        // stub markers interrupt here, so that FLAGGED is blocked even when a
        // host sends no transcript (the default makes them nits, and only a
        // blocker re-opens unless `interrupt = "concern"`)
        std::fs::write(
            dir.join(".advisor/config.toml"),
            format!("{config}\n{CONCERNS_INTERRUPT}{STUBS_INTERRUPT}"),
        )
        .unwrap();
        Workspace(dir)
    }

    /// The workspace root.
    pub(crate) fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `text` to `name` in the workspace.
    pub(crate) fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Copies a real-session fixture into the workspace.
    pub(crate) fn fixture(&self, name: &str) -> PathBuf {
        let text = std::fs::read_to_string(fixture(name)).unwrap();
        self.write(name, &text)
    }

    /// The saved state of `file` under `.advisor/state`, if any.
    pub(crate) fn state(&self, file: &str) -> Option<Value> {
        let text = std::fs::read_to_string(self.0.join(".advisor/state").join(file)).ok()?;
        serde_json::from_str(&text).ok()
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A real-session fixture's path.
pub(crate) fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real")
        .join(name)
}

/// One line of a fixture (1-based), as written.
pub(crate) fn fixture_line(name: &str, n: usize) -> String {
    std::fs::read_to_string(fixture(name))
        .unwrap()
        .lines()
        .nth(n - 1)
        .unwrap()
        .to_owned()
}

/// What one hook run printed and returned.
#[derive(Debug)]
pub(crate) struct Run {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    pub(crate) code: i32,
}

impl Run {
    /// The stdout JSON, if any.
    pub(crate) fn json(&self) -> Option<Value> {
        let t = self.stdout.trim();
        (!t.is_empty()).then(|| serde_json::from_str(t).expect("stdout is one JSON object"))
    }

    /// The block reason in Claude Code / Codex / Gemini shape.
    pub(crate) fn blocked(&self) -> Option<String> {
        let v = self.json()?;
        v.get("decision")?;
        assert_eq!(v["decision"], "block");
        Some(v["reason"].as_str().unwrap().to_owned())
    }
}

/// Runs `advisor hook` with `input` on stdin and `args`.
pub(crate) fn hook(input: &str, args: &[&str]) -> Run {
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .arg("hook")
        .args(args)
        .write_stdin(input.to_owned())
        .output()
        .unwrap();
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// The top-level key every test workspace gets: a concern sends the agent
/// back (the default, `"blocker"`, shows it to the user instead).
pub(crate) const CONCERNS_INTERRUPT: &str = "interrupt = \"concern\"\n";

/// The `[rules]` table every test workspace gets: stub markers as concerns.
pub(crate) const STUBS_INTERRUPT: &str = "[rules]\nstub_markers = \"concern\"\n";

/// An answer the rules reviewer flags (a stub marker, a concern that
/// interrupts in the test workspaces): the stop is blocked while the
/// allowance lasts.
pub(crate) const FLAGGED: &str = "Done. The export still returns a placeholder value.";
/// An answer the rules reviewer has nothing to say about.
pub(crate) const CLEAN: &str = "Done: the function now returns the parsed value.";
