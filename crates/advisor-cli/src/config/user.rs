//! The user's own config: `$XDG_CONFIG_HOME/advisor/config.toml`, else
//! `$HOME/.config/advisor/config.toml`.
//!
//! Owns [`UserConfig`]: the reviewer used in every opted-in workspace (the
//! only place besides a trusted workspace file that may name a model, a URL,
//! a key variable or a header), workspaces opted in by path, and the trust
//! records `advisor trust` writes (a fingerprint of a workspace's
//! `[reviewer]` table, keyed by the workspace's canonical path). Reading is
//! bounded; writing is atomic.
//!
//! A host started by a repository's configuration can have `XDG_CONFIG_HOME`
//! or `HOME` set by that repository, so [`UserConfig::load_for`] refuses a
//! user config that lies inside the workspace (as given or once links are
//! resolved) or that another user owns: the host then runs as if there were
//! none, and says why. Must not read any workspace file but, when a grant is
//! recorded, the ones a command names (through `command_files.rs`).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{ReviewerTable, command_files, parse_toml, read_config_file};
use advisor::error::{Error, ErrorKind};

/// The user config's path below the config directory.
pub(crate) const USER_CONFIG_RELATIVE: &str = "advisor/config.toml";

/// What the user granted one workspace.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkspaceGrant {
    /// Opt the workspace in even without its own `.advisor/config.toml`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub opt_in: bool,
    /// The fingerprint (`sha256:` and 64 hex digits) of the workspace file's
    /// `[reviewer]` table the user trusted with `advisor trust`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trusted_reviewer: Option<String>,
}

/// The user's own advisor config.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UserConfig {
    /// The reviewer every opted-in workspace uses unless its own file has a
    /// `[reviewer]` table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviewer: Option<ReviewerTable>,
    /// Grants by canonical workspace path.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub workspaces: BTreeMap<String, WorkspaceGrant>,
}

/// The key a workspace is recorded under: its canonical path when it exists,
/// else the path as given.
pub(crate) fn workspace_key(workspace: &Path) -> PathBuf {
    std::fs::canonicalize(workspace).unwrap_or_else(|_| workspace.to_path_buf())
}

impl UserConfig {
    /// Where the user config lives given `XDG_CONFIG_HOME` and `HOME` (an
    /// empty or relative `XDG_CONFIG_HOME` is ignored, as the XDG spec says).
    pub(crate) fn path_from(xdg_config_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
        let xdg = xdg_config_home.map(PathBuf::from).filter(|p| p.is_absolute());
        let base = xdg.or_else(|| Some(PathBuf::from(home.filter(|h| !h.is_empty())?).join(".config")))?;
        Some(base.join(USER_CONFIG_RELATIVE))
    }

    /// Where the user config lives for this process; `None` when neither
    /// `XDG_CONFIG_HOME` nor `HOME` is set.
    pub(crate) fn default_path() -> Option<PathBuf> {
        UserConfig::path_from(std::env::var_os("XDG_CONFIG_HOME"), std::env::var_os("HOME"))
    }

    /// Loads the user config (`$XDG_CONFIG_HOME/advisor/config.toml`, else
    /// `$HOME/.config/advisor/config.toml`); an empty config when there is
    /// no file (or no home).
    pub fn load() -> Result<UserConfig, Error> {
        UserConfig::default_path().map_or_else(|| Ok(UserConfig::default()), |p| UserConfig::load_from(&p))
    }

    /// The user config as a host started in `workspace` may use it (the hook,
    /// the MCP server): as [`load`](Self::load), except that a file inside
    /// the workspace, or owned by another user, is refused — an empty config
    /// and the reason, one line, for the host to say.
    pub(crate) fn load_for(workspace: &Path) -> Result<(UserConfig, Option<String>), Error> {
        let Some(path) = UserConfig::default_path() else {
            return Ok((UserConfig::default(), None));
        };
        if let Some(why) = refusal(&path, workspace) {
            return Ok((UserConfig::default(), Some(why)));
        }
        UserConfig::load_from(&path).map(|c| (c, None))
    }

    /// Parses user config text; `name` (the file) is used in errors.
    pub(crate) fn parse_text(name: &str, text: &str) -> Result<UserConfig, Error> {
        parse_toml::<UserConfig>(name, text)
    }

    /// Loads the user config at `path` (bounded, regular files only); an
    /// empty config when there is no file.
    pub(crate) fn load_from(path: &Path) -> Result<UserConfig, Error> {
        match read_config_file(path)? {
            Some(text) => parse_toml::<UserConfig>(&path.display().to_string(), &text),
            None => Ok(UserConfig::default()),
        }
    }

    /// The grant for `workspace` (looked up by canonical path).
    pub(crate) fn grant(&self, workspace: &Path) -> Option<&WorkspaceGrant> {
        let key = workspace_key(workspace);
        self.workspaces.get(key.to_string_lossy().as_ref())
    }

