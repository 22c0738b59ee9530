//! The evidence wing: what ran, how it ended, and what cleared it.
//!
//! Reads the tool calls of a review, never the answer: which calls were test
//! or build runs (by the command that ran, against the runner table: one
//! line per runner, each runner's closing lines read by the unit of its
//! family), how each ended — the host's recorded exit status first, then the
//! runner's own summary line — and whether a later run cleared a failure by
//! covering it. It also reads what a step that is no run was about. Its
//! public entry point is [`RunReader::runs`]: every run of a review with its
//! [`RunKind`], its [`Outcome`], the line that decided it and the run that
//! cleared it ([`RunEvidence`]) — the rules' verdicts stand on the same
//! reading. Must not import the answer or verdict wings: they build on this
//! one.

pub(crate) mod coverage;
pub(crate) mod invocation;
pub(crate) mod kind;
pub(crate) mod not_started;
pub(crate) mod outcome;
mod reader;
pub(crate) mod run_line;
pub(crate) mod runners;
pub(crate) mod runs;
pub(crate) mod shell;
pub(crate) mod step_programs;
pub(crate) mod steps;
pub(crate) mod subjects;
pub(crate) mod tool_calls;

pub use coverage::Scripts;
pub use kind::RunKind;
pub use reader::{Outcome, RunEvidence, RunReader};
