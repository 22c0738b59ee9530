//! A scripted [`ChatModel`] for tests and examples: canned answers in order,
//! every request recorded.
//!
//! Owns nothing but the script and the record; it must never reach a network.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;

use super::{ChatModel, ChatRequest, ChatResponse, ModelError, ModelErrorKind};

#[derive(Debug, Default)]
struct Script {
    answers: VecDeque<Result<ChatResponse, ModelError>>,
    requests: Vec<ChatRequest>,
}

/// Answers requests from a script, in order, and records each request.
/// Cloning shares the script.
///
/// ```
/// # tokio_test_block_on(async {
/// use advisor::model::{ChatModel, ChatRequest, ChatResponse, ScriptedModel};
/// let model = ScriptedModel::new([ChatResponse::text("hi")]);
/// let answer = model.complete(ChatRequest::default()).await.unwrap();
/// assert_eq!(answer.text, "hi");
/// assert_eq!(model.calls(), 1);
/// # });
/// # fn tokio_test_block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
/// # }
/// ```
#[derive(Debug, Clone, Default)]
pub struct ScriptedModel {
    script: Arc<Mutex<Script>>,
}

impl ScriptedModel {
    /// A model that answers with `answers`, in order, then fails with
    /// [`ModelErrorKind::Exhausted`].
    pub fn new(answers: impl IntoIterator<Item = ChatResponse>) -> ScriptedModel {
        let model = ScriptedModel::default();
        answers.into_iter().for_each(|a| model.push(Ok(a)));
        model
    }

    /// A model that answers with these texts, in order.
    pub fn texts<S: Into<String>>(texts: impl IntoIterator<Item = S>) -> ScriptedModel {
        ScriptedModel::new(texts.into_iter().map(ChatResponse::text))
    }

    /// Appends an answer (or a failure) to the script.
    pub fn push(&self, answer: Result<ChatResponse, ModelError>) {
        self.lock().answers.push_back(answer);
    }

    /// How many requests were made.
    pub fn calls(&self) -> usize {
        self.lock().requests.len()
    }

    /// Every request made so far, oldest first.
    pub fn requests(&self) -> Vec<ChatRequest> {
        self.lock().requests.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Script> {
        self.script.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[async_trait]
impl ChatModel for ScriptedModel {
    async fn complete(&self, request: ChatRequest) -> Result<ChatResponse, ModelError> {
        let mut script = self.lock();
        script.requests.push(request);
        script.answers.pop_front().unwrap_or_else(|| {
            Err(ModelError::new(
                ModelErrorKind::Exhausted,
                "the scripted model has no answers left; add more to the script",
            ))
        })
    }
}
