//! The agent CLIs a command reviewer can run by name (`preset = "claude" |
//! "codex" | "gemini"`), and the argv of each.
//!
//! Owns [`Preset`] and its argv — headless, read-only tools only, no
//! workspace hooks, MCP servers or settings where the CLI has a flag for it,
//! no session kept — and Gemini CLI's tool policy ([`GEMINI_POLICY`]). The
//! flags are those of the CLIs' own `--help` and packages (Claude Code
//! 2.1.197, Codex CLI 0.171.0, Gemini CLI 0.61.0; see docs/reviewers.md), and
//! the tools each offers its model were recorded live (e2e/scenarios.py).
//! Must not run anything: `command.rs` does.

use std::path::Path;

use advisor::review::Envelope;
use serde::{Deserialize, Serialize};

/// An agent CLI run as the reviewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Claude Code: `claude -p --output-format json`.
    Claude,
    /// Codex CLI: `codex exec` with its last message written to a file.
    Codex,
    /// Gemini CLI: `gemini --output-format json --approval-mode plan`.
    Gemini,
}

/// The read-only tools a Claude Code reviewer may use.
const CLAUDE_TOOLS: &str = "Read,Grep,Glob";

/// Gemini CLI's tool policy for a review, passed as `--policy FILE`: every
/// tool denied but the four read-only ones.
///
/// Plan mode alone (`--approval-mode plan`, the package's
/// `bundle/policies/plan.toml`) still offers the model `google_web_search`
/// (allowed by `bundle/policies/read-only.toml`), `write_file` and `replace`
/// (allowed for `.md` plan files), `exit_plan_mode`, `invoke_agent` and
/// `update_topic` (recorded live, Gemini CLI 0.61.0). A `--policy` file is
/// loaded in the user tier (`createPolicyEngineConfig`: a user-provided path
/// gets `USER_POLICY_TIER`, priority 4 + n/1000, above plan mode's default
/// tier) and replaces `~/.gemini/policies` for the run (`getPolicyDirectories`);
/// a tool whose first matching rule is an argument-free `deny` is left out of
/// the declarations sent to the model (`PolicyEngine.getExcludedTools`,
/// packages/core/src/policy/policy-engine.ts in the package's bundle), and
/// `toolName = "*"` matches every tool, MCP tools included (`ruleMatches`).
/// Nothing of the workspace's settings is read to build it.
pub(crate) const GEMINI_POLICY: &str = r#"# advisor: the tools of a review (read-only; no shell, edit, web or agent tool)
[[rule]]
toolName = "*"
decision = "deny"
priority = 900
denyMessage = "An advisor review has read-only tools only."

[[rule]]
toolName = ["read_file", "list_directory", "glob", "grep_search"]
decision = "allow"
priority = 950
"#;

/// The name of [`GEMINI_POLICY`]'s file in the review's scratch folder.
pub(crate) const GEMINI_POLICY_FILE: &str = "advisor-review-policy.toml";

