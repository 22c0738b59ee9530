//! The runner table: which commands are test or build runs, one row per runner.
//!
//! Owns [`RUNNERS`] and [`Runner`]. A row names the program (its basename, so
//! `./gradlew` and `vendor/bin/phpunit` match), the subcommands that make it a
//! run (none for programs that only run tests) or a matcher of its own
//! ([`matchers`](super::matchers): `node --test`, `zig build test`, `gh run
//! view`, `sbt clean test`, task runners), and the summary formats its output
//! is read with. Task runners and package scripts are marked opaque: their
//! output is read with every known format. Must not match commands — that is
//! [`invocation`](super::invocation) — nor read output.

use super::formats::Format;
use super::kind::RunKind;
use super::matchers::{
    gh_pr_checks, gh_run, gh_run_log, go_task, just, mise, node_test, nx, package_script, run_all, sbt, turbo,
    xcodebuild, zig,
};

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
    /// [`Invocation::opaque`](super::invocation::Invocation::opaque)).
    pub(crate) opaque: bool,
    /// The summary formats its output is read with.
    pub(crate) formats: &'static [Format],
}

/// A row's own matcher: the kind of run the words after the program start, and
/// how many of them name the command.
pub(crate) type Matcher = fn(&[String]) -> Option<(RunKind, usize)>;

use Format::*;
use RunKind::{Build, Test};

/// Every summary format but those of CI results and bats' TAP: for runners that
/// run other runners (`make test`, `npm test`, `tox`, task runners).
pub(crate) const ANY: &[Format] = &[
    Cargo, Nextest, Pytest, GoTest, Vitest, Jest, Mocha, ExUnit, RSpec, Minitest, PhpUnit, Maven, Gradle, Dotnet,
    CTest, Make, Tox, Nox, Bazel, Swift, Xcode, Tsc, Deno, Bun, Unittest, NodeTest, Zig, Sbt, Clojure, Haskell, Dart,
    Mypy, Pyright, Lint, Playwright, Script, Rustfmt,
];
const JS: &[Format] = &[Vitest, Jest, Mocha, Bun, Deno, Tsc, Playwright, Script];
/// `git commit` and `git push`: git's own lines, and every format for the
/// output of the hooks they run (a pre-commit `tsc`, a pre-push test suite).
const GIT: &[Format] = &[
    Git, Cargo, Nextest, Pytest, GoTest, Vitest, Jest, Mocha, ExUnit, RSpec, Minitest, PhpUnit, Maven, Gradle, Dotnet,
    Tsc, Deno, Bun, Unittest, NodeTest, Mypy, Pyright, Lint,
];

const fn row(
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
        formats,
    }
}

/// A row whose passing and failing samples are the runner-output fixtures read
/// by `tests/rules_runner_outputs.rs` (real or documented output, listed in
/// its `ROWS`) rather than the written samples of `tests/rules_runners.rs`.
const fn with_fixtures(
    name: &'static str,
    kind: RunKind,
    programs: &'static [&'static str],
    subcommands: &'static [&'static str],
    formats: &'static [Format],
) -> Runner {
    row(name, kind, programs, subcommands, formats)
}

