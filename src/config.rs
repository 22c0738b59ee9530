//! Workspace opt-in: `.advisor/config.toml`, and building an
//! [`AdvisorPlugin`] from it.
//!
//! Owns [`AdvisorConfig`] (enabled, reviewer kind and model settings, caps,
//! periodic interval, severity clamp, shadow mode), its strict parsing — an
//! unknown key is an error naming the key and its line — the commented
//! [`STARTER_CONFIG`] that `advisor init` writes, and
//! [`AdvisorPlugin::from_config`] / [`AdvisorPlugin::from_workspace`]. A
//! workspace without the file has not opted in. Must not run reviews.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind};
use crate::note::Severity;
use crate::plugin::{AdvisorPlugin, AdvisorPluginBuilder};
use crate::review::{Reviewer, RulesReviewer};

/// Where a workspace's config lives, relative to its root.
pub const CONFIG_PATH: &str = ".advisor/config.toml";

/// The commented starter file `advisor init` writes.
pub const STARTER_CONFIG: &str = r#"# advisor: a second opinion before your agent finishes.
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
# Shadow mode: review and record, never send anything to the agent.
shadow = false
# What the hook shows the user: "quiet" (only when the agent is sent back) or
# "summary" (also a one-line verdict on a pass with notes, in shadow mode and
# when the review allowance is spent).
verdict = "quiet"
# Seconds a review may take before the stop goes through without it.
timeout_secs = 30

[reviewer]
# "rules": offline checks (failing tests behind a success claim, unrecovered
# tool failures, stub markers). "model": an OpenAI-compatible model.
kind = "rules"
# For kind = "model":
# model = "gpt-4o-mini"
# base_url = "https://api.openai.com/v1"
# api_key_env = "ADVISOR_API_KEY"    # the key is read from this variable
# structured_output = "json_schema"  # or "json_object" (llama.cpp) or "none"
"#;

/// Which reviewer a workspace uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewerKind {
    /// The offline [`RulesReviewer`].
    #[default]
    Rules,
    /// A [`ModelReviewer`](crate::review::ModelReviewer) over an
    /// OpenAI-compatible endpoint (feature `http`).
    Model,
}

/// A severity name, strictly one of the three.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeverityName {
    /// `nit`
    Nit,
    /// `concern`
    Concern,
    /// `blocker`
    #[default]
    Blocker,
}

impl From<SeverityName> for Severity {
    fn from(s: SeverityName) -> Severity {
        match s {
            SeverityName::Nit => Severity::Nit,
            SeverityName::Concern => Severity::Concern,
            SeverityName::Blocker => Severity::Blocker,
        }
    }
}

/// How a model reviewer asks for JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    /// `json_schema` (OpenAI, vLLM).
    #[default]
    JsonSchema,
    /// `json_object` with a `schema` (llama.cpp).
    JsonObject,
    /// No `response_format`.
    None,
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

/// The `[reviewer]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewerSettings {
    /// Rules or model.
    #[serde(default)]
    pub kind: ReviewerKind,
    /// Model name (kind = "model").
    #[serde(default)]
    pub model: Option<String>,
    /// Base URL of the OpenAI-compatible API (kind = "model").
    #[serde(default)]
    pub base_url: Option<String>,
    /// Environment variable holding the API key (default `ADVISOR_API_KEY`;
    /// unset means no key, as local servers need none).
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// Structured output mode.
    #[serde(default)]
    pub structured_output: OutputMode,
}

impl Default for ReviewerSettings {
    fn default() -> Self {
        ReviewerSettings {
            kind: ReviewerKind::Rules,
            model: None,
            base_url: None,
            api_key_env: None,
            structured_output: OutputMode::default(),
        }
    }
}

fn default_true() -> bool {
    true
}
fn default_rounds() -> u32 {
    crate::plugin::DEFAULT_MAX_ROUNDS
}
fn default_notes() -> usize {
    crate::guard::DEFAULT_MAX_NOTES_PER_REVIEW
}
fn default_timeout() -> u64 {
    30
}

