//! `advisor trust [PATH]`: let a workspace's own `[reviewer]` settings run.
//!
//! Reads the workspace's `.advisor/config.toml` (bounded), prints exactly
//! which network settings it would trust — model, the host as the client
//! will resolve it ([`host`]: IDNA ASCII form, with a warning for a
//! non-ASCII, punycode or mixed-script host, plain `http`, and a host that is
//! neither loopback nor the one the key variable is for), base URL, key
//! variable, header names — and only then asks: on a terminal, a `y` records
//! their fingerprint for the workspace's canonical path in the user config
//! (written atomically); `--yes` records without asking; with no terminal
//! and no `--yes` the same display is printed, nothing is recorded and the
//! exit status is 1. `--revoke` forgets a grant, `--list` shows every grant
//! and whether the file still matches. A command table has no URL: its
//! display shows the program, each workspace file it names (its content is
//! what the grant covers: a pull that changes it untrusts the table) and a
//! warning for each workspace directory it names. Must not decide the trust
//! rules themselves (the `config` module does).

mod host;

use crate::stdout::{out, outln};
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::command_files::{Named, fingerprint_in, named_in};
use crate::config::{ReviewerTable, UserConfig, WorkspaceConfig};
use clap::Args;

use crate::terminal::{Exit, fail, line, show};

/// Arguments of `advisor trust`.
#[derive(Debug, Args)]
pub(crate) struct TrustArgs {
    /// The workspace whose `.advisor/config.toml` network settings to trust
    /// (default: the current directory).
    #[arg(default_value = ".")]
    path: PathBuf,
    /// Forget the trust given to the workspace.
    #[arg(long, conflicts_with = "list")]
    revoke: bool,
    /// List the workspaces of the user config and what they were granted.
    #[arg(long)]
    list: bool,
    /// Record the trust without asking (after the same display); without
    /// it, a terminal is asked and no terminal records nothing.
    #[arg(long, short = 'y', conflicts_with_all = ["list", "revoke"])]
    yes: bool,
}

/// What a `[reviewer]` table would do, for a person to judge.
fn describe(r: &ReviewerTable) -> String {
    let key = (r.api_key_env.as_ref()).map_or_else(|| "no API key".to_owned(), |v| format!("API key from ${v}"));
    if r.kind == crate::config::ReviewerKind::Command {
        let what = match (r.preset, r.command.is_empty()) {
            (Some(p), _) => format!(
                "the {} CLI preset",
                serde_json::to_value(p).unwrap_or_default().as_str().unwrap_or("?")
            ),
            (None, _) => format!("the program {:?}", r.command),
        };
        let model = r
            .model
            .as_deref()
            .map_or_else(String::new, |m| format!(", model {m:?}"));
        return line(&format!(
            "command reviewer: runs {what}{model} in the workspace with the review prompt"
        ))
        .into_owned();
    }
    let mut out = format!(
        "model reviewer {:?} at {}, {key}",
        r.model.as_deref().unwrap_or("(none)"),
        r.base_url.as_deref().unwrap_or("(no base_url)")
    );
    if !r.headers.is_empty() {
        let names: Vec<&str> = r.headers.keys().map(String::as_str).collect();
        out.push_str(&format!(", headers {}", names.join(", ")));
    }
    if !r.tools.is_empty() {
        let calls = r
            .max_tool_calls
            .unwrap_or(advisor::review::tools::DEFAULT_MAX_TOOL_CALLS);
        out.push_str(&format!(
            ", read-only workspace tools {} (at most {calls} calls a review)",
            r.tools.join(", ")
        ));
    }
    line(&out).into_owned()
}

pub(crate) fn run(args: &TrustArgs) -> Exit {
    let failed = |e: &dyn std::fmt::Display| fail("trust", 2, e);
    let path = UserConfig::default_path()
        .ok_or_else(|| failed(&"neither XDG_CONFIG_HOME nor HOME is set: no user config to write"))?;
    let mut user = UserConfig::load_from(&path).map_err(|e| failed(&e))?;
    if args.list {
        list(&user, &path);
        return Ok(ExitCode::SUCCESS);
    }
    let workspace = std::fs::canonicalize(&args.path).unwrap_or_else(|_| args.path.clone());
    if args.revoke {
        if !user.revoke(&workspace) {
            outln!("{}: was not trusted; nothing to revoke", show(&workspace));
            return Ok(ExitCode::SUCCESS);
        }
        user.save_to(&path).map_err(|e| failed(&e))?;
        outln!(
            "revoked: {} may no longer choose where reviews are sent (recorded in {})",
            show(&workspace),
            show(&path)
        );
        return Ok(ExitCode::SUCCESS);
    }
    let file = (WorkspaceConfig::read_file(&workspace).map_err(|e| failed(&e))?).ok_or_else(|| {
        let path = workspace.display();
        failed(&format!(
            "{path} has no {}; nothing to trust",
            crate::config::CONFIG_PATH
        ))
    })?;
    let Some(reviewer) = file.reviewer.filter(ReviewerTable::sends_data) else {
        outln!(
            "{}: its config sends nothing anywhere (the reviewer is not a model); nothing to trust",
            show(&workspace)
        );
        return Ok(ExitCode::SUCCESS);
    };
    let question = if reviewer.kind == crate::config::ReviewerKind::Command {
        let named = named_in(&reviewer.command, &workspace).map_err(|why| {
            failed(&format!(
                "its reviewer command names a workspace path that cannot be trusted: {why}"
            ))
        })?;
        display_command(&workspace, &reviewer, &named);
        "run this reviewer command on reviews of this workspace?".to_owned()
    } else {
        let view = display(&workspace, &reviewer);
        let host = view.resolved.as_deref().unwrap_or("this URL");
        format!("send reviews of this workspace to {} with these settings?", line(host))
    };
    let confirmed = if args.yes {
        true
    } else if std::io::stdin().is_terminal() {
        ask(&question)
    } else {
        eprintln!(
            "advisor trust: nothing recorded: no terminal to confirm on; check the settings above and run \
             `advisor trust --yes {}` to record them",
            line(&crate::config::shell_word(&workspace))
        );
        return Err(ExitCode::from(1));
    };
    if !confirmed {
        eprintln!("advisor trust: nothing recorded");
        return Err(ExitCode::from(1));
    }
    let fp = user.trust(&workspace, &reviewer).map_err(|e| failed(&e))?;
    user.save_to(&path).map_err(|e| failed(&e))?;
    let what = match reviewer.kind {
        crate::config::ReviewerKind::Command => "its [reviewer] table or to a workspace file its command names",
        _ => "its [reviewer] table",
    };
    outln!(
        "trusted {}: {}\nrecorded {} in {}\nany change to {what} needs `advisor trust` again",
        show(&workspace),
        describe(&reviewer),
        fp,
        show(&path)
    );
    Ok(ExitCode::SUCCESS)
}

