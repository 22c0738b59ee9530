//! `Advisor` for Python: one attempt's privileged advisor, a thin wrapper over
//! `advisor::rollout::Advisor` (the gate, decision, selective intervention,
//! fail-open and state all stay in Rust). `review` blocks with the GIL
//! released while the advisor waits on the model; `review_async` returns an
//! awaitable on the shared Tokio runtime and accepts `async def` callables.
//! Also owns the `Revision` and `CompiledCue` objects `regenerate` receives.
//! Must not decide anything the Rust advisor does not, and does not pickle
//! (build one `Advisor` per attempt inside the Ray task).

use std::sync::Arc;

use advisor::host::Message;
use advisor::model::ChatModel;
use advisor::rollout::{Advisor, CompiledCue, CuePath, Draft, Revision};
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use tokio::sync::Mutex;

use crate::config::{PyAdvisorConfig, PyTaskMaterial};
use crate::errors::{describe, rollout_error};
use crate::messages::{draft_from_py, draft_to_py, history_from_py};
use crate::model::{PyCallableModel, PyOpenAICompatible, call_maybe_async};
use crate::runtime::runtime;
use crate::trace::PyRolloutTrace;

tokio::task_local! {
    /// Set while a `review_async` runs: awaitable callbacks are allowed there.
    pub(crate) static IN_REVIEW_ASYNC: ();
}

/// Whether the current review may await Python coroutines.
pub(crate) fn async_allowed() -> bool {
    IN_REVIEW_ASYNC.try_with(|()| ()).is_ok()
}

/// The cue an intervention delivers to the solver (solver-safe: a fixed
/// self-check sentence, or a screened first-person hint).
#[pyclass(module = "advisor", name = "CompiledCue", frozen)]
pub(crate) struct PyCompiledCue {
    inner: CompiledCue,
}

#[pymethods]
impl PyCompiledCue {
    /// The text the solver receives.
    #[getter]
    fn text(&self) -> &str {
        &self.inner.text
    }

    /// The action it asks for (e.g. "RUN_BROADER_VALIDATION").
    #[getter]
    fn action(&self) -> &'static str {
        self.inner.action.as_str()
    }

    /// The advisor's reason code.
    #[getter]
    fn reason_code(&self) -> &'static str {
        self.inner.reason_code.as_str()
    }

    /// "self_check" or "reasoning_prefill".
    #[getter]
    fn path(&self) -> &'static str {
        match self.inner.path {
            CuePath::SelfCheck => "self_check",
            CuePath::ReasoningPrefill => "reasoning_prefill",
        }
    }

    /// Whether the hint was screened.
    #[getter]
    fn screened(&self) -> bool {
        self.inner.screened
    }

    /// Whether a hint was replaced by the fixed sentence.
    #[getter]
    fn fell_back(&self) -> bool {
        self.inner.fell_back
    }

    fn __repr__(&self) -> String {
        format!("CompiledCue(action={:?}, text={:?})", self.action(), self.inner.text)
    }
}

/// What `regenerate` receives: produce the turn again with this cue. The
/// finish tool must be withheld from the revision unless
/// `finish_tool_offered` (only CONFIRM_AND_SUBMIT offers it); a revision that
/// calls it anyway is resampled.
#[pyclass(module = "advisor", name = "Revision", frozen)]
pub(crate) struct PyRevision {
    inner: Revision,
}

#[pymethods]
impl PyRevision {
    /// The solver-safe cue.
    #[getter]
    fn cue(&self) -> PyCompiledCue {
        PyCompiledCue {
            inner: self.inner.cue.clone(),
        }
    }

    /// Whether the finish tool is offered to this revision.
    #[getter]
    fn finish_tool_offered(&self) -> bool {
        self.inner.finish_tool_offered
    }

    fn __repr__(&self) -> String {
        format!(
            "Revision(action={:?}, finish_tool_offered={})",
            self.inner.cue.action.as_str(),
            if self.inner.finish_tool_offered {
                "True"
            } else {
                "False"
            }
        )
    }
}

/// Calls `regenerate` with the revision request and converts its answer.
/// A Python exception becomes the Rust revision error (recorded; with
/// fail_open the draft is kept).
async fn call_regenerate(f: Arc<Py<PyAny>>, revision: Revision) -> Result<Draft, String> {
    let allow_async = async_allowed();
    let step = Python::attach(|py| {
        let r = Py::new(py, PyRevision { inner: revision }).map_err(|e| describe(py, &e))?;
        call_maybe_async(py, &f, r.into_bound(py).into_any(), allow_async)
            .map_err(|e| format!("regenerate raised {}", describe(py, &e)))
    })?;
    let out = match step {
        Ok(v) => v,
        Err(fut) => fut
            .await
            .map_err(|e| Python::attach(|py| format!("regenerate raised {}", describe(py, &e))))?,
    };
    Python::attach(|py| draft_from_py("the revision", out.bind(py)).map_err(|e| describe(py, &e)))
}

/// The privileged advisor of one attempt.
///
/// `model` is an `OpenAICompatible` endpoint or a callable taking the chat
/// messages and returning the model's text. `trace`, when given, receives
/// the private trace (read it back with `summarize` or `advisor summarize`).
#[pyclass(module = "advisor", name = "Advisor", frozen, subclass)]
pub(crate) struct PyAdvisor {
    inner: Arc<Mutex<Advisor>>,
    trace: Option<Py<PyRolloutTrace>>,
}

