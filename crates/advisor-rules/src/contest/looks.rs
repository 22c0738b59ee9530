//! Which calls only look: read tools, and shell lines whose every command is
//! a looking program (`cat`, `grep`, `ls`, `git log`, `gh pr view`, version
//! probes, PowerShell's `Get-Content`, system-log readers), through `ssh` too.
//!
//! Owns [`only_looks`], [`answered_no`] (a look that answered "no") and
//! [`remote_or_local`] (the command an `ssh` line runs). A look's output is
//! never a failure signal; its failed exit may be quoted when a rules note
//! rests on it ([`failures`](super::failures) decides). Must not read output
//! for failure lines ([`output`](super::output) does).

use advisor::host::ToolTrace;

use crate::evidence::shell::{SimpleCommand, simple_commands};
use crate::evidence::step_programs::answers_by_exit;
use crate::evidence::steps::{Step, step_kind};
use crate::evidence::tool_calls::host_exit_of;

/// Tools that only read (file reads, searches, listings, fetches of a page):
/// their failure says a thing is not there, never that work failed.
const READ_TOOLS: &[&str] = &[
    "read",
    "grep",
    "glob",
    "ls",
    "read_file",
    "read_many_files",
    "list_directory",
    "list_files",
    "glob_search",
    "grep_search",
    "search_file_content",
    "file_search",
    "codebase_search",
    "view",
    "view_image",
    "webfetch",
    "websearch",
    "web_fetch",
    "web_search",
    "google_web_search",
    "todowrite",
    "todoread",
    "update_plan",
    // polling or stopping a background task: "not ready" or "no such shell" is bookkeeping
    "taskoutput",
    "bashoutput",
    "agentoutputtool",
    "killshell",
    "killbash",
];

/// Programs that only look: their output is never a failure signal.
const LOOKING: &[&str] = &[
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "bat",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "ls",
    "ll",
    "find",
    "fd",
    "tree",
    "wc",
    "stat",
    "file",
    "du",
    "df",
    "pwd",
    "echo",
    "printf",
    "which",
    "whereis",
    "type",
    "realpath",
    "readlink",
    "basename",
    "dirname",
    "nl",
    "cut",
    "sort",
    "uniq",
    "column",
    "jq",
    "yq",
    "diff",
    "cmp",
    "date",
    "printenv",
    "id",
    "whoami",
    "uname",
    "hostname",
    "ps",
    "sleep",
    "true",
    "cd",
    "tr",
    "xxd",
    "od",
    "md5sum",
    "sha256sum",
    "tee",
    // system logs: what a service said, read
    "journalctl",
    "logread",
    "dmesg",
];

/// PowerShell cmdlets that only look (compared without case): reads,
/// searches, listings and the formatting that follows them in a pipeline.
const LOOKING_POWERSHELL: &[&str] = &[
    "get-content",
    "gc",
    "select-string",
    "sls",
    "get-childitem",
    "gci",
    "dir",
    "test-path",
    "get-item",
    "get-location",
    "resolve-path",
    "select-object",
    "where-object",
    "sort-object",
    "measure-object",
    "format-table",
    "format-list",
    "out-string",
    "write-output",
    "write-host",
];

/// `git` subcommands that only look.
const LOOKING_GIT: &[&str] = &[
    "log",
    "show",
    "diff",
    "status",
    "blame",
    "grep",
    "ls-files",
    "rev-parse",
    "describe",
    "shortlog",
    "reflog",
    "branch",
    "remote",
    "config",
    "rev-list",
    "cat-file",
    "ls-tree",
    "whatchanged",
];

/// Whether `t` is a look that answered "no": a call that only looks and
/// exited 1 or 2 where its program answers by its exit status (a search with
/// no match, `ls` or `test -f` of an absent file, `git check-ignore` of a
/// path not ignored), whatever the host wrote around it (Codex's `Wall time`
/// and `Output:` header). With `silently`, only one that exited 1 and printed
/// nothing at all.
pub(super) fn answered_no(t: &ToolTrace, silently: bool) -> bool {
    let Some(code @ 1..=2) = host_exit_of(t) else {
        return false;
    };
    let Some(Step::Shell(line)) = step_kind(t) else {
        return false;
    };
    let quiet = |s: &str| {
        let s = s.trim();
        s.is_empty()
            || s == "(empty)"
            || s.eq_ignore_ascii_case("exit code 1")
            || s.eq_ignore_ascii_case("exit code: 1")
    };
    let silent = code == 1 && quiet(&t.output) && t.error.as_deref().is_none_or(quiet);
    only_looks(t) && answers_by_exit(&remote_or_local(&line), Some(code)) && (silent || !silently)
}

