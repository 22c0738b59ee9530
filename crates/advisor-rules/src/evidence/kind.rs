//! What kind of run a command is: a test run, or a build (type checks and
//! lints included).
//!
//! Owns [`RunKind`], which every evidence reader shares: the runner table
//! gives each row one, a format's line may say which kind failed, and a host
//! names its own runner tools with one. Must not decide what a command is.

/// Whether a run tests or builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunKind {
    /// A test run.
    Test,
    /// A build, type check or lint.
    Build,
}
