//! `TaskMaterial` and `AdvisorConfig` for Python: the same names, defaults and
//! validation as `advisor::rollout` (the Rust builder validates; this file only
//! converts Python values and names the rejected field in Python's spelling).
//! Both pickle by their constructor arguments (`__reduce__`), so they travel
//! to Ray tasks. Must not add settings the Rust config does not have.

use std::collections::BTreeMap;
use std::sync::Arc;

use advisor::rollout::{AdvisorConfig, CuePath, TaskMaterial};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};

use crate::errors::{config_error, config_field_error};

/// What the task is and what only the advisor may see.
///
/// `instruction` is the public task, as the solver sees it; `files` maps
/// paths of privileged material (hidden tests, reference solution, notes) to
/// their text. Never shown to the solver.
#[pyclass(module = "advisor", name = "TaskMaterial", frozen)]
pub(crate) struct PyTaskMaterial {
    pub(crate) inner: Arc<TaskMaterial>,
}

#[pymethods]
impl PyTaskMaterial {
    #[new]
    #[pyo3(signature = (instruction, files = None))]
    fn new(instruction: String, files: Option<BTreeMap<String, String>>) -> PyTaskMaterial {
        PyTaskMaterial {
            inner: Arc::new(TaskMaterial {
                instruction,
                files: files.unwrap_or_default(),
            }),
        }
    }

    /// The public task.
    #[getter]
    fn instruction(&self) -> &str {
        &self.inner.instruction
    }

