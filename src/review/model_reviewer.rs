//! `ModelReviewer`: a [`Reviewer`] backed by any [`ChatModel`].
//!
//! Owns the call (system + user prompt, the notes schema as structured
//! output), usage charging (every attempt, failed ones included) and the strict
//! parse of the answer: one JSON object `{"notes":[{"text","severity"}]}`,
//! optionally in one code fence; prose, unknown fields or missing fields are
//! an error, which the plugin turns into fail-open. Errors never quote the
//! model's output. Must not admit notes (the guard does).
//!
//! # Token effect
//!
//! One model call per review: the bounded evidence (≈ 32 000 bytes of
//! transcript at most, plus tool lines and an 8 000-byte answer) in, at most
//! `max_notes` short notes out.

use std::sync::Arc;

use async_trait::async_trait;
use serde::Deserialize;

use super::prompt::{notes_schema, system_prompt, user_prompt};
use super::{Review, ReviewError, ReviewErrorKind, Reviewer};
use crate::host::Message;
use crate::json::parse_object;
use crate::model::{ChatModel, ChatRequest};
use crate::note::{Note, Severity};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireNote {
    text: String,
    severity: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireNotes {
    notes: Vec<WireNote>,
}

/// Parses a reviewer model's answer strictly into notes. The error describes
/// what is wrong and never contains the answer.
///
/// ```
/// use advisor::review::parse_notes;
/// let notes = parse_notes("```json\n{\"notes\":[{\"text\":\"x\",\"severity\":\"Blocker\"}]}\n```").unwrap();
/// assert_eq!(notes[0].severity, advisor::Severity::Blocker);
/// assert!(parse_notes("Looks fine to me!").is_err());
/// ```
pub fn parse_notes(answer: &str) -> Result<Vec<Note>, String> {
    let value: serde_json::Value = parse_object(answer)?;
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
        .map(|n| Note::new(n.text, Severity::parse(&n.severity)))
        .collect())
}

/// A reviewer that asks a model.
#[derive(Clone)]
pub struct ModelReviewer {
    model: Arc<dyn ChatModel>,
    max_notes: usize,
    attention: Option<String>,
}

impl std::fmt::Debug for ModelReviewer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelReviewer")
            .field("max_notes", &self.max_notes)
            .field("attention", &self.attention.is_some())
            .finish_non_exhaustive()
    }
}

impl ModelReviewer {
    /// A reviewer asking `model`, allowed 3 notes.
    pub fn new(model: impl ChatModel + 'static) -> ModelReviewer {
        ModelReviewer::shared(Arc::new(model))
    }

    /// A reviewer asking an already shared model.
    pub fn shared(model: Arc<dyn ChatModel>) -> ModelReviewer {
        ModelReviewer {
            model,
            max_notes: crate::guard::DEFAULT_MAX_NOTES_PER_REVIEW,
            attention: None,
        }
    }

    /// How many notes the prompt allows (the guard still caps breadth).
    pub fn max_notes(mut self, n: usize) -> ModelReviewer {
        self.max_notes = n.max(1);
        self
    }

    /// Operator priorities shown to the reviewer (never to the agent).
    pub fn attention(mut self, text: impl Into<String>) -> ModelReviewer {
        self.attention = Some(text.into());
        self
    }

    /// The request this reviewer sends for `review`.
    pub fn request(&self, review: &Review) -> ChatRequest {
        ChatRequest {
            messages: vec![
                Message::system(system_prompt(self.max_notes, self.attention.as_deref())),
                Message::user(user_prompt(review)),
            ],
            tools: Vec::new(),
            response_schema: Some(notes_schema(self.max_notes)),
        }
    }
}

#[async_trait]
impl Reviewer for ModelReviewer {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        let answer = match self.model.complete(self.request(review)).await {
            Ok(answer) => answer,
            Err(e) => {
                review.usage.charge(e.usage());
                return Err(ReviewError::new(format!("the reviewer model failed: {e}")));
            }
        };
        review.usage.charge(answer.usage);
        parse_notes(&answer.text).map_err(|why| {
            ReviewError::with_kind(
                ReviewErrorKind::Unusable,
                format!("the reviewer's answer was unusable: {why}"),
            )
        })
    }
}