/// A workspace's advisor settings (`.advisor/config.toml`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdvisorConfig {
    /// Whether the advisor runs (default true: the file is the opt-in).
    #[serde(default = "default_true")]
    pub enabled: bool,
    /// Finish reviews per user request.
    #[serde(default = "default_rounds")]
    pub max_rounds: u32,
    /// Notes that may reach the agent per review.
    #[serde(default = "default_notes")]
    pub max_notes_per_review: usize,
    /// Periodic review every N completed turns (0: finish only).
    #[serde(default)]
    pub interval_turns: u32,
    /// Highest severity the reviewer may raise.
    #[serde(default)]
    pub max_severity: SeverityName,
    /// Review and record, never inject.
    #[serde(default)]
    pub shadow: bool,
    /// What the hook shows the user (`quiet` or `summary`).
    #[serde(default)]
    pub verdict: Verdict,
    /// Seconds a review may take.
    #[serde(default = "default_timeout")]
    pub timeout_secs: u64,
    /// The reviewer.
    #[serde(default)]
    pub reviewer: ReviewerSettings,
}

impl Default for AdvisorConfig {
    fn default() -> Self {
        AdvisorConfig {
            enabled: true,
            max_rounds: default_rounds(),
            max_notes_per_review: default_notes(),
            interval_turns: 0,
            max_severity: SeverityName::Blocker,
            shadow: false,
            verdict: Verdict::Quiet,
            timeout_secs: default_timeout(),
            reviewer: ReviewerSettings::default(),
        }
    }
}

impl AdvisorConfig {
    /// Parses config text; `name` (the file) is used in errors, which name the
    /// offending key and its line.
    pub fn parse(name: &str, text: &str) -> Result<AdvisorConfig, Error> {
        toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| {
                text.as_bytes()[..s.start.min(text.len())]
                    .iter()
                    .filter(|b| **b == b'\n')
                    .count()
                    + 1
            });
            let what = e.message().trim().to_owned();
            let at = match line {
                Some(l) => format!("{name}:{l}"),
                None => name.to_owned(),
            };
            Error::new(ErrorKind::Config, format!("{at}: {what}"))
        })
    }

    /// The config file of `workspace`.
    pub fn path_in(workspace: &Path) -> PathBuf {
        workspace.join(CONFIG_PATH)
    }

    /// Loads `workspace`'s config; `Ok(None)` when the workspace has not opted in.
    pub fn load(workspace: &Path) -> Result<Option<AdvisorConfig>, Error> {
        let path = AdvisorConfig::path_in(workspace);
        match std::fs::read_to_string(&path) {
            Ok(text) => AdvisorConfig::parse(&path.display().to_string(), &text).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::new(
                ErrorKind::Config,
                format!("{}: cannot read it: {e}", path.display()),
            )),
        }
    }

    /// A plugin builder set up from this config, for hosts that add their own
    /// callbacks or trace sink before `build()`.
    pub fn plugin_builder(&self) -> Result<AdvisorPluginBuilder, Error> {
        if self.timeout_secs == 0 {
            return Err(Error::config("timeout_secs", "must be at least 1"));
        }
        Ok(AdvisorPlugin::builder()
            .shared_reviewer(self.build_reviewer()?)
            .enabled(self.enabled)
            .max_rounds(self.max_rounds)
            .max_notes_per_review(self.max_notes_per_review)
            .interval_turns(self.interval_turns)
            .max_severity(self.max_severity.into())
            .shadow(self.shadow)
            .timeout(Duration::from_secs(self.timeout_secs)))
    }

    /// The reviewer these settings describe.
    pub fn build_reviewer(&self) -> Result<Arc<dyn Reviewer>, Error> {
        match self.reviewer.kind {
            ReviewerKind::Rules => Ok(Arc::new(RulesReviewer::new())),
            ReviewerKind::Model => self.model_reviewer(),
        }
    }

    #[cfg(feature = "http")]
    fn model_reviewer(&self) -> Result<Arc<dyn Reviewer>, Error> {
        use crate::model::{OpenAiCompatible, StructuredOutput};
        let r = &self.reviewer;
        let model = r
            .model
            .as_deref()
            .filter(|m| !m.trim().is_empty())
            .ok_or_else(|| Error::config("reviewer.model", "is required when reviewer.kind = \"model\""))?;
        let base = r
            .base_url
            .as_deref()
            .ok_or_else(|| Error::config("reviewer.base_url", "is required when reviewer.kind = \"model\""))?;
        let mut b = OpenAiCompatible::builder(base, model)
            .structured_output(match r.structured_output {
                OutputMode::JsonSchema => StructuredOutput::JsonSchema,
                OutputMode::JsonObject => StructuredOutput::JsonObjectWithSchema,
                OutputMode::None => StructuredOutput::None,
            })
            .timeout(Duration::from_secs(self.timeout_secs.max(1)));
        let var = r.api_key_env.clone().unwrap_or_else(|| "ADVISOR_API_KEY".to_owned());
        if let Ok(key) = std::env::var(&var) {
            if !key.is_empty() {
                b = b.api_key(key);
            }
        } else if r.api_key_env.is_some() {
            return Err(Error::config(
                "reviewer.api_key_env",
                format!("the environment variable {var} is not set"),
            ));
        }
        let model = b.build()?;
        Ok(Arc::new(
            crate::review::ModelReviewer::new(model).max_notes(self.max_notes_per_review),
        ))
    }

    #[cfg(not(feature = "http"))]
    fn model_reviewer(&self) -> Result<Arc<dyn Reviewer>, Error> {
        Err(Error::config(
            "reviewer.kind",
            "\"model\" needs the crate's `http` feature; use \"rules\" or rebuild with it",
        ))
    }
}

