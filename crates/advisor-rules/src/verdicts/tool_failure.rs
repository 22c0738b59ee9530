//! The tool-failure rule: a call that is no run failed and no later call of
//! the same tool succeeded.
//!
//! Owns [`tool_failures`]: one nit per such tool. Rejected and cancelled calls
//! never count ([`is_rejected`]). Must not read the answer, nor judge runs:
//! a failed run is the completion rules' ([`completion`](super::completion)).

use advisor::host::ToolTrace;
use advisor::note::Note;

use super::rule::{QUOTE_BYTES, Rule, RuleNote, quote};
use crate::evidence::runs::Run;
use crate::evidence::tool_calls::is_rejected;

/// Nits for failed calls that are not runs, were not rejected, and were not
/// followed by a success of the same tool.
pub(super) fn tool_failures(tools: &[ToolTrace], runs: &[Run]) -> Vec<RuleNote> {
    let mut names: Vec<&str> = Vec::new();
    for t in tools {
        if !names.contains(&t.name.as_str()) {
            names.push(&t.name);
        }
    }
    let is_run = |i: usize| runs.iter().any(|r| r.index == i);
    let mut notes = Vec::new();
    for name in names {
        let last = tools
            .iter()
            .enumerate()
            .rev()
            .find(|(i, t)| t.name == name && !is_rejected(t) && !is_run(*i));
        if let Some((_, ToolTrace { error: Some(error), .. })) = last {
            notes.push(RuleNote::new(
                Rule::ToolFailure,
                Note::nit(format!(
                    "The last `{name}` call failed ({}) and no later `{name}` call succeeded.",
                    quote(error, QUOTE_BYTES)
                )),
            ));
        }
    }
    notes
}
