//! The Python exceptions of the package and the conversions from the Rust
//! errors: each carries the Rust error's message unchanged, plus the
//! structured parts (`field`, `problems`, `kind`) as attributes. Must not add
//! any text of an advisor's answer to an error.

use advisor::Error;
use advisor::ValidationError as RustDecisionError;
use advisor::rollout::{RolloutError as RustRolloutError, RolloutErrorKind};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

pyo3::create_exception!(
    advisor,
    ConfigError,
    PyValueError,
    "A setting was rejected. `field` names it; the message is the Rust builder's."
);
pyo3::create_exception!(
    advisor,
    AdvisorDecisionError,
    PyValueError,
    "The advisor's answer is not a valid decision. `problems` lists (location, description) \
pairs; neither the message nor the attributes contain any part of the answer, and the \
exception has no cause or context."
);
pyo3::create_exception!(
    advisor,
    RolloutError,
    PyRuntimeError,
    "A review failed and fail_open is off. `kind` is \"model\" or \"revision\"."
);

/// A configuration error naming `field` (the Python spelling of the field).
pub(crate) fn config_error(py: Python<'_>, e: &Error) -> PyErr {
    let field = e.field().map(python_field);
    let message = match &field {
        Some(f) => format!("invalid advisor configuration: {f}: {}", e.message()),
        None => e.to_string(),
    };
    let err = ConfigError::new_err(message);
    // Setting an attribute on a fresh exception object cannot meaningfully fail.
    let _ = err.value(py).setattr("field", field);
    err
}

/// A configuration error for a value Python passed that Rust cannot hold.
pub(crate) fn config_field_error(py: Python<'_>, field: &str, message: &str) -> PyErr {
    config_error(py, &Error::config(field, message))
}

/// `history.max_messages` (Rust) is `history_max_messages` (Python keyword).
fn python_field(f: &str) -> String {
    f.replace("history.", "history_")
}

/// The strict parser's error, with its problems and nothing of the answer.
pub(crate) fn decision_error(py: Python<'_>, e: &RustDecisionError) -> PyErr {
    let err = AdvisorDecisionError::new_err(e.to_string());
    let problems: Vec<(String, String)> = e
        .problems
        .iter()
        .map(|p| (p.field.clone(), p.problem.clone()))
        .collect();
    let _ = err.value(py).setattr("problems", problems);
    err
}

/// A failed review (fail_open off).
pub(crate) fn rollout_error(py: Python<'_>, e: &RustRolloutError) -> PyErr {
    if let Some(d) = e.validation() {
        return decision_error(py, d);
    }
    let kind = match e.kind() {
        RolloutErrorKind::Model => "model",
        RolloutErrorKind::Revision => "revision",
        _ => "other",
    };
    let err = RolloutError::new_err(e.to_string());
    let _ = err.value(py).setattr("kind", kind);
    err
}

/// `ExceptionType: message` of a Python exception raised by a callback, for
/// the Rust side (which records it in the trace and, with fail_open off,
/// returns it). The traceback stays with Python's logging, not the trace.
pub(crate) fn describe(py: Python<'_>, e: &PyErr) -> String {
    let name = e
        .get_type(py)
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "Exception".to_owned());
    let args = e.value(py).getattr("args").ok();
    let text = args
        .as_ref()
        .and_then(|a| a.cast::<PyTuple>().ok())
        .and_then(|t| t.get_item(0).ok())
        .and_then(|a| a.str().ok())
        .map(|s| s.to_string());
    match text {
        Some(t) if !t.is_empty() => format!("{name}: {t}"),
        _ => name,
    }
}
