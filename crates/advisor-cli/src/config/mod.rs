//! Workspace opt-in and the trust model: which settings a cloned repository
//! may choose, and which only the user may.
//!
//! A workspace opts in with `.advisor/config.toml` ([`WorkspaceConfig`]). That
//! file is whatever was cloned, so it may only *tune*: enable, caps, rounds,
//! cadence, severity clamp, shadow mode, timeout. Everything that sends data
//! anywhere — the `[reviewer]` table (`kind = "model"`, `model`, `base_url`,
//! loopback included, `api_key_env`, `headers`, `structured_output`) — comes
//! from the user's own config ([`UserConfig`], under `$XDG_CONFIG_HOME` or
//! `~/.config`), or from a workspace file whose `[reviewer]` table the user
//! trusted with `advisor trust` (the user config records a SHA-256 of exactly
//! that table, `fingerprint.rs`, and of every workspace file a command table
//! names, `command_files.rs`). [`resolve`] applies these rules in one call;
//! [`WorkspaceConfig::load`] goes through it, so every host that loads a
//! workspace gets them.
//!
//! This file owns the workspace file's schema, its strict parsing (an unknown
//! key is an error naming its line, never the key: `toml_error.rs`), its
//! bounded reading, the commented starter file that `advisor init` writes,
//! and building a plugin from a resolved config; the `[reviewer]` table and
//! the one reviewer choice are `reviewer_table.rs`, the agent-CLI presets
//! and the command reviewer the crate's `reviewer` module. Must not run
//! reviews, and must never take a URL, model, header or key-variable name
//! from the environment.

pub(crate) mod command_files;
pub(crate) mod fingerprint;
mod resolve;
mod reviewer_table;
mod toml_error;
mod user;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use advisor::error::{Error, ErrorKind};
use advisor::note::Severity;
use advisor::plugin::{AdvisorPlugin, AdvisorPluginBuilder};
use advisor::review::Reviewer;
use advisor_rules::{RulesReviewer, RunKind};

pub use crate::reviewer::preset::Preset;
pub(crate) use resolve::shell_word;
pub use resolve::{Resolved, ReviewerSource, resolve};
pub(crate) use reviewer_table::build_model;
pub(crate) use reviewer_table::{
    ChosenReviewer, choose_reviewer, choose_reviewer_in, choose_with_judge, judge_for, prompt_of,
};
pub use reviewer_table::{ReviewerKind, ReviewerTable, Scope};
pub(crate) use toml_error::parse_toml;
pub use user::{UserConfig, WorkspaceGrant};

/// Where a workspace's config lives, relative to its root.
pub(crate) const CONFIG_PATH: &str = ".advisor/config.toml";

/// Largest config file read, workspace or user (bytes). A larger file — or a
/// device, FIFO or directory in its place — is refused at once.
pub(crate) const MAX_CONFIG_BYTES: u64 = 64 * 1024;

/// Longest `timeout_secs` a config may set. Larger values are rejected, not
/// clamped.
pub(crate) const MAX_TIMEOUT_SECS: u64 = 600;

/// The commented starter file `advisor init` writes.
pub(crate) const STARTER_CONFIG: &str = r#"# advisor: a second opinion before your agent finishes.
# This file opts the workspace in; delete it (or set enabled = false) to opt out.
enabled = true

# Finish reviews per user request (each review counts, re-open or not).
max_rounds = 2
# Notes that may reach the agent per review.
max_notes_per_review = 3
# Also review every N completed turns (0 = only at the finish).
interval_turns = 0
# Highest severity the reviewer may raise: "nit" (advise, never interrupt),
# "concern" or "blocker".
max_severity = "blocker"
# Which notes send the agent back: "blocker" (a concern is shown to you
# instead) or "concern" (both send it back).
interrupt = "blocker"
# Shadow mode: review and record, never send anything to the agent.
shadow = false
# What the hook shows the user: "quiet" (only when the agent is sent back) or
# "summary" (also a one-line verdict on a pass with notes, in shadow mode and
# when the review allowance is spent).
verdict = "quiet"
# Seconds a review may take, both stages, before the stop goes through without
# it (1 to 600); the host's own hook timeout must be longer.
timeout_secs = 30

