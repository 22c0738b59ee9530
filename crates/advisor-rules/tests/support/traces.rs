//! Tool traces as the hosts record them, for the rules reviewer's tests.
//!
//! Owns [`bash`]: a Claude Code shell call with its output and the exit status
//! the host recorded; and [`rule_notes`]: what the rules reviewer says of an
//! answer over such calls. Must not decide anything about a trace itself; the
//! readers and the rules do that.

use advisor::host::ToolTrace;
use advisor::review::Review;
use advisor_rules::{RuleNote, RulesReviewer};

/// A shell call as Claude Code records it: the command, the output, and the
/// exit status the host recorded (`None`: the host said it succeeded). A
/// non-zero status also sets the error as Claude Code writes it: its
/// `Exit code N` line above the output.
pub(crate) fn bash(command: &str, output: &str, exit: Option<i64>) -> ToolTrace {
    ToolTrace {
        name: "Bash".into(),
        args: serde_json::json!({ "command": command }).to_string(),
        output: output.into(),
        error: exit.filter(|c| *c != 0).map(|c| format!("Exit code {c}\n{output}")),
        exit_code: exit,
    }
}

/// The rules reviewer's notes, with their rules, on `answer` over `tools`, of
/// which the first `earlier` came before the turn under review.
pub(crate) fn rule_notes(answer: &str, tools: Vec<ToolTrace>, earlier: usize) -> Vec<RuleNote> {
    let review = Review {
        final_answer: Some(answer.into()),
        tools,
        earlier_tools: earlier,
        ..Review::default()
    };
    RulesReviewer::new().check_rules(&review)
}
