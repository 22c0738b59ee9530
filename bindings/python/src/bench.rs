//! `_rust_reviews`: the same reviews the Python benchmark drives, run from
//! Rust only, against the same endpoint in the same process — the baseline
//! the Python layer's per-review overhead is measured against
//! (`bench/bench_overhead.py`). Internal; not part of the API.

use std::sync::Arc;
use std::time::Instant;

use advisor::model::ChatModel;
use advisor::rollout::{Advisor, Draft};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::config::{PyAdvisorConfig, PyTaskMaterial};
use crate::messages::history_from_py;
use crate::model::PyOpenAICompatible;
use crate::runtime::runtime;

/// Runs `n` finish reviews (one fresh `Advisor` each), sequentially or all
/// at once, and returns the wall time in seconds. Internal (benchmarks).
#[pyfunction]
#[pyo3(signature = (config, task, model, history, n, concurrent = false))]
pub(crate) fn _rust_reviews(
    py: Python<'_>,
    config: &Bound<'_, PyAdvisorConfig>,
    task: &Bound<'_, PyTaskMaterial>,
    model: &Bound<'_, PyOpenAICompatible>,
    history: &Bound<'_, PyAny>,
    n: usize,
    concurrent: bool,
) -> PyResult<f64> {
    let history = Arc::new(history_from_py(history)?);
    let model: Arc<dyn ChatModel> = Arc::new(model.get().client.clone());
    let config = config.get().inner.clone();
    let task = task.get().inner.clone();
    py.detach(move || {
        runtime().block_on(async move {
            let start = Instant::now();
            let one = move |config, task, model, history: Arc<Vec<_>>| async move {
                let mut a = Advisor::with_shared_model(config, task, model);
                a.review(&history, Draft::calling("done", "submit"), |_| async {
                    Ok(Draft::text("r"))
                })
                .await
                .map(|_| ())
                .map_err(|e| e.to_string())
            };
            if concurrent {
                let tasks: Vec<_> = (0..n)
                    .map(|_| tokio::spawn(one(config.clone(), task.clone(), model.clone(), history.clone())))
                    .collect();
                for t in tasks {
                    t.await.map_err(|e| e.to_string())??;
                }
            } else {
                for _ in 0..n {
                    one(config.clone(), task.clone(), model.clone(), history.clone()).await?;
                }
            }
            Ok::<f64, String>(start.elapsed().as_secs_f64())
        })
    })
    .map_err(PyRuntimeError::new_err)
}
