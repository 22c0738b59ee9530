//! Read-only workspace tools for the model reviewer: `read_file`,
//! `list_files`, `grep` and `git_diff`, offered over the OpenAI tools API so
//! the reviewer can check an answer's claims against the code.
//!
//! Owns [`WorkspaceTool`] (the four names and their argument schemas),
//! [`WorkspaceTools`] (which are enabled, the per-review call limit, the
//! deny-list) and the dispatch of one [`ToolCall`] to a bounded result. Every
//! path goes through [`Beneath`](crate::io::Beneath) (no `..`, no absolute
//! path, no symbolic link), only regular text files are read, names matching
//! the deny-list ([`DEFAULT_DENY`] plus the user's own patterns, at any
//! depth and in any case: `deny`) are refused by all four tools and left out
//! of listings, and every result is at most
//! [`MAX_RESULT_BYTES`], marked when cut. A refused or failed call is an
//! error *result* for the model ([`ToolResult::error`]), never a failure of
//! the review. Must not write anything, run a program the workspace can name
//! (see `git_diff`), or decide what the answer means.

mod deny;
mod files;
mod git_diff;

pub use deny::DEFAULT_DENY;
pub use files::MAX_FILE_BYTES;
pub use git_diff::GIT_TIMEOUT;

pub(crate) use deny::glob_path;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};

use crate::host::ToolCall;
use crate::model::ToolSpec;

/// Most bytes of one tool result; a longer one is cut and says so.
pub const MAX_RESULT_BYTES: usize = 16 * 1024;
/// Tool calls one review may make unless configured otherwise.
pub const DEFAULT_MAX_TOOL_CALLS: usize = 8;
/// Most tool calls a configuration may allow per review.
pub const MAX_TOOL_CALLS_LIMIT: usize = 64;
/// Longest one tool call may work unless configured otherwise: past it the
/// call stops (a `git` it runs is killed with its process group) and
/// answers with what it has, or an error.
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(10);

/// When a tool call must stop working: a point in time, and optionally a
/// flag its caller raises to stop it sooner (the model reviewer raises it
/// when the review is dropped, at its timeout say, so no blocking thread
/// works on after the review is gone).
#[derive(Debug, Clone)]
pub struct ToolDeadline {
    at: Instant,
    cancel: Option<Arc<AtomicBool>>,
}

impl ToolDeadline {
    /// `budget` from now.
    pub fn after(budget: Duration) -> ToolDeadline {
        let now = Instant::now();
        ToolDeadline {
            at: (now.checked_add(budget))
                .or_else(|| now.checked_add(TOOL_TIMEOUT))
                .unwrap_or(now),
            cancel: None,
        }
    }

    /// The same deadline, also reached once `flag` is set.
    pub fn or_when(mut self, flag: Arc<AtomicBool>) -> ToolDeadline {
        self.cancel = Some(flag);
        self
    }

    /// The same deadline, at most `budget` from now.
    pub(crate) fn within(mut self, budget: Duration) -> ToolDeadline {
        if let Some(at) = Instant::now().checked_add(budget) {
            self.at = self.at.min(at);
        }
        self
    }

    /// Whether the call must stop now.
    pub fn reached(&self) -> bool {
        Instant::now() >= self.at || self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Time left before [`at`](Self::at) (zero once cancelled).
    pub fn remaining(&self) -> Duration {
        if self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Duration::ZERO;
        }
        self.at.saturating_duration_since(Instant::now())
    }

    /// The point in time the call must stop by.
    pub fn at(&self) -> Instant {
        self.at
    }
}
/// One of the read-only workspace tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WorkspaceTool {
    /// `read_file {path, offset?, limit?}`: lines of a text file.
    ReadFile,
    /// `list_files {path?, glob?}`: files beneath a directory.
    ListFiles,
    /// `grep {pattern, path?, glob?}`: lines matching a regular expression.
    Grep,
    /// `git_diff {path?, staged?}`: the working tree's (or the index's)
    /// changes, with no program the workspace can name ever run.
    GitDiff,
}

impl WorkspaceTool {
    /// All four, in the order they are offered.
    pub const ALL: [WorkspaceTool; 4] = [
        WorkspaceTool::ReadFile,
        WorkspaceTool::ListFiles,
        WorkspaceTool::Grep,
        WorkspaceTool::GitDiff,
    ];

