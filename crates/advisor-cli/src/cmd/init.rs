//! `advisor init`: opt a workspace in by writing a commented
//! `.advisor/config.toml` (and a `.gitignore` for the session state), and
//! offer the agent CLI the user is logged into as the judge ([`judge`]).
//!
//! Never writes through a symbolic link: `.advisor` must be a real directory;
//! new files are created with create-new (`O_EXCL`, which does not follow a
//! link, dangling or not); `--force` replaces the config by renaming a new
//! file over it, which replaces a link itself, never its target. Must not
//! write anything outside `<dir>/.advisor`.

use crate::stdout::outln;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::{CONFIG_PATH, STARTER_CONFIG};
use clap::Args;

use crate::terminal::{Exit, fail, line, show};

mod judge;

use judge::JudgeChoice;

/// Arguments of `advisor init`.
#[derive(Debug, Args)]
pub(crate) struct InitArgs {
    /// The workspace root (default: the current directory).
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// Overwrite an existing config (a symbolic link there is replaced, its
    /// target left alone), and an existing `[reviewer]` in your user config
    /// with `--judge`.
    #[arg(long)]
    force: bool,
    /// Use this agent CLI, which you are logged into, as the judge of
    /// contested claims in all your workspaces (written to your user
    /// config); `none` leaves it unchanged. On a terminal you are asked.
    #[arg(long, value_enum)]
    judge: Option<JudgeChoice>,
}

/// Creates `path` with `bytes` only if nothing — not even a dangling link —
/// is there. `Ok(false)` when something is.
fn create_new(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    match OpenOptions::new().write(true).create_new(true).open(path) {
        Ok(mut f) => f.write_all(bytes).map(|()| true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e),
    }
}

/// `.advisor` as a real directory of the workspace, created if missing.
fn advisor_dir(root: &Path) -> Result<PathBuf, String> {
    let dir = root.join(".advisor");
    match std::fs::symlink_metadata(&dir) {
        Ok(m) if m.file_type().is_symlink() => Err(format!(
            "{} is a symbolic link; refusing to write through it (remove it first)",
            show(&dir)
        )),
        Ok(m) if m.is_dir() => Ok(dir),
        Ok(_) => Err(format!("{} exists and is not a directory", show(&dir))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => match std::fs::create_dir(&dir) {
            Ok(()) => Ok(dir),
            Err(e) => Err(format!("cannot create {}: {e}", show(&dir))),
        },
        Err(e) => Err(format!("{}: {e}", show(&dir))),
    }
}

pub(crate) fn run(args: &InitArgs) -> Exit {
    let path = args.dir.join(CONFIG_PATH);
    let judge = args.judge.or_else(judge::ask);
    // with a judge to set, a workspace already opted in is no error
    if judge.is_some() && !args.force && std::fs::symlink_metadata(&path).is_ok() {
        outln!("{} already exists: this workspace is opted in", show(&path));
    } else {
        opt_in(args, &path)?;
    }
    if let Some(choice) = judge {
        judge::run(choice, args.force).map_err(|e| fail("init", 1, e))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes the workspace's starter config and its `.gitignore`.
fn opt_in(args: &InitArgs, path: &Path) -> Result<(), ExitCode> {
    let path = path.to_path_buf();
    let exists = || {
        fail(
            "init",
            1,
            format!("{} already exists; pass --force to overwrite it", show(&path)),
        )
    };
    if std::fs::symlink_metadata(&path).is_ok() && !args.force {
        return Err(exists());
    }
    let dir = advisor_dir(&args.dir).map_err(|e| fail("init", 2, e))?;
    let written = if args.force {
        // rename(2) over the path replaces whatever is there, a link included
        advisor::io::write_atomic(&path, STARTER_CONFIG.as_bytes())
    } else {
        match create_new(&path, STARTER_CONFIG.as_bytes()) {
            Ok(false) => return Err(exists()),
            created => created.map(|_| ()),
        }
    };
    written.map_err(|e| fail("init", 2, format!("cannot write {}: {e}", show(&path))))?;
    let ignore = dir.join(".gitignore");
    match create_new(&ignore, b"state/\n") {
        Ok(true) => {}
        Ok(false) => {
            if std::fs::symlink_metadata(&ignore).is_ok_and(|m| m.file_type().is_symlink()) {
                eprintln!(
                    "advisor init: {} is a symbolic link; left alone (add `state/` to it yourself)",
                    show(&ignore)
                );
            }
        }
        Err(e) => eprintln!("advisor init: cannot write {}: {}", show(&ignore), line(&e.to_string())),
    }
    outln!("wrote {}: this workspace now opts in to the advisor", show(&path));
    Ok(())
}