# The reviewer. Without a [reviewer] table here, the one in your own config
# (~/.config/advisor/config.toml, or $XDG_CONFIG_HOME/advisor/config.toml —
# the place for it: `advisor init --judge claude` writes it there) is used,
# else the offline rules.
#
# A model or command reviewer sends the transcript somewhere, so this file
# cannot turn one on by itself: after writing a [reviewer] table here, run
# `advisor trust` in this workspace. Any later change to the table needs
# `advisor trust` again; changing the settings above does not.
#
# Tools of your agent that are not shells but run tests or builds, by name
# (shell commands are recognised by the command that ran).
# [rules]
# test_tools = ["run_tests"]
# build_tools = ["build"]
# stub_markers = "concern"              # send back answers that mention a TODO or placeholder (default "nit")
#
# [reviewer]
# kind = "command"                      # an agent CLI you are logged into, as the judge
# preset = "claude"                     # or "codex", "gemini"; or command = ["my-reviewer", "--json"]
# scope = "claims"                      # the rules find the evidence, the judge reads only contested
#                                       # claims (default); "full": a whole review on every stop
#
# [reviewer]
# kind = "model"                        # or "rules": offline checks
# model = "gpt-4o-mini"
# base_url = "https://api.openai.com/v1"
# api_key_env = "ADVISOR_API_KEY"       # the key is read from this variable
# structured_output = "json_schema"     # or "json_object" (llama.cpp) or "none"
"#;

/// Which notes send the agent back (`interrupt`): a blocker only, or a
/// concern too. Below it, an admitted concern goes to the user instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Interrupt {
    /// Only a blocker re-opens the run (the default); concerns are shown to
    /// the user.
    #[default]
    Blocker,
    /// A concern or a blocker re-opens the run (the library's default, the
    /// seed's rule).
    Concern,
}

impl Interrupt {
    /// The lowest severity that sends the agent back.
    pub fn severity(self) -> Severity {
        match self {
            Interrupt::Blocker => Severity::Blocker,
            Interrupt::Concern => Severity::Concern,
        }
    }
}

/// What `advisor hook` shows the user beside its decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Nothing unless the agent is sent back.
    #[default]
    Quiet,
    /// A one-line `systemMessage` on a pass with notes, in shadow mode and
    /// when the review allowance is spent.
    Summary,
}

/// The most finish reviews per request a workspace file may ask for: a
/// cloned repository must not be able to hold every stop of a session (code
/// and the builder may set more).
pub(crate) const MAX_WORKSPACE_ROUNDS: u32 = 10;
/// The largest periodic-review interval a workspace file may set.
pub(crate) const MAX_WORKSPACE_INTERVAL_TURNS: u32 = 1_000;

fn at_most<'de, D: serde::Deserializer<'de>>(d: D, max: u32, what: &str) -> Result<u32, D::Error> {
    let n = u32::deserialize(d)?;
    if n > max {
        return Err(serde::de::Error::custom(format!(
            "{what} must be at most {max} in a workspace file (a value above it is not shown)"
        )));
    }
    Ok(n)
}

fn at_most_rounds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    at_most(d, MAX_WORKSPACE_ROUNDS, "max_rounds")
}

fn at_most_interval<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    at_most(d, MAX_WORKSPACE_INTERVAL_TURNS, "interval_turns")
}

/// A workspace's advisor settings (`.advisor/config.toml`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkspaceConfig {
    /// Whether the advisor runs (default true: the file is the opt-in).
    pub enabled: bool,
    /// Finish reviews per user request (a workspace file sets at most
    /// 10).
    #[serde(deserialize_with = "at_most_rounds")]
    pub max_rounds: u32,
    /// Notes that may reach the agent per review.
    pub max_notes_per_review: usize,
    /// Periodic review every N completed turns (0: finish only; a workspace
    /// file sets at most 1 000).
    #[serde(deserialize_with = "at_most_interval")]
    pub interval_turns: u32,
    /// Highest severity the reviewer may raise (default blocker).
    pub max_severity: Severity,
    /// Review and record, never inject.
    pub shadow: bool,
    /// What the hook shows the user (`quiet` or `summary`).
    pub verdict: Verdict,
    /// Which notes send the agent back: `blocker` (the default) or
    /// `concern`. It sends nothing anywhere, so a workspace file may set it.
    pub interrupt: Interrupt,
    /// Seconds a review may take (1 to 600).
    pub timeout_secs: u64,
    /// Tokens the reviewers may spend per user request (absent: no limit;
    /// see `docs/budget.md`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_review_tokens: Option<u64>,
    /// Tokens the reviewers may spend per session (absent: no limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_session_review_tokens: Option<u64>,
    /// The largest prompt a model reviewer sends, in estimated tokens
    /// (absent: from the model's context, else the documented default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_prompt_tokens: Option<u64>,
    /// The reviewer; `None` when the file has no `[reviewer]` table (the
    /// user's reviewer, else the rules, is used).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviewer: Option<ReviewerTable>,
    /// The offline rules reviewer's settings (`[rules]`); they send nothing
    /// anywhere, so a workspace file may set them.
    #[serde(skip_serializing_if = "RulesSettings::is_empty")]
    pub rules: RulesSettings,
    /// The workspace this config is for (never from the file: [`resolve`]
    /// fills it), the root of the reviewer's workspace tools.
    #[serde(skip)]
    pub workspace: Option<PathBuf>,
}

