//! One finish review of a transcript through the real plugin: the path both
//! `advisor review` and `advisor hook` take, so neither re-implements policy.
//!
//! Owns feeding a [`Transcript`] to an [`AdvisorRun`] (restore, fresh request,
//! compaction, the request window), driven through [`Extensions`] as every
//! host does; the result is the library's [`Advice`].

use crate::transcript::Transcript;
use advisor::Extensions;
use advisor::host::{Extension, Message, ObservePhase, StopInfo};
use advisor::plugin::{Advice, AdvisorPluginBuilder, PLUGIN_NAME};
use advisor::trace::TraceEvent;

/// What one finish review amounted to.
pub(crate) struct Finish {
    /// Every reviewer's record and the one combined injection (no records
    /// when no review ran, e.g. the cap was spent).
    pub(crate) advice: Advice,
    /// The advisor's state after the review.
    pub(crate) checkpoint: serde_json::Value,
    /// What the advisor did, in counts — `budget_stop` says why no review ran
    /// when a token budget was spent (for the hook's `systemMessage`).
    pub(crate) report: advisor::plugin::RunReport,
    /// Why the saved state was rejected, when it was: the advisor then sat
    /// out the request (its allowance is not refilled).
    pub(crate) rejected: Option<String>,
}

impl Finish {
    /// The last reviewer's record (the only one, for a single reviewer).
    pub(crate) fn record(&self) -> Option<&TraceEvent> {
        self.advice.records.last()
    }

    /// The one message sent back to the agent, if any.
    pub(crate) fn injection(&self) -> Option<&str> {
        self.advice.injection.as_deref()
    }
}

/// Where the transcript stood at the last review.
#[derive(Default)]
pub(crate) struct Prior {
    /// The advisor's saved state.
    pub(crate) checkpoint: Option<serde_json::Value>,
    /// The identity of the last genuine prompt then.
    pub(crate) last_prompt: Option<String>,
    /// The identity of the last compaction then.
    pub(crate) last_compaction: Option<String>,
    /// Why the saved state could not be read, when it could not: the
    /// advisor sits out the request it was saved for (which is unknown, so
    /// taken to be the current one).
    pub(crate) rejected: Option<String>,
}

/// Reviews `answer` (the last answer of `transcript` unless given) once.
/// `request` is the identity of the request the answer is for (the
/// transcript's last prompt, or what the host says); a different one than at
/// the last review is a fresh request. `note`, when given, is added to the
/// window (e.g. that there was no transcript, so no tool evidence). A
/// rejected saved state is reported through `warn` and in
/// [`Finish::rejected`]; the advisor then sits out the request rather than
/// start with a refilled allowance.
pub(crate) async fn review_transcript(
    builder: AdvisorPluginBuilder,
    transcript: &Transcript,
    answer: &str,
    request: Option<&str>,
    prior: Option<&Prior>,
    note: Option<&str>,
    warn: &mut (dyn FnMut(String) + Send),
) -> Result<Finish, advisor::Error> {
    let plugin = builder.build()?;
    let mut run = plugin.start_run();
    let outbox = run.finish_outbox();
    let mut rejected = prior.and_then(|p| p.rejected.clone());
    if let Some(why) = &rejected {
        run.sit_out(why);
    }
    let mut exts = Extensions::from_extensions(vec![Box::new(run) as Box<dyn Extension>])?;
    if let Some(prior) = prior {
        if let Some(state) = &prior.checkpoint {
            let states = serde_json::Map::from_iter([(PLUGIN_NAME.to_owned(), state.clone())]);
            if let Some(e) = exts.restore(&states).into_iter().next() {
                warn(format!(
                    "the saved advisor state was rejected ({e}); the advisor sits out until a fresh request"
                ));
                rejected = Some(e.to_string());
            }
        }
        // identities, not counts: a read from the end does not see the whole file
        let fresh = request.is_some_and(|r| prior.last_prompt.as_deref() != Some(r));
        if fresh && prior.rejected.is_none() {
            exts.observe(
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
            exts.observe(ObservePhase::Rebase, 0, &transcript.messages);
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
    exts.observe(ObservePhase::Request, turns, &window);
    let info = StopInfo {
        final_answer: answer.to_owned(),
        turns,
        tools: transcript.tools.clone(),
        attempt: 0,
        earlier_tools: transcript.earlier_tools,
    };
    exts.turn_stopping(&info).await;
    let checkpoint = exts.save()?.remove(PLUGIN_NAME).unwrap_or_default();
    Ok(Finish {
        advice: outbox.take().unwrap_or_default(),
        checkpoint,
        // this plugin ran this one run: its last report is this run's
        report: plugin.last_report().unwrap_or_default(),
        rejected,
    })
}
