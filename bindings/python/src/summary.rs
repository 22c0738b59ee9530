//! `summarize` for Python: `advisor::rollout::summarize_paths` (the code
//! behind `advisor summarize`), returned as the dict `advisor summarize
//! --json` prints. Must not read traces any other way than the CLI does.

use std::path::PathBuf;

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;

/// Summarizes rollout traces: files, or directories searched recursively for
/// `*.jsonl`. Returns `{"arms": {"advised": {...}, "unadvised": {...}},
/// "malformed": [...]}` — the same object as `advisor summarize --json`:
/// per-arm attempts, reviews, interventions (by action and by reason code),
/// fail-open events, `effectively_unadvised`, `advised_without_reviews`,
/// graded, passed and `pass_rate`. Malformed lines are listed, never skipped.
#[pyfunction]
pub(crate) fn summarize<'py>(py: Python<'py>, paths: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let paths: Vec<PathBuf> = match paths.extract::<PathBuf>() {
        Ok(p) => vec![p],
        Err(_) => paths.extract()?,
    };
    let summary = py
        .detach(|| advisor::rollout::summarize_paths(&paths))
        .map_err(|e| PyOSError::new_err(format!("advisor summarize: {e}")))?;
    let json = serde_json::to_string(&summary)
        .map_err(|e| PyOSError::new_err(format!("advisor summarize: could not encode the summary: {e}")))?;
    py.import("json")?.call_method1("loads", (json,))
}
