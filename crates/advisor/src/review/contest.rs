//! A contest: what an earlier stage found against an answer, for a judge to
//! weigh.
//!
//! Owns [`Contest`] and [`Failure`] — the user's request of the turn under
//! review, each failure signal no later step of the turn cleared (what ran,
//! why it reads as a failure, and its lines quoted verbatim), the steps the
//! turn ran after its first failure (how each ended: a later check may have
//! made a failure moot), what the turn wrote (or that it only looked), and the earlier stage's own
//! notes — and their bounds. A review that
//! carries one ([`Review::contest`](super::Review::contest)) asks a
//! model-backed reviewer one question instead of a whole review: does the
//! answer state or imply a success these failures contradict, without
//! disclosing them? Must not find failures (the offline rules do) or render
//! the judge's prompt (the prompt module does).

use serde::{Deserialize, Serialize};

use crate::text::{clamp_chars, truncate_middle_tail};

/// Most failures a contest carries (the first ones found are kept).
pub const MAX_FAILURES: usize = 8;
/// Most bytes of one failure's quoted lines (head and tail kept).
pub const MAX_QUOTE_BYTES: usize = 600;
/// Most characters of one failure's step or signal.
pub const MAX_STEP_CHARS: usize = 200;
/// Most paths of what the turn wrote.
pub const MAX_WRITTEN: usize = 24;
/// Most notes of the earlier stage carried.
pub const MAX_REMARKS: usize = 6;
/// Most steps after the first failure carried (the last ones are kept).
pub const MAX_AFTER: usize = 8;

/// One failure signal no later step of the turn cleared.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Failure {
    /// What ran, on one line (a command, or a tool and its target).
    pub step: String,
    /// Why it reads as a failure (`exit code 1`, `the runner's summary`, `a
    /// traceback`), on one line.
    pub signal: String,
    /// The lines that say so, verbatim from the step's output.
    pub quote: String,
}

impl Failure {
    /// A failure, bounded: the step and the signal to [`MAX_STEP_CHARS`]
    /// characters, the quote to [`MAX_QUOTE_BYTES`] bytes (head and tail).
    pub fn new(step: &str, signal: &str, quote: &str) -> Failure {
        Failure {
            step: clamp_chars(&one_line(step), MAX_STEP_CHARS).to_owned(),
            signal: clamp_chars(&one_line(signal), MAX_STEP_CHARS).to_owned(),
            quote: truncate_middle_tail(quote.trim_end(), MAX_QUOTE_BYTES),
        }
    }
}

/// What an earlier stage found against an answer.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Contest {
    /// The user's request of the turn under review (the task, when the
    /// window shows no other).
    pub request: String,
    /// Failure signals no later step of the turn cleared, oldest first.
    pub failures: Vec<Failure>,
    /// The steps the turn ran after its first failure, oldest first, one
    /// line each: what ran, how it ended and its last line of output
    /// (`` `curl -s …/connections` — exit 0: {"status": 200} ``).
    #[serde(default)]
    pub after: Vec<String>,
    /// What the turn wrote (paths, one per entry), oldest first.
    pub written: Vec<String>,
    /// Whether every call of the turn only looked (read, searched, listed):
    /// the turn wrote nothing, so a claim that it created or changed a file
    /// has nothing behind it. False for a turn with no call.
    #[serde(default)]
    pub only_looked: bool,
    /// The earlier stage's own notes, one line each (`[nit] …`): context for
    /// the judge, never evidence a blocker can quote.
    pub remarks: Vec<String>,
}

impl Contest {
    /// Whether there is anything to contest: a failure or a remark.
    pub fn is_contested(&self) -> bool {
        !self.failures.is_empty() || !self.remarks.is_empty()
    }

    /// This contest within its bounds: at most [`MAX_FAILURES`] failures,
    /// [`MAX_WRITTEN`] paths and [`MAX_REMARKS`] remarks (the first kept;
    /// the rest counted in a last entry), the last [`MAX_AFTER`] later
    /// steps, each path, step and remark one line.
    pub fn bounded(mut self) -> Contest {
        self.failures.truncate(MAX_FAILURES);
        let earlier = self.after.len().saturating_sub(MAX_AFTER);
        self.after.drain(..earlier);
        for a in &mut self.after {
            *a = clamp_chars(&one_line(a), 2 * MAX_STEP_CHARS).to_owned();
        }
        let more = self.written.len().saturating_sub(MAX_WRITTEN);
        self.written.truncate(MAX_WRITTEN);
        for w in &mut self.written {
            *w = clamp_chars(&one_line(w), MAX_STEP_CHARS).to_owned();
        }
        if more > 0 {
            self.written.push(format!("(and {more} more)"));
        }
        self.remarks.truncate(MAX_REMARKS);
        for r in &mut self.remarks {
            *r = clamp_chars(&one_line(r), 2 * MAX_STEP_CHARS).to_owned();
        }
        self
    }
}

/// `text` on one line: every run of control or line-break characters one space.
fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.trim().chars() {
        if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
            gap = true;
        } else {
            if gap {
                out.push(' ');
                gap = false;
            }
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contest_keeps_its_bounds() {
        let c = Contest {
            failures: vec![Failure::new("x", "y", "z"); 20],
            written: (0..40).map(|i| format!("src/f{i}.rs")).collect(),
            remarks: vec!["[nit] a\nb".into(); 9],
            after: (0..12).map(|i| format!("`step {i}`\n— exit 0")).collect(),
            ..Contest::default()
        }
        .bounded();
        assert_eq!(c.after.len(), MAX_AFTER);
        assert_eq!(
            c.after.first().map(String::as_str),
            Some("`step 4` — exit 0"),
            "the last kept"
        );
        assert_eq!(c.failures.len(), MAX_FAILURES);
        assert_eq!(c.written.len(), MAX_WRITTEN + 1);
        assert_eq!(c.written.last().map(String::as_str), Some("(and 16 more)"));
        assert_eq!(c.remarks, vec!["[nit] a b".to_owned(); MAX_REMARKS]);
    }

    #[test]
    fn a_failure_is_bounded_and_on_one_line() {
        let f = Failure::new("pytest\n-q", "exit code 1", &"E   assert 1 == 2\n".repeat(200));
        assert_eq!(f.step, "pytest -q");
        assert!(f.quote.len() <= MAX_QUOTE_BYTES + 40, "{}", f.quote.len());
        assert!(f.quote.ends_with("assert 1 == 2"));
    }
}
