//! One finish review of a transcript through the real plugin: the path both
//! `advisor review` and `advisor hook` take, so neither re-implements policy.
//!
//! Owns feeding a [`Transcript`] to an [`AdvisorRun`] (restore, fresh request,
//! compaction, the request window) and reading back the traced decisions.

use std::sync::Arc;

use advisor::host::{Checkpoint, Message, ObservePhase, RunObserver, StopDecision, StopInfo, StopInterceptor};
use advisor::plugin::{AdvisorPluginBuilder, AdvisorRun};
use advisor::trace::{MemoryTrace, TraceEvent, TraceEventKind};
use advisor::transcript::Transcript;

/// What one finish review amounted to.
pub(crate) struct Finish {
    /// The review's trace event (absent when no review ran, e.g. the cap was spent).
    pub(crate) event: Option<TraceEvent>,
    /// The stop decision.
    pub(crate) decision: StopDecision,
    /// The advisor's state after the review.
    pub(crate) checkpoint: serde_json::Value,
    /// What the advisor did, in counts — `budget_stop` says why no review ran
    /// when a token budget was spent (for the hook's `systemMessage`).
    pub(crate) report: advisor::plugin::RunReport,
}

impl Finish {
    /// The one message sent back to the agent when the review re-opens the
    /// run (the advisories of every reviewer, joined), else `None`.
    pub(crate) fn injection(&self) -> Option<String> {
        self.decision.reopens().then(|| {
            self.decision
                .inject
                .iter()
                .map(|m| m.content.as_str())
                .collect::<Vec<_>>()
                .join("\n\n")
        })
    }
}

/// Where the transcript stood at the last review.
pub(crate) struct Prior {
    /// The advisor's saved state.
    pub(crate) checkpoint: Option<serde_json::Value>,
    /// The identity of the last genuine prompt then.
    pub(crate) last_prompt: Option<String>,
    /// The identity of the last compaction then.
    pub(crate) last_compaction: Option<String>,
}

/// Reviews `answer` (the last answer of `transcript` unless given) once.
/// `request` is the identity of the request the answer is for (the
/// transcript's last prompt, or what the host says); a different one than at
/// the last review is a fresh request. `note`, when given, is added to the
/// window (e.g. that there was no transcript, so no tool evidence). Restore
/// problems are reported through `warn` and the state starts fresh.
pub(crate) async fn review_transcript(
    builder: AdvisorPluginBuilder,
    transcript: &Transcript,
    answer: &str,
    request: Option<&str>,
    prior: Option<&Prior>,
    note: Option<&str>,
    warn: &mut (dyn FnMut(String) + Send),
) -> Result<Finish, advisor::Error> {
    let trace = Arc::new(MemoryTrace::new());
    let plugin = builder.trace(trace.clone()).build()?;
    let mut run: AdvisorRun = plugin.start_run();
    if let Some(prior) = prior {
        if let Some(state) = &prior.checkpoint {
            if let Err(e) = Checkpoint::restore(&mut run, state.clone()) {
                warn(format!("the saved advisor state was rejected ({e}); starting fresh"));
                run = plugin.start_run();
            }
        }
        // identities, not counts: a read from the end does not see the whole file
        if request.is_some_and(|r| prior.last_prompt.as_deref() != Some(r)) {
            run.observe_messages(
                ObservePhase::ExternalInput,
                0,
                &[Message::user("(a new request from the user)")],
            );
        }
        if transcript
            .last_compaction
            .as_ref()
            .is_some_and(|c| prior.last_compaction.as_ref() != Some(c))
        {
            run.observe_messages(ObservePhase::Rebase, 0, &transcript.messages);
        }
    }
    let mut window = if transcript.last_answer() == Some(answer) {
        transcript.history_before_answer().to_vec()
    } else {
        transcript.messages.clone()
    };
    if let Some(note) = note {
        window.push(Message::system(note));
    }
    let turns = transcript.assistant_turns().max(1);
    run.observe_messages(ObservePhase::Request, turns, &window);
    let info = StopInfo {
        final_answer: answer.to_owned(),
        turns,
        tools: transcript.tools.clone(),
        attempt: 0,
    };
    let decision = run.turn_stopping(&info).await;
    let checkpoint = Checkpoint::save(&run)?;
    let report = run.report();
    let event = trace
        .events()
        .into_iter()
        .rev()
        .find(|e| e.event == TraceEventKind::Review);
    Ok(Finish {
        event,
        decision,
        checkpoint,
        report,
    })
}
