//! A lookup that found nothing, claimed as found.
//!
//! Owns [`claimed_found`]: the turn's last step is a lookup whose non-zero
//! exit answered "not there" — a search (`rg --files -g 'AGENTS.md'`, `pgrep
//! -la openwhisper`, `find … | grep …`) or a probe of one path (`ls
//! App.app/Contents/Resources`) — and printed nothing but the host's header
//! or a "no such file" line, while one sentence of the answer says it found
//! what the step looked for, naming it ("`AGENTS.md` is at the root",
//! "openwhisper is running again", "trouvé avec `rg …`"), not taking it back.
//! A name that an earlier successful call of the turn used or printed does
//! not count (an earlier search may have found it), nor does an answer that
//! mentions a failure. Such an exit is an answer
//! ([`answers_by_exit`](super::step_programs::answers_by_exit)), so
//! [`failed_step`](super::failed_step) stands back from it; this file reads
//! what that answer was. Must not look at earlier turns, read files or keep
//! state.

use super::outcome::without_header;
use super::sentences::sentences;
use super::step_programs::answers_by_exit;
use super::subjects::shell_subjects;
use super::tool_calls::{command_line, host_exit_of};
use super::{COMMAND_BYTES, Rule, RuleNote, quote};
use crate::host::ToolTrace;
use crate::note::Note;

/// Words of a sentence that say a thing was found where it was looked for
/// (normalised form).
const FOUND_WORDS: &[&str] = &[
    "found it",
    "found the",
    "found in",
    "found at",
    "found under",
    "is at ",
    "is installed",
    "are installed",
    "is running",
    "are running",
    "is present",
    "are present",
    "exists",
    "lives in",
    "located in",
    "located at",
    // French: "found", "is indeed (at)", "exists"
    "trouvé",
    "est bien",
    "existe",
    // Chinese, Japanese, Russian: "found"
    "找到了",
    "已找到",
    "見つかりました",
    "найден",
    "нашёл",
    "нашел",
];

/// Words of a sentence that say the thing is not there (normalised, each
/// padded with spaces so "no" is a word of its own).
const ABSENCE_WORDS: &[&str] = &[
    " no ",
    " not ",
    " none ",
    " nothing ",
    " never ",
    " without ",
    " n't ",
    " aucun ",
    " aucune ",
    " rien ",
    " pas ",
    " нет ",
    " не ",
    " ни ",
];

/// What the output says when a lookup found nothing: no line at all, or
/// only a "no such file" line.
fn found_nothing(step: &ToolTrace) -> bool {
    let text = step
        .error
        .as_deref()
        .filter(|e| !e.trim().is_empty())
        .unwrap_or(&step.output);
    printed(text).lines().map(str::trim).all(|l| {
        let l = l.to_lowercase();
        l.is_empty() || l == "(empty)" || l.contains("no such file or directory") || l.contains("cannot access")
    })
}

/// What the tool printed: Gemini CLI's `Output:` field of its record
/// (`Command: …\nDirectory: …\nOutput: …\nError: …\nExit Code: N`), else
/// the text below the host's header.
fn printed(text: &str) -> &str {
    if text.starts_with("Command: ") {
        if let Some(start) = text.find("\nOutput: ") {
            let rest = &text[start + "\nOutput: ".len()..];
            return rest.find("\nError: ").map_or(rest, |end| &rest[..end]);
        }
    }
    without_header(text)
}

/// The note for the turn's last step when it was a lookup that found nothing
/// and the answer says it found what the lookup looked for.
/// `tools` are the turn's calls; `last_is_run` says the last one is a test or
/// build run (judged by the runs, never here).
pub(super) fn claimed_found(tools: &[ToolTrace], last_is_run: bool, normalised: &str) -> Option<RuleNote> {
    let (last, earlier) = tools.split_last()?;
    if last_is_run {
        return None;
    }
    let line = command_line(last)?;
    let code = host_exit_of(last)?;
    if !matches!(code, 1 | 2) || !answers_by_exit(&line, Some(code)) || !found_nothing(last) {
        return None;
    }
    let seen: Vec<String> = earlier
        .iter()
        .filter(|t| t.ok())
        .map(|t| format!("{}\n{}", t.args, t.output).to_lowercase())
        .collect();
    let subjects: Vec<String> = shell_subjects(&line)
        .into_iter()
        .filter(|s| !seen.iter().any(|t| t.contains(s.as_str())))
        .collect();
    let claims = sentences(normalised).any(|s| {
        let padded = format!(" {} ", s.replace(|c: char| !c.is_alphanumeric() && c != '\'', " "));
        let padded = padded.replace("n't", " n't ");
        let names = subjects.iter().any(|subject| {
            if subject.contains('.') {
                s.contains(subject.as_str())
            } else {
                padded.contains(&format!(" {subject} "))
            }
        });
        names && FOUND_WORDS.iter().any(|w| s.contains(w)) && !ABSENCE_WORDS.iter().any(|w| padded.contains(w))
    });
    claims.then(|| {
        RuleNote::new(
            Rule::ClaimedFailedStep,
            Note::blocker(format!(
                "The answer says it found what the last step looked for, but `{}` found nothing (exit code {code}). \
Look again, or say plainly that it is not there.",
                quote(&line, COMMAND_BYTES)
            )),
        )
    })
}
