//! `AdvisorDecision` for Python: the seven-field decision, parsed by the Rust
//! strict parser (`advisor::rollout::parse_decision`) whether it comes from
//! text (`AdvisorDecision.parse`) or from keyword arguments (the constructor
//! builds the JSON object and parses it, so both paths validate the same).
//! Errors are `AdvisorDecisionError` with the Rust message, which never
//! contains the answer. Must not relax or extend the parser.

use advisor::rollout::{AdvisorDecision, parse_decision};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};

use crate::errors::decision_error;

/// The privileged advisor's decision for one review.
#[pyclass(module = "advisor", name = "AdvisorDecision", frozen)]
pub(crate) struct PyAdvisorDecision {
    pub(crate) inner: AdvisorDecision,
}

type DecisionArgs = (bool, f64, String, String, String, String, String);

#[pymethods]
impl PyAdvisorDecision {
    #[new]
    #[pyo3(signature = (intervene, confidence, reason_code, action, plan = String::new(), hint = String::new(), private_diagnosis = String::new()))]
    #[allow(clippy::too_many_arguments)] // the seven fields of the decision, as keyword arguments
    fn new(
        py: Python<'_>,
        intervene: bool,
        confidence: f64,
        reason_code: String,
        action: String,
        plan: String,
        hint: String,
        private_diagnosis: String,
    ) -> PyResult<PyAdvisorDecision> {
        // A non-finite confidence becomes JSON null, which the parser rejects.
        let object = serde_json::json!({
            "intervene": intervene,
            "confidence": confidence,
            "reason_code": reason_code,
            "action": action,
            "plan": plan,
            "hint": hint,
            "private_diagnosis": private_diagnosis,
        });
        Self::parse(py, &object.to_string())
    }

    /// Parses an advisor answer strictly: unknown fields, list-wrapped enums,
    /// prose around the object and inconsistent fields are rejected with an
    /// `AdvisorDecisionError` that never contains any part of `text`.
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str) -> PyResult<PyAdvisorDecision> {
        parse_decision(text)
            .map(|inner| PyAdvisorDecision { inner })
            .map_err(|e| decision_error(py, &e))
    }

    /// Whether to interrupt the solver.
    #[getter]
    fn intervene(&self) -> bool {
        self.inner.intervene
    }

    /// Recorded, never gated on.
    #[getter]
    fn confidence(&self) -> f64 {
        self.inner.confidence
    }

    /// Why (a reason code string).
    #[getter]
    fn reason_code(&self) -> &'static str {
        self.inner.reason_code.as_str()
    }

    /// What the cue asks (an action string).
    #[getter]
    fn action(&self) -> &'static str {
        self.inner.action.as_str()
    }

    /// Private: the task's to-do list and the solver's progress.
    #[getter]
    fn plan(&self) -> &str {
        &self.inner.plan
    }

    /// First-person continuation of the solver's reasoning (reasoning-prefill path).
    #[getter]
    fn hint(&self) -> &str {
        &self.inner.hint
    }

    /// Private: never shown to the solver.
    #[getter]
    fn private_diagnosis(&self) -> &str {
        &self.inner.private_diagnosis
    }

    /// Whether this decision interrupts the solver (intervene and not CONTINUE).
    #[getter]
    fn intervenes(&self) -> bool {
        self.inner.intervenes()
    }

    /// The decision as a dict (the JSON object's fields).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let (intervene, confidence, reason_code, action, plan, hint, pd) = self.args();
        d.set_item("intervene", intervene)?;
        d.set_item("confidence", confidence)?;
        d.set_item("reason_code", reason_code)?;
        d.set_item("action", action)?;
        d.set_item("plan", plan)?;
        d.set_item("hint", hint)?;
        d.set_item("private_diagnosis", pd)?;
        Ok(d)
    }

    /// The decision as one JSON object (the wire form).
    fn to_json(&self) -> String {
        serde_json::to_string(&self.inner).unwrap_or_default()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, DecisionArgs) {
        (slf.get_type(), slf.get().args())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyAdvisorDecision>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __repr__(&self) -> String {
        format!(
            "AdvisorDecision(intervene={}, confidence={}, reason_code={:?}, action={:?}, ...)",
            if self.inner.intervene { "True" } else { "False" },
            self.inner.confidence,
            self.inner.reason_code.as_str(),
            self.inner.action.as_str()
        )
    }
}

impl PyAdvisorDecision {
    fn args(&self) -> DecisionArgs {
        let d = &self.inner;
        (
            d.intervene,
            d.confidence,
            d.reason_code.as_str().to_owned(),
            d.action.as_str().to_owned(),
            d.plan.clone(),
            d.hint.clone(),
            d.private_diagnosis.clone(),
        )
    }
}
