//! How a tool call ended, as far as the host says.
//!
//! Owns `Outcome` — failed or not by the output's own words, the process's
//! exit code, or still running — with the error text a trace carries for it,
//! and [`looks_failed`], the readers' last resort for formats whose host
//! records no outcome (OpenAI-style messages, a Codex output with no header).
//! Must not read anything but the output it is given; which outcome a host
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

/// Whether tool output reports a failure: a non-zero exit code, failed tests,
/// an error line, a traceback or a panic. `0 failed` is not a failure.
pub fn looks_failed(output: &str) -> bool {
    let lower = output.to_lowercase();
    // a non-zero digit after the marker (`exit code:` is read by `exit code`)
    let code_follows = |m: &str| {
        lower.match_indices(m).any(|(i, _)| {
            let rest = lower[i + m.len()..].trim_start_matches([' ', ':', '"']);
            rest.starts_with(|c: char| c.is_ascii_digit() && c != '0')
        })
    };
    if ["exit code", "exit status", "exited with code", "exit_code\":"]
        .into_iter()
        .any(code_follows)
    {
        return true;
    }
    if lower.contains("traceback (most recent call last)") || lower.contains("panicked at") || output.contains("FAILED")
    {
        return true;
    }
    if lower
        .lines()
        .any(|l| l.trim_start().starts_with("error:") || l.trim_start().starts_with("error["))
    {
        return true;
    }
    // "3 failed", "1 test failed" — but not "0 failed"
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    (2..=3).any(|n| (words.windows(n)).any(|w| w[n - 1] == "failed" && w[0].parse::<u64>().is_ok_and(|k| k > 0)))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_heuristics() {
        assert!(looks_failed("test result: FAILED. 3 passed; 1 failed"));
        assert!(looks_failed("Exit code: 2"));
        assert!(looks_failed("process exited with code 1"));
        assert!(looks_failed("error: could not compile `x`"));
        assert!(looks_failed("Traceback (most recent call last):\n  File"));
        assert!(looks_failed("2 tests failed"));
        assert!(!looks_failed("test result: ok. 5 passed; 0 failed"));
        assert!(!looks_failed("Exit code: 0"));
        assert!(!looks_failed("all good"));
    }
}