/// A row recognised by its own matcher (its samples: as for [`with_fixtures`]).
const fn matched(
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
const fn task_runner(name: &'static str, kind: RunKind, programs: &'static [&'static str], matcher: Matcher) -> Runner {
    Runner {
        opaque: true,
        ..matched(name, kind, programs, matcher, ANY)
    }
}

/// The runner table. Order matters only where two rows share a program: the
/// first match wins.
pub(crate) const RUNNERS: &[Runner] = &[
    row("cargo test", Test, &["cargo"], &["test", "t"], &[Cargo]),
    row("cargo nextest", Test, &["cargo"], &["nextest"], &[Nextest, Cargo]),
    row(
        "cargo build",
        Build,
        &["cargo"],
        &["build", "b", "check", "c", "clippy"],
        &[Cargo],
    ),
    row("cargo fmt", Build, &["cargo"], &["fmt"], &[Cargo, Rustfmt]),
    row("rustfmt", Build, &["rustfmt"], &[], &[Rustfmt]),
    row("pytest", Test, &["pytest", "py.test"], &[], &[Pytest]),
    row("go test", Test, &["go"], &["test"], &[GoTest]),
    row("go build", Build, &["go"], &["build", "vet"], &[GoTest]),
    row(
        "npm test",
        Test,
        &["npm", "pnpm", "yarn", "bun"],
        &["test", "t", "tst"],
        ANY,
    ),
    row("deno test", Test, &["deno"], &["test"], &[Deno]),
    // `vitest run` runs once what a bare `vitest` watches
    Runner {
        implied: &["run"],
        ..row("vitest", Test, &["vitest"], &[], &[Vitest])
    },
    row("jest", Test, &["jest"], &[], &[Jest]),
    row("mocha", Test, &["mocha"], &[], &[Mocha]),
    row("mix test", Test, &["mix"], &["test"], &[ExUnit]),
    row("rspec", Test, &["rspec"], &[], &[RSpec]),
    row("minitest", Test, &["rake", "rails"], &["test"], &[Minitest]),
    row("phpunit", Test, &["phpunit", "pest"], &[], &[PhpUnit]),
    row(
        "mvn test",
        Test,
        &["mvn", "mvnw"],
        &["test", "verify", "install", "package"],
        &[Maven],
    ),
    Runner {
        suffix_subcommands: true,
        ..row(
            "gradle test",
            Test,
            &["gradle", "gradlew"],
            &["test", "check", "build"],
            &[Gradle],
        )
    },
    row("dotnet test", Test, &["dotnet"], &["test"], &[Dotnet]),
    row("dotnet build", Build, &["dotnet"], &["build"], &[Dotnet]),
    // DocFX builds docs with MSBuild's summary ("Build succeeded.", "0 error(s)"):
    // `docfx metadata`, `docfx build`, `docfx pdf`, `docfx docfx.json`
    row(
        "docfx",
        Build,
        &["docfx"],
        &["build", "metadata", "pdf", "docfx.json"],
        &[Dotnet],
    ),
    row("ctest", Test, &["ctest"], &[], &[CTest]),
    row("make test", Test, &["make", "gmake"], &["test", "tests", "check"], ANY),
    row("tox", Test, &["tox"], &[], ANY),
    row("nox", Test, &["nox"], &[], ANY),
    row("bazel test", Test, &["bazel", "bazelisk"], &["test"], &[Bazel]),
    row("bazel build", Build, &["bazel", "bazelisk"], &["build"], &[Bazel]),
    row("swift test", Test, &["swift"], &["test"], &[Swift]),
    row("swift build", Build, &["swift"], &["build"], &[Swift]),
    matched("xcodebuild test", Test, &["xcodebuild"], xcodebuild, &[Xcode, Swift]),
    matched("xcodebuild build", Build, &["xcodebuild"], xcodebuild, &[Xcode, Swift]),
    row("tsc", Build, &["tsc", "vue-tsc"], &[], &[Tsc]),
    row("npm run build", Build, &["npm", "pnpm", "yarn", "bun"], &["build"], JS),
    row("make", Build, &["make", "gmake"], &[], ANY),
    row("git commit", Build, &["git"], &["commit", "push"], GIT),
    row("eslint", Build, &["eslint"], &[], &[Lint]),
    row("biome", Build, &["biome"], &["check", "lint", "ci", "format"], &[Lint]),
    row("ruff", Build, &["ruff"], &["check", "format"], &[Lint]),
    row("prettier", Build, &["prettier"], &[], &[Lint]),
    row("black", Build, &["black"], &[], &[Lint]),
    row("golangci-lint", Build, &["golangci-lint"], &["run"], &[Lint]),
    with_fixtures("pre-commit", Build, &["pre-commit", "prek"], &["run"], &[Lint]),
    with_fixtures("flake8", Build, &["flake8", "pycodestyle", "pyflakes"], &[], &[PyLint]),
    with_fixtures("pylint", Build, &["pylint"], &[], &[PyLint]),
    // astral's type checker: `ty check`, `Found 1 diagnostic` / `All checks passed!`
    with_fixtures("ty", Build, &["ty"], &["check"], &[Mypy, Lint]),
    with_fixtures("playwright test", Test, &["playwright"], &["test"], &[Playwright]),
    Runner {
        implied: &["discover"],
        ..with_fixtures("unittest", Test, &["unittest"], &[], &[Unittest])
    },
    with_fixtures(
        "manage.py test",
        Test,
        &["manage.py", "django-admin", "django"],
        &["test"],
        &[Unittest],
    ),
    matched("node --test", Test, &["node"], node_test, &[NodeTest]),
    with_fixtures("bats", Test, &["bats"], &[], &[Bats]),
    with_fixtures("hatch test", Test, &["hatch"], &["test"], &[Pytest]),
    matched("zig test", Test, &["zig", "ziglang"], zig, &[Zig]),
    matched("zig build", Build, &["zig", "ziglang"], zig, &[Zig]),
    matched("sbt test", Test, &["sbt", "sbtn"], sbt, &[Sbt]),
    matched("sbt compile", Build, &["sbt", "sbtn"], sbt, &[Sbt]),
    with_fixtures("lein test", Test, &["lein"], &["test"], &[Clojure]),
    with_fixtures(
        "cabal test",
        Test,
        &["cabal"],
        &["test", "v2-test", "new-test"],
        &[Haskell],
    ),
    with_fixtures("stack test", Test, &["stack"], &["test"], &[Haskell]),
    with_fixtures("flutter test", Test, &["flutter"], &["test"], &[Dart]),
    with_fixtures("dart test", Test, &["dart"], &["test"], &[Dart]),
    with_fixtures("mypy", Build, &["mypy"], &[], &[Mypy]),
    with_fixtures("pyright", Build, &["pyright", "basedpyright"], &[], &[Pyright]),
    matched("gh run view", Test, &["gh"], gh_run, &[GhRun]),
    matched("gh run log", Test, &["gh"], gh_run_log, &[GhLog]),
    matched("gh pr checks", Test, &["gh"], gh_pr_checks, &[GhChecks]),
    task_runner("just test", Test, &["just"], just),
    task_runner("just build", Build, &["just"], just),
    task_runner("task test", Test, &["task"], go_task),
    task_runner("task build", Build, &["task"], go_task),
    task_runner("mise run test", Test, &["mise"], mise),
    task_runner("mise run build", Build, &["mise"], mise),
    task_runner("nx test", Test, &["nx"], nx),
    task_runner("nx build", Build, &["nx"], nx),
    task_runner("turbo test", Test, &["turbo"], turbo),
    task_runner("turbo build", Build, &["turbo"], turbo),
    task_runner("npm-run-all test", Test, RUN_ALL, run_all),
    task_runner("npm-run-all build", Build, RUN_ALL, run_all),
    // after `npm test` and `npm run build`: the scripts the rules know nothing of
    task_runner("npm run test script", Test, PACKAGE_MANAGERS, package_script),
    task_runner("npm run build script", Build, PACKAGE_MANAGERS, package_script),
];

const RUN_ALL: &[&str] = &["npm-run-all", "npm-run-all2", "run-s", "run-p"];
const PACKAGE_MANAGERS: &[&str] = &["npm", "pnpm", "yarn", "bun"];
