//! `ModelReviewer`: a [`Reviewer`] backed by any [`ChatModel`].
//!
//! Owns the call (system + user prompt, the notes schema as structured
//! output), fitting the prompt to the model (a token budget from
//! `max_prompt_tokens`, else the context the server reports, else
//! [`DEFAULT_MAX_PROMPT_TOKENS`]; one retry at half the budget when the server
//! still reports a context overflow), usage charging (every attempt, failed
//! ones included; estimated from text length and marked estimated when the
//! server reports none) and the strict
//! parse of the answer: one JSON object `{"notes":[{"text","severity","evidence"?}]}`,
//! optionally in one code fence; prose, unknown fields or missing fields are
//! an error, which the plugin turns into fail-open. Errors never quote the
//! model's output. A blocker whose evidence is not found in what the model
//! was shown (the fitted prompt's evidence and the tool results it read) is
//! demoted to a concern ([`crate::anchor`]). Must not admit notes (the guard
//! does).
//!
//! # Token effect
//!
//! One model call per review (two when the server reports a context
//! overflow; with workspace tools, one more per round of tool calls, at most
//! `max_tool_calls` calls, every result counted against the prompt budget —
//! see `tool_loop`): the bounded evidence (≈ 32 000 bytes of transcript at most, plus
//! tool lines and an 8 000-byte answer), fitted to the prompt budget, in; at
//! most `max_notes` short notes out.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use serde::Deserialize;

use super::prompt::{FittedPrompt, ToolsOffer, fit_user_prompt, notes_schema, system_prompt_with_tools};
use super::tools::WorkspaceTools;
use super::{Review, ReviewError, Reviewer};
use crate::anchor::anchor_blockers;
use crate::error::Error;
use crate::host::Message;
use crate::json::parse_object;
use crate::kind::ReviewErrorKind;
use crate::model::{ChatModel, ChatRequest, estimate_tokens};
use crate::note::{Note, Severity};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireNote {
    text: String,
    #[serde(deserialize_with = "crate::note::lenient_severity")]
    severity: Severity,
    #[serde(default)]
    evidence: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireNotes {
    notes: Vec<WireNote>,
}

/// Parses a reviewer model's answer strictly into notes. The error describes
/// what is wrong and never contains the answer.
///
/// Each note is `text`, `severity` (read leniently) and an optional
/// `evidence` string (cut to [`MAX_EVIDENCE_CHARS`](crate::note::MAX_EVIDENCE_CHARS)
/// characters). A raw control character inside a string (a newline a small
/// model wrote unescaped) is read as if escaped; nothing else is loosened:
/// prose, unknown fields, a second object stay errors.
///
/// ```
/// use advisor::review::parse_notes;
/// let notes = parse_notes("```json\n{\"notes\":[{\"text\":\"x\",\"severity\":\"Blocker\"}]}\n```").unwrap();
/// assert_eq!(notes[0].severity, advisor::Severity::Blocker);
/// assert!(parse_notes("Looks fine to me!").is_err());
/// ```
pub fn parse_notes(answer: &str) -> Result<Vec<Note>, String> {
    let value: serde_json::Value = parse_object(&crate::json::escape_raw_controls(answer))?;
    // serde would also take a note written as a list (`["text", "nit"]`); a
    // strict parser must not, so the shape is checked before the fields.
    let notes_are_objects = value
        .get("notes")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|notes| notes.iter().all(serde_json::Value::is_object));
    if !notes_are_objects {
        return Err("the answer must be {\"notes\": [ {\"text\", \"severity\"}, … ]}".to_owned());
    }
    let wire: WireNotes = serde_json::from_value(value).map_err(|e| crate::json::describe_serde_error(&e))?;
    Ok(wire
        .notes
        .into_iter()
        .map(|n| {
            let note = Note::new(n.text, n.severity);
            match n.evidence {
                Some(evidence) => note.with_evidence(evidence),
                None => note,
            }
        })
        .collect())
}

