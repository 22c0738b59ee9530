//! `git_diff`: the workspace's uncommitted changes, without ever running a
//! program the workspace can name, and within one deadline.
//!
//! Owns the one way the reviewer runs `git`. A repository's own
//! configuration can name programs at many points — `core.pager`,
//! `pager.*`, `diff.external`, `diff.*.textconv`, `filter.*.clean` /
//! `process`, `core.fsmonitor`, hooks, `core.sshCommand`… — and
//! `.git/info/attributes` can route any path to them. So `git` never reads
//! that configuration: it runs with a scratch `GIT_DIR` of our own (an empty
//! config, no hooks, a detached `HEAD` we resolved ourselves from the
//! repository's files through [`Beneath`]), borrowing only the repository's
//! object store and index by path (`GIT_OBJECT_DIRECTORY`, `GIT_INDEX_FILE`);
//! the environment is cleared (no `GIT_*` variable of the host, no system or
//! global config, `HOME` the scratch directory), the diff drivers are off
//! (`--no-ext-diff --no-textconv`), stdin is closed and stdout is capped.
//! Attributes in the work tree may still name a filter or diff driver, but
//! no driver is defined, so none runs.
//!
//! A submodule, or any nested repository, has a configuration of its own
//! that `git` would read in a child process (`git diff` runs `git status`
//! inside a checked-out submodule, without our scratch settings). So `git`
//! never looks into one: `--ignore-submodules=all` on every run, and the
//! settings that name programs or reach further — `core.fsmonitor`,
//! `core.hooksPath`, `diff.ignoreSubmodules`, `submodule.recurse`,
//! `protocol.allow=never`, `credential.helper`, `safe.bareRepository`… — are
//! given on the command line ([`HARDENING`]), the one level of configuration
//! that every `git` process it could start inherits (`GIT_CONFIG_PARAMETERS`)
//! and no repository's file overrides. A changed path inside a nested
//! repository (a directory below the root holding a `.git`) is left out of
//! the diff, and a `path` argument inside one is refused.
//!
//! Denied paths are left out by listing the changed names first and diffing
//! only the allowed ones, each as a literal pathspec. The `git` program is
//! looked up on `PATH`, skipping relative entries and entries that resolve
//! inside the workspace (links, `..` and `/proc/self/cwd` followed). An object store with `info/alternates` (a `git clone --shared`
//! or a planted file) would let `git` read objects from any directory the
//! file names, so such a repository is refused (an error result for the
//! model); `GIT_ALTERNATE_OBJECT_DIRECTORIES` of the host never reaches
//! `git` (the cleared environment).
//!
//! The whole call — both `git` runs — ends by [`GIT_TIMEOUT`] or the call's
//! own [`ToolDeadline`], whichever comes first: each `git` runs in a process
//! group of its own, killed whole at the deadline and once `git` exits (so
//! nothing it started keeps stdout open), and its output is waited for only
//! until the deadline. Must not write to the repository (optional locks are
//! off).

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::Deserialize;

use super::{ToolDeadline, WorkspaceTools};
use crate::io::{Beneath, BeneathErrorKind};

/// Longest one `git_diff` call may take, all its `git` runs together.
pub const GIT_TIMEOUT: Duration = Duration::from_secs(10);
/// Settings given to every `git` run on its command line, so that any `git`
/// process it starts inherits them: no submodule is looked into, no hook,
/// monitor, credential helper or pager runs, and no transport is allowed.
const HARDENING: [&str; 13] = [
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "diff.ignoreSubmodules=all",
    "diff.submodule=short",
    "submodule.recurse=false",
    "status.submoduleSummary=false",
    "fetch.recurseSubmodules=false",
    "protocol.allow=never",
    "credential.helper=",
    "safe.bareRepository=explicit",
    "core.askPass=",
];
/// Most bytes of `git` output read.
const MAX_GIT_OUTPUT: u64 = 4 * 1024 * 1024;
/// Most changed files diffed in one call.
const MAX_DIFF_FILES: usize = 500;
/// The empty tree's object name (SHA-1), the base of a repository with no commit.
const EMPTY_TREE_SHA1: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// Arguments of `git_diff`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GitDiffArgs {
    path: Option<String>,
    staged: Option<bool>,
}

/// The scratch `GIT_DIR`, removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The commit `HEAD` names, read from the repository's files (never by
/// running `git` on its configuration): `None` for a branch with no commit.
fn resolve_head(git: &Beneath) -> Result<Option<String>, String> {
    let read = |rel: &str| {
        git.read_file(Path::new(rel), 64 * 1024)
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    };
    let head = read("HEAD").ok_or("the repository's HEAD cannot be read")?;
    let head = head.trim();
    let Some(name) = head.strip_prefix("ref:").map(str::trim) else {
        return valid_oid(head)
            .map(Some)
            .ok_or_else(|| "HEAD is neither a ref nor an object name".to_owned());
    };
    let ok_name = name.starts_with("refs/")
        && name.split('/').all(|c| !c.is_empty() && c != ".." && c != ".")
        && name.bytes().all(|b| b.is_ascii_graphic() && b != b'\\');
    if !ok_name {
        return Err("HEAD names an unusual ref; not resolved".to_owned());
    }
    if let Some(loose) = read(name) {
        return valid_oid(loose.trim())
            .map(Some)
            .ok_or_else(|| "HEAD's ref is not an object name".to_owned());
    }
    let packed = read("packed-refs").unwrap_or_default();
    Ok(packed.lines().find_map(|line| {
        let (oid, r) = line.split_once(' ')?;
        (r.trim() == name).then(|| valid_oid(oid)).flatten()
    }))
}