impl AdvisorPlugin {
    /// Builds the plugin a config describes (a disabled config builds a plugin
    /// that declines every run).
    pub fn from_config(config: &AdvisorConfig) -> Result<AdvisorPlugin, Error> {
        config.plugin_builder()?.build()
    }

    /// The plugin for `workspace`, or `None` when it has not opted in
    /// (no `.advisor/config.toml`) or has turned the advisor off.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join("advisor-doc-no-config");
    /// assert!(advisor::AdvisorPlugin::from_workspace(&dir)?.is_none());
    /// # Ok::<(), advisor::Error>(())
    /// ```
    pub fn from_workspace(workspace: &Path) -> Result<Option<AdvisorPlugin>, Error> {
        match AdvisorConfig::load(workspace)? {
            Some(c) if c.enabled => AdvisorPlugin::from_config(&c).map(Some),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starter_file_parses_to_the_defaults() {
        let c = AdvisorConfig::parse("starter", STARTER_CONFIG).unwrap();
        assert_eq!(c, AdvisorConfig::default());
        assert!(AdvisorPlugin::from_config(&c).is_ok());
    }

    #[test]
    fn unknown_keys_are_errors_naming_the_key_and_line() {
        let text = "enabled = true\nmax_rounds = 2\nmax_round = 3\n";
        let err = AdvisorConfig::parse(".advisor/config.toml", text).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains(".advisor/config.toml:3"), "{msg}");
        assert!(msg.contains("max_round"), "{msg}");
        let err = AdvisorConfig::parse("c", "[reviewer]\nkind = \"rules\"\nmodle = \"x\"\n").unwrap_err();
        assert!(
            err.to_string().contains("c:3") && err.to_string().contains("modle"),
            "{err}"
        );
        let err = AdvisorConfig::parse("c", "max_severity = \"critical\"\n").unwrap_err();
        assert!(err.to_string().contains("c:1"), "{err}");
    }

    #[test]
    fn bad_values_are_config_errors() {
        let c = AdvisorConfig {
            max_rounds: 0,
            ..AdvisorConfig::default()
        };
        assert_eq!(AdvisorPlugin::from_config(&c).unwrap_err().field(), Some("max_rounds"));
        let c = AdvisorConfig {
            reviewer: ReviewerSettings {
                kind: ReviewerKind::Model,
                ..ReviewerSettings::default()
            },
            ..AdvisorConfig::default()
        };
        assert!(AdvisorPlugin::from_config(&c).is_err());
    }
}
