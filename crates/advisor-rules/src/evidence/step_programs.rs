//! What a failed command's exit says about a claim over it: commands whose
//! non-zero exit answers a question (`grep`, `diff`, `git rev-parse`, a
//! read-only probe of one thing), commands that only show or hand something
//! over (`open page.html`, `… | xclip`), and the programs that run the code
//! under check (an interpreter or launcher with a script, a browser driver, a
//! screenshot).
//!
//! Owns [`answers_by_exit`], [`shows_only`] and [`runs_checker`], used by
//! [`failed_step`](crate::verdicts::failed_step). Must not read the answer or decide
//! what a claim is.

use super::shell::simple_commands;

/// Programs whose non-zero exit status answers a question (no match, files
/// differ, not found, no such process) instead of reporting a failure.
const ANSWERING_PROGRAMS: &[&str] = &[
    "grep", "egrep", "fgrep", "rg", "ag", "ack", "diff", "cmp", "test", "[", "[[", "which", "type", "hash", "pgrep",
    "pkill", "kill", "killall", "pidof", "lsof", "fuser", "false", "rm", "rmdir", "unlink", "mkdir",
];

/// Whether `words` is a read-only look at one thing: `ls`/`stat`/`file`/`cat`/`head`
/// of a path, `npm ls|view|info`, `pip show`, `systemctl status|is-active`,
/// `docker ps|inspect`, `curl` — its failure says the thing is not there.
fn is_probe(words: &[String]) -> bool {
    let program = words.first().map(|p| p.rsplit('/').next().unwrap_or(p)).unwrap_or("");
    let sub = words.iter().skip(1).find(|w| !w.starts_with('-')).map(String::as_str);
    match program {
        "ls" | "stat" | "file" | "cat" | "head" | "wc" | "curl" | "wget" => true,
        "npm" | "pnpm" | "yarn" => matches!(sub, Some("ls" | "list" | "view" | "info" | "show" | "why")),
        "pip" | "pip3" | "uv" => matches!(sub, Some("show")) || words.iter().any(|w| w == "show"),
        "systemctl" => matches!(sub, Some("status" | "is-active" | "is-enabled")),
        "docker" | "podman" => matches!(sub, Some("ps" | "inspect" | "images")),
        "git" => matches!(sub, Some("stash")) && words.iter().any(|w| w == "list" || w == "show"),
        _ => false,
    }
}

/// `git` subcommands whose non-zero exit status answers a question.
const ANSWERING_GIT: &[&str] = &[
    "grep",
    "diff",
    "merge-base",
    "show-ref",
    "rev-parse",
    "ls-files",
    "check-ignore",
];

/// Programs that run the code under check — an interpreter or launcher with a
/// script, a browser driver, a screenshot: the only last steps an unnamed
/// "verified" can rest on (`xargs kill`, `docker stop`, `tmux kill-session`
/// tidy up; their failure is no check's).
const CHECKERS: &[&str] = &[
    "python",
    "python3",
    "py",
    "node",
    "bun",
    "deno",
    "ruby",
    "perl",
    "php",
    "bash",
    "sh",
    "zsh",
    "npx",
    "pnpx",
    "bunx",
    "uv",
    "uvx",
    "poetry",
    "go",
    "cargo",
    "swift",
    "java",
    "dotnet",
    "playwright",
    "puppeteer",
    "screencapture",
    "chromium",
    "chrome",
    "google-chrome",
];

/// Programs that only show something to a person or hand it over (`open
/// page.html`, `… | xclip`): their failure in a headless session says nothing
/// about the result.
const VIEWERS: &[&str] = &[
    "open",
    "xdg-open",
    "gio",
    "start",
    "explorer",
    "explorer.exe",
    "code",
    "wslview",
    "firefox",
    "xclip",
    "xsel",
    "pbcopy",
    "wl-copy",
    "clip.exe",
];

/// Whether the command line ends by showing something to a person: a viewer
/// (`open page.html`) whose failure in a headless session says nothing about
/// what was made. (`open App.app && screencapture shot.png` ends with a check.)
pub(crate) fn shows_only(line: &str) -> bool {
    simple_commands(line).last().is_some_and(|c| {
        c.words
            .first()
            .is_some_and(|p| VIEWERS.contains(&p.rsplit('/').next().unwrap_or(p)))
    })
}

/// Whether the command line's last simple command answers by its exit status
/// `code`. An answering program answers with 1 (or 2: trouble, such as a
/// missing file); a higher status came from something else on the line
/// (`git pull` exiting 128 before `| grep`).
pub(crate) fn answers_by_exit(line: &str, code: Option<i64>) -> bool {
    let commands = simple_commands(line);
    let Some(last) = commands.last() else {
        return true;
    };
    // a read-only probe alone on the line (a `cd` before it, a pager after
    // it aside): its failure answers "is it there?"
    let acting: Vec<_> = commands
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            let program = c.words.first().map(String::as_str).unwrap_or("");
            let pager = *i > 0 && commands[i - 1].piped && matches!(program, "head" | "tail" | "less" | "more");
            program != "cd" && !pager
        })
        .map(|(_, c)| c)
        .collect();
    if let [only] = acting.as_slice() {
        // `cat <<'EOF' > notes.md` writes a file: its failure is no answer
        if is_probe(&only.words) && !only.writes {
            return true;
        }
    }
    let program = last
        .words
        .first()
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .unwrap_or("");
    // git's answering subcommands say "no" with 128 too (`rev-parse --verify`)
    (program == "git" && last.words.get(1).is_some_and(|s| ANSWERING_GIT.contains(&s.as_str())))
        || (ANSWERING_PROGRAMS.contains(&program) && code.is_none_or(|c| c <= 2))
}

/// Whether the command line runs a [`CHECKERS`] program (`./scripts/smoke.sh` too).
pub(crate) fn runs_checker(line: &str) -> bool {
    simple_commands(line).iter().any(|c| {
        c.words.first().is_some_and(|p| {
            let base = p.rsplit('/').next().unwrap_or(p);
            CHECKERS.contains(&base) || (p.starts_with("./") && base.contains('.'))
        })
    })
}