fn valid_oid(s: &str) -> Option<String> {
    ((s.len() == 40 || s.len() == 64) && s.bytes().all(|b| b.is_ascii_hexdigit())).then(|| s.to_ascii_lowercase())
}

/// The `git` program: the first `git` on `PATH` in an absolute directory
/// that resolves outside the workspace.
fn git_program(workspace: &Path) -> Option<PathBuf> {
    crate::io::find_program("git", Some(workspace))
}

/// Runs `git` with `args` in the scratch environment until `deadline`; its
/// stdout, capped.
fn run_git(
    git: &Path,
    env: &[(&str, &Path)],
    workspace: &Path,
    args: &[String],
    deadline: &ToolDeadline,
) -> Result<Vec<u8>, String> {
    let late = || {
        format!(
            "git did not finish within the tool's time (at most {} s)",
            GIT_TIMEOUT.as_secs()
        )
    };
    if deadline.reached() {
        return Err(late());
    }
    let mut cmd = Command::new(git);
    cmd.arg("--no-pager");
    for setting in HARDENING {
        cmd.args(["-c", setting]);
    }
    // cleared: no GIT_DIR, GIT_ALTERNATE_OBJECT_DIRECTORIES, GIT_CONFIG_* … of the host
    cmd.env_clear()
        .current_dir(workspace)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_ATTR_NOSYSTEM", "1")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_NO_REPLACE_OBJECTS", "1")
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_ALLOW_PROTOCOL", "")
        .env("GIT_PAGER", "cat")
        .env("LC_ALL", "C");
    for (k, v) in env {
        cmd.env(k, v);
    }
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd.spawn().map_err(|_| "git could not be started".to_owned())?;
    // listed while it runs, so a host at its own deadline can end it too
    let group = crate::io::ProcessGroup::adopt(child.id());
    let Some(stdout) = child.stdout.take() else {
        group.kill();
        let _ = child.kill();
        let _ = child.wait();
        return Err("git could not be started".to_owned());
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.take(MAX_GIT_OUTPUT).read_to_end(&mut out);
        let _ = tx.send(out);
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if !deadline.reached() => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                group.kill();
                let _ = child.kill();
                let _ = child.wait();
                return Err(late());
            }
        }
    };
    // anything git left in its group would hold stdout open: end it
    drop(group);
    let out = rx.recv_timeout(deadline.remaining()).map_err(|_| late())?;
    if !status.success() {
        return Err(format!("git failed (exit {})", status.code().unwrap_or(-1)));
    }
    Ok(out)
}

/// Whether `rel` (a changed path, or a directory) lies inside a nested
/// repository: some directory on its way below the root (itself included)
/// holds a `.git` entry. Anything but a clear "none" counts as one.
fn in_nested_repository(root: &Beneath, rel: &Path, seen: &mut HashMap<PathBuf, bool>) -> bool {
    let mut dir = PathBuf::new();
    for part in rel.components() {
        let std::path::Component::Normal(name) = part else {
            continue;
        };
        dir.push(name);
        let nested = *seen
            .entry(dir.clone())
            .or_insert_with(|| match root.open_file(&dir.join(".git")) {
                Ok(_) => true,
                Err(e) => !matches!(e.kind(), BeneathErrorKind::NotFound | BeneathErrorKind::NotDirectory),
            });
        if nested {
            return true;
        }
    }
    false
}

static SCRATCH: AtomicU64 = AtomicU64::new(0);

