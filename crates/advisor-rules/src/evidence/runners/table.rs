//! The runner table: which commands are test or build runs, one row per line.
//!
//! Owns [`RUNNERS`]. A row names the runner (shown in notes, compared
//! between runs), its kind, the program basenames that start it (so
//! `./gradlew` and `vendor/bin/phpunit` match), the subcommands that make it
//! a run (none for programs that only run tests) or a matcher of its own, and
//! the summary formats its output is read with. Must not match commands —
//! that is [`invocation`](crate::evidence::invocation) — nor read output:
//! each format's reader lives in its runner's unit.
//!
//! # Adding a runner
//!
//! 1. Add one line below, keeping the table sorted by name, with the builder
//!    that says where its samples are: `row` (written samples), `with_fixtures`
//!    or `matched` (a matcher of its own; recorded runs), `task_runner`
//!    (opaque: read with every format) or `script_runner`.
//! 2. If its output has a format of its own, add a [`Format`] variant and its
//!    reader to the unit of its family (`rust.rs`, `python.rs`, `js.rs`, …), or
//!    a new unit, and a line to [`Format::read`].
//! 3. Put its samples beside the reader: a `sample!` for a `row`, or recorded
//!    runs in `tests/fixtures/runner-output/` listed in the unit's `FIXTURES`
//!    (or a reason in its `WITHOUT`). The tests of `samples.rs` check that
//!    every row has them.
//!
//! Rows that share a program must not both match one command, except a
//! `script_runner`, which is tried after every other row.

use super::format::ANY;
use super::format::Format::{self, *};
use super::github::{gh_pr_checks, gh_run, gh_run_log};
use super::row::{Runner, matched, row, script_runner, task_runner, with_fixtures};
use super::tasks::{go_task, just, mise, nx, run_all, turbo};
use super::{apple::xcodebuild, js::node_test, jvm::sbt, native::zig};
use crate::evidence::kind::RunKind::{Build, Test};

const JS: &[Format] = &[Vitest, Jest, Mocha, Bun, Deno, Tsc, Playwright, Script];
/// `git commit` and `git push`: git's own lines, and every format for the
/// output of the hooks they run (a pre-commit `tsc`, a pre-push test suite).
const GIT: &[Format] = &[
    Git, Cargo, Nextest, Pytest, GoTest, Vitest, Jest, Mocha, ExUnit, RSpec, Minitest, PhpUnit, Maven, Gradle, Dotnet,
    Tsc, Deno, Bun, Unittest, NodeTest, Mypy, Pyright, Lint,
];
/// npm-run-all's programs.
const RUN_ALL: &[&str] = &["npm-run-all", "npm-run-all2", "run-s", "run-p"];
/// The package managers that run scripts and packages' binaries.
const PM: &[&str] = &["npm", "pnpm", "yarn", "bun"];