/// Prints what trusting `reviewer` would allow, one fact a line, and the
/// warnings about its host; returns the host's view.
fn display(workspace: &Path, r: &ReviewerTable) -> host::HostView {
    let view = host::view(r.base_url.as_deref().unwrap_or_default(), r.api_key_env.as_deref());
    let mut out = format!(
        "{} asks to send its transcripts to a model:\n  {}\n  host: {}\n",
        show(workspace),
        describe(r),
        view.host_line()
    );
    if let Some(url) = &view.url {
        out.push_str(&format!("  requests go to: {}\n", line(url)));
    }
    for w in &view.warnings {
        out.push_str(&format!("  warning: {}\n", line(w)));
    }
    out!("{out}");
    view
}

/// Prints what trusting the command table `r` would allow: the program and
/// its arguments, each workspace file it names (whose content the grant
/// covers) and a warning for each workspace directory it names (whose
/// content it does not). A command table has no URL: no host is shown.
fn display_command(workspace: &Path, r: &ReviewerTable, named: &[Named]) {
    let mut out = format!(
        "{} asks to run a program with its transcripts:\n  {}\n",
        show(workspace),
        describe(r)
    );
    for n in named {
        match n {
            Named::File {
                arg,
                written,
                digest,
                bytes,
            } => out.push_str(&format!(
                "  workspace file: {} (argument {arg}, {bytes} bytes, {digest}): a file of the workspace, so a \
                 pull can change it; this content is what you trust, and a change needs `advisor trust` again\n",
                line(written)
            )),
            Named::Directory { arg, written } => out.push_str(&format!(
                "  warning: argument {arg} names the workspace directory {}: what the program loads from it is \
                 not part of the grant (a pull can change it without a new `advisor trust`)\n",
                line(written)
            )),
        }
    }
    if r.preset.is_none() && r.command.first().is_some_and(|p| !p.contains(['/', '\\'])) {
        out.push_str("  the program is looked up on PATH outside the workspace\n");
    }
    out!("{out}");
}

/// Asks `question` on the terminal; only `y` or `yes` agrees.
fn ask(question: &str) -> bool {
    eprint!("{question} [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    let read = std::io::stdin().lock().take(64).read_line(&mut answer);
    read.is_ok() && matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}

fn list(user: &UserConfig, path: &Path) {
    outln!("user config: {}", show(path));
    if let Some(r) = user.reviewer.as_ref().filter(|r| r.sends_data()) {
        outln!("your reviewer: {}", describe(r));
    }
    if user.workspaces.is_empty() {
        outln!("no workspaces trusted or opted in");
    }
    for (ws, grant) in &user.workspaces {
        let state = match &grant.trusted_reviewer {
            None => "not trusted".to_owned(),
            Some(fp) => match WorkspaceConfig::read_file(Path::new(ws)) {
                Ok(Some(c)) => match c.reviewer.filter(ReviewerTable::sends_data) {
                    Some(r) if fingerprint_in(&r, Path::new(ws)).is_ok_and(|now| now == *fp) => {
                        format!("trusted: {}", describe(&r))
                    }
                    Some(_) => {
                        "trusted settings (or a workspace file its command names) changed since: untrusted until \
                                `advisor trust` again"
                            .to_owned()
                    }
                    None => "trusted, but the file names no model now".to_owned(),
                },
                Ok(None) => "trusted, but the workspace has no config file now".to_owned(),
                Err(e) => format!("trusted, but the config cannot be read: {}", line(&e.to_string())),
            },
        };
        let opt = if grant.opt_in { ", opted in by path" } else { "" };
        outln!("{}{opt}: {state}", line(ws));
    }
}
