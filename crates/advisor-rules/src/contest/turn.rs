//! The turn under review as a judge reads it: the user's request and what
//! the turn wrote.
//!
//! Owns [`request`] (the request the plugin kept, else the last genuine user
//! message of the window — never advisor's own advisory, a host's hook
//! feedback or the synthetic marker of a new request — else the first), [`written`] (the files the turn's
//! successful writes named, in order, each once) and [`only_looked`] (every
//! call of the turn only read, searched or listed). Must not read tool output
//! for failures ([`failures`](super::failures) does).

use advisor::host::Role;
use advisor::review::Review;

use super::looks::only_looks;
use crate::evidence::steps::{Step, step_kind};
use crate::evidence::tool_calls::is_rejected;

/// The user's request of the turn under review.
pub(super) fn request(review: &Review) -> String {
    review
        .request
        .clone()
        .or_else(|| advisor::evidence::latest_request(review.messages.iter().rev()))
        .or_else(|| (review.messages.iter().find(|m| m.role == Role::User)).map(|m| m.content.trim().to_owned()))
        .unwrap_or_default()
}

/// The files the turn's successful writes named, oldest first, each once.
pub(super) fn written(review: &Review) -> Vec<String> {
    let first = review.earlier_tools.min(review.tools.len());
    let mut paths: Vec<String> = Vec::new();
    for t in review.tools.iter().skip(first).filter(|t| t.ok()) {
        if let Some(Step::Write(named)) = step_kind(t) {
            for p in named {
                if !paths.contains(&p) {
                    paths.push(p);
                }
            }
        }
    }
    paths
}

/// Whether the turn made calls and every one only looked (a read, a search,
/// a listing; calls the user rejected never ran): it wrote nothing.
pub(super) fn only_looked(review: &Review) -> bool {
    let first = review.earlier_tools.min(review.tools.len());
    let mut ran = review.tools.iter().skip(first).filter(|t| !is_rejected(t)).peekable();
    ran.peek().is_some() && ran.all(only_looks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor::host::{Message, ToolTrace};

    #[test]
    fn the_request_is_the_last_genuine_user_message() {
        let review = Review {
            messages: vec![
                Message::user("first task"),
                Message::user("fix the parser"),
                Message::assistant("done"),
                Message::user("[System: a reviewer read the answer you were about to give …]"),
            ]
            .into(),
            ..Review::default()
        };
        assert_eq!(request(&review), "fix the parser");
    }

    #[test]
    fn written_names_each_file_once_and_only_successful_writes() {
        let write = |path: &str, ok: bool| ToolTrace {
            name: "Edit".into(),
            args: serde_json::json!({ "file_path": path }).to_string(),
            error: (!ok).then(|| "String to replace not found".to_owned()),
            ..ToolTrace::default()
        };
        let review = Review {
            tools: vec![write("a.rs", true), write("b.rs", false), write("a.rs", true)],
            ..Review::default()
        };
        assert_eq!(written(&review), ["a.rs"]);
    }

    #[test]
    fn only_looked_is_a_turn_of_reads_searches_and_listings_only() {
        let bash = |command: &str| ToolTrace {
            name: "Bash".into(),
            args: serde_json::json!({ "command": command }).to_string(),
            exit_code: Some(0),
            ..ToolTrace::default()
        };
        let turn = |tools: Vec<ToolTrace>| Review {
            tools,
            ..Review::default()
        };
        assert!(only_looked(&turn(vec![bash("ls"), bash("rg --files -g AGENTS.md")])));
        for wrote in [
            vec![bash("ls"), bash("cat > notes.md <<'EOF'\nhi\nEOF")],
            vec![bash("echo hi > notes.md")],
            vec![bash("npm test")],
            vec![ToolTrace {
                name: "Write".into(),
                args: serde_json::json!({ "file_path": "notes.md" }).to_string(),
                ..ToolTrace::default()
            }],
            vec![],
        ] {
            assert!(!only_looked(&turn(wrote.clone())), "{wrote:?}");
        }
        // an earlier turn's write is not this turn's
        let review = Review {
            tools: vec![bash("echo hi > notes.md"), bash("cat notes.md")],
            earlier_tools: 1,
            ..Review::default()
        };
        assert!(only_looked(&review));
    }
}
