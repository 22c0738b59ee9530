//! The privileged advisor's prompt, in our own words, carrying the design
//! decisions of the rollout protocol.
//!
//! Owns the system prompt and the user message: the public task, the
//! privileged files (bounded), the advisor's own plan, the cues already
//! delivered (and, with streak escalation, the streak of one reason code), the
//! bounded public history, the draft, and whether this is a pre-submit or a
//! periodic review. Must not parse answers.

use std::fmt::Write as _;

use super::config::{CuePath, TaskMaterial};
use super::cue::CompiledCue;
use crate::host::{Message, Role};
use crate::text::truncate_middle;

/// Bytes of one privileged file shown to the advisor.
const FILE_BYTES: usize = 24 * 1024;
/// Bytes of all privileged files together.
const FILES_BYTES: usize = 96 * 1024;

/// The advisor's system prompt for a cue path.
pub fn system_prompt(path: CuePath) -> String {
    let hint_rule = match path {
        CuePath::SelfCheck => "- hint: leave it empty; on this run the solver receives a fixed sentence per action.",
        CuePath::ReasoningPrefill => {
            "- hint: when you intervene, one or two sentences in the solver's own first-person voice that continue \
its reasoning (\"I haven't checked what happens when …\"). It gives direction, never content: no test names, \
file paths, expected values, code or quotes from the privileged material. Empty when you do not intervene."
        }
    };
    format!(
        "You are a privileged advisor watching a coding agent (the solver) work on a task. You can see material \
the solver cannot: hidden tests, a reference solution, notes. You never act on the task yourself and nothing you \
write reaches the solver except the action you choose{}.

Your job is to catch the solver stopping at the wrong point: fixing the visible symptom but leaving a \
requirement unresolved, submitting after narrow validation, or undoing a correct solution by editing on.

How to judge:
- Judge functional correctness, not similarity to the reference. A correct implementation that looks nothing \
like the reference is correct.
- You alone decide whether to intervene. Nothing downstream filters on your confidence; weigh it yourself.
- On a pre-submit review (the draft calls the finish tool), intervene whenever you believe the work would fail, \
even when your only remaining argument is one you already made: a submission you allow is final, a repeated cue \
costs one turn. Vary the angle of a repeated cue, never the decision to block.
- Only a periodic review may stand down for lack of a new angle.
- When a periodic review finds the work correct and complete while the solver is not finishing, choose \
CONFIRM_AND_SUBMIT (intervene true): it is the one action that keeps the finish tool for the revision.
- Your plan records the task state — a short to-do list and where the solver stands against it. It never \
records a future verdict such as \"let it submit next time\": every review judges afresh.

Answer with one JSON object and nothing else:
{{\"intervene\": bool, \"confidence\": 0.0-1.0, \"reason_code\": \"COMPLETE|INCOMPLETE_REQUIREMENT_COVERAGE|\
UNVERIFIED_STATE_TRANSITIONS|INSUFFICIENT_END_TO_END_VALIDATION|PREMATURE_SUBMISSION|OTHER\", \"action\": \
\"CONTINUE|REVIEW_ALL_REQUIREMENTS|TRACE_STATE_TRANSITIONS|RUN_BROADER_VALIDATION|RECONSIDER_SUBMISSION|\
CONFIRM_AND_SUBMIT\", \"plan\": \"…\", \"hint\": \"…\", \"private_diagnosis\": \"…\"}}
- CONTINUE means the solver may go on or submit: intervene false.
- Every other action means intervene true.
{hint_rule}
- plan and private_diagnosis are private: they may discuss the hidden material; the solver never sees them.",
        match path {
            CuePath::SelfCheck => "",
            CuePath::ReasoningPrefill => " and, on this run, your hint",
        }
    )
}

/// What the user message is built from.
pub(crate) struct PromptInput<'a> {
    pub(crate) task: &'a TaskMaterial,
    pub(crate) history: &'a [Message],
    pub(crate) omitted: usize,
    pub(crate) draft_text: &'a str,
    pub(crate) draft_calls: &'a [crate::host::ToolCall],
    pub(crate) pre_submit: bool,
    pub(crate) turn: u32,
    pub(crate) plan: &'a str,
    pub(crate) delivered: &'a [CompiledCue],
    pub(crate) streak: Option<(super::decision::DecisionReason, u32)>,
    pub(crate) remaining: u32,
}

/// The user message for one review.
pub(crate) fn user_prompt(p: &PromptInput<'_>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "## This review\n{} review at solver turn {}; {} intervention(s) left.\n",
        if p.pre_submit {
            "Pre-submit (the draft calls the finish tool)"
        } else {
            "Periodic"
        },
        p.turn,
        p.remaining
    );
    let _ = writeln!(
        s,
        "## Public task (the solver sees this)\n{}\n",
        p.task.instruction.trim()
    );
    s.push_str("## Privileged material (the solver never sees this)\n");
    let mut budget = FILES_BYTES;
    for (path, text) in &p.task.files {
        let shown = truncate_middle(text, FILE_BYTES.min(budget.max(1)));
        budget = budget.saturating_sub(shown.len());
        let _ = writeln!(s, "### {path}\n```\n{shown}\n```");
        if budget == 0 {
            s.push_str("[… further privileged files left out for length …]\n");
            break;
        }
    }
    s.push('\n');
    let _ = writeln!(
        s,
        "## Your plan from the last review\n{}\n",
        Some(p.plan.trim())
            .filter(|plan| !plan.is_empty())
            .unwrap_or("(none yet)")
    );
    if !p.delivered.is_empty() {
        s.push_str("## Cues you already delivered (oldest first)\n");
        for (i, c) in p.delivered.iter().enumerate() {
            let _ = writeln!(s, "{}. {} ({}): {}", i + 1, c.action, c.reason_code, c.text);
        }
        s.push('\n');
    }
    if let Some((reason, n)) = p.streak {
        let _ = writeln!(
            s,
            "## Streak\nYour last {n} interventions all gave the reason {reason}. The solver has not resolved it; \
escalate the angle of your cue if you intervene again.\n"
        );
    }
    let _ = writeln!(
        s,
        "## Public history ({} message(s) shown, {} earlier elided)",
        p.history.len(),
        p.omitted
    );
    for m in p.history {
        let who = match m.role {
            Role::System => continue,
            Role::User => "user",
            Role::Assistant => "solver",
            Role::Tool => "tool result",
        };
        let _ = writeln!(s, "### {who}\n{}", m.content.trim());
    }
    let _ = writeln!(s, "\n## The draft under review\n{}", p.draft_text.trim());
    for c in p.draft_calls {
        let _ = writeln!(s, "→ calls {}({})", c.name, truncate_middle(&c.arguments, 2000));
    }
    s.push_str("\nAnswer with the JSON decision only.");
    s
}
