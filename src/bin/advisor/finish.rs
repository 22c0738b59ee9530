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
    #[allow(dead_code)] // read by `advisor mcp`; the hook wires it at merge
    pub(crate) report: advisor::plugin::RunReport,
}

/// Where the transcript stands relative to the last review.
pub(crate) struct Prior {
    /// The advisor's saved state.
    pub(crate) checkpoint: Option<serde_json::Value>,
    /// User prompts the transcript held at the last review.
    pub(crate) user_prompts: usize,
    /// Compactions the transcript held at the last review.
    pub(crate) compactions: usize,
}

/// Reviews `answer` (the last answer of `transcript` unless given) once.
/// Restore problems are reported through `warn` and the state starts fresh.
pub(crate) async fn review_transcript(
    builder: AdvisorPluginBuilder,
    transcript: &Transcript,
    answer: &str,
    prior: Option<&Prior>,
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
        if transcript.user_prompts > prior.user_prompts {
            run.observe_messages(
                ObservePhase::ExternalInput,
                0,
                &[Message::user("(a new request from the user)")],
            );
        }
        if transcript.compactions > prior.compactions {
            run.observe_messages(ObservePhase::Rebase, 0, &transcript.messages);
        }
    }
    let window = if transcript.last_answer() == Some(answer) {
        transcript.history_before_answer()
    } else {
        &transcript.messages[..]
    };
    let turns = transcript.assistant_turns().max(1);
    run.observe_messages(ObservePhase::Request, turns, window);
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
