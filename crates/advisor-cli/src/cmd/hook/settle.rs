//! Waiting, briefly, for a host that is still writing its transcript.
//!
//! Claude Code calls its Stop hook before the turn's last lines are on disk:
//! with a model that answers at once, the failing `tool_result` was missing
//! when the hook started in every live run, and there 5–50 ms later. Owns
//! [`read_settled`]: it reads the transcript, and while a tool call of the
//! last turn has no result yet (or the file is still empty) it polls again,
//! [`POLL`] apart, until [`SETTLE_BUDGET`] has passed since the first read;
//! then the review takes what there is and [`Settled::lag`] says so. The
//! answer itself is never waited for: the host's `last_assistant_message`
//! carries it (the hook waits only for a host that hands over the answer). Must not review anything, nor decide what a lag means for the
//! stop: the hook goes on with what was read.

use std::path::Path;
use std::time::Duration;

use crate::transcript::{ReadOptions, Transcript, TranscriptError, TranscriptErrorKind, TranscriptFormat};

/// The longest the hook waits for the transcript, in all.
pub(crate) const SETTLE_BUDGET: Duration = Duration::from_millis(300);

/// Time between two reads while waiting.
pub(crate) const POLL: Duration = Duration::from_millis(10);

/// A transcript read after waiting for the host to finish writing it.
#[derive(Debug)]
pub(crate) struct Settled {
    /// The last read.
    pub(crate) read: Result<(Transcript, TranscriptFormat), TranscriptError>,
    /// How long the hook waited after its first read (zero when the
    /// transcript was complete at once).
    pub(crate) waited: Duration,
    /// Tool calls of the last turn that still had no result when the wait
    /// ended (zero when every one had).
    pub(crate) missing: usize,
}

impl Settled {
    /// What to record when the transcript lagged: `None` when it was
    /// complete at the first read.
    pub(crate) fn lag(&self) -> Option<String> {
        let ms = self.waited.as_millis();
        match (self.waited.is_zero(), self.missing) {
            (true, _) => None,
            (false, 0) => Some(format!(
                "the transcript lagged: every tool call of the turn had its result after {ms} ms"
            )),
            (false, n) => Some(format!(
                "the transcript lagged: {n} tool call(s) of the turn still had no result after {ms} ms; reviewed without them"
            )),
        }
    }

    /// The note for the review window when the wait ended with results
    /// still missing.
    pub(crate) fn window_note(&self) -> Option<String> {
        (self.missing > 0).then(|| {
            format!(
                "(The host had not written the result of {} tool call(s) of this turn to the transcript after {} ms: they are reviewed without their output.)",
                self.missing,
                self.waited.as_millis()
            )
        })
    }
}

/// Whether a read shows a transcript the host is still writing, and how many
/// results it lacks (an empty file counts as one; so does a last turn with no
/// assistant message yet when `assistant_expected`: a sub-agent's transcript
/// whose lines are not on disk yet).
fn pending(read: &Result<(Transcript, TranscriptFormat), TranscriptError>, assistant_expected: bool) -> usize {
    match read {
        Ok((t, _)) => t.unanswered_calls() + usize::from(assistant_expected && !t.last_turn_has_assistant()),
        Err(e) if e.kind() == TranscriptErrorKind::Empty => 1,
        Err(_) => 0,
    }
}

