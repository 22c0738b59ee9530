//! The advisor model for Python: an OpenAI-compatible endpoint
//! ([`PyOpenAICompatible`], the Rust client; the API key is read from an
//! environment variable and never stored in a Python object or a pickle), or
//! any Python callable that takes the chat messages and returns the model's
//! text ([`PyCallableModel`]; an `async def` callable works under
//! `review_async`). Must not parse decisions (the advisor does).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use advisor::model::{ChatModel, ChatRequest, ChatResponse, ModelError, ModelErrorKind, OpenAiCompatible};
use async_trait::async_trait;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};

use crate::errors::{config_error, config_field_error, describe};
use crate::messages::messages_to_py;

/// An OpenAI-compatible chat endpoint (`POST {base_url}/chat/completions`):
/// OpenAI, vLLM, llama.cpp, Ollama. The key, when the endpoint needs one, is
/// read from the environment variable `api_key_env` when the object is built
/// (on each Ray worker after unpickling) and is never pickled.
#[pyclass(module = "advisor", name = "OpenAICompatible", frozen)]
pub(crate) struct PyOpenAICompatible {
    pub(crate) client: OpenAiCompatible,
    base_url: String,
    model: String,
    api_key_env: Option<String>,
    timeout: f64,
    max_retries: u32,
    max_concurrency: usize,
    max_tokens: Option<u32>,
    temperature: Option<f32>,
}

type OpenAiArgs = (
    String,
    String,
    Option<String>,
    f64,
    u32,
    usize,
    Option<u32>,
    Option<f32>,
);

#[pymethods]
impl PyOpenAICompatible {
    #[new]
    #[pyo3(signature = (base_url, model, api_key_env = None, timeout = 60.0, max_retries = 3, max_concurrency = 16, max_tokens = Some(1024), temperature = Some(0.0)))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        base_url: String,
        model: String,
        api_key_env: Option<String>,
        timeout: f64,
        max_retries: u32,
        max_concurrency: usize,
        max_tokens: Option<u32>,
        temperature: Option<f32>,
    ) -> PyResult<PyOpenAICompatible> {
        let t = Duration::try_from_secs_f64(timeout)
            .map_err(|_| config_field_error(py, "timeout", "must be a number of seconds more than zero"))?;
        let mut b = OpenAiCompatible::builder(base_url.clone(), model.clone())
            .timeout(t)
            .max_retries(max_retries)
            .max_concurrency(max_concurrency)
            .max_tokens(max_tokens)
            .temperature(temperature);
        if let Some(var) = &api_key_env {
            b = b.api_key_from_env(var.clone());
        }
        let client = b.build().map_err(|e| config_error(py, &e))?;
        Ok(PyOpenAICompatible {
            client,
            base_url,
            model,
            api_key_env,
            timeout,
            max_retries,
            max_concurrency,
            max_tokens,
            temperature,
        })
    }

    /// The endpoint's base URL.
    #[getter]
    fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The model name sent with each request.
    #[getter]
    fn model(&self) -> &str {
        &self.model
    }

    /// The environment variable the key is read from, if any.
    #[getter]
    fn api_key_env(&self) -> Option<&str> {
        self.api_key_env.as_deref()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, OpenAiArgs) {
        let s = slf.get();
        (
            slf.get_type(),
            (
                s.base_url.clone(),
                s.model.clone(),
                s.api_key_env.clone(),
                s.timeout,
                s.max_retries,
                s.max_concurrency,
                s.max_tokens,
                s.temperature,
            ),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "OpenAICompatible(base_url={:?}, model={:?}, api_key_env={:?})",
            self.base_url, self.model, self.api_key_env
        )
    }
}

/// A Python callable as the advisor model: called with the messages (a list
/// of `{"role", "content"}` dicts), returns the model's text (or, for an
/// `async def` callable under `review_async`, an awaitable of it).
pub(crate) struct PyCallableModel {
    callable: Arc<Py<PyAny>>,
}

impl PyCallableModel {
    pub(crate) fn new(callable: Py<PyAny>) -> PyCallableModel {
        PyCallableModel {
            callable: Arc::new(callable),
        }
    }
}

type PyFuture = Pin<Box<dyn Future<Output = PyResult<Py<PyAny>>> + Send>>;

enum Step {
    Ready(String),
    Awaiting(PyFuture),
}

fn raised(py: Python<'_>, e: &PyErr) -> ModelError {
    ModelError::new(
        ModelErrorKind::Transport,
        format!("the model callable raised {}", describe(py, e)),
    )
}

fn text_answer(v: &Bound<'_, PyAny>) -> Result<String, ModelError> {
    match v.cast::<PyString>() {
        Ok(s) => s.to_cow().map(std::borrow::Cow::into_owned).map_err(|_| {
            ModelError::new(
                ModelErrorKind::InvalidResponse,
                "the model callable returned invalid text",
            )
        }),
        Err(_) => Err(ModelError::new(
            ModelErrorKind::InvalidResponse,
            "the model callable must return the model's text (a str)",
        )),
    }
}

/// Calls `f`; when it returns an awaitable and `allow_async` (inside
/// `review_async`), turns it into a Rust future on that event loop; under the
/// blocking `review` an awaitable is closed and refused (awaiting it there
/// could deadlock a loop the caller is blocking). Shared by the model
/// callable and `regenerate`.
pub(crate) fn call_maybe_async(
    py: Python<'_>,
    f: &Py<PyAny>,
    arg: Bound<'_, PyAny>,
    allow_async: bool,
) -> PyResult<Result<Py<PyAny>, PyFuture>> {
    let out = f.bind(py).call1((arg,))?;
    if !out.hasattr("__await__")? {
        return Ok(Ok(out.unbind()));
    }
    let fut = if allow_async {
        pyo3_async_runtimes::tokio::into_future(out.clone()).ok()
    } else {
        None
    };
    match fut {
        Some(fut) => Ok(Err(Box::pin(fut))),
        None => {
            // Not awaited anywhere: close it so Python does not warn, then say why.
            let _ = out.call_method0("close");
            Err(pyo3::exceptions::PyTypeError::new_err(
                "an async callable (coroutine) needs Advisor.review_async; Advisor.review is blocking",
            ))
        }
    }
}

#[async_trait]
impl ChatModel for PyCallableModel {
    async fn complete(&self, request: ChatRequest) -> Result<ChatResponse, ModelError> {
        let step = Python::attach(|py| -> Result<Step, ModelError> {
            let messages = messages_to_py(py, &request.messages).map_err(|e| raised(py, &e))?;
            let allow_async = crate::advisor::async_allowed();
            match call_maybe_async(py, &self.callable, messages.into_any(), allow_async).map_err(|e| raised(py, &e))? {
                Ok(v) => text_answer(v.bind(py)).map(Step::Ready),
                Err(fut) => Ok(Step::Awaiting(fut)),
            }
        })?;
        let text = match step {
            Step::Ready(t) => t,
            Step::Awaiting(fut) => {
                let out = fut.await;
                Python::attach(|py| match out {
                    Ok(v) => text_answer(v.bind(py)),
                    Err(e) => Err(raised(py, &e)),
                })?
            }
        };
        Ok(ChatResponse::text(text))
    }
}
