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
//! carries it (the hook waits only for a host that hands over the answer).
//!
//! A host that records the stop itself in its session file is waited for
//! until that record is read ([`ReadOptions::stop`], for at most
//! [`RECORD_BUDGET`]): GitHub Copilot CLI hands over no answer and writes the
//! turn's last results and its answer after the hook starts, in one batch
//! with the `hook.start` line of the call (on this project's machine the
//! answer was missing at the hook's start in 22 of 36 runs, and there 6–81
//! ms later); droid names its answer by `message_id`. Must not review
//! anything, nor decide what a lag means for the stop: the hook goes on with
//! what was read.

use std::path::Path;
use std::time::Duration;

use crate::transcript::{ReadOptions, Transcript, TranscriptError, TranscriptErrorKind, TranscriptFormat};

/// The longest the hook waits for the transcript, in all.
pub(crate) const SETTLE_BUDGET: Duration = Duration::from_millis(300);

/// The longest the hook waits for a host's own record of the stop
/// ([`ReadOptions::stop`]), in all: the answer is not reviewed without it.
pub(crate) const RECORD_BUDGET: Duration = Duration::from_millis(1000);

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
    /// The host's own record of the stop ([`ReadOptions::stop`]) was still
    /// not in the file (or there was no file yet) when the wait ended.
    pub(crate) unrecorded: bool,
    /// The wait was for the host's own record of the stop.
    pub(crate) recorded: bool,
}

impl Settled {
    /// What to record when the transcript lagged: `None` when it was
    /// complete at the first read.
    pub(crate) fn lag(&self) -> Option<String> {
        let ms = self.waited.as_millis();
        match (self.recorded, self.unrecorded, self.waited.is_zero()) {
            (_, true, _) => {
                return Some(format!(
                    "the transcript lagged: it held no record of this stop after {ms} ms"
                ));
            }
            (true, false, false) => {
                return Some(format!(
                    "the transcript lagged: the host had written this stop to it after {ms} ms"
                ));
            }
            _ => {}
        }
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
/// whose lines are not on disk yet), or — when the host records the stop
/// itself (`recorded`) — whether that record is still missing (then nothing
/// else is counted: the record comes with the turn's last lines; a file not
/// there yet, or empty, is missing it too).
fn pending(
    read: &Result<(Transcript, TranscriptFormat), TranscriptError>,
    assistant_expected: bool,
    recorded: bool,
) -> (usize, bool) {
    match read {
        Ok((t, _)) if recorded => (0, !t.stop_seen),
        Ok((t, _)) => (
            t.unanswered_calls() + usize::from(assistant_expected && !t.last_turn_has_assistant()),
            false,
        ),
        Err(e) if recorded && matches!(e.kind(), TranscriptErrorKind::Empty | TranscriptErrorKind::Io) => (0, true),
        Err(e) if e.kind() == TranscriptErrorKind::Empty => (1, false),
        Err(_) => (0, false),
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
        let recorded = options.stop.is_some();
        let (missing, unrecorded) = pending(&read, assistant_expected, recorded);
        if (missing == 0 && !unrecorded) || waited >= budget {
            return Settled {
                read,
                waited,
                missing,
                unrecorded,
                recorded,
            };
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
    async fn a_hosts_own_record_of_the_stop_is_waited_for() {
        use crate::transcript::StopRecord;
        let ev =
            |ty: &str, data: &str, id: &str| format!(r#"{{"type":"{ty}","data":{data},"id":"{id}","parentId":null}}"#);
        let prompt = ev("user.message", r#"{"content":"run the tests"}"#, "e1");
        let answer = ev(
            "assistant.message",
            r#"{"content":"All tests pass.","toolRequests":[]}"#,
            "e2",
        );
        let start = ev(
            "hook.start",
            r#"{"hookType":"agentStop","input":{"timestamp":42}}"#,
            "e3",
        );
        let path = scratch("record", &[&prompt]);
        let options = ReadOptions {
            format: Some(TranscriptFormat::Copilot),
            stop: Some(StopRecord::HookStart {
                hook: "agentStop".into(),
                timestamp: 42,
            }),
            ..ReadOptions::default()
        };
        let writer = {
            let path = path.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(60)).await;
                append(&path, &answer);
                append(&path, &start);
            })
        };
        let settled = read_settled(&path, &options, RECORD_BUDGET, false).await;
        writer.await.unwrap();
        assert!(!settled.unrecorded);
        assert_eq!(settled.read.as_ref().unwrap().0.last_answer(), Some("All tests pass."));
        assert!(settled.waited >= Duration::from_millis(60) && settled.waited < RECORD_BUDGET);
        assert!(settled.lag().unwrap().contains("written this stop to it after"));
        // a file not there yet is waited for too
        let later = std::env::temp_dir().join(format!("advisor-settle-{}-record-later.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&later);
        let writer = {
            let (later, prompt) = (later.clone(), prompt.clone());
            let start = ev(
                "hook.start",
                r#"{"hookType":"agentStop","input":{"timestamp":42}}"#,
                "e3",
            );
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(40)).await;
                std::fs::write(&later, format!("{prompt}\n{start}\n")).unwrap();
            })
        };
        let settled = read_settled(&later, &options, RECORD_BUDGET, false).await;
        writer.await.unwrap();
        assert!(!settled.unrecorded && settled.read.is_ok());
        let _ = std::fs::remove_file(&later);
        // never written: the wait ends at its budget and says so
        let alone = scratch("record-never", &[&prompt]);
        let settled = read_settled(&alone, &options, RECORD_BUDGET, false).await;
        assert!(settled.unrecorded);
        assert_eq!(settled.waited, RECORD_BUDGET);
        assert!(settled.lag().unwrap().contains("no record of this stop"));
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
        let _ = std::fs::remove_dir_all(alone.parent().unwrap());
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
