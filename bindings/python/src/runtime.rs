//! The one Tokio runtime every review runs on (shared with
//! `pyo3-async-runtimes`, so `review` and `review_async` use the same worker
//! threads and the same HTTP connection pools). Must not run Python code.

use tokio::runtime::Runtime;

/// The process-wide runtime, built on first use.
pub(crate) fn runtime() -> &'static Runtime {
    pyo3_async_runtimes::tokio::get_runtime()
}