/// Prompt budget, in estimated tokens, when neither the settings nor the
/// server say more: 8 000 tokens fits the 8 k contexts local models commonly
/// run with once the answer's share is set aside, and keeps a hosted model's
/// review cost bounded. A server that still refuses gets one retry at half.
pub const DEFAULT_MAX_PROMPT_TOKENS: u64 = 8_000;
/// Smallest prompt budget accepted: the system prompt alone is about 600.
pub const MIN_PROMPT_TOKENS: u64 = 1_024;
/// Tokens of a model's context set aside for the answer (at most a quarter of it).
const ANSWER_RESERVE_TOKENS: u64 = 1_024;
/// Tokens a chat template adds around each message.
const TEMPLATE_TOKENS: u64 = 16;

/// The prompt budget for a model with a `context`-token window: the context
/// minus the answer's share (1 024 tokens, at most a quarter of the context).
///
/// ```
/// assert_eq!(advisor::review::prompt_tokens_for_context(4_096), 3_072);
/// assert_eq!(advisor::review::prompt_tokens_for_context(2_048), 1_536);
/// ```
pub fn prompt_tokens_for_context(context: u64) -> u64 {
    context.saturating_sub(ANSWER_RESERVE_TOKENS.min(context / 4))
}

/// A reviewer that asks a model.
#[derive(Clone)]
pub struct ModelReviewer {
    model: Arc<dyn ChatModel>,
    attention: Option<String>,
    max_prompt_tokens: Option<u64>,
    /// The server's context as it reported it (asked once).
    context: Arc<tokio::sync::OnceCell<Option<u64>>>,
    /// A budget learned from a context overflow (0: none yet).
    learned: Arc<AtomicU64>,
    /// Read-only workspace tools offered to the model (none by default).
    tools: Option<Arc<WorkspaceTools>>,
    /// Read-only tools the reviewer has of its own (a reviewer program's),
    /// only described in the prompt.
    own_tools: Option<String>,
}

impl std::fmt::Debug for ModelReviewer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelReviewer")
            .field("attention", &self.attention.is_some())
            .field("max_prompt_tokens", &self.max_prompt_tokens)
            .field("tools", &self.tools)
            .finish_non_exhaustive()
    }
}

impl ModelReviewer {
    /// A reviewer asking `model`; each review says how many notes it may
    /// raise ([`Review::max_notes`]).
    pub fn new(model: impl ChatModel + 'static) -> ModelReviewer {
        ModelReviewer::shared(Arc::new(model))
    }

    /// A reviewer asking an already shared model.
    pub fn shared(model: Arc<dyn ChatModel>) -> ModelReviewer {
        ModelReviewer {
            model,
            attention: None,
            max_prompt_tokens: None,
            context: Arc::new(tokio::sync::OnceCell::new()),
            learned: Arc::new(AtomicU64::new(0)),
            tools: None,
            own_tools: None,
        }
    }

    /// Offers the model these read-only workspace tools (over the OpenAI
    /// tools API, the notes schema still sent as structured output): each
    /// review may make at most [`WorkspaceTools::call_limit`] calls, every
    /// result is charged to the prompt budget, and a refused or failed call
    /// is an error result for the model, never a failed review. Empty tools
    /// offer none.
    pub fn tools(mut self, tools: WorkspaceTools) -> ModelReviewer {
        self.tools = (!tools.is_empty()).then(|| Arc::new(tools));
        self
    }

    /// The largest prompt, in estimated tokens, this reviewer sends. Default:
    /// the model's context when the server reports it
    /// ([`ChatModel::context_tokens`]) less the answer's share, else
    /// [`DEFAULT_MAX_PROMPT_TOKENS`]. A review's own
    /// [`Review::max_prompt_tokens`] lowers it further. Fewer than
    /// [`MIN_PROMPT_TOKENS`] is an [`ErrorKind::Config`](crate::ErrorKind::Config)
    /// error naming `max_prompt_tokens`.
    pub fn max_prompt_tokens(mut self, tokens: u64) -> Result<ModelReviewer, Error> {
        if tokens < MIN_PROMPT_TOKENS {
            return Err(Error::config(
                "max_prompt_tokens",
                format!("must be at least {MIN_PROMPT_TOKENS} (the system prompt alone is about 600), got {tokens}"),
            ));
        }
        self.max_prompt_tokens = Some(tokens);
        Ok(self)
    }

