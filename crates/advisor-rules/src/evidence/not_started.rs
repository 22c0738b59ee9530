//! A runner its shell could not start: the shell's own line saying so
//! (`bash: line 1: go: command not found`, `zsh: command not found: go`,
//! `/bin/sh: 1: jest: not found`, uv's `error: Failed to spawn: `ty``,
//! Windows' `'go' is not recognized as …`).
//!
//! Owns [`not_started`]. Reads a whole output for one of the programs a run
//! was to start; must not decide what the run's ending is — [`runs`](super::runs)
//! does that, and only where the exit status is not the runner's own.

/// Shells whose own error lines start with their name (`bash: `, `/bin/sh: 1: `).
const SHELLS: &[&str] = &[
    "bash",
    "zsh",
    "sh",
    "dash",
    "/bin/sh",
    "/bin/bash",
    "/usr/bin/bash",
    "/bin/zsh",
    "/usr/bin/zsh",
];

/// The first line of `output` saying that one of `programs` (basenames) could
/// not be started, so it ran nothing: a shell's `bash: line 1: go: command not
/// found`, `zsh: command not found: go`, `/bin/sh: 1: jest: not found`, uv's
/// `error: Failed to spawn: `ty``, Windows' `'go' is not recognized as …`.
pub(crate) fn not_started<'a>(output: &'a str, programs: &[&str]) -> Option<&'a str> {
    let named = |p: &str| {
        let p = p.trim().trim_matches('`');
        let base = p.rsplit('/').next().unwrap_or(p);
        programs.contains(&base)
    };
    output.lines().take(100_000).map(str::trim).find(|l| {
        if let Some(p) = l.strip_prefix("error: Failed to spawn: ") {
            return named(p);
        }
        if programs
            .iter()
            .any(|p| l.contains(&format!("'{p}' is not recognized as")))
        {
            return true;
        }
        let Some((shell, rest)) = l.split_once(": ") else {
            return false;
        };
        if !SHELLS.contains(&shell) {
            return false;
        }
        if let Some(p) = rest.strip_prefix("command not found: ") {
            return named(p);
        }
        // `line 1: go: …` (bash), `1: jest: …` (dash)
        let rest = rest.strip_prefix("line ").unwrap_or(rest);
        let rest = match rest.split_once(": ") {
            Some((n, r)) if n.bytes().all(|b| b.is_ascii_digit()) => r,
            _ => rest,
        };
        [": command not found", ": not found"]
            .iter()
            .any(|e| rest.strip_suffix(e).is_some_and(|p| !p.contains(": ") && named(p)))
    })
}
