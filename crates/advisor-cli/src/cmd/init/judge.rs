//! `advisor init --judge`: the agent CLI the user is logged into as the judge
//! of every workspace.
//!
//! Owns choosing the judge (`--judge claude|codex|gemini|none`, or asked on
//! a terminal, with the CLIs found on `PATH` offered) and writing it to the
//! user's own config — never a workspace's, so no trust step is needed — as
//! `[reviewer] kind = "command"`, the preset and `scope = "claims"`, with
//! `toml_edit` so the file's comments, grants and other keys stay as they
//! were. An existing `[reviewer]` table is replaced only when the user says
//! so on the terminal or passes `--force`. It says what the judge's provider
//! sees. Must not touch a workspace's files or run the judge.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use crate::config::{UserConfig, read_config_file};
use crate::stdout::outln;
use crate::terminal::show;

/// The judge `advisor init` may set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum JudgeChoice {
    /// Claude Code (`claude`), under the user's Anthropic login.
    Claude,
    /// Codex (`codex`), under the user's OpenAI login.
    Codex,
    /// Gemini CLI (`gemini`), under the user's Google login.
    Gemini,
    /// No judge: the offline rules decide.
    None,
}

impl JudgeChoice {
    /// The preset's name and whose login it runs under.
    fn preset(self) -> Option<(&'static str, &'static str)> {
        match self {
            JudgeChoice::Claude => Some(("claude", "Anthropic")),
            JudgeChoice::Codex => Some(("codex", "OpenAI")),
            JudgeChoice::Gemini => Some(("gemini", "Google")),
            JudgeChoice::None => None,
        }
    }
}

/// Asks on the terminal which judge to use; `None` when stdin is no
/// terminal or the answer is empty.
pub(crate) fn ask() -> Option<JudgeChoice> {
    if !std::io::stdin().is_terminal() {
        return None;
    }
    let found: Vec<&str> = ["claude", "codex", "gemini"]
        .into_iter()
        .filter(|p| advisor::io::find_program(p, None).is_some())
        .collect();
    let offer = if found.is_empty() {
        "none found on PATH".to_owned()
    } else {
        found.join(", ")
    };
    eprint!(
        "Use an agent CLI you are logged into as the judge of contested claims, in all your workspaces? \
[claude/codex/gemini/none] (on PATH: {offer}): "
    );
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer).ok()?;
    match answer.trim().to_ascii_lowercase().as_str() {
        "claude" => Some(JudgeChoice::Claude),
        "codex" => Some(JudgeChoice::Codex),
        "gemini" => Some(JudgeChoice::Gemini),
        "none" => Some(JudgeChoice::None),
        _ => None,
    }
}

/// Whether the user says yes on the terminal to `question`.
fn confirm(question: &str) -> bool {
    if !std::io::stdin().is_terminal() {
        return false;
    }
    eprint!("{question} [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer).is_ok() && answer.trim().eq_ignore_ascii_case("y")
}

/// Writes `choice` as the judge in the user config at `path` (created if
/// missing), keeping its comments and grants; an existing `[reviewer]` is
/// replaced only with `force` or the user's yes. Returns what to tell the
/// user, or why nothing was written.
pub(crate) fn write(path: &Path, choice: JudgeChoice, force: bool) -> Result<String, String> {
    let Some((program, provider)) = choice.preset() else {
        return Ok("no judge: the offline rules decide on their own (your user config is unchanged)".to_owned());
    };
    let text = read_config_file(path).map_err(|e| e.to_string())?.unwrap_or_default();
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|_| format!("{} is not valid TOML; fix it or pass another config", show(path)))?;
    if doc.contains_key("reviewer")
        && !force
        && !confirm(&format!("{} already has a [reviewer] table; replace it?", show(path)))
    {
        return Err(format!(
            "{} already has a [reviewer] table; left unchanged (pass --force to replace it)",
            show(path)
        ));
    }
    let mut table = toml_edit::Table::new();
    table.insert("kind", toml_edit::value("command"));
    table.insert("preset", toml_edit::value(program));
    table.insert("scope", toml_edit::value("claims"));
    table
        .decor_mut()
        .set_prefix("\n# The judge of contested claims (`advisor init --judge`).\n");
    doc.insert("reviewer", toml_edit::Item::Table(table));
    let written = doc.to_string();
    // the result must read back as a user config, or nothing is written
    UserConfig::parse_text(&path.display().to_string(), &written).map_err(|e| e.to_string())?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", show(dir)))?;
    }
    advisor::io::write_atomic(path, written.as_bytes()).map_err(|e| format!("cannot write {}: {e}", show(path)))?;
    Ok(format!(
        "wrote [reviewer] preset = \"{program}\" to {}: in every workspace you opt in, the offline rules read each \
stop and `{program}` judges only the stops they contest. On such a stop it is run with your {provider} login and \
sees the user's request of that turn, the failing lines quoted from the tool output, the files the turn wrote and \
the final answer (a few hundred tokens); it may read the workspace with its read-only tools.",
        show(path)
    ))
}

/// `advisor init --judge …`: writes the judge and says so on stdout.
pub(crate) fn run(choice: JudgeChoice, force: bool) -> Result<(), String> {
    let path = UserConfig::default_path().ok_or("neither XDG_CONFIG_HOME nor HOME is set: no user config to write")?;
    let said = write(&path, choice, force)?;
    outln!("{said}");
    Ok(())
}
