//! The one way `advisor hook`, `advisor review` and `advisor mcp` load a
//! workspace's advisor, so the same transcript gets the same verdict from
//! all three.
//!
//! Owns [`Setup`] and [`load`]: the workspace's config under the trust rules
//! (`resolve` against the user's own config, which is ignored — and the
//! command told why — when the workspace could have placed it), the
//! workspace's `package.json` scripts for the rules reviewer, and the plugin
//! builder with the reviewer that config allows, named for the user. A
//! workspace that has not opted in (or turned the advisor off) gets the
//! defaults; [`Setup::opted_in`] says so, and each command decides what that
//! means for it (the hook does nothing). Must not review anything or print.

use std::path::Path;

use advisor::error::Error;
use advisor::plugin::AdvisorPluginBuilder;

use crate::config::{ReviewerSource, UserConfig, WorkspaceConfig, resolve};

/// A workspace's advisor as every finish command loads it.
#[derive(Debug)]
pub(crate) struct Setup {
    /// The effective config: the workspace's under the trust rules, or the
    /// defaults when it has not opted in; the package scripts filled in.
    pub(crate) config: WorkspaceConfig,
    /// Whether the workspace opted in (its `.advisor/config.toml`, or a grant
    /// in the user config) and did not turn the advisor off.
    pub(crate) opted_in: bool,
    /// Where the reviewer the config allows came from.
    pub(crate) source: ReviewerSource,
    /// Why the user config was ignored, when it was, for the command to say.
    pub(crate) notice: Option<String>,
}

/// Loads `workspace`'s advisor: an error when a config cannot be read or is
/// invalid, or when the workspace's own `[reviewer]` table is not trusted
/// (its message names `advisor trust`).
pub(crate) fn load(workspace: &Path) -> Result<Setup, Error> {
    let (user, notice) = UserConfig::load_for(workspace)?;
    let (mut config, source, opted_in) = match resolve(workspace, &user)? {
        Some(r) => (r.config, r.reviewer_source, true),
        None => (WorkspaceConfig::default(), ReviewerSource::Rules, false),
    };
    config.rules.package_scripts = crate::package_scripts::read(workspace);
    Ok(Setup {
        config,
        opted_in,
        source,
        notice,
    })
}

impl Setup {
    /// The plugin builder of this setup and its reviewer's name: `rules`,
    /// `model <name>` or `command …`, with where a model or command came
    /// from (`… (user config)`, `… (trusted workspace config)`).
    pub(crate) fn builder(&self) -> Result<(AdvisorPluginBuilder, String), Error> {
        let chosen = self.config.chosen_reviewer()?;
        let label = match self.source {
            ReviewerSource::UserConfig => format!("{} (user config)", chosen.label),
            ReviewerSource::TrustedWorkspace => format!("{} (trusted workspace config)", chosen.label),
            _ => chosen.label,
        };
        Ok((self.config.plugin_builder_with(chosen.reviewer)?, label))
    }
}
