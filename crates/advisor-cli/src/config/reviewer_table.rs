//! The `[reviewer]` table and what it becomes: [`ReviewerKind`],
//! [`ReviewerTable`] (which reviewer to build — not the library's
//! `NamedReviewer`, which is one built reviewer's cadence and caps), the one
//! table → client path ([`build_model`]) and the one reviewer choice every
//! command makes ([`choose_reviewer`], [`choose_reviewer_in`]).
//!
//! Must not read files or decide trust: the settings it gets were resolved
//! under the trust rules (`resolve`) or come from a command's own flags.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use advisor::error::Error;
use advisor::model::StructuredOutput;
use advisor::review::Reviewer;
use advisor::review::tools::WorkspaceTools;
use advisor_rules::RulesReviewer;

use super::RulesSettings;
use crate::reviewer::command::NoncedCommand;
use crate::reviewer::preset::Preset;

/// Which reviewer a workspace uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewerKind {
    /// The offline [`RulesReviewer`].
    #[default]
    Rules,
    /// A [`ModelReviewer`](advisor::review::ModelReviewer) over an
    /// OpenAI-compatible endpoint (feature `http`).
    Model,
    /// A [`CommandReviewer`](advisor::review::CommandReviewer): a program
    /// (`command`) or an agent CLI the user is logged into (`preset`).
    Command,
}

/// The `[reviewer]` table: which reviewer to build, with its network
/// settings (a model's endpoint, a command's program). In a workspace file it
/// is honoured only when the user trusted it (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReviewerTable {
    /// Rules or model.
    pub kind: ReviewerKind,
    /// Model name (kind = "model").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Base URL of the OpenAI-compatible API (kind = "model"); no query,
    /// fragment or credentials.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
    /// Environment variable holding the API key. Unset means no key is sent
    /// (local servers need none); no variable is read by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
    /// Extra HTTP headers sent with every request.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub headers: BTreeMap<String, String>,
    /// Structured output mode.
    pub structured_output: StructuredOutput,
    /// Read-only workspace tools offered to the model reviewer (`read_file`,
    /// `list_files`, `grep`, `git_diff`); none by default.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<String>,
    /// Most tool calls per review (default
    /// [`DEFAULT_MAX_TOOL_CALLS`](advisor::review::tools::DEFAULT_MAX_TOOL_CALLS)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tool_calls: Option<usize>,
    /// Names the tools refuse beyond the built-in deny-list
    /// ([`DEFAULT_DENY`](advisor::review::tools::DEFAULT_DENY)); it only ever
    /// grows.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools_deny: Vec<String>,
    /// The program and its arguments (kind = "command"; never a shell string).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// An agent CLI run headless with read-only tools (kind = "command").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<Preset>,
    /// What a model or command reviewer reads (absent: `claims`): the
    /// contested claims only, after the offline rules, or a whole review
    /// on every stop. A config error on `kind = "rules"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
}

/// What a model or command reviewer (the judge) reads: `[reviewer] scope`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Two stages (the default): the offline rules find every failure of the
    /// turn no later step cleared, and the judge is asked, only on a stop
    /// with one, whether the answer claims a success they contradict.
    #[default]
    Claims,
    /// One whole review of the window on every stop: instructions, logic
    /// and security read too, at one model call per stop.
    Full,
}