    /// The tool's name, as the model calls it and the configuration names it.
    pub fn name(self) -> &'static str {
        match self {
            WorkspaceTool::ReadFile => "read_file",
            WorkspaceTool::ListFiles => "list_files",
            WorkspaceTool::Grep => "grep",
            WorkspaceTool::GitDiff => "git_diff",
        }
    }

    /// The tool named `name`, if any.
    pub fn parse(name: &str) -> Option<WorkspaceTool> {
        WorkspaceTool::ALL.into_iter().find(|t| t.name() == name)
    }

    /// What the model is told about the tool, with its JSON Schema.
    pub fn spec(self) -> ToolSpec {
        let (description, parameters) = match self {
            WorkspaceTool::ReadFile => (
                "Read lines of a text file in the workspace (read-only). offset: first line, 1-based; limit: number of lines.",
                json!({"type": "object", "properties": {
                    "path": {"type": "string", "description": "path relative to the workspace root"},
                    "offset": {"type": "integer", "minimum": 1},
                    "limit": {"type": "integer", "minimum": 1}
                }, "required": ["path"], "additionalProperties": false}),
            ),
            WorkspaceTool::ListFiles => (
                "List files beneath a directory of the workspace (read-only), optionally filtered by a glob such as src/**/*.rs.",
                json!({"type": "object", "properties": {
                    "path": {"type": "string", "description": "directory relative to the workspace root (default: the root)"},
                    "glob": {"type": "string"}
                }, "additionalProperties": false}),
            ),
            WorkspaceTool::Grep => (
                "Search text files of the workspace for a regular expression (read-only); bounded matches as path:line:text.",
                json!({"type": "object", "properties": {
                    "pattern": {"type": "string"},
                    "path": {"type": "string", "description": "file or directory relative to the workspace root"},
                    "glob": {"type": "string"}
                }, "required": ["pattern"], "additionalProperties": false}),
            ),
            WorkspaceTool::GitDiff => (
                "Show the uncommitted changes of the workspace's git repository (read-only): the working tree against the index, or with staged the index against HEAD.",
                json!({"type": "object", "properties": {
                    "path": {"type": "string"},
                    "staged": {"type": "boolean"}
                }, "additionalProperties": false}),
            ),
        };
        ToolSpec {
            name: self.name().to_owned(),
            description: description.to_owned(),
            parameters,
        }
    }
}

/// The answer to one tool call: its text (at most [`MAX_RESULT_BYTES`]) and
/// whether it is an error the model should read as a refusal or failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResult {
    /// The text sent back to the model.
    pub content: String,
    /// Whether the call was refused or failed.
    pub error: bool,
}

impl ToolResult {
    fn ok(content: String) -> ToolResult {
        ToolResult {
            content: cap(content),
            error: false,
        }
    }

    /// A refused or failed call: `error: …`, for the model to read.
    pub fn error(message: impl Into<String>) -> ToolResult {
        ToolResult {
            content: cap(format!("error: {}", message.into())),
            error: true,
        }
    }
}

/// `text` cut to [`MAX_RESULT_BYTES`] at a character boundary, with a line
/// saying so.
fn cap(mut text: String) -> String {
    const MARK: &str = "\n[output cut at 16 KiB]";
    if text.len() <= MAX_RESULT_BYTES {
        return text;
    }
    let mut end = MAX_RESULT_BYTES - MARK.len();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push_str(MARK);
    text
}

/// The read-only tools one reviewer offers, rooted at a workspace.
#[derive(Debug, Clone)]
pub struct WorkspaceTools {
    root: PathBuf,
    enabled: Vec<WorkspaceTool>,
    deny: deny::DenyList,
    max_calls: usize,
    timeout: Duration,
}

impl WorkspaceTools {
    /// `tools` over the workspace at `root` (a trusted path), with the
    /// default deny-list and [`DEFAULT_MAX_TOOL_CALLS`].
    pub fn new(root: impl Into<PathBuf>, tools: impl IntoIterator<Item = WorkspaceTool>) -> WorkspaceTools {
        let mut enabled: Vec<WorkspaceTool> = Vec::new();
        for t in tools {
            if !enabled.contains(&t) {
                enabled.push(t);
            }
        }
        WorkspaceTools {
            root: root.into(),
            enabled,
            deny: deny::DenyList::new(),
            max_calls: DEFAULT_MAX_TOOL_CALLS,
            timeout: TOOL_TIMEOUT,
        }
    }

    /// Adds patterns to the deny-list (same syntax as [`DEFAULT_DENY`]);
    /// the list only grows, and a pattern with no name in it is ignored.
    pub fn deny(mut self, patterns: impl IntoIterator<Item = impl Into<String>>) -> WorkspaceTools {
        self.deny.extend(patterns.into_iter().map(Into::into));
        self
    }

