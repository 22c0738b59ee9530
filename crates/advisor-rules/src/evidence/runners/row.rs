//! One row of the runner table, and the builders the table is written with.
//!
//! Owns [`Runner`] and [`Matcher`], and the builders: [`row`] (its samples
//! are written beside its unit's readers), [`with_fixtures`] and [`matched`]
//! (their samples are recorded runs), [`task_runner`] (opaque: read with every
//! format) and [`script_runner`] (a package script the rules know nothing of,
//! tried after every other row). Must not match commands — that is
//! [`invocation`](crate::evidence::invocation) — nor read output.

use super::format::{ANY, Format};
use super::tasks::package_script;
use crate::evidence::kind::RunKind;

/// One row of the runner table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Runner {
    /// Shown in notes and used to compare runs: `cargo test`, `pytest`, …
    pub(crate) name: &'static str,
    /// Test or build.
    pub(crate) kind: RunKind,
    /// Program basenames that start this runner.
    pub(crate) programs: &'static [&'static str],
    /// The first non-option argument must be one of these (empty: any, or none).
    pub(crate) subcommands: &'static [&'static str],
    /// Subcommands matched by suffix (Gradle's `:app:test`).
    pub(crate) suffix_subcommands: bool,
    /// A matcher used instead of `subcommands`: given the words after the
    /// program, the kind of run they start and how many of them name the
    /// command (`run view`) rather than select what runs. The row matches
    /// when the kind is its own.
    pub(crate) matcher: Option<Matcher>,
    /// Words that, first in the selection, select what none would (`discover`).
    pub(crate) implied: &'static [&'static str],
    /// Whether the run goes through a task runner or script whose own output
    /// format the rules do not know (see
    /// [`Invocation::opaque`](crate::evidence::invocation::Invocation::opaque)).
    pub(crate) opaque: bool,
    /// Whether the row is tried only after every other row: a catch-all that
    /// would otherwise take a command a more precise row knows (`npm run
    /// test:unit` is `npm test`'s, not an unknown script's).
    pub(crate) fallback: bool,
    /// The summary formats its output is read with, in order: the first
    /// format that reads a line decides what it says.
    pub(crate) formats: &'static [Format],
}

/// A row's own matcher: the kind of run the words after the program start, and
/// how many of them name the command.
pub(crate) type Matcher = fn(&[String]) -> Option<(RunKind, usize)>;

/// A row recognised by its program and subcommand; its passing and failing
/// samples are written beside its unit's readers (`sample!`).
pub(super) const fn row(
    name: &'static str,
    kind: RunKind,
    programs: &'static [&'static str],
    subcommands: &'static [&'static str],
    formats: &'static [Format],
) -> Runner {
    Runner {
        name,
        kind,
        programs,
        subcommands,
        suffix_subcommands: false,
        matcher: None,
        implied: &[],
        opaque: false,
        fallback: false,
        formats,
    }
}

/// A row whose passing and failing samples are recorded runs
/// (`tests/fixtures/runner-output/`, listed in its unit's `FIXTURES`) rather
/// than written ones.
pub(super) const fn with_fixtures(
    name: &'static str,
    kind: RunKind,
    programs: &'static [&'static str],
    subcommands: &'static [&'static str],
    formats: &'static [Format],
) -> Runner {
    row(name, kind, programs, subcommands, formats)
}

/// A row recognised by its own matcher (its samples: as for [`with_fixtures`]).
pub(super) const fn matched(
    name: &'static str,
    kind: RunKind,
    programs: &'static [&'static str],
    matcher: Matcher,
    formats: &'static [Format],
) -> Runner {
    Runner {
        matcher: Some(matcher),
        ..with_fixtures(name, kind, programs, &[], formats)
    }
}

/// A task runner's row: recognised by its task's name, read with every format, opaque.
pub(super) const fn task_runner(
    name: &'static str,
    kind: RunKind,
    programs: &'static [&'static str],
    matcher: Matcher,
) -> Runner {
    Runner {
        opaque: true,
        ..matched(name, kind, programs, matcher, ANY)
    }
}

/// A package script the rules know nothing of (`npm run lint`, `yarn
/// check:types`): a task runner's row for the package managers, tried after
/// every other row, so that `npm test`, `npm run test:*` and `npm run build`
/// keep their own.
pub(super) const fn script_runner(name: &'static str, kind: RunKind) -> Runner {
    Runner {
        fallback: true,
        ..task_runner(name, kind, PACKAGE_MANAGERS, package_script)
    }
}

/// The package managers whose `run <script>` runs a package script.
const PACKAGE_MANAGERS: &[&str] = &["npm", "pnpm", "yarn", "bun"];

impl Runner {
    /// The row with `words` that, first in the selection, select what none
    /// would (`vitest run`, `unittest discover`).
    pub(super) const fn implied(self, words: &'static [&'static str]) -> Runner {
        Runner { implied: words, ..self }
    }

    /// The row with its subcommands matched by suffix too (Gradle's `:app:test`).
    pub(super) const fn suffixed(self) -> Runner {
        Runner {
            suffix_subcommands: true,
            ..self
        }
    }
}
