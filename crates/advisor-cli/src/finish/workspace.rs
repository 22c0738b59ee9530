//! The one way `advisor hook`, `advisor review` and `advisor mcp` load a
//! workspace's advisor, so the same transcript gets the same verdict from
//! all three.
//!
//! Owns [`Setup`] and [`load`]: the workspace's config under the trust rules
//! (`resolve` against the user's own config, which is ignored — and the
//! command told why — when the workspace could have placed it), the
//! workspace's `package.json` scripts for the rules reviewer. A
//! workspace that has not opted in (or turned the advisor off) gets the
//! defaults; [`Setup::opted_in`] says so, and each command decides what that
//! means for it (the hook does nothing). Must not review anything or print.

use std::path::Path;

use advisor::error::Error;

use crate::config::{UserConfig, WorkspaceConfig, resolve};

/// A workspace's advisor as every finish command loads it.
#[derive(Debug)]
pub(crate) struct Setup {
    /// The effective config: the workspace's under the trust rules, or the
    /// defaults when it has not opted in; the package scripts filled in.
    pub(crate) config: WorkspaceConfig,
    /// Whether the workspace opted in (its `.advisor/config.toml`, or a grant
    /// in the user config) and did not turn the advisor off.
    pub(crate) opted_in: bool,
    /// Why the user config was ignored, when it was, for the command to say.
    pub(crate) notice: Option<String>,
}

/// Loads `workspace`'s advisor: an error when a config cannot be read or is
/// invalid, or when the workspace's own `[reviewer]` table is not trusted
/// (its message names `advisor trust`).
pub(crate) fn load(workspace: &Path) -> Result<Setup, Error> {
    let (user, notice) = UserConfig::load_for(workspace)?;
    let (mut config, opted_in) = match resolve(workspace, &user)? {
        Some(r) => (r.config, true),
        None => (WorkspaceConfig::default(), false),
    };
    config.rules.package_scripts = crate::package_scripts::read(workspace);
    Ok(Setup {
        config,
        opted_in,
        notice,
    })
}