    /// The prompt budget for `review`: the smallest of the review's, this
    /// reviewer's, and what an earlier context overflow taught; without any,
    /// the server's context or the default.
    pub async fn prompt_budget(&self, review: &Review) -> u64 {
        let learned = Some(self.learned.load(Ordering::Relaxed)).filter(|n| *n > 0);
        let set = [
            review.max_prompt_tokens.map(|n| n.max(MIN_PROMPT_TOKENS)),
            self.max_prompt_tokens,
            learned,
        ]
        .into_iter()
        .flatten()
        .min();
        if let Some(n) = set {
            return n;
        }
        let model = self.model.clone();
        let context = *self
            .context
            .get_or_init(|| async move { model.context_tokens().await })
            .await;
        context.map_or(DEFAULT_MAX_PROMPT_TOKENS, |c| {
            prompt_tokens_for_context(c).max(MIN_PROMPT_TOKENS)
        })
    }

    /// The request this reviewer sends for `review` with the user message
    /// fitted to `max_tokens` estimated prompt tokens, and how it was fitted:
    /// long tool outputs keep head and tail, the oldest messages leave first,
    /// the task and the answer stay. A review carrying a
    /// [`Contest`](super::Contest) gets the judge's short prompt instead
    /// (the question, the failures, the answer; no tools).
    ///
    /// ```
    /// use advisor::{host::Message, model::ScriptedModel};
    /// use advisor::review::{ModelReviewer, Review};
    /// let review = Review {
    ///     final_answer: Some("Done: 42 rows migrated.".into()),
    ///     messages: (0..30).map(|i| Message::user(format!("step {i}: {}", "x".repeat(3000)))).collect(),
    ///     ..Review::default()
    /// };
    /// let (request, fitted) = ModelReviewer::new(ScriptedModel::texts([""])).request_within(&review, 2_000);
    /// assert!(fitted.shrunk() && fitted.estimated_tokens <= 2_000);
    /// assert_eq!(request.messages[1].content, fitted.text);
    /// assert!(fitted.text.contains("step 0:"), "the task stays");
    /// assert!(fitted.text.contains("Done: 42 rows migrated."), "the answer stays");
    /// ```
    pub fn request_within(&self, review: &Review, max_tokens: u64) -> (ChatRequest, FittedPrompt) {
        let max_notes = note_limit(review);
        if let Some(contest) = review.contest.as_deref() {
            return judge_request(contest, review, max_notes);
        }
        let names: Vec<&str> = self.tools.as_ref().map(|t| t.names()).unwrap_or_default();
        let tools = match (&self.tools, &self.own_tools) {
            (Some(t), _) => Some(ToolsOffer::Workspace(names.as_slice(), t.call_limit())),
            (None, Some(own)) => Some(ToolsOffer::Program(own)),
            (None, None) => None,
        };
        let system = system_prompt_with_tools(max_notes, self.attention.as_deref(), tools);
        let room = max_tokens.saturating_sub(estimate_tokens(&system) + 2 * TEMPLATE_TOKENS);
        let fitted = fit_user_prompt(review, room);
        let request = ChatRequest {
            messages: vec![Message::system(system), Message::user(fitted.text.clone())],
            tools: self.tools.as_ref().map(|t| t.specs()).unwrap_or_default(),
            response_schema: Some(notes_schema(max_notes)),
        };
        (request, fitted)
    }

    /// The prompt says the reviewer has these read-only tools of its own (a
    /// reviewer program's, as it names them), for checking the answer's
    /// claims, and that notes cite what was read; advisor offers none.
    pub(crate) fn own_tools(mut self, names: impl Into<String>) -> ModelReviewer {
        self.own_tools = Some(names.into()).filter(|n: &String| !n.trim().is_empty());
        self
    }