/// The `[rules]` table: tools that are not shells but run tests or builds
/// (a host's own `run_tests` tool), by name. Shell commands are recognised
/// by the command that ran and need no entry.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RulesSettings {
    /// Tool names whose calls are test runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub test_tools: Vec<String>,
    /// Tool names whose calls are builds, type checks or lints.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub build_tools: Vec<String>,
    /// The severity of a note on a stub marker in the answer (`TODO`, a
    /// placeholder): `nit` when unset — the answer told the user itself —,
    /// `concern` or `blocker` to send such an answer back.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stub_markers: Option<Severity>,
    /// The workspace's package scripts, when the host read them (never from
    /// the file: `advisor hook` and `advisor review` fill it from
    /// `package.json`), so `npm run <script>` is judged as what it runs.
    #[serde(skip)]
    pub package_scripts: advisor_rules::Scripts,
}

impl RulesSettings {
    /// Whether the table sets nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.test_tools.is_empty() && self.build_tools.is_empty() && self.stub_markers.is_none()
    }

    /// The rules reviewer these settings describe.
    pub fn reviewer(&self) -> RulesReviewer {
        let tests = self.test_tools.iter().map(|t| (t, RunKind::Test));
        let builds = self.build_tools.iter().map(|t| (t, RunKind::Build));
        let rules = tests.chain(builds).fold(
            RulesReviewer::new().package_scripts(self.package_scripts.clone()),
            |r, (name, kind)| r.runner_tool(name.clone(), kind),
        );
        match self.stub_markers {
            Some(s) => rules.stub_markers(s),
            None => rules,
        }
    }
}

impl Default for WorkspaceConfig {
    fn default() -> Self {
        WorkspaceConfig {
            enabled: true,
            max_rounds: advisor::plugin::DEFAULT_MAX_ROUNDS,
            max_notes_per_review: advisor::guard::DEFAULT_MAX_NOTES_PER_REVIEW,
            interval_turns: 0,
            max_severity: Severity::Blocker,
            shadow: false,
            verdict: Verdict::Quiet,
            interrupt: Interrupt::Blocker,
            timeout_secs: advisor::plugin::DEFAULT_REVIEW_TIMEOUT.as_secs(),
            max_review_tokens: None,
            max_session_review_tokens: None,
            max_prompt_tokens: None,
            reviewer: None,
            rules: RulesSettings::default(),
            workspace: None,
        }
    }
}

/// Reads a config file within [`MAX_CONFIG_BYTES`], regular files only;
/// `Ok(None)` when there is none.
pub(crate) fn read_config_file(path: &Path) -> Result<Option<String>, Error> {
    match advisor::io::read_file_to_string(path, MAX_CONFIG_BYTES) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.is_not_found() => Ok(None),
        Err(e) => Err(Error::new(ErrorKind::Config, format!("cannot read the config: {e}"))),
    }
}

impl WorkspaceConfig {
    /// Parses config text; `name` (the file) is used in errors, which name the
    /// line and the kind of problem, never a key or value of the text.
    pub fn parse(name: &str, text: &str) -> Result<WorkspaceConfig, Error> {
        parse_toml(name, text)
    }

    /// The config file of `workspace`.
    pub(crate) fn path_in(workspace: &Path) -> PathBuf {
        workspace.join(CONFIG_PATH)
    }

    /// Reads `workspace`'s file as written, without applying the trust rules
    /// (for inspecting it, and for `advisor trust`). `Ok(None)` when there is
    /// no file. Hosts must use [`load`](Self::load) or [`resolve`] instead.
    pub fn read_file(workspace: &Path) -> Result<Option<WorkspaceConfig>, Error> {
        let path = WorkspaceConfig::path_in(workspace);
        read_config_file(&path)?
            .map(|text| WorkspaceConfig::parse(&path.display().to_string(), &text))
            .transpose()
    }

