//! How a tool call ended, as far as the host says.
//!
//! Owns `Outcome` — failed or not by the output's own words, the process's
//! exit code, or still running — with the error text a trace carries for it,
//! Readers whose host records no outcome (OpenAI-style messages, a Codex
//! output with no header) fall back on the library's one failure detector,
//! [`advisor_rules::looks_failed`]. Must not read anything but the output it is given; which outcome a host
//! states is each reader's business.

/// How a tool call ended, as far as the host says.
#[derive(Debug, Clone, Copy)]
pub(super) enum Outcome {
    /// Failed or not, by the output's own words.
    Failed(bool),
    /// The process's exit code.
    Exit(i64),
    /// Still running (no exit code yet).
    Running,
}

impl Outcome {
    pub(super) fn error(self, output: &str) -> Option<String> {
        match self {
            Outcome::Failed(false) | Outcome::Running | Outcome::Exit(0) => None,
            Outcome::Failed(true) => Some(first_line_with_failure(output)),
            Outcome::Exit(code) if output.trim().is_empty() => Some(format!("exit code {code}")),
            Outcome::Exit(code) => {
                let line = format!("exit code {code}: {}", first_line_with_failure(output));
                Some(crate::terminal::clamp(&line, 300).to_owned())
            }
        }
    }
}

/// The first line of `output` that names a failure (else its first line), clamped.
pub(super) fn first_line_with_failure(output: &str) -> String {
    let line = output
        .lines()
        .find(|l| {
            let l = l.to_lowercase();
            l.contains("fail") || l.contains("error") || l.contains("exit") || l.contains("panicked")
        })
        .or_else(|| output.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("failed");
    crate::terminal::clamp(line.trim(), 300).to_owned()
}
