//! Asking a model until its answer is valid, with each invalid answer's
//! problems fed back: the one loop the rollout advisor and the consultant
//! share.
//!
//! Owns the attempt loop, in the spirit of tower's `retry::Policy`: a
//! [`FeedbackPolicy`] says whether an answer is valid, what to tell the model
//! when it is not, whether a failed call is worth another attempt, and where
//! each attempt's tokens go. Every attempt's usage is charged and summed —
//! estimated from text length when the server reports none — whatever the
//! loop ends in. Must not know what the answers mean.

use std::fmt;
use std::num::NonZeroU32;

use crate::budget::BudgetStop;
use crate::host::Message;
use crate::model::{ChatModel, ChatRequest, ModelError};
use crate::usage::Usage;

/// What a caller of [`ask_with_feedback`] decides.
pub(crate) trait FeedbackPolicy {
    /// A valid answer, parsed.
    type Valid;
    /// Why an answer is invalid.
    type Invalid: fmt::Display;
    /// Whether a failed call is worth another attempt.
    const RETRY_FAILED_CALLS: bool;

    /// Checked before every attempt: `Some` stops the loop before the call.
    fn budget_spent(&mut self) -> Option<BudgetStop>;
    /// Parses an answer's text.
    fn check(&mut self, answer: &str) -> Result<Self::Valid, Self::Invalid>;
    /// The message that sends an invalid answer back.
    fn feedback(&self, invalid: &Self::Invalid) -> String;
    /// Called once per attempt with its usage (to charge and record it) and
    /// what went wrong with it, if anything.
    fn attempted(&mut self, attempt: u32, usage: Usage, failure: Option<Failure<'_, Self::Invalid>>);
}

/// What went wrong with one attempt.
pub(crate) enum Failure<'a, I> {
    /// The call failed.
    Call(&'a ModelError),
    /// The answer was invalid.
    Invalid(&'a I),
}

/// Why the loop ended without a valid answer.
#[derive(Debug)]
pub(crate) enum GaveUp<I> {
    /// The budget was spent before an attempt.
    Budget(BudgetStop),
    /// The last attempt's call failed.
    Call(ModelError),
    /// The last attempt's answer was invalid.
    Invalid(I),
}

/// What the loop came to, and what it cost.
pub(crate) struct Retried<V, I> {
    /// The valid answer, or why there is none.
    pub(crate) outcome: Result<V, GaveUp<I>>,
    /// Calls made.
    pub(crate) attempts: u32,
    /// Tokens of every call made.
    pub(crate) usage: Usage,
}

/// Asks `model` with `request` up to `max_attempts` times, appending each
/// invalid answer and the policy's feedback before the next attempt.
pub(crate) async fn ask_with_feedback<P: FeedbackPolicy>(
    model: &dyn ChatModel,
    mut request: ChatRequest,
    max_attempts: NonZeroU32,
    policy: &mut P,
) -> Retried<P::Valid, P::Invalid> {
    let mut usage = Usage::default();
    let mut attempt = 0;
    let outcome = loop {
        if let Some(stop) = policy.budget_spent() {
            break Err(GaveUp::Budget(stop));
        }
        attempt += 1;
        let last = attempt >= max_attempts.get();
        match model.complete(request.clone()).await {
            Err(e) => {
                usage += e.usage();
                policy.attempted(attempt, e.usage(), Some(Failure::Call(&e)));
                if last || !P::RETRY_FAILED_CALLS {
                    break Err(GaveUp::Call(e));
                }
            }
            Ok(answer) => {
                let spent = answer.usage.or_estimate(&request, &answer.text);
                usage += spent;
                match policy.check(&answer.text) {
                    Ok(valid) => {
                        policy.attempted(attempt, spent, None);
                        break Ok(valid);
                    }
                    Err(invalid) => {
                        policy.attempted(attempt, spent, Some(Failure::Invalid(&invalid)));
                        if last {
                            break Err(GaveUp::Invalid(invalid));
                        }
                        request.messages.push(Message::assistant(answer.text));
                        request.messages.push(Message::user(policy.feedback(&invalid)));
                    }
                }
            }
        }
    };
    Retried {
        outcome,
        attempts: attempt,
        usage,
    }
}
