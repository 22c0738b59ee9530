//! The label files of `advisor eval`: one labelled stop point per line.
//!
//! Owns [`Label`] (the fields of `tests/fixtures/real/README.md`; unknown fields
//! are ignored), [`Verdict`], reading a label file (bounded, one error line
//! naming the file and line) and the transcript text at a stop point — the
//! first `line` lines, then a derived case's written lines. Must not review
//! anything.

use std::path::{Path, PathBuf};

use advisor::io::{read_file, read_file_to_string};
use serde::Deserialize;

/// The largest label file read.
const MAX_LABELS_BYTES: u64 = 4 * 1024 * 1024;
/// The largest transcript or derived file read.
const MAX_TRANSCRIPT_BYTES: u64 = 64 * 1024 * 1024;

/// One labelled stop point.
#[derive(Debug, Clone, Deserialize)]
pub(super) struct Label {
    pub(super) id: String,
    #[serde(default)]
    pub(super) session: String,
    /// The public repository the session came from (`owner/name`).
    pub(super) repo: Option<String>,
    pub(super) transcript: PathBuf,
    pub(super) line: Option<usize>,
    pub(super) append: Option<PathBuf>,
    pub(super) expected: Verdict,
    pub(super) rule: Option<String>,
    #[serde(default)]
    pub(super) why: String,
    pub(super) split: Option<String>,
    #[serde(default)]
    pub(super) derived: bool,
    /// Why a careful second reading found the blocker a `scope = "full"`
    /// reviewer raised at this honest stop correct and material (issue 44: a
    /// blocker counts as false only if such a reading finds it wrong or
    /// immaterial). Under that scope, when the reviewer blocks there, the
    /// stop is set aside: counted neither a false block nor a catch, and
    /// listed; when it passes, it counts as any honest stop. Only on a
    /// `pass` label.
    pub(super) full_blocker_correct: Option<String>,
    /// The directory the label's paths are relative to (its file's).
    #[serde(skip)]
    pub(super) base: PathBuf,
}

impl Label {
    /// Where the stop point came from: its repository, else its session.
    pub(super) fn source(&self) -> &str {
        self.repo.as_deref().unwrap_or(&self.session)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Verdict {
    Block,
    Pass,
}

impl Verdict {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Verdict::Block => "block",
            Verdict::Pass => "pass",
        }
    }
}

pub(super) fn parse_labels(path: &Path) -> Result<Vec<Label>, String> {
    let text = read_file_to_string(path, MAX_LABELS_BYTES).map_err(|e| e.to_string())?;
    let mut labels = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let mut label: Label =
            serde_json::from_str(raw).map_err(|e| format!("{}:{}: not a label ({e})", path.display(), i + 1))?;
        label.base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        if label.line == Some(0) {
            return Err(format!("{}:{}: `line` is 1-based", path.display(), i + 1));
        }
        if label.full_blocker_correct.is_some() && label.expected != Verdict::Pass {
            return Err(format!(
                "{}:{}: `full_blocker_correct` belongs on a `pass` label (it excuses a blocker at an honest stop)",
                path.display(),
                i + 1
            ));
        }
        labels.push(label);
    }
    if labels.is_empty() {
        return Err(format!("{}: no labels", path.display()));
    }
    Ok(labels)
}

/// The transcript text the reviewer sees at this stop point: the first
/// `line` lines of the transcript, then the derived lines.
pub(super) fn stop_text(label: &Label) -> Result<String, String> {
    let base = &label.base;
    let path = base.join(&label.transcript);
    let bytes = read_file(&path, MAX_TRANSCRIPT_BYTES).map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&bytes);
    let kept: Vec<&str> = (text.split_inclusive('\n'))
        .take(label.line.unwrap_or(usize::MAX))
        .collect();
    if let Some(n) = label.line.filter(|n| kept.len() < *n) {
        return Err(format!(
            "{}: has {} lines, the label stops at {n}",
            path.display(),
            kept.len()
        ));
    }
    let mut out = kept.concat();
    if let Some(extra) = &label.append {
        let path = base.join(extra);
        let extra = read_file_to_string(&path, MAX_TRANSCRIPT_BYTES).map_err(|e| e.to_string())?;
        if !out.ends_with('\n') && !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&extra);
    }
    Ok(out)
}
