//! What a run's command line says, before any output is read: which
//! runners it invokes, the directory each ran in, and what the line does to
//! the exit status the host records.
//!
//! Owns [`RunLine`]: the recognised invocations (`cd svc && pytest` runs
//! `pytest` in `svc`; `pnpm -C web exec vitest` in `web`), and whether the
//! status is not the runner's own — a pipe, a fallback (`a || b`), a pipe
//! into `grep` (whose exit 1 only says nothing matched) — or the line also
//! formats (`cargo fmt --check || cargo fmt`, `… || just fmt`), so a
//! check's diffs before it were fixed there. Must not read output or decide
//! how a run ended: that is [`runs`](super::runs).

use super::invocation::{Invocation, recognise};
use super::shell::simple_commands;

/// What a shell call's command line says of the runs in it.
#[derive(Debug, Default)]
pub(crate) struct RunLine {
    /// The recognised invocations, in order.
    pub(crate) invocations: Vec<Invocation>,
    /// The directory each invocation ran in, relative to where the call started.
    pub(crate) dirs: Vec<String>,
    /// Whether a recognised command's output went through a pipe.
    pub(crate) piped: bool,
    /// Whether the line has a fallback (`a || b`).
    pub(crate) or_else: bool,
    /// Whether a command of the line formats: `cargo fmt`, `cargo +nightly
    /// fmt`, `rustfmt`, `just fmt`, `make fmt`, `cargo make format` — not a
    /// `--check`, nor an `echo` of the word.
    pub(crate) formats: bool,
    /// Whether the line ends in a pipe into `grep` (or `rg`).
    pub(crate) grep_last: bool,
}

impl RunLine {
    /// Reads `line`.
    pub(crate) fn read(line: &str) -> RunLine {
        let cmds = simple_commands(line);
        let mut dir = String::new();
        let mut out = RunLine {
            or_else: line.contains("||"),
            ..RunLine::default()
        };
        for cmd in &cmds {
            if cmd.words.first().is_some_and(|w| w == "cd") {
                match cmd.words.get(1) {
                    Some(d) if d != "-" && !d.starts_with('~') => dir = join_dir(&dir, d),
                    _ => dir.clear(),
                }
                continue;
            }
            if let Some(inv) = recognise(cmd) {
                out.piped |= cmd.piped;
                out.invocations.push(inv);
                // `pnpm -C web exec vitest`, `yarn --cwd web test`: run in that directory
                let at = workspace_dir(&cmd.words).map_or_else(|| dir.clone(), |d| join_dir(&dir, d));
                out.dirs.push(at);
            }
        }
        out.formats = cmds.iter().any(|c| {
            let w: Vec<&str> = c.words.iter().map(|w| w.rsplit('/').next().unwrap_or(w)).collect();
            let fmt =
                w.iter().skip(1).any(|x| matches!(*x, "fmt" | "format" | "reformat")) || w.first() == Some(&"rustfmt");
            fmt && !w.contains(&"--check") && w.first() != Some(&"echo")
        });
        out.grep_last = line.contains('|')
            && cmds.last().is_some_and(|c| {
                c.words
                    .first()
                    .is_some_and(|p| matches!(p.rsplit('/').next(), Some("grep" | "egrep" | "fgrep" | "rg")))
            });
        out
    }
}

/// Joins `dir` onto `base` (both relative to where the call started; an
/// absolute `dir` stands alone), folding `.` and `..`.
fn join_dir(base: &str, dir: &str) -> String {
    let mut parts: Vec<&str> = if dir.starts_with('/') {
        vec![""]
    } else {
        base.split('/').filter(|p| !p.is_empty()).collect()
    };
    for p in dir.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// The directory a package manager's own option runs it in (`pnpm -C web`,
/// `pnpm --dir web`, `yarn --cwd web`), before its subcommand.
fn workspace_dir(words: &[String]) -> Option<&str> {
    let program = words.first()?.rsplit('/').next()?;
    let opts: &[&str] = match program {
        "pnpm" => &["-C", "--dir"],
        "yarn" => &["--cwd"],
        _ => return None,
    };
    words
        .windows(2)
        .skip(1)
        .take_while(|w| w[0].starts_with('-'))
        .find(|w| opts.contains(&w[0].as_str()))
        .map(|w| w[1].as_str())
        .filter(|d| !d.starts_with('-') && !d.starts_with('~'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cd_sets_the_directory_of_the_invocations_after_it() {
        let line = RunLine::read("cd svc && pytest tests/test_a.py; cd .. && cargo test");
        assert_eq!(line.invocations.len(), 2);
        assert_eq!(line.dirs, vec!["svc".to_owned(), String::new()]);
        assert_eq!(join_dir("a/b", "../c"), "a/c");
    }

    #[test]
    fn a_line_says_where_each_runner_ran_and_what_hides_its_status() {
        let line = RunLine::read("cd svc && pytest tests/a.py | tail -5");
        assert_eq!(line.dirs, ["svc"]);
        assert!(line.piped && !line.or_else && !line.grep_last);
        let line = RunLine::read("cargo fmt --check || just fmt");
        assert!(line.or_else && line.formats);
        assert!(!RunLine::read("cargo fmt --check || echo 'fmt'").formats);
        assert!(RunLine::read("cargo test 2>&1 | grep FAILED").grep_last);
        assert_eq!(RunLine::read("pnpm -C web exec vitest run").dirs, ["web"]);
    }
}