/// Whether `t` only looks: a read tool, or a shell call whose every command
/// is a looking program (`cat`, `grep`, `ls`, `git log`, `sed -n`).
pub(super) fn only_looks(t: &ToolTrace) -> bool {
    if READ_TOOLS.contains(&t.name.to_ascii_lowercase().as_str()) {
        return true;
    }
    let Some(Step::Shell(line)) = step_kind(t) else {
        return false;
    };
    line_only_looks(&remote_or_local(&line))
}

/// Whether every simple command of `line` only looks.
fn line_only_looks(line: &str) -> bool {
    let commands = simple_commands(line);
    !commands.is_empty() && commands.iter().all(command_looks)
}

/// Whether one simple command only looks (`cat`, `grep`, `git log`, `sed -n`).
pub(super) fn command_looks(c: &SimpleCommand) -> bool {
    let Some(program) = c.words.first().map(|p| p.rsplit('/').next().unwrap_or(p)) else {
        return true;
    };
    let args = c.words.get(1..).unwrap_or_default();
    let sub = args.iter().find(|w| !w.starts_with('-')).map(String::as_str);
    let edits = args
        .iter()
        .any(|w| w == "-i" || w.starts_with("-i.") || w == "--in-place");
    let version = !args.is_empty()
        && args
            .iter()
            .all(|w| matches!(w.as_str(), "--version" | "-V" | "-v" | "version" | "--help" | "-h"));
    !c.writes
        && (version
            || match program {
                "git" => sub.is_some_and(|s| LOOKING_GIT.contains(&s)),
                "gh" => gh_looks(args),
                "sed" | "awk" | "perl" => !edits,
                // `command -v x`: the splitter strips `command`
                "-v" | "-V" => true,
                p => LOOKING.contains(&p) || LOOKING_POWERSHELL.contains(&p.to_ascii_lowercase().as_str()),
            })
}

/// Whether a `gh` command only reads: viewing or listing pull requests,
/// issues, repositories and releases, the auth status, a search, an API
/// `GET`. (`gh pr checks` and `gh run view` report an outcome: not looks.)
fn gh_looks(args: &[String]) -> bool {
    let words: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-'))
        .collect();
    match words.as_slice() {
        ["api", ..] => !args
            .iter()
            .zip(args.iter().skip(1))
            .any(|(a, b)| matches!(a.as_str(), "-X" | "--method") && !b.eq_ignore_ascii_case("get")),
        ["pr" | "issue" | "repo" | "release", sub, ..] => matches!(*sub, "view" | "list" | "diff" | "status"),
        ["auth", "status", ..] | ["search", ..] => true,
        _ => false,
    }
}

/// Options of `ssh` that take a value.
const SSH_WITH_VALUE: &[&str] = &[
    "-p", "-i", "-o", "-l", "-F", "-J", "-L", "-R", "-D", "-E", "-S", "-W", "-b", "-c", "-e", "-m", "-O", "-Q", "-w",
];

/// The command `line` runs: for `ssh [options] host "command"`, the remote
/// command; else the line itself.
pub(super) fn remote_or_local(line: &str) -> String {
    let commands = simple_commands(line);
    let [only] = commands.as_slice() else {
        return line.to_owned();
    };
    let words = &only.words;
    if words.first().map(|p| p.rsplit('/').next().unwrap_or(p)) != Some("ssh") {
        return line.to_owned();
    }
    let mut rest = words.iter().skip(1);
    while let Some(w) = rest.next() {
        if SSH_WITH_VALUE.contains(&w.as_str()) {
            rest.next();
        } else if !w.starts_with('-') {
            // the host; what follows is the remote command
            let remote: Vec<&str> = rest.map(String::as_str).collect();
            return if remote.is_empty() {
                line.to_owned()
            } else {
                remote.join(" ")
            };
        }
    }
    line.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_through_ssh_version_probes_and_gh_reads() {
        for yes in [
            "ssh root@10.0.0.1 \"ls -la /etc/init.d/ | grep -i ovpn\"",
            "ssh -p 2222 -o ConnectTimeout=10 host 'cat /etc/os-release'",
            "anchor --version",
            "which anchor 2>/dev/null && anchor --version",
            "gh pr view 12 --json state",
            "gh api repos/o/r/pulls",
            "command -v solana",
            "Get-Content -Path src/sandbox.rs -TotalCount 130",
            "Select-String -Path setup.sh -Pattern x | Select-Object -First 3",
            "ssh root@10.0.0.1 \"logread | grep modem | tail -5\"",
        ] {
            assert!(line_only_looks(&remote_or_local(yes)), "{yes}");
        }
        for no in [
            "ssh host \"opkg remove kmod-ovpn\"",
            "gh pr checks 5",
            "gh api -X POST repos/o/r/issues",
            "cargo build",
            "ssh host",
        ] {
            assert!(!line_only_looks(&remote_or_local(no)), "{no}");
        }
    }
}