    /// The effective config of `workspace` under the trust rules, against the
    /// user's own config ([`UserConfig::load`]): `Ok(None)` when the
    /// workspace has not opted in or has turned the advisor off. A workspace
    /// file whose `[reviewer]` table asks for a model the user has not
    /// trusted is an [`ErrorKind::Untrusted`] error naming `advisor trust
    /// <path>`. The returned config's `reviewer` is the one allowed to run,
    /// so [`plugin_builder`](Self::plugin_builder) on it is safe. A user
    /// config inside the workspace or owned by another user is ignored (the
    /// hook says so).
    pub fn load(workspace: &Path) -> Result<Option<WorkspaceConfig>, Error> {
        WorkspaceConfig::load_with_notice(workspace).map(|(c, _)| c)
    }

    /// [`load`](Self::load), with the one-line reason the user config was
    /// ignored, if it was, for the host to say.
    pub(crate) fn load_with_notice(workspace: &Path) -> Result<(Option<WorkspaceConfig>, Option<String>), Error> {
        let (user, notice) = UserConfig::load_for(workspace)?;
        Ok((resolve(workspace, &user)?.map(|r| r.config), notice))
    }

    /// Checks the values a builder would also reject, naming the field.
    pub(crate) fn validate(&self) -> Result<(), Error> {
        if self.timeout_secs == 0 || self.timeout_secs > MAX_TIMEOUT_SECS {
            return Err(Error::config(
                "timeout_secs",
                format!("must be between 1 and {MAX_TIMEOUT_SECS}"),
            ));
        }
        Ok(())
    }

    /// A plugin builder set up from this config, for hosts that add their own
    /// callbacks or trace sink before `build()`. Use it on a config from
    /// [`load`](Self::load) or [`Resolved`]: a config built by hand is
    /// trusted as the code that built it.
    pub fn plugin_builder(&self) -> Result<AdvisorPluginBuilder, Error> {
        self.plugin_builder_with(self.build_reviewer()?)
    }

    /// [`plugin_builder`](Self::plugin_builder) with `reviewer` (the one
    /// [`chosen_reviewer`](Self::chosen_reviewer) built, or a command's own).
    pub(crate) fn plugin_builder_with(&self, reviewer: Arc<dyn Reviewer>) -> Result<AdvisorPluginBuilder, Error> {
        self.validate()?;
        Ok(AdvisorPlugin::builder()
            .shared_reviewer(reviewer)
            .enabled(self.enabled)
            .max_rounds(self.max_rounds)
            .max_notes_per_review(self.max_notes_per_review)
            .interval_turns(self.interval_turns)
            .max_severity(self.max_severity)
            .interrupt(self.interrupt.severity())
            .shadow(self.shadow)
            .timeout(Duration::from_secs(self.timeout_secs)))
        .map(|b| self.apply_budgets(b))
    }

    /// Applies the token budgets and prompt size that are set.
    fn apply_budgets(&self, mut b: AdvisorPluginBuilder) -> AdvisorPluginBuilder {
        if let Some(n) = self.max_review_tokens {
            b = b.max_review_tokens(n);
        }
        if let Some(n) = self.max_session_review_tokens {
            b = b.max_session_review_tokens(n);
        }
        if let Some(n) = self.max_prompt_tokens {
            b = b.max_prompt_tokens(n);
        }
        b
    }

    /// The model client the `[reviewer]` table describes (`kind = "model"`),
    /// or `None` for the rules reviewer. The one place a config becomes a
    /// network client: the model reviewer and `advisor mcp`'s consultations
    /// both come from here. Use it on a config from [`load`](Self::load) or
    /// [`Resolved`], so the trust rules have been applied.
    pub fn model_client(&self) -> Result<Option<advisor::model::OpenAiCompatible>, Error> {
        let Some(r) = self.reviewer.as_ref().filter(|r| r.kind == ReviewerKind::Model) else {
            return Ok(None);
        };
        self.validate()?;
        build_model(r, Duration::from_secs(self.timeout_secs)).map(Some)
    }

    /// The reviewer these settings describe ([`choose_reviewer`]).
    pub(crate) fn build_reviewer(&self) -> Result<Arc<dyn Reviewer>, Error> {
        self.chosen_reviewer().map(|c| c.reviewer)
    }