    /// Records that the user trusts `reviewer` as `workspace`'s network
    /// settings — for a command, with the content of every workspace file it
    /// names as it is now; returns the fingerprint recorded. An error (kind
    /// `Untrusted`, nothing recorded) when such a file cannot be
    /// fingerprinted (a FIFO, over 64 MiB, unreadable).
    pub fn trust(&mut self, workspace: &Path, reviewer: &ReviewerTable) -> Result<String, Error> {
        let key = workspace_key(workspace);
        let fp = command_files::fingerprint_in(reviewer, &key)
            .map_err(|why| Error::new(ErrorKind::Untrusted, why).with_field("reviewer.command"))?;
        let key = key.to_string_lossy().into_owned();
        self.workspaces.entry(key).or_default().trusted_reviewer = Some(fp.clone());
        Ok(fp)
    }

    /// Forgets the trust given to `workspace` (its opt-in, if any, stays);
    /// whether there was any.
    pub(crate) fn revoke(&mut self, workspace: &Path) -> bool {
        let key = workspace_key(workspace).to_string_lossy().into_owned();
        let Some(grant) = self.workspaces.get_mut(&key) else {
            return false;
        };
        let had = grant.trusted_reviewer.take().is_some();
        if *grant == WorkspaceGrant::default() {
            self.workspaces.remove(&key);
        }
        had
    }

    /// The config as TOML, with a header saying who writes it.
    pub(crate) fn to_toml(&self) -> Result<String, Error> {
        let body = toml::to_string(self)
            .map_err(|e| Error::new(ErrorKind::Config, format!("cannot serialise the user config: {e}")))?;
        Ok(format!(
            "# advisor: your own settings. Only this file (or a workspace file you\n\
             # trusted with `advisor trust`) may choose where reviews are sent.\n\
             # `advisor trust` rewrites this file; comments are not kept.\n\n{body}"
        ))
    }

    /// Writes the config to `path` atomically.
    pub(crate) fn save_to(&self, path: &Path) -> Result<(), Error> {
        let text = self.to_toml()?;
        advisor::io::write_atomic(path, text.as_bytes())
            .map_err(|e| Error::new(ErrorKind::Config, format!("cannot write {}: {e}", path.display())))
    }
}

/// Why the user config at `path` must not be used by a host running in
/// `workspace`, if it must not: it lies inside the workspace (the path as
/// given, or its target), or it is not owned by the user running the host.
/// A missing file is no reason (there is nothing to use).
fn refusal(path: &Path, workspace: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    let root = workspace_key(workspace);
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let parent = path.parent().map(workspace_key);
    let inside = real.starts_with(&root) || path.starts_with(workspace) || parent.is_some_and(|p| p.starts_with(&root));
    if inside {
        return Some(format!(
            "the user config {} lies inside the workspace (XDG_CONFIG_HOME or HOME point into it), \
             so it is ignored: the offline rules review instead",
            path.display()
        ));
    }
    if !owned_by_me(&meta) {
        return Some(format!(
            "the user config {} is not owned by the user running the advisor, so it is ignored: \
             the offline rules review instead",
            path.display()
        ));
    }
    None
}

#[cfg(unix)]
fn owned_by_me(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.uid() == rustix::process::geteuid().as_raw()
}

#[cfg(not(unix))]
fn owned_by_me(_meta: &std::fs::Metadata) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xdg_wins_when_absolute_else_home() {
        let p = UserConfig::path_from(Some("/x".into()), Some("/h".into())).unwrap();
        assert_eq!(p, Path::new("/x/advisor/config.toml"));
        let p = UserConfig::path_from(Some("rel".into()), Some("/h".into())).unwrap();
        assert_eq!(p, Path::new("/h/.config/advisor/config.toml"));
        let p = UserConfig::path_from(Some("".into()), Some("/h".into())).unwrap();
        assert_eq!(p, Path::new("/h/.config/advisor/config.toml"));
        assert_eq!(UserConfig::path_from(None, None), None);
    }

    #[test]
    fn round_trips_through_toml_and_revoke_removes_empty_grants() {
        let mut c = UserConfig::default();
        let r = ReviewerTable {
            kind: super::super::ReviewerKind::Model,
            ..ReviewerTable::default()
        };
        let fp = c.trust(Path::new("/nonexistent/ws"), &r).unwrap();
        let text = c.to_toml().unwrap();
        let back: UserConfig = parse_toml("t", &text).unwrap();
        assert_eq!(
            back.workspaces["/nonexistent/ws"].trusted_reviewer.as_deref(),
            Some(fp.as_str())
        );
        assert!(c.revoke(Path::new("/nonexistent/ws")));
        assert!(c.workspaces.is_empty());
        assert!(!c.revoke(Path::new("/nonexistent/ws")));
    }
}
