//! One finish review of a transcript through the real plugin: the one path
//! `advisor hook`, `advisor review` and `advisor mcp` take, from the same
//! config loading ([`workspace`]) to the same verdict, so none of them
//! re-implements policy.
//!
//! Owns feeding a [`Transcript`] to an `AdvisorRun` (restore, fresh request,
//! compaction, the request window), driven through [`Extensions`] as every
//! host does; the result is the library's [`Advice`], and its notes as the
//! commands report them ([`notes_json`]). Must not read files or decide what
//! a command prints.

pub(crate) mod workspace;

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
        if let Some(why) = restore(&mut exts, prior, warn) {
            rejected = Some(why);
        }
        catch_up(&mut exts, prior, transcript, request);
    }
    let turns = transcript.assistant_turns().max(1);
    exts.observe(ObservePhase::Request, turns, &window(transcript, answer, note));
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

/// Restores the advisor's saved state, if there is one; why it was
/// rejected, when it was (the advisor then sits out until a fresh request).
fn restore(exts: &mut Extensions, prior: &Prior, warn: &mut (dyn FnMut(String) + Send)) -> Option<String> {
    let state = prior.checkpoint.as_ref()?;
    let states = serde_json::Map::from_iter([(PLUGIN_NAME.to_owned(), state.clone())]);
    let e = exts.restore(&states).into_iter().next()?;
    warn(format!(
        "the saved advisor state was rejected ({e}); the advisor sits out until a fresh request"
    ));
    Some(e.to_string())
}

/// Tells the advisor what changed since the last review: a fresh request
/// (by identity, not count: a read from the end does not see the whole
/// file), and a compaction (the history was rebased).
fn catch_up(exts: &mut Extensions, prior: &Prior, transcript: &Transcript, request: Option<&str>) {
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

/// The window the reviewer reads: the history before the answer under
/// review (the whole transcript when the answer is not its last), and the
/// `note` after it.
fn window(transcript: &Transcript, answer: &str, note: Option<&str>) -> Vec<Message> {
    let mut window = if transcript.last_answer() == Some(answer) {
        transcript.history_before_answer().to_vec()
    } else {
        transcript.messages.clone()
    };
    if let Some(note) = note {
        window.push(Message::system(note));
    }
    window
}

/// Every note of a review with the guard's decision on it, as JSON
/// (`text`, `severity`, `accepted`, `reason`, `key`): what `advisor review
/// --json` and `advisor mcp` report.
pub(crate) fn notes_json(record: &TraceEvent) -> Vec<serde_json::Value> {
    record
        .decisions
        .iter()
        .map(|d| {
            let raw = record.notes.get(d.note);
            serde_json::json!({
                "text": raw.map(|n| n.text.as_str()).unwrap_or_default(),
                "severity": d.severity,
                "evidence": raw.and_then(|n| n.evidence.as_deref()),
                "anchored": raw.and_then(|n| n.anchored),
                "accepted": d.reason == advisor::guard::Reason::Accepted,
                "reason": d.reason,
                "key": d.key,
            })
        })
        .collect()
}
