//! [`resolve`]: the one call a host makes to learn what a workspace may run.
//!
//! Owns the trust rules' decision: which file opts the workspace in, and
//! which `[reviewer]` table — the workspace's (only when its fingerprint
//! matches the one the user recorded), the user's, or none (the offline
//! rules) — is allowed to run. Must not read the environment (the caller
//! passes the [`UserConfig`]) and must not build clients except on request.

use std::path::{Path, PathBuf};

use super::user::workspace_key;
use super::{UserConfig, WorkspaceConfig, command_files, fingerprint};
use advisor::error::{Error, ErrorKind};
use advisor::plugin::AdvisorPluginBuilder;

/// Where the reviewer of a [`Resolved`] config came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReviewerSource {
    /// No model: the offline rules reviewer.
    Rules,
    /// The user's own config.
    UserConfig,
    /// The workspace file, whose `[reviewer]` table the user trusted.
    TrustedWorkspace,
}

/// A workspace's effective configuration under the trust rules.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Resolved {
    /// The workspace, canonicalised (the key trust records use).
    pub workspace: PathBuf,
    /// The effective settings: the workspace's caps and cadence, with the
    /// reviewer that is allowed to run.
    pub config: WorkspaceConfig,
    /// Where that reviewer came from.
    pub reviewer_source: ReviewerSource,
}

impl Resolved {
    /// A plugin builder for the effective settings.
    pub fn plugin_builder(&self) -> Result<AdvisorPluginBuilder, Error> {
        self.config.plugin_builder()
    }

    /// The HTTP client of the allowed model, `Ok(None)` when no model is
    /// configured (for hosts that talk to the model themselves, such as a
    /// consultation). The key's value is read from the variable the settings
    /// name, nothing else from the environment.
    pub fn chat_model(&self) -> Result<Option<advisor::model::OpenAiCompatible>, Error> {
        self.config.model_client()
    }
}

/// `path` as a shell word (single-quoted when it needs to be).
pub(crate) fn shell_word(path: &Path) -> String {
    let s = path.to_string_lossy();
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+,:@".contains(c)) {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Why a workspace's `[reviewer]` table may not run.
enum Refusal {
    /// The user never trusted it (or revoked the grant).
    NotTrusted,
    /// The user trusted it, but the table — or a workspace file its command
    /// names (listed) — changed since.
    Changed(Vec<String>),
    /// A workspace path its command names cannot be fingerprinted.
    Unfingerprintable(String),
}

fn untrusted(workspace: &Path, refusal: Refusal, command: bool) -> Error {
    let file = workspace.join(super::CONFIG_PATH);
    let cmd = format!("advisor trust {}", shell_word(workspace));
    let message = match refusal {
        Refusal::Changed(files) if files.is_empty() => format!(
            "the [reviewer] settings of {} changed since you trusted them, so nothing was sent; \
             check them and run `{cmd}` again to allow the new ones",
            file.display()
        ),
        Refusal::Changed(files) => format!(
            "the [reviewer] settings of {}, or the workspace file(s) its command names ({}), changed since you \
             trusted them, so nothing was run; check them and run `{cmd}` again to allow the new ones",
            file.display(),
            files.join(", ")
        ),
        Refusal::Unfingerprintable(why) => format!(
            "the reviewer command of {} names a workspace path that cannot be trusted ({why}), so nothing was run",
            file.display()
        ),
        Refusal::NotTrusted => {
            let what = if command {
                "a command reviewer, which runs a program with the transcript"
            } else {
                "a model reviewer, which sends the transcript to a server"
            };
            format!(
                "{} asks for {what}; this workspace's \
                 reviewer settings are not trusted, so nothing was sent or run; to allow them, run `{cmd}` \
                 (or name the reviewer in your own config instead)",
                file.display()
            )
        }
    };
    Error::new(ErrorKind::Untrusted, message).with_field("reviewer")
}

/// The effective configuration of `workspace` given the user's config:
///
/// - `Ok(None)`: the workspace has not opted in (no `.advisor/config.toml`
///   and no `opt_in` grant in the user config) or the file says
///   `enabled = false`;
/// - the workspace file's caps, rounds, cadence, severity and shadow mode are
///   always honoured;
/// - its `[reviewer]` table, when it asks for a model or a command, only if
///   the user recorded its fingerprint with `advisor trust` (for a command,
///   the content of every workspace file it names is part of it); otherwise an
///   [`ErrorKind::Untrusted`] error whose message names
///   `advisor trust <path>` (nothing is sent);
/// - without a `[reviewer]` table, the user config's reviewer, else the
///   offline rules.
///
/// The workspace file is read bounded (64 KiB,
/// regular files only), and so is each workspace file a command names (64 MiB). Hosts started from configuration a repository can
/// commit (`advisor hook`, `advisor mcp`) must take every network setting
/// from here and nothing from flags or the environment.
pub fn resolve(workspace: &Path, user: &UserConfig) -> Result<Option<Resolved>, Error> {
    let grant = user.grant(workspace);
    let mut config = match WorkspaceConfig::read_file(workspace)? {
        Some(c) => c,
        None if grant.is_some_and(|g| g.opt_in) => WorkspaceConfig::default(),
        None => return Ok(None),
    };
    if !config.enabled {
        return Ok(None);
    }
    let key = workspace_key(workspace);
    for table in [config.reviewer.as_ref(), user.reviewer.as_ref()].into_iter().flatten() {
        super::reviewer_table::check_scope(table)?;
    }
    let (reviewer, reviewer_source) = match config.reviewer.take() {
        Some(r) if r.sends_data() => {
            let command = r.kind == super::ReviewerKind::Command;
            // a command table's grant covers the content of the workspace files it names
            let named = match command {
                true => command_files::named_in(&r.command, &key)
                    .map_err(|why| untrusted(&key, Refusal::Unfingerprintable(why), command))?,
                false => Vec::new(),
            };
            let fp = fingerprint::fingerprint(&r, &named);
            match grant.and_then(|g| g.trusted_reviewer.as_deref()) {
                Some(t) if t == fp => (Some(r), ReviewerSource::TrustedWorkspace),
                Some(_) => {
                    let files = (named.iter())
                        .filter_map(|n| match n {
                            command_files::Named::File { written, .. } => {
                                Some(crate::terminal::line(written).into_owned())
                            }
                            command_files::Named::Directory { .. } => None,
                        })
                        .collect();
                    return Err(untrusted(&key, Refusal::Changed(files), command));
                }
                None => return Err(untrusted(&key, Refusal::NotTrusted, command)),
            }
        }
        Some(_) => (None, ReviewerSource::Rules),
        None => match &user.reviewer {
            Some(r) if r.sends_data() => (Some(r.clone()), ReviewerSource::UserConfig),
            _ => (None, ReviewerSource::Rules),
        },
    };
    config.reviewer = reviewer;
    config.workspace = Some(key.clone());
    config.validate()?;
    Ok(Some(Resolved {
        workspace: key,
        config,
        reviewer_source,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_quoted_for_the_shell_only_when_needed() {
        assert_eq!(shell_word(Path::new("/a/b-c")), "/a/b-c");
        assert_eq!(shell_word(Path::new("/a b/it's")), "'/a b/it'\\''s'");
    }
}