    /// The reviewer these settings describe, with its name.
    pub(crate) fn chosen_reviewer(&self) -> Result<ChosenReviewer, Error> {
        self.validate()?;
        let settings = self.reviewer.as_ref().filter(|r| r.sends_data());
        let timeout = Duration::from_secs(self.timeout_secs);
        choose_reviewer_in(settings, &self.rules, timeout, self.workspace.as_deref())
    }
}

/// Builds the plugin a config describes (a disabled config builds a plugin
/// that declines every run). Was `AdvisorPlugin::from_config` in the library.
pub(crate) fn plugin_from_config(config: &WorkspaceConfig) -> Result<AdvisorPlugin, Error> {
    config.plugin_builder()?.build()
}

/// The plugin for `workspace` under the trust rules ([`WorkspaceConfig::load`]),
/// or `None` when it has not opted in or has turned the advisor off. Was
/// `AdvisorPlugin::from_workspace` in the library.
///
/// ```
/// let dir = std::env::temp_dir().join("advisor-doc-no-config");
/// assert!(advisor_cli::config::plugin_from_workspace(&dir)?.is_none());
/// # Ok::<(), advisor::Error>(())
/// ```
pub fn plugin_from_workspace(workspace: &Path) -> Result<Option<AdvisorPlugin>, Error> {
    match WorkspaceConfig::load(workspace)? {
        Some(c) if c.enabled => plugin_from_config(&c).map(Some),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workspace_file_cannot_set_unbounded_rounds_or_intervals() {
        let err = WorkspaceConfig::parse("c", "enabled = true\nmax_rounds = 4294967295\n").unwrap_err();
        let text = err.to_string();
        assert!(text.contains(":2") && text.contains("at most 10"), "{text}");
        assert!(!text.contains("4294967295"), "the value is not echoed: {text}");
        assert!(WorkspaceConfig::parse("c", "max_rounds = 10\n").is_ok());
        let err = WorkspaceConfig::parse("c", "interval_turns = 1001\n").unwrap_err();
        assert!(err.to_string().contains("at most 1000"), "{err}");
    }

    #[test]
    fn the_starter_file_parses_to_the_defaults() {
        let c = WorkspaceConfig::parse("starter", STARTER_CONFIG).unwrap();
        assert_eq!(c, WorkspaceConfig::default());
        assert!(plugin_from_config(&c).is_ok());
    }

    #[test]
    fn unknown_keys_are_errors_naming_the_line_not_the_key() {
        let text = "enabled = true\nmax_rounds = 2\nmax_round = 3\n";
        let err = WorkspaceConfig::parse(".advisor/config.toml", text).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains(".advisor/config.toml:3: unknown key"), "{msg}");
        assert!(!msg.contains("`max_round`"), "{msg}");
        let err = WorkspaceConfig::parse("c", "[reviewer]\nkind = \"rules\"\nmodle = \"x\"\n").unwrap_err();
        assert!(
            err.to_string().contains("c:3: unknown key") && !err.to_string().contains("modle"),
            "{err}"
        );
        let err = WorkspaceConfig::parse("c", "max_severity = \"critical\"\n").unwrap_err();
        assert!(err.to_string().contains("c:1"), "{err}");
    }

    #[test]
    fn bad_values_are_config_errors() {
        let c = WorkspaceConfig {
            max_rounds: 0,
            ..WorkspaceConfig::default()
        };
        assert_eq!(plugin_from_config(&c).unwrap_err().field(), Some("max_rounds"));
        let c = WorkspaceConfig {
            reviewer: Some(ReviewerTable {
                kind: ReviewerKind::Model,
                ..ReviewerTable::default()
            }),
            ..WorkspaceConfig::default()
        };
        assert!(plugin_from_config(&c).is_err());
    }

    #[test]
    fn timeout_secs_has_an_upper_bound_that_is_rejected_not_clamped() {
        for bad in [0, MAX_TIMEOUT_SECS + 1, u64::MAX] {
            let c = WorkspaceConfig {
                timeout_secs: bad,
                ..WorkspaceConfig::default()
            };
            assert_eq!(plugin_from_config(&c).unwrap_err().field(), Some("timeout_secs"));
        }
        let c = WorkspaceConfig {
            timeout_secs: MAX_TIMEOUT_SECS,
            ..WorkspaceConfig::default()
        };
        assert!(plugin_from_config(&c).is_ok());
    }
}