impl ReviewerTable {
    /// The workspace tools these settings offer, rooted at `workspace`
    /// (`None` when no tool is named). An unknown name, tools on a reviewer
    /// other than a model, or more calls than allowed is a config error
    /// naming the field.
    pub(crate) fn workspace_tools(&self, workspace: Option<&Path>) -> Result<Option<WorkspaceTools>, Error> {
        use advisor::review::tools::{DEFAULT_MAX_TOOL_CALLS, MAX_TOOL_CALLS_LIMIT, WorkspaceTool};
        if self.tools.is_empty() {
            return Ok(None);
        }
        if self.kind != ReviewerKind::Model {
            return Err(Error::config("reviewer.tools", "are offered only to kind = \"model\""));
        }
        let tools = (self.tools.iter())
            .map(|name| {
                WorkspaceTool::parse(name).ok_or_else(|| {
                    Error::config(
                        "reviewer.tools",
                        "names an unknown tool; use read_file, list_files, grep, git_diff",
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let calls = self.max_tool_calls.unwrap_or(DEFAULT_MAX_TOOL_CALLS);
        if calls == 0 || calls > MAX_TOOL_CALLS_LIMIT {
            return Err(Error::config(
                "reviewer.max_tool_calls",
                format!("must be between 1 and {MAX_TOOL_CALLS_LIMIT}"),
            ));
        }
        let root = workspace.ok_or_else(|| Error::config("reviewer.tools", "need the workspace the hook runs in"))?;
        Ok(Some(
            WorkspaceTools::new(root, tools)
                .max_tool_calls(calls)
                .deny(self.tools_deny.iter().cloned()),
        ))
    }

    /// Whether these settings send anything off the machine's process or
    /// run a program: a model or a command reviewer (both need the user's
    /// own config or `advisor trust`).
    pub(crate) fn sends_data(&self) -> bool {
        matches!(self.kind, ReviewerKind::Model | ReviewerKind::Command)
    }
}

/// The reviewer a command runs, and how it is named in its output.
pub(crate) struct ChosenReviewer {
    /// The reviewer.
    pub reviewer: Arc<dyn Reviewer>,
    /// The rules reviewer itself when the rules decide or find the evidence
    /// (`advisor eval` records which rule raised each note).
    pub rules: Option<RulesReviewer>,
    /// `rules`, `claims: rules, then model <name>`, `full: model <name>`
    /// (`… with tools …`) or `… command …`.
    pub label: String,
}

/// How long a two-stage review's judge may take within the review's own
/// `timeout`: a tenth (at least 1 s) is kept for the offline stage and the
/// rules' fallback, so a judge that times out still leaves the rules'
/// verdict inside the hook's deadline; never below half the timeout.
pub(crate) fn judge_timeout(timeout: Duration) -> Duration {
    let margin = (timeout / 10).max(Duration::from_secs(1));
    timeout.saturating_sub(margin).max(timeout / 2)
}

/// The one reviewer choice every command makes — `review`, `eval`, `hook` and
/// `mcp`: the model reviewer `settings` describe (from a resolved config or
/// from a command's flags), else the offline rules with the workspace's
/// `[rules]` table.
pub(crate) fn choose_reviewer(
    settings: Option<&ReviewerTable>,
    rules: &RulesSettings,
    timeout: Duration,
) -> Result<ChosenReviewer, Error> {
    choose_reviewer_in(settings, rules, timeout, None)
}

/// [`choose_reviewer`] for a reviewer that works in `workspace`: the command
/// reviewer runs there and the model reviewer's workspace tools are rooted
/// there (settings naming tools without a workspace are a config error).
pub(crate) fn choose_reviewer_in(
    settings: Option<&ReviewerTable>,
    rules: &RulesSettings,
    timeout: Duration,
    workspace: Option<&Path>,
) -> Result<ChosenReviewer, Error> {
    choose_with_judge(settings, rules, timeout, workspace, None)
}

/// `scope` belongs to a model or command reviewer: on `kind = "rules"` it
/// is a config error naming `reviewer.scope`.
pub(crate) fn check_scope(table: &ReviewerTable) -> Result<(), Error> {
    if table.kind == ReviewerKind::Rules && table.scope.is_some() {
        return Err(Error::config(
            "reviewer.scope",
            "applies to a model or command reviewer (the judge), not to kind = \"rules\"",
        ));
    }
    Ok(())
}

/// [`choose_reviewer_in`] with `judge` answering in place of the model or
/// command the table names (answers recorded earlier, for `advisor eval`):
/// the table still decides the scope and is still checked.
pub(crate) fn choose_with_judge(
    settings: Option<&ReviewerTable>,
    rules: &RulesSettings,
    timeout: Duration,
    workspace: Option<&Path>,
    judge: Option<(Arc<dyn Reviewer>, String)>,
) -> Result<ChosenReviewer, Error> {
    if let Some(r) = settings {
        check_scope(r)?;
    }
    let Some(r) = settings.filter(|r| r.sends_data()) else {
        let reviewer = rules.reviewer();
        return Ok(ChosenReviewer {
            reviewer: Arc::new(reviewer.clone()),
            rules: Some(reviewer),
            label: "rules".to_owned(),
        });
    };
    let (judge, label) = match judge {
        Some(given) => {
            // the table is checked as if it ran
            judge_of(r, timeout, workspace)?;
            given
        }
        None => judge_of(r, timeout, workspace)?,
    };
    Ok(match r.scope.unwrap_or_default() {
        Scope::Full => ChosenReviewer {
            reviewer: judge,
            rules: None,
            label: format!("full: {label}"),
        },
        Scope::Claims => {
            let stage1 = rules.reviewer();
            let two = advisor_rules::TwoStage::new(stage1.clone(), judge).judge_timeout(judge_timeout(timeout));
            ChosenReviewer {
                reviewer: Arc::new(two),
                rules: Some(stage1),
                label: format!("claims: rules, then {label}"),
            }
        }
    })
}

/// The model or command reviewer `r` describes, and its name (what a
/// two-stage review asks as its judge, or a full review runs).
pub(crate) fn judge_for(
    r: &ReviewerTable,
    timeout: Duration,
    workspace: Option<&Path>,
) -> Result<(Arc<dyn Reviewer>, String), Error> {
    judge_of(r, timeout, workspace)
}

/// The model or command reviewer `r` describes, and its name.
fn judge_of(
    r: &ReviewerTable,
    timeout: Duration,
    workspace: Option<&Path>,
) -> Result<(Arc<dyn Reviewer>, String), Error> {
    if r.kind == ReviewerKind::Command {
        let label = match r.preset {
            Some(p) => format!("command preset {}", serde_json::to_value(p).unwrap_or_default()),
            None => "command".to_owned(),
        };
        return Ok((Arc::new(command_reviewer(r, workspace, timeout)?), label));
    }
    let client = build_model(r, timeout)?;
    let mut label = format!("model {}", client.model());
    let mut reviewer = advisor::review::ModelReviewer::new(client);
    if let Some(tools) = r.workspace_tools(workspace)? {
        label.push_str(&format!(" with tools {}", tools.names().join(",")));
        reviewer = reviewer.tools(tools);
    }
    Ok((Arc::new(reviewer), label))
}

/// The command reviewer whose prompt `r`'s reviewer receives — the bytes a
/// `kind = "command"` reviewer reads on stdin, for a preset with its
/// read-only tools named — for answering prompts from recorded answers. A
/// model reviewer with workspace tools has no such fixed prompt (its tool
/// results are part of it): a config error naming `reviewer.tools`.
pub(crate) fn prompt_of(r: &ReviewerTable) -> Result<advisor::review::CommandReviewer, Error> {
    if !r.tools.is_empty() {
        return Err(Error::config(
            "reviewer.tools",
            "a reviewer with workspace tools cannot be answered from recorded answers",
        ));
    }
    let mut c = advisor::review::CommandReviewer::new(r.command.clone());
    if let Some(p) = r.preset {
        c = c.read_only_tools(p.read_only_tools());
    }
    Ok(c)
}

/// The command reviewer `r` describes (`command` or `preset`, one of them;
/// no workspace tools), or a config error naming the field.
fn command_reviewer(r: &ReviewerTable, workspace: Option<&Path>, timeout: Duration) -> Result<NoncedCommand, Error> {
    let reviewer = match (r.preset, r.command.is_empty()) {
        (Some(p), true) => NoncedCommand::preset(p, r.model.as_deref(), workspace, timeout),
        (None, false) if r.command.first().is_none_or(|p| p.trim().is_empty()) => {
            return Err(Error::config("reviewer.command", "the program must not be empty"));
        }
        (None, false) => NoncedCommand::program(r.command.clone(), workspace, timeout),
        (Some(_), false) => return Err(Error::config("reviewer.command", "set command or preset, not both")),
        (None, true) => {
            return Err(Error::config(
                "reviewer.command",
                "kind = \"command\" needs command = [program, args…] or preset = \"claude\" | \"codex\" | \"gemini\"",
            ));
        }
    };
    if !r.tools.is_empty() {
        return Err(Error::config("reviewer.tools", "are offered only to kind = \"model\""));
    }
    Ok(reviewer)
}

/// The HTTP client `r` describes — the one place settings become a client
/// (a config's `[reviewer]` table and a command's model flags alike). Only
/// the API key's *value* comes from the environment, from the variable `r`
/// names.
pub(crate) fn build_model(r: &ReviewerTable, timeout: Duration) -> Result<advisor::model::OpenAiCompatible, Error> {
    use advisor::model::OpenAiCompatible;
    let model = r
        .model
        .as_deref()
        .filter(|m| !m.trim().is_empty())
        .ok_or_else(|| Error::config("reviewer.model", "is required when reviewer.kind = \"model\""))?;
    let base = r
        .base_url
        .as_deref()
        .ok_or_else(|| Error::config("reviewer.base_url", "is required when reviewer.kind = \"model\""))?;
    let mut b = OpenAiCompatible::builder(base, model)
        .structured_output(r.structured_output)
        .timeout(timeout);
    for (name, value) in &r.headers {
        b = b.header(name, value);
    }
    if let Some(var) = &r.api_key_env {
        let key = std::env::var(var).ok().filter(|k| !k.is_empty()).ok_or_else(|| {
            Error::config(
                "reviewer.api_key_env",
                "the variable it names is not set (`advisor trust --list` shows which)",
            )
        })?;
        b = b.api_key(key);
    }
    b.build()
}
