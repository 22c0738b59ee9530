//! The runners: which commands are test or build runs, and how each runner's
//! closing lines read.
//!
//! One runner is one unit: the runner table holds its row, one line each
//! ([`table`]: sorted, with how to add a row); the unit of its family holds
//! the reader of its closing lines and its samples side by side — [`rust`],
//! [`go`], [`python`], [`python_checks`], [`js`], [`js_build`], [`jvm`],
//! [`dotnet`], [`native`], [`apple`], [`ruby`], [`elixir`], [`php`],
//! [`haskell`], [`dart`], [`bats`], [`lint`], [`github`], [`git`] and
//! [`tasks`] (task runners and package scripts, whose output is read with
//! every format). [`format`](mod@format) names each output format and hands a line to its
//! unit; [`says`] holds the count readers every unit shares, [`row`] the row
//! and its builders, [`args`] the operands a row's matcher reads. Must not
//! decide how a run ended: [`runs`](crate::evidence::runs) does that with the
//! host's record.

mod apple;
mod args;
mod bats;
mod dart;
mod dotnet;
mod elixir;
pub(crate) mod format;
mod git;
mod github;
mod go;
mod haskell;
mod js;
mod js_build;
mod jvm;
mod lint;
mod native;
mod php;
mod python;
mod python_checks;
mod row;
mod ruby;
mod rust;
#[cfg(test)]
mod samples;
mod says;
mod table;
mod tasks;

pub(crate) use format::{ANY, Format};
pub(crate) use go::{is_go_command_error, is_go_compile_error};
pub(crate) use python::pytest_counts;
pub(crate) use python_checks::pylint_line;
pub(crate) use row::Runner;
pub(crate) use rust::is_rustfmt_diff;
pub(crate) use says::Says;
pub(crate) use table::RUNNERS;
pub(crate) use tasks::task_kind;
