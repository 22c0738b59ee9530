//! Recorded answers: measuring a model-backed reviewer offline.
//!
//! Owns [`Recorded`], the judge `advisor eval` puts in place of the model or
//! command a config names when it is given `--answers DIR` or
//! `--record-prompts DIR`: each review's prompt — exactly the bytes a
//! `kind = "command"` reviewer receives on stdin — is named by the first 16
//! hex digits of its SHA-256 ([`prompt_id`]); `--record-prompts` writes it as
//! `<id>.txt`, `--answers` answers it from `<id>.json` (what the reviewer
//! printed: `{"notes":[…]}`), parsed and anchored as the command reviewer
//! would. A prompt with no recorded answer is an error of that review, and
//! every such prompt is listed ([`Recorded::missing`]), never silence. Also
//! owns [`Counted`], which counts the judge's calls and sizes its prompts.
//! Must not run a program or call a model itself (without `--answers`, the
//! reviewer the config names answers).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use sha2::{Digest, Sha256};

use advisor::kind::ReviewErrorKind;
use advisor::model::estimate_tokens;
use advisor::note::Note;
use advisor::review::{CommandReviewer, Review, ReviewError, Reviewer};

/// Most bytes of one recorded answer read.
const MAX_ANSWER_BYTES: u64 = 64 * 1024;

/// The name of a prompt: the first 16 hex digits of its SHA-256.
///
/// ```text
/// prompt_id("") == "e3b0c44298fc1c14"
/// ```
pub(crate) fn prompt_id(prompt: &str) -> String {
    let digest = Sha256::digest(prompt.as_bytes());
    digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// A judge answered from recorded answers, or by the live reviewer, with its
/// prompts written down.
pub(crate) struct Recorded {
    /// Renders the prompt exactly as the command reviewer would, and reads
    /// an answer as it would.
    prompt: CommandReviewer,
    /// Where `<id>.json` answers are read from.
    answers: Option<PathBuf>,
    /// Where `<id>.txt` prompts are written.
    prompts: Option<PathBuf>,
    /// The reviewer that answers when there are no recorded answers.
    live: Option<Arc<dyn Reviewer>>,
    /// Prompts that had no recorded answer.
    missing: Mutex<BTreeSet<String>>,
}

impl Recorded {
    /// A judge whose prompt is `prompt`'s, answered from `answers` when
    /// given, else by `live`; every prompt written to `prompts` when given.
    pub(crate) fn new(
        prompt: CommandReviewer,
        answers: Option<PathBuf>,
        prompts: Option<PathBuf>,
        live: Option<Arc<dyn Reviewer>>,
    ) -> Recorded {
        Recorded {
            prompt,
            answers,
            prompts,
            live,
            missing: Mutex::new(BTreeSet::new()),
        }
    }

    /// The prompts that had no recorded answer, sorted.
    pub(crate) fn missing(&self) -> Vec<String> {
        self.missing
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }

    fn write_prompt(&self, id: &str, prompt: &str) -> Result<(), ReviewError> {
        let Some(dir) = &self.prompts else { return Ok(()) };
        let path = dir.join(format!("{id}.txt"));
        advisor::io::write_atomic(&path, prompt.as_bytes())
            .map_err(|e| ReviewError::new(format!("the prompt {id} could not be written ({})", e.kind())))
    }
}

#[async_trait]
impl Reviewer for Recorded {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        let prompt = self.prompt.prompt_for(review);
        let id = prompt_id(&prompt);
        self.write_prompt(&id, &prompt)?;
        let Some(dir) = &self.answers else {
            return match &self.live {
                Some(live) => live.review(review).await,
                None => Err(ReviewError::new(
                    "no reviewer answers and no recorded answers were given",
                )),
            };
        };
        let path = dir.join(format!("{id}.json"));
        match advisor::io::read_file_to_string(&path, MAX_ANSWER_BYTES) {
            Ok(answer) => self.prompt.notes_from_answer(review, &answer),
            Err(e) => {
                self.missing
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .insert(id.clone());
                Err(ReviewError::with_kind(
                    ReviewErrorKind::Failed,
                    format!(
                        "no recorded answer for prompt {id} ({})",
                        if e.is_not_found() {
                            "none was recorded"
                        } else {
                            "it could not be read"
                        }
                    ),
                ))
            }
        }
    }
}

/// What the judge did for the last stop: whether it was called, and the
/// size of its prompt.
#[derive(Debug, Clone, Default)]
pub(crate) struct JudgeCall {
    /// Whether the judge was called.
    pub(crate) called: bool,
    /// The prompt's estimated tokens, when it has a fixed prompt.
    pub(crate) prompt_tokens: Option<u64>,
    /// The prompt's name ([`prompt_id`]), when it has a fixed prompt.
    pub(crate) prompt: Option<String>,
}

/// A judge whose calls are counted and whose prompts are sized.
pub(crate) struct Counted {
    inner: Arc<dyn Reviewer>,
    prompt: Option<CommandReviewer>,
    last: Mutex<JudgeCall>,
}

impl Counted {
    /// Counts `inner`'s calls; sizes its prompts as `prompt` renders them.
    pub(crate) fn new(inner: Arc<dyn Reviewer>, prompt: Option<CommandReviewer>) -> Counted {
        Counted {
            inner,
            prompt,
            last: Mutex::new(JudgeCall::default()),
        }
    }

    /// What the judge did since the last call of this, which resets it.
    pub(crate) fn take(&self) -> JudgeCall {
        std::mem::take(&mut *self.last.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

#[async_trait]
impl Reviewer for Counted {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        let prompt = self.prompt.as_ref().map(|p| p.prompt_for(review));
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = JudgeCall {
            called: true,
            prompt_tokens: prompt.as_deref().map(estimate_tokens),
            prompt: prompt.as_deref().map(prompt_id),
        };
        self.inner.review(review).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_is_named_by_its_sha256() {
        assert_eq!(prompt_id(""), "e3b0c44298fc1c14");
        assert_eq!(prompt_id("abc"), "ba7816bf8f01cfea");
    }
}