impl Preset {
    /// The read-only tools the CLI has, as the review prompt names them.
    pub(crate) fn read_only_tools(self) -> &'static str {
        match self {
            Preset::Claude => "Read, Grep and Glob",
            // every command runs in the read-only sandbox
            Preset::Codex => "shell commands that read the workspace (cat, rg, git diff…; a read-only sandbox)",
            // plan mode's read-only tools (the package's policies/read-only.toml)
            Preset::Gemini => "read_file, list_directory, glob and grep_search",
        }
    }

    /// The argv (program first) and how the answer is wrapped; `last` is the
    /// file Codex writes its last message to.
    pub(crate) fn argv(self, model: Option<&str>, last: &Path, workspace: Option<&Path>) -> (Vec<String>, Envelope) {
        let s = |v: &[&str]| v.iter().map(|a| (*a).to_owned()).collect::<Vec<String>>();
        let (mut argv, envelope) = match self {
            // -p: headless, prompt from stdin; json: one result object;
            // --no-session-persistence: nothing saved; --setting-sources user:
            // no project or local settings (their hooks, permissions, MCP);
            // --strict-mcp-config without --mcp-config: no MCP server;
            // --tools: only these built-in tools exist; dontAsk: anything not
            // pre-approved is denied, never asked.
            Preset::Claude => (
                s(&[
                    "claude",
                    "-p",
                    "--output-format",
                    "json",
                    "--no-session-persistence",
                    "--setting-sources",
                    "user",
                    "--strict-mcp-config",
                    "--disable-slash-commands",
                    "--tools",
                    CLAUDE_TOOLS,
                    "--allowedTools",
                    CLAUDE_TOOLS,
                    "--permission-mode",
                    "dontAsk",
                ]),
                Envelope::ClaudeJson,
            ),
            // read-only sandbox for any command (its shell tools stay:
            // exec_command, write_stdin; no write, no network from a
            // command); --ephemeral: no session files; --ignore-rules: no
            // project execpolicy; --disable hooks: no hook of the workspace
            // or the user runs; web_search="disabled": no `web_search` tool
            // (Codex 0.171.0 offers it by default; the config enum is
            // disabled|cached|indexed|live); --disable multi_agent / goals
            // and request_user_input off: no sub-agent, goal or question
            // tools (recorded live); `-`: prompt on stdin.
            Preset::Codex => {
                let mut v = s(&[
                    "codex",
                    "exec",
                    "--sandbox",
                    "read-only",
                    "--ephemeral",
                    "--skip-git-repo-check",
                    "--ignore-rules",
                    "--disable",
                    "hooks",
                    "-c",
                    "web_search=\"disabled\"",
                    "--disable",
                    "multi_agent",
                    "--disable",
                    "goals",
                    "-c",
                    "tools.experimental_request_user_input.enabled=false",
                    "--color",
                    "never",
                    "--output-last-message",
                ]);
                v.push(last.display().to_string());
                (v, Envelope::LastMessageFile(last.to_path_buf()))
            }
            // plan: the read-only approval mode; --extensions none: no
            // extension (and its MCP servers) loads; -p: headless, appended
            // to the prompt on stdin. Headless Gemini CLI refuses an
            // untrusted folder (exit 55) and trusting the workspace would
            // load its settings, hooks and MCP servers, so it runs in an
            // empty scratch folder it may trust (--skip-trust) and reads the
            // workspace through --include-directories. The review's tool
            // policy (`--policy`, GEMINI_POLICY) is added per review
            // (`with_scratch`): its file lives in the scratch folder.
            Preset::Gemini => (
                s(&[
                    "gemini",
                    "--output-format",
                    "json",
                    "--approval-mode",
                    "plan",
                    "--extensions",
                    "none",
                    "--skip-trust",
                ]),
                Envelope::GeminiJson,
            ),
        };
        if let Some(m) = model.filter(|m| !m.trim().is_empty()) {
            argv.push(if self == Preset::Codex { "-m" } else { "--model" }.to_owned());
            argv.push(m.to_owned());
        }
        match self {
            Preset::Codex => argv.push("-".to_owned()),
            Preset::Gemini => {
                if let Some(ws) = workspace {
                    argv.push("--include-directories".to_owned());
                    argv.push(ws.display().to_string());
                }
                argv.push("-p".to_owned());
                argv.push("Review the evidence above and answer with the JSON object only.".to_owned());
            }
            Preset::Claude => {}
        }
        (argv, envelope)
    }

    /// The argv of one review whose private scratch folder is `scratch`:
    /// for Gemini CLI, [`GEMINI_POLICY`] written there and named by
    /// `--policy` right after the program; the others unchanged.
    pub(crate) fn with_scratch(self, argv: &[String], scratch: &Path) -> std::io::Result<Vec<String>> {
        if self != Preset::Gemini {
            return Ok(argv.to_vec());
        }
        let policy = scratch.join(GEMINI_POLICY_FILE);
        advisor::io::write_atomic(&policy, GEMINI_POLICY.as_bytes())?;
        let mut out = argv.to_vec();
        let at = out.len().min(1);
        out.splice(at..at, ["--policy".to_owned(), policy.display().to_string()]);
        Ok(out)
    }
}
