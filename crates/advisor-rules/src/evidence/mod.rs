//! The evidence wing: what ran, how it ended, and what cleared it.
//!
//! Reads the tool trace of a review, never the answer: which calls were test
//! or build runs ([`runners`], [`invocation`], [`run_line`], [`shell`],
//! [`tool_calls`]), how each ended — the host's recorded exit status first,
//! then the runner's own summary line ([`outcome`], [`not_started`],
//! [`runs`]; each runner's lines are read by its unit of [`runners`]) — and whether a later run
//! cleared a failure by covering it ([`coverage`]). It also reads what a
//! step that is no run was about ([`subjects`], [`step_programs`]). Every
//! reader shares [`RunKind`] ([`kind`]). Must not import the answer or verdict
//! wings: they build on this one.

pub(crate) mod coverage;
pub(crate) mod invocation;
pub(crate) mod kind;
pub(crate) mod not_started;
pub(crate) mod outcome;
pub(crate) mod run_line;
pub(crate) mod runners;
pub(crate) mod runs;
pub(crate) mod shell;
pub(crate) mod step_programs;
pub(crate) mod subjects;
pub(crate) mod tool_calls;

pub use coverage::Scripts;
pub use kind::RunKind;
