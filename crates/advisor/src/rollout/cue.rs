//! Cues: what an intervention hands the solver, and nothing more.
//!
//! Owns the fixed self-check sentence per action, [`CompiledCue`] and
//! [`Revision`], and [`compile_cue`]. On the self-check path the cue is a
//! constant chosen by the action; on the reasoning-prefill path it is the
//! advisor's `hint` (screened when asked, replaced by the fixed sentence when
//! it leaks or is empty). `plan` and `private_diagnosis` can never reach a cue.
//! Must not call models.

use serde::{Deserialize, Serialize};

use super::config::CuePath;
use super::decision::{Action, AdvisorDecision, DecisionReason};
use super::screen::{ScreenInput, ScreenResult, screen_hint};
use crate::error::ValidationError;

/// The fixed sentence for `action` on the self-check path. CONTINUE has none:
/// asking for it is a [`ValidationError`], so an action without a
/// sentence can never become free text for the solver.
pub fn self_check_sentence(action: Action) -> Result<&'static str, ValidationError> {
    Ok(match action {
        Action::ReviewAllRequirements => {
            "Before you finish, go back through the task one requirement at a time, including edge cases and \
error behaviour, and confirm that your change handles each of them."
        }
        Action::TraceStateTransitions => {
            "Before you finish, trace how the relevant state changes step by step: the starting values, every \
update your change makes, and the final result. Confirm each transition is what the task asks for."
        }
        Action::RunBroaderValidation => {
            "Before you finish, check your change end to end beyond the cases you already tried: the main path, \
boundary inputs, and the existing tests near the code you touched."
        }
        Action::ReconsiderSubmission => {
            "Hold off on submitting. List the evidence that your change is complete and correct, and verify any \
part you have not actually checked before you try to submit again."
        }
        Action::ConfirmAndSubmit => {
            "Your work may already be complete. Run one final check that it builds and behaves as the task asks, \
and if it does, submit it now rather than changing it further."
        }
        Action::Continue => {
            return Err(ValidationError::single(
                "advisor decision",
                "action",
                "CONTINUE has no self-check sentence: it is not an intervention",
            ));
        }
    })
}

/// The cue delivered to the solver on an intervention.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompiledCue {
    /// The path the cue took.
    pub path: CuePath,
    /// The action it asks for.
    pub action: Action,
    /// The reason the advisor gave.
    pub reason_code: DecisionReason,
    /// The text the solver receives (a fixed sentence, or a screened hint).
    pub text: String,
    /// Whether the hint was screened.
    pub screened: bool,
    /// Whether a hint was replaced by the fixed sentence (it leaked or was empty).
    pub fell_back: bool,
}

/// What `regenerate` is asked to do: produce the turn again with a cue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// The solver-safe cue.
    pub cue: CompiledCue,
    /// Whether the finish tool is offered (only for CONFIRM_AND_SUBMIT).
    pub finish_tool_offered: bool,
}

/// Compiles the cue for an intervening `decision`. Returns the cue and, when
/// the hint was screened, the screen's result.
pub fn compile_cue(
    decision: &AdvisorDecision,
    path: CuePath,
    screen: Option<ScreenInput<'_>>,
) -> Result<(CompiledCue, Option<ScreenResult>), ValidationError> {
    let sentence = self_check_sentence(decision.action)?;
    let cue = |path: CuePath, text: &str, screened: bool, fell_back: bool| CompiledCue {
        path,
        action: decision.action,
        reason_code: decision.reason_code,
        text: text.to_owned(),
        screened,
        fell_back,
    };
    let hint = decision.hint.trim();
    if path == CuePath::SelfCheck {
        return Ok((cue(CuePath::SelfCheck, sentence, false, false), None));
    }
    if hint.is_empty() {
        return Ok((cue(CuePath::SelfCheck, sentence, false, true), None));
    }
    let Some(input) = screen else {
        return Ok((cue(CuePath::ReasoningPrefill, hint, false, false), None));
    };
    let result = screen_hint(hint, input.privileged, input.visible);
    let compiled = if result.passed {
        cue(CuePath::ReasoningPrefill, hint, true, false)
    } else {
        cue(CuePath::SelfCheck, sentence, true, true)
    };
    Ok((compiled, Some(result)))
}
