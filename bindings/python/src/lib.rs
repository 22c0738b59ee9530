//! `advisor._advisor`: the Python extension module of the rollout advisor.
//!
//! Owns the module's layout (which classes, functions and exceptions Python
//! sees) and nothing else; every class lives in its own file and wraps the
//! Rust type of `advisor::rollout` without changing its behaviour. The pure
//! Python package `advisor` re-exports this module. Must not implement any
//! rollout logic of its own.

use pyo3::prelude::*;

mod advisor;
mod bench;
mod config;
mod decision;
mod errors;
mod messages;
mod model;
mod runtime;
mod summary;
mod trace;

/// The extension module.
#[pymodule]
fn _advisor(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<config::PyTaskMaterial>()?;
    m.add_class::<config::PyAdvisorConfig>()?;
    m.add_class::<decision::PyAdvisorDecision>()?;
    m.add_class::<model::PyOpenAICompatible>()?;
    m.add_class::<trace::PyRolloutTrace>()?;
    m.add_class::<advisor::PyCompiledCue>()?;
    m.add_class::<advisor::PyRevision>()?;
    m.add_class::<advisor::PyAdvisor>()?;
    m.add_function(wrap_pyfunction!(summary::summarize, m)?)?;
    m.add_function(wrap_pyfunction!(bench::_rust_reviews, m)?)?;
    m.add("ConfigError", py.get_type::<errors::ConfigError>())?;
    m.add("AdvisorDecisionError", py.get_type::<errors::AdvisorDecisionError>())?;
    m.add("RolloutError", py.get_type::<errors::RolloutError>())?;
    m.add("ROLLOUT_TRACE_SCHEMA", ::advisor::rollout::ROLLOUT_TRACE_SCHEMA)?;
    Ok(())
}