    /// Operator priorities shown to the reviewer (never to the agent).
    pub fn attention(mut self, text: impl Into<String>) -> ModelReviewer {
        self.attention = Some(text.into());
        self
    }

    /// The request this reviewer sends for `review`.
    pub fn request(&self, review: &Review) -> ChatRequest {
        // with no limit the user message is the whole rendered review
        self.request_within(review, u64::MAX).0
    }
}

impl ModelReviewer {
    /// `budget`, or the smaller one a context overflow taught.
    fn learned_or(&self, budget: u64) -> u64 {
        match self.learned.load(Ordering::Relaxed) {
            0 => budget,
            n => n.min(budget),
        }
    }
}

/// The judge's request for a review carrying `contest`: the short prompt of
/// [`judge_prompt`](super::judge_prompt), no tools, the notes schema. Its size
/// is bounded by the contest's own bounds, not fitted.
fn judge_request(contest: &super::Contest, review: &Review, max_notes: usize) -> (ChatRequest, FittedPrompt) {
    let system = super::judge_prompt::system_prompt();
    let (text, shown) = super::judge_prompt::user_prompt(contest, review.final_answer.as_deref().unwrap_or(""));
    let fitted = FittedPrompt {
        estimated_tokens: estimate_tokens(&system) + estimate_tokens(&text),
        text,
        shown,
        ..FittedPrompt::default()
    };
    let request = ChatRequest {
        messages: vec![Message::system(system), Message::user(fitted.text.clone())],
        tools: Vec::new(),
        response_schema: Some(notes_schema(max_notes)),
    };
    (request, fitted)
}

/// How many notes the prompt allows: the review's limit (the plugin's
/// `max_notes_per_review`), at least 1.
fn note_limit(review: &Review) -> usize {
    review
        .max_notes
        .unwrap_or(crate::guard::DEFAULT_MAX_NOTES_PER_REVIEW)
        .max(1)
}

#[async_trait]
impl Reviewer for ModelReviewer {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        let budget = self.prompt_budget(review).await;
        let (mut request, mut fitted) = self.request_within(review, budget);
        if fitted.shrunk() {
            tracing::info!(
                budget,
                estimated_tokens = fitted.estimated_tokens,
                dropped = fitted.dropped_messages,
                clamped = fitted.clamped_tool_outputs,
                "the review prompt was fitted to the model"
            );
        }
        let mut result = self.model.complete(request.clone()).await;
        if let Some(e) = result.as_ref().err().filter(|e| e.is_context_overflow()) {
            review.usage.charge(e.usage());
            let retry = e
                .stated_context_tokens()
                .map_or(u64::MAX, prompt_tokens_for_context)
                .min((budget / 2).max(MIN_PROMPT_TOKENS / 2));
            self.learned.store(retry, Ordering::Relaxed);
            tracing::warn!(
                budget,
                retry,
                "the model server reported a context overflow; retrying once with a smaller prompt"
            );
            (request, fitted) = self.request_within(review, retry);
            result = self.model.complete(request.clone()).await;
        }
        let mut answer = result.map_err(|e| {
            review.usage.charge(e.usage());
            ReviewError::model("the reviewer model failed", e)
        })?;
        review.usage.charge(answer.usage.or_estimate(&request, &answer.text));
        let whole = review.contest.is_none();
        if let Some(tools) = self.tools.as_ref().filter(|_| whole && !answer.tool_calls.is_empty()) {
            let budget = self.learned_or(budget);
            answer = super::tool_loop::run(
                self.model.as_ref(),
                tools,
                review,
                request,
                answer,
                budget,
                &mut fitted.shown,
            )
            .await?;
        }
        let mut notes = parse_notes(&answer.text).map_err(|why| {
            ReviewError::with_kind(
                ReviewErrorKind::Unusable,
                format!("the reviewer's answer was unusable: {why}"),
            )
        })?;
        anchor_blockers(&mut notes, &fitted.shown);
        Ok(notes)
    }
}