impl PyAdvisor {
    fn prepare(
        history: &Bound<'_, PyAny>,
        draft: &Bound<'_, PyAny>,
        regenerate: &Bound<'_, PyAny>,
    ) -> PyResult<(Vec<Message>, Draft, Arc<Py<PyAny>>)> {
        if !regenerate.is_callable() {
            return Err(PyTypeError::new_err("regenerate must be callable"));
        }
        Ok((
            history_from_py(history)?,
            draft_from_py("draft", draft)?,
            Arc::new(regenerate.clone().unbind()),
        ))
    }

    fn locked<T>(&self, f: impl FnOnce(&Advisor) -> T) -> PyResult<T> {
        let guard = self
            .inner
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("a review of this Advisor is in progress"))?;
        Ok(f(&guard))
    }
}

#[pymethods]
impl PyAdvisor {
    #[new]
    #[pyo3(signature = (config, task, model, trace = None))]
    fn new(
        config: &Bound<'_, PyAdvisorConfig>,
        task: &Bound<'_, PyTaskMaterial>,
        model: &Bound<'_, PyAny>,
        trace: Option<Bound<'_, PyRolloutTrace>>,
    ) -> PyResult<PyAdvisor> {
        let model: Arc<dyn ChatModel> = if let Ok(m) = model.cast::<PyOpenAICompatible>() {
            Arc::new(m.get().client.clone())
        } else if model.is_callable() {
            Arc::new(PyCallableModel::new(model.clone().unbind()))
        } else {
            return Err(PyTypeError::new_err(
                "model must be an OpenAICompatible endpoint or a callable returning the model's text",
            ));
        };
        let mut advisor = Advisor::with_shared_model(config.get().inner.clone(), task.get().inner.clone(), model);
        if let Some(t) = &trace {
            advisor = advisor.with_trace(t.get().inner.clone());
        }
        Ok(PyAdvisor {
            inner: Arc::new(Mutex::new(advisor)),
            trace: trace.map(Bound::unbind),
        })
    }

    /// Reviews one solver turn and returns the response to commit (the
    /// draft, or the revision `regenerate` produced) as an assistant message
    /// dict. Blocks; the GIL is released while the advisor waits on the
    /// model. `regenerate` must be a plain (sync) callable here; an
    /// `async def` one needs `review_async`.
    fn review<'py>(
        &self,
        py: Python<'py>,
        history: &Bound<'py, PyAny>,
        draft: &Bound<'py, PyAny>,
        regenerate: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        if tokio::runtime::Handle::try_current().is_ok() {
            return Err(PyRuntimeError::new_err(
                "Advisor.review was called from inside a running review; use review_async",
            ));
        }
        let is_async = py
            .import("inspect")?
            .call_method1("iscoroutinefunction", (regenerate,))?
            .is_truthy()?;
        if is_async {
            return Err(PyTypeError::new_err(
                "regenerate is an async function: use `await advisor.review_async(...)`",
            ));
        }
        let (history, draft, f) = Self::prepare(history, draft, regenerate)?;
        let inner = self.inner.clone();
        let result = py.detach(move || {
            runtime().block_on(async move {
                let mut a = inner.lock().await;
                a.review(&history, draft, |r| call_regenerate(f.clone(), r)).await
            })
        });
        match result {
            Ok(d) => draft_to_py(py, &d),
            Err(e) => Err(rollout_error(py, &e)),
        }
    }

    /// The future behind `Advisor.review_async` (the Python coroutine awaits
    /// it; it needs the running event loop). `regenerate` and a callable
    /// model may be `async def` here.
    fn _review_future<'py>(
        &self,
        py: Python<'py>,
        history: &Bound<'py, PyAny>,
        draft: &Bound<'py, PyAny>,
        regenerate: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (history, draft, f) = Self::prepare(history, draft, regenerate)?;
        let inner = self.inner.clone();
        pyo3_async_runtimes::tokio::future_into_py(
            py,
            IN_REVIEW_ASYNC.scope((), async move {
                let result = {
                    let mut a = inner.lock().await;
                    a.review(&history, draft, |r| call_regenerate(f.clone(), r)).await
                };
                Python::attach(|py| match result {
                    Ok(d) => draft_to_py(py, &d).map(|d| d.into_any().unbind()),
                    Err(e) => Err(rollout_error(py, &e)),
                })
            }),
        )
    }

    /// Solver calls seen so far (drafts and revisions): t.
    #[getter]
    fn solver_calls(&self) -> PyResult<u32> {
        self.locked(Advisor::solver_calls)
    }

    /// Interventions delivered: n_t.
    #[getter]
    fn interventions(&self) -> PyResult<u32> {
        self.locked(Advisor::interventions)
    }

    /// The plan carried from the last decision (private).
    #[getter]
    fn plan(&self) -> PyResult<String> {
        self.locked(|a| a.plan().to_owned())
    }

    /// Cues delivered so far.
    #[getter]
    fn delivered_cues<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let cues = self.locked(|a| a.delivered_cues().to_vec())?;
        PyList::new(py, cues.into_iter().map(|inner| PyCompiledCue { inner }))
    }

    /// The trace this advisor writes, if any.
    #[getter]
    fn trace(&self, py: Python<'_>) -> Option<Py<PyRolloutTrace>> {
        self.trace.as_ref().map(|t| t.clone_ref(py))
    }

    fn __reduce__(&self) -> PyResult<()> {
        Err(PyTypeError::new_err(
            "an Advisor holds one attempt's live state and does not pickle; pass AdvisorConfig, \
TaskMaterial and the model to the Ray task and build the Advisor there",
        ))
    }

    fn __repr__(&self) -> String {
        match self.inner.try_lock() {
            Ok(a) => format!(
                "Advisor(solver_calls={}, interventions={})",
                a.solver_calls(),
                a.interventions()
            ),
            Err(_) => "Advisor(<reviewing>)".to_owned(),
        }
    }
}
