//! What the hook reviews: the transcript (read once the host has written the
//! turn, [`super::settle`]), the note added to the window, the answer, the
//! request it answers, and why the review is blind when it is.
//!
//! Owns [`Evidence`]. Every host's transcript format has a reader; a host
//! that sends no readable path gets its answer reviewed alone, and the user
//! is told (stderr, and `systemMessage` where the host shows it). A last turn
//! longer than the read cap is not reviewed at all. Must not review anything.

use std::time::Duration;

use super::input::{HookEvent, HookInput};
use super::settle::{RECORD_BUDGET, SETTLE_BUDGET, read_settled};
use super::{LetThrough, say};
use crate::transcript::{ReadOptions, Transcript};

/// What the user is told when the review had no transcript.
const REVIEWED_BLIND: &str = "reviewed without tool evidence";

/// The note added to the window when the review has no transcript.
const NO_EVIDENCE: &str =
    "(The host gave no readable transcript: the answer is reviewed alone, without tool evidence.)";

/// The evidence of one stop.
pub(super) struct Evidence {
    /// The transcript as read (empty when there is none to read).
    pub(super) transcript: Transcript,
    /// A note for the reviewer's window: results the host had not written
    /// yet, or that there is no transcript.
    pub(super) note: Option<String>,
    /// Why there is no transcript, when there is none: the review is blind.
    blind: Option<String>,
}

impl Evidence {
    /// Reads `input`'s transcript. A host that hands over the answer may
    /// still be writing the turn's last lines: every tool call's result is
    /// waited for, briefly, then the review takes what there is (without an
    /// answer from the host, the transcript is the answer's only source and
    /// is read as it is). A host that records the stop itself (Copilot CLI,
    /// droid) is waited for until that record is read; without it after the
    /// wait, the stop is not reviewed (the file may not hold the answer yet).
    pub(super) async fn read(input: &HookInput) -> Result<Evidence, LetThrough> {
        let Some(path) = &input.transcript_path else {
            let why = format!("{} sent no transcript (transcript_path is null or empty)", input.host);
            return Ok(Evidence::blind(why));
        };
        let recorded = input.stop_record.is_some();
        let options = ReadOptions {
            allow_partial_last_line: recorded
                || input.last_assistant_message.is_some()
                || input.joined_response.is_some(),
            format: input.transcript_format,
            agent: input.transcript_agent.clone(),
            stop: input.stop_record.clone(),
            ..ReadOptions::default()
        };
        let budget = match (recorded, options.allow_partial_last_line) {
            (true, _) => RECORD_BUDGET,
            (false, true) => SETTLE_BUDGET,
            (false, false) => Duration::ZERO,
        };
        let subagent = input.event == HookEvent::SubagentStop;
        let settled = read_settled(path, &options, budget, subagent).await;
        if let Some(lag) = settled.lag() {
            say(lag);
        }
        let note = settled.window_note();
        if settled.unrecorded {
            let why = format!(
                "{}'s session file {} did not record this stop in time",
                input.host,
                path.display()
            );
            return Err(LetThrough::Said(format!("{why}; not reviewed")));
        }
        match settled.read {
            Ok((t, _)) if t.truncated => Err(LetThrough::Shown(format!(
                "the last turn of {} is longer than the {}-byte read cap",
                path.display(),
                options.max_bytes
            ))),
            Ok((transcript, _)) => Ok(Evidence {
                transcript,
                note,
                blind: None,
            }),
            Err(e) => Ok(Evidence::blind(e.to_string())),
        }
    }

    fn blind(why: String) -> Evidence {
        Evidence {
            transcript: Transcript::default(),
            note: Some(NO_EVIDENCE.to_owned()),
            blind: Some(why),
        }
    }

    /// The answer under review: the host's, else the transcript's. Without
    /// one, nothing was answered in this turn (nothing to review) — or, with
    /// no transcript either (Cursor sends no answer), the user is told.
    pub(super) fn answer(&self, input: &HookInput) -> Result<String, LetThrough> {
        match (input.answer(self.transcript.last_answer()), &self.blind) {
            (Some(answer), _) => Ok(answer),
            (None, Some(why)) => Err(LetThrough::Shown(format!("{why}, and no answer"))),
            (None, None) => Err(LetThrough::Quietly),
        }
    }

    /// Says, when the review is blind, that it is (on stderr), and returns
    /// the line for the user.
    pub(super) fn say_blind(&self) -> Option<String> {
        self.blind.as_ref().map(|why| {
            let line = format!("{why}; the answer was {REVIEWED_BLIND}");
            say(&line);
            format!("advisor: {line}")
        })
    }

    /// The identity of the request the answer is for: the transcript's last
    /// prompt, else what the host says (Codex's turn, Gemini CLI's prompt).
    pub(super) fn request(&self, input: &HookInput) -> Option<String> {
        (self.transcript.last_prompt.clone())
            .or_else(|| input.turn_id.as_ref().map(|t| format!("turn:{t}")))
            .or_else(|| (input.prompt.as_ref()).map(|p| format!("prompt:{}", advisor::trace::short_hash(p))))
    }
}