/// The runner table, sorted by name (`the_table_is_sorted_and_one_row_per_line`
/// checks it).
#[rustfmt::skip]
pub(crate) const RUNNERS: &[Runner] = &[
    with_fixtures("bats", Test, &["bats"], &[], &[Bats]),
    row("bazel build", Build, &["bazel", "bazelisk"], &["build"], &[Bazel]),
    row("bazel test", Test, &["bazel", "bazelisk"], &["test"], &[Bazel]),
    row("biome", Build, &["biome"], &["check", "lint", "ci", "format"], &[Lint]),
    row("black", Build, &["black"], &[], &[Lint]),
    with_fixtures("cabal test", Test, &["cabal"], &["test", "v2-test", "new-test"], &[Haskell]),
    row("cargo build", Build, &["cargo"], &["build", "b", "check", "c", "clippy"], &[Cargo]),
    row("cargo fmt", Build, &["cargo"], &["fmt"], &[Cargo, Rustfmt]),
    row("cargo nextest", Test, &["cargo"], &["nextest"], &[Nextest, Cargo]),
    row("cargo test", Test, &["cargo"], &["test", "t"], &[Cargo]),
    row("ctest", Test, &["ctest"], &[], &[CTest]),
    with_fixtures("dart test", Test, &["dart"], &["test"], &[Dart]),
    row("deno test", Test, &["deno"], &["test"], &[Deno]),
    // DocFX builds docs with MSBuild's summary ("Build succeeded.", "0 error(s)")
    row("docfx", Build, &["docfx"], &["build", "metadata", "pdf", "docfx.json"], &[Dotnet]),
    row("dotnet build", Build, &["dotnet"], &["build"], &[Dotnet]),
    row("dotnet test", Test, &["dotnet"], &["test"], &[Dotnet]),
    row("eslint", Build, &["eslint"], &[], &[Lint]),
    with_fixtures("flake8", Build, &["flake8", "pycodestyle", "pyflakes"], &[], &[PyLint]),
    with_fixtures("flutter test", Test, &["flutter"], &["test"], &[Dart]),
    matched("gh pr checks", Test, &["gh"], gh_pr_checks, &[GhChecks]),
    matched("gh run log", Test, &["gh"], gh_run_log, &[GhLog]),
    matched("gh run view", Test, &["gh"], gh_run, &[GhRun]),
    row("git commit", Build, &["git"], &["commit", "push"], GIT),
    row("go build", Build, &["go"], &["build", "vet"], &[GoTest]),
    row("go test", Test, &["go"], &["test"], &[GoTest]),
    row("golangci-lint", Build, &["golangci-lint"], &["run"], &[Lint]),
    row("gradle test", Test, &["gradle", "gradlew"], &["test", "check", "build"], &[Gradle]).suffixed(),
    with_fixtures("hatch test", Test, &["hatch"], &["test"], &[Pytest]),
    row("jest", Test, &["jest"], &[], &[Jest]),
    task_runner("just build", Build, &["just"], just),
    task_runner("just test", Test, &["just"], just),
    with_fixtures("lein test", Test, &["lein"], &["test"], &[Clojure]),
    row("make", Build, &["make", "gmake"], &[], ANY),
    row("make test", Test, &["make", "gmake"], &["test", "tests", "check"], ANY),
    with_fixtures("manage.py test", Test, &["manage.py", "django-admin", "django"], &["test"], &[Unittest]),
    row("minitest", Test, &["rake", "rails"], &["test"], &[Minitest]),
    task_runner("mise run build", Build, &["mise"], mise),
    task_runner("mise run test", Test, &["mise"], mise),
    row("mix test", Test, &["mix"], &["test"], &[ExUnit]),
    row("mocha", Test, &["mocha"], &[], &[Mocha]),
    row("mvn test", Test, &["mvn", "mvnw"], &["test", "verify", "install", "package"], &[Maven]),
    with_fixtures("mypy", Build, &["mypy"], &[], &[Mypy]),
    matched("node --test", Test, &["node"], node_test, &[NodeTest]),
    row("nox", Test, &["nox"], &[], ANY),
    row("npm run build", Build, PM, &["build"], JS),
    script_runner("npm run build script", Build),
    script_runner("npm run test script", Test),
    row("npm test", Test, PM, &["test", "t", "tst"], ANY),
    task_runner("npm-run-all build", Build, RUN_ALL, run_all),
    task_runner("npm-run-all test", Test, RUN_ALL, run_all),
    task_runner("nx build", Build, &["nx"], nx),
    task_runner("nx test", Test, &["nx"], nx),
    row("phpunit", Test, &["phpunit", "pest"], &[], &[PhpUnit]),
    with_fixtures("playwright test", Test, &["playwright"], &["test"], &[Playwright]),
    with_fixtures("pre-commit", Build, &["pre-commit", "prek"], &["run"], &[Lint]),
    row("prettier", Build, &["prettier"], &[], &[Lint]),
    with_fixtures("pylint", Build, &["pylint"], &[], &[PyLint]),
    with_fixtures("pyright", Build, &["pyright", "basedpyright"], &[], &[Pyright]),
    row("pytest", Test, &["pytest", "py.test"], &[], &[Pytest]),
    row("rspec", Test, &["rspec"], &[], &[RSpec]),
    row("ruff", Build, &["ruff"], &["check", "format"], &[Lint]),
    row("rustfmt", Build, &["rustfmt"], &[], &[Rustfmt]),
    matched("sbt compile", Build, &["sbt", "sbtn"], sbt, &[Sbt]),
    matched("sbt test", Test, &["sbt", "sbtn"], sbt, &[Sbt]),
    with_fixtures("stack test", Test, &["stack"], &["test"], &[Haskell]),
    row("swift build", Build, &["swift"], &["build"], &[Swift]),
    row("swift test", Test, &["swift"], &["test"], &[Swift]),
    task_runner("task build", Build, &["task"], go_task),
    task_runner("task test", Test, &["task"], go_task),
    row("tox", Test, &["tox"], &[], ANY),
    row("tsc", Build, &["tsc", "vue-tsc"], &[], &[Tsc]),
    task_runner("turbo build", Build, &["turbo"], turbo),
    task_runner("turbo test", Test, &["turbo"], turbo),
    // astral's type checker: `ty check`, `Found 1 diagnostic` / `All checks passed!`
    with_fixtures("ty", Build, &["ty"], &["check"], &[Mypy, Lint]),
    with_fixtures("unittest", Test, &["unittest"], &[], &[Unittest]).implied(&["discover"]),
    // `vitest run` runs once what a bare `vitest` watches
    row("vitest", Test, &["vitest"], &[], &[Vitest]).implied(&["run"]),
    matched("xcodebuild build", Build, &["xcodebuild"], xcodebuild, &[Xcode, Swift]),
    matched("xcodebuild test", Test, &["xcodebuild"], xcodebuild, &[Xcode, Swift]),
    matched("zig build", Build, &["zig", "ziglang"], zig, &[Zig]),
    matched("zig test", Test, &["zig", "ziglang"], zig, &[Zig]),
];

#[cfg(test)]
mod tests {
    use super::RUNNERS;

    #[test]
    fn the_table_is_sorted_and_one_row_per_line() {
        let names: Vec<&str> = RUNNERS.iter().map(|r| r.name).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(names, sorted, "keep the runner table sorted by name");
        let source = include_str!("table.rs");
        for name in names {
            let rows = source.lines().filter(|l| l.contains(&format!("(\"{name}\", "))).count();
            assert_eq!(rows, 1, "{name}: one line, one row");
        }
    }
}