/// Reads the transcript at `path`, re-reading every [`POLL`] while a tool
/// call of its last turn has no result, for at most `budget` after the
/// first read. Timed with tokio's clock, so tests run it in paused time.
///
/// With `assistant_expected` (Claude Code's `SubagentStop`, whose sub-agent
/// transcript gets its lines after the hook starts), a last turn that holds
/// no assistant message yet is waited for too. Not for the main `Stop`, whose
/// final line is never on disk while the hook runs.
pub(crate) async fn read_settled(
    path: &Path,
    options: &ReadOptions,
    budget: Duration,
    assistant_expected: bool,
) -> Settled {
    let start = tokio::time::Instant::now();
    let mut waited = Duration::ZERO; // until the read that ends the wait began
    loop {
        let read = crate::transcript::read_transcript_with(path, options);
        let missing = pending(&read, assistant_expected);
        if missing == 0 || waited >= budget {
            return Settled { read, waited, missing };
        }
        tokio::time::sleep(POLL.min(budget.saturating_sub(start.elapsed()))).await;
        waited = start.elapsed();
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::io::Write;

    const PROMPT: &str = r#"{"type":"user","uuid":"u1","message":{"role":"user","content":"run the tests"}}"#;
    const CALL: &str = r#"{"type":"assistant","uuid":"a1","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"pytest"}}]}}"#;
    const RESULT: &str = r#"{"type":"user","uuid":"r1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"Exit code 1\n1 failed"}]}}"#;

    fn scratch(name: &str, lines: &[&str]) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("advisor-settle-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.jsonl");
        std::fs::write(&path, lines.iter().map(|l| format!("{l}\n")).collect::<String>()).unwrap();
        path
    }

    fn append(path: &Path, line: &str) {
        let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
        writeln!(f, "{line}").unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn a_sub_agent_transcript_with_only_its_prompt_is_waited_for() {
        let path = scratch("subagent", &[PROMPT]);
        let writer = {
            let path = path.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(30)).await;
                append(&path, CALL);
                append(&path, RESULT);
            })
        };
        let settled = read_settled(&path, &ReadOptions::default(), SETTLE_BUDGET, true).await;
        writer.await.unwrap();
        let (t, _) = settled.read.as_ref().unwrap();
        assert_eq!(settled.missing, 0);
        assert!(
            t.tools.first().is_some_and(|c| c.error.is_some()),
            "the failing result is read"
        );
        assert!(settled.waited >= Duration::from_millis(30) && settled.waited < SETTLE_BUDGET);
        // the main Stop does not wait for a turn with no assistant line
        let alone = scratch("main-stop", &[PROMPT]);
        let settled = read_settled(&alone, &ReadOptions::default(), SETTLE_BUDGET, false).await;
        assert!(settled.waited.is_zero());
    }

    #[tokio::test(start_paused = true)]
    async fn a_result_written_later_is_waited_for() {
        let path = scratch("later", &[PROMPT, CALL]);
        let writer = {
            let path = path.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(45)).await;
                append(&path, RESULT);
            })
        };
        let settled = read_settled(&path, &ReadOptions::default(), SETTLE_BUDGET, false).await;
        writer.await.unwrap();
        let (t, _) = settled.read.as_ref().unwrap();
        assert_eq!(settled.missing, 0);
        assert_eq!(t.tools.len(), 1);
        assert!(t.tools[0].error.is_some(), "the failing result is read");
        assert!(settled.waited >= Duration::from_millis(45) && settled.waited < SETTLE_BUDGET);
        assert!(settled.lag().unwrap().contains("every tool call"));
        assert_eq!(settled.window_note(), None);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[tokio::test(start_paused = true)]
    async fn the_wait_ends_at_the_budget_and_says_what_is_missing() {
        let path = scratch("never", &[PROMPT, CALL]);
        let settled = read_settled(&path, &ReadOptions::default(), SETTLE_BUDGET, false).await;
        assert_eq!(settled.missing, 1);
        assert_eq!(settled.waited, SETTLE_BUDGET);
        assert!(settled.read.is_ok());
        assert!(settled.lag().unwrap().contains("1 tool call(s)"));
        assert!(settled.window_note().unwrap().contains("300 ms"));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    // on the real clock: a read takes time, and that is no wait
    #[tokio::test]
    async fn a_complete_transcript_is_read_once_without_waiting() {
        let path = scratch("complete", &[PROMPT, CALL, RESULT]);
        let settled = read_settled(&path, &ReadOptions::default(), SETTLE_BUDGET, false).await;
        assert_eq!((settled.missing, settled.waited), (0, Duration::ZERO));
        assert_eq!(settled.lag(), None);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }

    #[tokio::test(start_paused = true)]
    async fn an_empty_file_is_waited_for_too() {
        let path = scratch("empty", &[]);
        let writer = {
            let path = path.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(20)).await;
                append(&path, PROMPT);
            })
        };
        let settled = read_settled(&path, &ReadOptions::default(), SETTLE_BUDGET, false).await;
        writer.await.unwrap();
        assert!(settled.read.is_ok());
        assert_eq!(settled.missing, 0);
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