    /// The privileged files, path → text (a copy).
    #[getter]
    fn files(&self) -> BTreeMap<String, String> {
        self.inner.files.clone()
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, BTreeMap<String, String>)) {
        let me = slf.get();
        (slf.get_type(), (me.inner.instruction.clone(), me.inner.files.clone()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyTaskMaterial>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __repr__(&self) -> String {
        format!(
            "TaskMaterial(instruction={:?}, files=<{} privileged file(s)>)",
            self.inner.instruction,
            self.inner.files.len()
        )
    }
}

/// Settings of a rollout advisor: the rollout protocol's names and defaults, validated by
/// the Rust builder. `repeat_streak_escalation=True` is rejected unless
/// `screen_hints=True`; every rejection is a `ConfigError` naming its field.
#[pyclass(module = "advisor", name = "AdvisorConfig", frozen)]
pub(crate) struct PyAdvisorConfig {
    pub(crate) inner: Arc<AdvisorConfig>,
}

fn u32_field(py: Python<'_>, field: &str, v: i64) -> PyResult<u32> {
    u32::try_from(v).map_err(|_| config_field_error(py, field, "must be a whole number from 0 to 4294967295"))
}

fn usize_field(py: Python<'_>, field: &str, v: i64) -> PyResult<usize> {
    usize::try_from(v).map_err(|_| config_field_error(py, field, "must not be negative"))
}

fn cue_path_name(p: CuePath) -> &'static str {
    match p {
        CuePath::SelfCheck => "self_check",
        CuePath::ReasoningPrefill => "reasoning_prefill",
    }
}

#[pymethods]
impl PyAdvisorConfig {
    #[new]
    #[pyo3(signature = (
        max_interventions = 2,
        periodic_review_interval = None,
        max_advisor_attempts = 3,
        max_revision_attempts = 2,
        fail_open = true,
        screen_hints = false,
        repeat_streak_escalation = false,
        cue_path = "self_check",
        finish_tool = "submit".to_owned(),
        history_max_messages = 40,
        history_max_bytes = 48_000,
        max_review_tokens = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        max_interventions: i64,
        periodic_review_interval: Option<i64>,
        max_advisor_attempts: i64,
        max_revision_attempts: i64,
        fail_open: bool,
        screen_hints: bool,
        repeat_streak_escalation: bool,
        cue_path: &str,
        finish_tool: String,
        history_max_messages: i64,
        history_max_bytes: i64,
        max_review_tokens: Option<i64>,
    ) -> PyResult<PyAdvisorConfig> {
        let cue_path = match cue_path {
            "self_check" => CuePath::SelfCheck,
            "reasoning_prefill" => CuePath::ReasoningPrefill,
            _ => {
                return Err(config_field_error(
                    py,
                    "cue_path",
                    "must be \"self_check\" or \"reasoning_prefill\"",
                ));
            }
        };
        let k = periodic_review_interval
            .map(|k| u32_field(py, "periodic_review_interval", k))
            .transpose()?;
        let defaults = AdvisorConfig::builder().build().map_err(|e| config_error(py, &e))?;
        let mut history = defaults.history();
        history.max_messages = usize_field(py, "history_max_messages", history_max_messages)?;
        history.max_bytes = usize_field(py, "history_max_bytes", history_max_bytes)?;
        let config = AdvisorConfig::builder()
            .max_interventions(u32_field(py, "max_interventions", max_interventions)?)
            .periodic_review_interval(k)
            .max_advisor_attempts(u32_field(py, "max_advisor_attempts", max_advisor_attempts)?)
            .max_revision_attempts(u32_field(py, "max_revision_attempts", max_revision_attempts)?)
            .fail_open(fail_open)
            .screen_hints(screen_hints)
            .repeat_streak_escalation(repeat_streak_escalation)
            .cue_path(cue_path)
            .finish_tool(finish_tool)
            .history(history)
            .max_review_tokens(
                max_review_tokens
                    .map(|n| {
                        u64::try_from(n)
                            .map_err(|_| config_field_error(py, "max_review_tokens", "must not be negative"))
                    })
                    .transpose()?,
            )
            .build()
            .map_err(|e| config_error(py, &e))?;
        Ok(PyAdvisorConfig {
            inner: Arc::new(config),
        })
    }

    /// B: interventions per attempt.
    #[getter]
    fn max_interventions(&self) -> u32 {
        self.inner.max_interventions()
    }

    /// k: also review every k-th solver turn; None reviews proposed finishes only.
    #[getter]
    fn periodic_review_interval(&self) -> Option<u32> {
        self.inner.periodic_review_interval()
    }

    /// Advisor calls per review to get a valid decision.
    #[getter]
    fn max_advisor_attempts(&self) -> u32 {
        self.inner.max_advisor_attempts()
    }

    /// Revisions per intervention.
    #[getter]
    fn max_revision_attempts(&self) -> u32 {
        self.inner.max_revision_attempts()
    }

    /// Keep the draft on advisor or revision failure (True) or raise.
    #[getter]
    fn fail_open(&self) -> bool {
        self.inner.fail_open()
    }

    /// Replace a leaking hint by the fixed self-check sentence.
    #[getter]
    fn screen_hints(&self) -> bool {
        self.inner.screen_hints()
    }

    /// Show the advisor its streak of one reason code.
    #[getter]
    fn repeat_streak_escalation(&self) -> bool {
        self.inner.repeat_streak_escalation()
    }

    /// "self_check" or "reasoning_prefill".
    #[getter]
    fn cue_path(&self) -> &'static str {
        cue_path_name(self.inner.cue_path())
    }

    /// The solver's finish tool.
    #[getter]
    fn finish_tool(&self) -> &str {
        self.inner.finish_tool()
    }

    /// Newest history messages the advisor reads.
    #[getter]
    fn history_max_messages(&self) -> usize {
        self.inner.history().max_messages
    }

    /// Bytes of history the advisor reads.
    #[getter]
    fn history_max_bytes(&self) -> usize {
        self.inner.history().max_bytes
    }

    /// Tokens the advisor model may spend in this attempt; None: no limit.
    #[getter]
    fn max_review_tokens(&self) -> Option<u64> {
        self.inner.max_review_tokens()
    }

    /// The settings as keyword arguments of the constructor.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let c = &self.inner;
        d.set_item("max_interventions", c.max_interventions())?;
        d.set_item("periodic_review_interval", c.periodic_review_interval())?;
        d.set_item("max_advisor_attempts", c.max_advisor_attempts())?;
        d.set_item("max_revision_attempts", c.max_revision_attempts())?;
        d.set_item("fail_open", c.fail_open())?;
        d.set_item("screen_hints", c.screen_hints())?;
        d.set_item("repeat_streak_escalation", c.repeat_streak_escalation())?;
        d.set_item("cue_path", cue_path_name(c.cue_path()))?;
        d.set_item("finish_tool", c.finish_tool())?;
        d.set_item("history_max_messages", c.history().max_messages)?;
        d.set_item("history_max_bytes", c.history().max_bytes)?;
        d.set_item("max_review_tokens", c.max_review_tokens())?;
        Ok(d)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let d = slf.get().to_dict(py)?;
        let args = PyTuple::new(py, d.values())?;
        Ok((slf.get_type(), args))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyAdvisorConfig>()
            .is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let d = self.to_dict(py)?;
        let parts: Vec<String> = d
            .iter()
            .map(|(k, v)| Ok(format!("{}={}", k.str()?, v.repr()?)))
            .collect::<PyResult<_>>()?;
        Ok(format!("AdvisorConfig({})", parts.join(", ")))
    }
}