/// A scratch `GIT_DIR`: an empty configuration, `HEAD` detached at `head`.
fn scratch_dir(head: Option<&str>) -> Result<Scratch, String> {
    let n = SCRATCH.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("advisor-git-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let scratch = Scratch(dir);
    let fail = |_| "a scratch directory for git could not be made".to_owned();
    crate::io::create_dir_private(&scratch.0, true).map_err(fail)?;
    std::fs::create_dir(scratch.0.join("refs")).map_err(fail)?;
    std::fs::create_dir(scratch.0.join("hooks")).map_err(fail)?;
    let sha256 = head.is_some_and(|h| h.len() == 64);
    let config = if sha256 {
        "[core]\n\trepositoryformatversion = 1\n\tbare = false\n[extensions]\n\tobjectformat = sha256\n"
    } else {
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
    };
    std::fs::write(scratch.0.join("config"), config).map_err(fail)?;
    std::fs::write(scratch.0.join("global-config"), "").map_err(fail)?;
    let head_line = head.map_or_else(|| "ref: refs/heads/advisor-unborn\n".to_owned(), |h| format!("{h}\n"));
    std::fs::write(scratch.0.join("HEAD"), head_line).map_err(fail)?;
    Ok(scratch)
}

pub(super) fn git_diff(
    tools: &WorkspaceTools,
    root: &Beneath,
    args: &GitDiffArgs,
    deadline: &ToolDeadline,
) -> Result<String, String> {
    let deadline = &deadline.clone().within(GIT_TIMEOUT);
    let workspace = tools.root();
    let mut nested = HashMap::new();
    if let Some(p) = args.path.as_deref().filter(|p| !p.is_empty()) {
        let rel = Path::new(p);
        let lexically_inside = rel
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir));
        if !lexically_inside {
            return Err(format!(
                "{}: only paths relative to the workspace, without `..`, are diffed",
                crate::text::clamp_chars(p, 200)
            ));
        }
        if tools.is_denied(rel) {
            return Err(format!(
                "{}: denied (a secret-bearing file or the advisor's own state); not diffed",
                crate::text::clamp_chars(p, 200)
            ));
        }
        if in_nested_repository(root, rel, &mut nested) {
            return Err(format!(
                "{}: inside a nested repository (a folder with its own .git); not diffed",
                crate::text::clamp_chars(p, 200)
            ));
        }
    }
    let git_dir = root
        .open_dir(Path::new(".git"))
        .map_err(|_| "the workspace has no plain .git directory (a linked .git or none); nothing to diff".to_owned())?;
    // the object store and index are borrowed by path: refuse links there
    git_dir
        .open_dir(Path::new("objects"))
        .map_err(|_| "the repository's object store is not a plain directory; not diffed".to_owned())?;
    // alternates name object stores outside the workspace: anything there, even a link, refuses
    if std::fs::symlink_metadata(workspace.join(".git/objects/info/alternates")).is_ok() {
        return Err(
            "the repository borrows objects from outside the workspace (.git/objects/info/alternates); not diffed"
                .to_owned(),
        );
    }
    let has_index = git_dir.open_file(Path::new("index")).is_ok();
    let head = resolve_head(&git_dir)?;
    let program = git_program(workspace).ok_or("git is not installed (no git on PATH outside the workspace)")?;
    let scratch = scratch_dir(head.as_deref())?;
    let (objects, index) = (workspace.join(".git/objects"), workspace.join(".git/index"));
    let global = scratch.0.join("global-config");
    let env: Vec<(&str, &Path)> = vec![
        ("GIT_DIR", &scratch.0),
        ("GIT_WORK_TREE", workspace),
        ("GIT_OBJECT_DIRECTORY", &objects),
        ("GIT_INDEX_FILE", &index),
        ("HOME", &scratch.0),
        ("GIT_CONFIG_GLOBAL", &global),
    ];
    if !has_index {
        return Ok("no changes (the repository has no index)".to_owned());
    }
    let staged = args.staged.unwrap_or(false);
    let base = head.clone().unwrap_or_else(|| EMPTY_TREE_SHA1.to_owned());
    let command = |extra: &[&str], paths: &[String]| -> Vec<String> {
        let mut v: Vec<String> = if staged {
            vec!["diff-index".into(), "--cached".into()]
        } else {
            vec!["diff-files".into()]
        };
        v.extend(
            [
                "--no-ext-diff",
                "--no-textconv",
                "--no-color",
                "--ignore-submodules=all",
            ]
            .map(String::from),
        );
        v.extend(extra.iter().map(|s| (*s).to_owned()));
        if staged {
            v.push(base.clone());
        }
        v.push("--".into());
        v.extend(paths.iter().cloned());
        v
    };
    let filter: Vec<String> = match args.path.as_deref().filter(|p| !p.is_empty()) {
        Some(p) => vec![format!(":(literal){p}")],
        None => Vec::new(),
    };
    let names = run_git(
        &program,
        &env,
        workspace,
        &command(&["--name-only", "-z"], &filter),
        deadline,
    )?;
    let (mut left_out, mut nested_out) = (0, 0);
    let mut paths = Vec::new();
    for name in names.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name).into_owned();
        if tools.is_denied(Path::new(&name)) {
            left_out += 1;
        } else if in_nested_repository(root, Path::new(&name), &mut nested) {
            nested_out += 1;
        } else if paths.len() < MAX_DIFF_FILES {
            paths.push(format!(":(literal){name}"));
        }
    }
    let mut out = String::new();
    if !paths.is_empty() {
        let diff = run_git(&program, &env, workspace, &command(&["-p"], &paths), deadline)?;
        out.push_str(&String::from_utf8_lossy(&diff));
    }
    if out.is_empty() {
        out.push_str("no changes\n");
    }
    if left_out > 0 {
        out.push_str(&format!("[{left_out} changed denied files left out]\n"));
    }
    if nested_out > 0 {
        out.push_str(&format!(
            "[{nested_out} changed files inside nested repositories left out]\n"
        ));
    }
    let what = if staged {
        "the index against HEAD"
    } else {
        "the working tree against the index"
    };
    Ok(format!("git diff of {what} (read-only)\n{out}"))
}
