//! `RolloutTrace` for Python: one attempt's private trace, written by the
//! Rust writer (`advisor::rollout::RolloutTrace`) so `advisor summarize`
//! reads Python and Rust traces alike. Opens the file in append mode (many
//! attempts may share one file; `summarize` groups by `rollout_id`), creating
//! missing parent directories; an error opening it is an `OSError` naming the
//! path. Must not
//! write events itself, and is deliberately not picklable (it holds an open
//! file): create it inside the Ray task.

use std::fs::OpenOptions;
use std::path::PathBuf;

use advisor::rollout::{Arm, Outcome, RolloutTrace};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// The private trace of one attempt (JSON lines, schema `advisor.rollout.v1`).
///
/// `arm` is `"advised"` or `"unadvised"` (a baseline arm is recorded as
/// `"unadvised"`). Writes `attempt_start` now; `end(outcome)` writes
/// `attempt_end` once (later calls are ignored; if never called, the trace
/// ends with outcome `unknown` when the last reference goes away). Usable as
/// a context manager.
#[pyclass(module = "advisor", name = "RolloutTrace", frozen)]
pub(crate) struct PyRolloutTrace {
    pub(crate) inner: RolloutTrace,
    path: PathBuf,
    rollout_id: String,
    arm: &'static str,
}

fn arm(s: &str) -> PyResult<(Arm, &'static str)> {
    match s {
        "advised" => Ok((Arm::Advised, "advised")),
        "unadvised" => Ok((Arm::Unadvised, "unadvised")),
        _ => Err(PyValueError::new_err("arm must be \"advised\" or \"unadvised\"")),
    }
}

/// `OSError(errno, message, path)`: Python picks the subclass from the errno
/// (`FileNotFoundError`, `PermissionError`…) and shows the path.
fn os_error(path: &std::path::Path, e: &std::io::Error) -> PyErr {
    PyOSError::new_err((e.raw_os_error().unwrap_or(0), e.to_string(), path.display().to_string()))
}

/// Opens `path` to append, creating it and its missing parent directories.
fn open(path: &std::path::Path) -> PyResult<std::fs::File> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| os_error(parent, &e))?;
    }
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| os_error(path, &e))
}

#[pymethods]
impl PyRolloutTrace {
    #[new]
    #[pyo3(signature = (path, rollout_id, task_id, arm = "advised"))]
    fn new(path: PathBuf, rollout_id: String, task_id: String, arm: &str) -> PyResult<PyRolloutTrace> {
        let (a, name) = self::arm(arm)?;
        let file = open(&path)?;
        Ok(PyRolloutTrace {
            inner: RolloutTrace::start(file, rollout_id.clone(), task_id, a),
            path,
            rollout_id,
            arm: name,
        })
    }

    /// Ends the attempt: `"passed"`, `"failed"` or `"unknown"` (or a bool:
    /// True passed, False failed). Written once; later calls are ignored.
    fn end(&self, outcome: &Bound<'_, PyAny>) -> PyResult<()> {
        let o = if let Ok(b) = outcome.extract::<bool>() {
            if b { Outcome::Passed } else { Outcome::Failed }
        } else {
            match outcome.extract::<String>()?.as_str() {
                "passed" => Outcome::Passed,
                "failed" => Outcome::Failed,
                "unknown" => Outcome::Unknown,
                _ => {
                    return Err(PyValueError::new_err(
                        "outcome must be \"passed\", \"failed\", \"unknown\" or a bool",
                    ));
                }
            }
        };
        self.inner.end(o);
        Ok(())
    }

    /// The trace file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// The attempt's id.
    #[getter]
    fn rollout_id(&self) -> &str {
        &self.rollout_id
    }

    /// `"advised"` or `"unadvised"`.
    #[getter]
    fn arm(&self) -> &'static str {
        self.arm
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, pyo3::types::PyTuple>) {
        self.inner.end(Outcome::Unknown);
    }

    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "a RolloutTrace holds an open file and does not pickle; create it inside the Ray task",
        ))
    }
}