    /// At most `n` tool calls per review (at most [`MAX_TOOL_CALLS_LIMIT`]).
    pub fn max_tool_calls(mut self, n: usize) -> WorkspaceTools {
        self.max_calls = n.min(MAX_TOOL_CALLS_LIMIT);
        self
    }

    /// Each call stops working after `timeout` (default [`TOOL_TIMEOUT`];
    /// `git_diff` never takes longer than [`GIT_TIMEOUT`] either).
    pub fn call_timeout(mut self, timeout: Duration) -> WorkspaceTools {
        self.timeout = timeout;
        self
    }

    /// How long one call may work.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The per-review call limit.
    pub fn call_limit(&self) -> usize {
        self.max_calls
    }

    /// Whether no tool is enabled.
    pub fn is_empty(&self) -> bool {
        self.enabled.is_empty()
    }

    /// The enabled tools' names, in the order they are offered.
    pub fn names(&self) -> Vec<&'static str> {
        self.enabled.iter().map(|t| t.name()).collect()
    }

    /// The enabled tools' specifications, for the request.
    pub fn specs(&self) -> Vec<ToolSpec> {
        self.enabled.iter().map(|t| t.spec()).collect()
    }

    /// Whether the relative path `rel` is on the deny-list: a pattern
    /// matches a run of its components at any depth (or something it lies
    /// beneath), whatever their case.
    pub fn is_denied(&self, rel: &Path) -> bool {
        self.deny.denies(rel)
    }

    /// Runs one call within [`timeout`](Self::timeout), never failing: a
    /// refusal, bad arguments or an I/O problem is an error result. Blocking
    /// (file reads, `git`): run it off the async threads.
    pub fn call(&self, call: &ToolCall) -> ToolResult {
        self.call_until(call, &ToolDeadline::after(self.timeout))
    }

    /// [`call`](Self::call), stopping at `deadline` (or at this tool set's
    /// own timeout, whichever comes first): a walk or a search ends there
    /// with what it found and says so, a `git` run is killed with its
    /// process group.
    pub fn call_until(&self, call: &ToolCall, deadline: &ToolDeadline) -> ToolResult {
        let deadline = &deadline.clone().within(self.timeout);
        let Some(tool) = WorkspaceTool::parse(&call.name).filter(|t| self.enabled.contains(t)) else {
            return ToolResult::error(format!(
                "no tool named {:?}; the tools are {}",
                crate::text::clamp_chars(&call.name, 64),
                self.enabled.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
            ));
        };
        let args = if call.arguments.trim().is_empty() {
            "{}"
        } else {
            &call.arguments
        };
        let root = match crate::io::Beneath::open(&self.root) {
            Ok(r) => r,
            Err(e) => return ToolResult::error(format!("the workspace cannot be opened: {}", e.kind())),
        };
        let outcome = match tool {
            WorkspaceTool::ReadFile => {
                parse::<files::ReadFileArgs>(args).and_then(|a| files::read_file(self, &root, &a))
            }
            WorkspaceTool::ListFiles => {
                parse::<files::ListFilesArgs>(args).and_then(|a| files::list_files(self, &root, &a, deadline))
            }
            WorkspaceTool::Grep => parse::<files::GrepArgs>(args).and_then(|a| files::grep(self, &root, &a, deadline)),
            WorkspaceTool::GitDiff => {
                parse::<git_diff::GitDiffArgs>(args).and_then(|a| git_diff::git_diff(self, &root, &a, deadline))
            }
        };
        match outcome {
            Ok(text) => ToolResult::ok(text),
            Err(why) => ToolResult::error(why),
        }
    }

    /// The workspace root.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }
}

/// The call's arguments, or an error naming what is wrong (never quoting them).
fn parse<T: for<'de> Deserialize<'de>>(args: &str) -> Result<T, String> {
    let value: Value = serde_json::from_str(args)
        .map_err(|e| format!("the arguments are not JSON: {}", crate::json::describe_serde_error(&e)))?;
    serde_json::from_value(value).map_err(|e| format!("invalid arguments: {}", crate::json::describe_serde_error(&e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_cut_at_the_cap_and_say_so() {
        let r = ToolResult::ok("é".repeat(MAX_RESULT_BYTES));
        assert!(r.content.len() <= MAX_RESULT_BYTES);
        assert!(r.content.ends_with("[output cut at 16 KiB]"));
        assert_eq!(ToolResult::ok("short".into()).content, "short");
    }
}
