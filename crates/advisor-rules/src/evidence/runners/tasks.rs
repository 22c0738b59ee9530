//! Task runners and package scripts: `just`, go-task's `task`, `mise run`, `nx`, `turbo`, `npm-run-
//! all` / `run-s` / `run-p`, and `npm|pnpm|yarn|bun run <script>` of a script the rules know
//! nothing of.
//!
//! One unit of the runner table: the readers of these runners' closing lines — [`task_kind`] (what
//! a task's name says it runs) and one matcher per such runner; their output is read with every
//! format (they are opaque), so they have no summary line of their own — beside their samples:
//! written ones for the rows built with `row`, recorded runs (`tests/fixtures/runner-output/`) for
//! the others. Each reader takes one whole trimmed line, so a test *named* `test_upload_failed` is
//! no summary. The rows themselves are lines of the runner table ([`table`](super::table)). Must
//! not look at more than one line, nor decide what a run is.

use super::args::operands;
use crate::evidence::kind::RunKind;
use RunKind::{Build, Test};

/// What a task's name says it runs: `test`, `test:unit`, `e2e-tests`, `spec`,
/// `check` are tests; `build`, `typecheck`, `lint`, `compile` are builds.
/// Judged by the name's parts (split at `-`, `_`, `:`, `/`, `.`), so `latest`
/// and `contest` are neither.
pub(crate) fn task_kind(name: &str) -> Option<RunKind> {
    let lower = name.to_ascii_lowercase();
    let parts: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    let compact: String = parts.concat();
    if compact.contains("typecheck") {
        return Some(Build);
    }
    // a format or lint check is a lint's run, whatever else its name says (`format:check`)
    if parts
        .iter()
        .any(|p| matches!(*p, "format" | "fmt" | "lint" | "lints" | "prettier" | "stylelint"))
        && !parts.iter().any(|p| p.starts_with("test"))
    {
        return Some(Build);
    }
    // a type check by another name (`make types`)
    if parts
        .iter()
        .any(|p| matches!(*p, "types" | "typing" | "mypy" | "pyright" | "tsc"))
    {
        return Some(Build);
    }
    let test = parts.iter().any(|p| {
        p.starts_with("test")
            || matches!(
                *p,
                "spec"
                    | "specs"
                    | "check"
                    | "checks"
                    | "unittest"
                    | "unittests"
                    | "e2e"
                    // the whole gate: lint, types and tests (`make verify`, `just ci`)
                    | "verify"
                    | "validate"
                    | "ci"
                    | "qa"
                    | "gate"
                    | "precommit"
            )
    });
    if test {
        return Some(Test);
    }
    (parts
        .iter()
        .any(|p| matches!(*p, "build" | "builds" | "lint" | "lints" | "compile")))
    .then_some(Build)
}

/// The kind of the first task of `names` that is a run, test before build.
fn any_task_kind<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<RunKind> {
    let kinds: Vec<RunKind> = names.into_iter().filter_map(task_kind).collect();
    kinds.iter().find(|k| **k == Test).or(kinds.first()).copied()
}

/// `just [options] recipe [args…]`: the first recipe names the run.
pub(crate) fn just(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &[
        "-f",
        "--justfile",
        "-d",
        "--working-directory",
        "--shell",
        "--dotenv-path",
        "--dotenv-filename",
        "--color",
        "--chooser",
        "--command-color",
    ];
    let ops = operands(args, VALUED);
    // `just --set key value test` and `NAME=value` overrides are not recipes
    let first = ops.into_iter().find(|w| !w.contains('='))?;
    task_kind(first).map(|k| (k, 0))
}

/// go-task: `task [options] name… [VAR=value…] [-- args]`.
pub(crate) fn go_task(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &[
        "-t",
        "--taskfile",
        "-d",
        "--dir",
        "-o",
        "--output",
        "-C",
        "--concurrency",
        "-I",
        "--interval",
    ];
    any_task_kind(operands(args, VALUED).into_iter().filter(|w| !w.contains('='))).map(|k| (k, 0))
}

/// `mise run name` / `mise r name` / `mise tasks run name`.
pub(crate) fn mise(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &["-C", "--cd", "-E", "--env", "-j", "--jobs", "-o", "--output"];
    let ops = operands(args, VALUED);
    let rest = match ops.as_slice() {
        ["run" | "r", rest @ ..] => rest,
        ["tasks" | "task", "run" | "r", rest @ ..] => rest,
        _ => return None,
    };
    task_kind(rest.first()?).map(|k| (k, 0))
}

/// nx: `nx test app`, `nx run app:test[:ci]`, `nx run-many -t test lint`,
/// `nx affected --target=test`, `nx affected:test`.
pub(crate) fn nx(args: &[String]) -> Option<(RunKind, usize)> {
    const COMMANDS: &[&str] = &[
        "graph",
        "dep-graph",
        "show",
        "init",
        "add",
        "generate",
        "g",
        "migrate",
        "format",
        "format:check",
        "format:write",
        "list",
        "report",
        "reset",
        "daemon",
        "release",
        "connect",
        "connect-to-nx-cloud",
        "repair",
        "sync",
        "sync:check",
        "view-logs",
        "watch",
        "exec",
        "print-affected",
        "login",
        "logout",
        "import",
        "mcp",
        "record",
        "start-ci-run",
        "fix-ci",
        "configure-ai-agents",
    ];
    let first = args.iter().position(|w| !w.starts_with('-'))?;
    let command = args[first].as_str();
    let targets: Vec<&str> = match command {
        "run" => {
            let spec = args[first + 1..].iter().find(|w| !w.starts_with('-'))?;
            vec![spec.split(':').nth(1)?]
        }
        "run-many" | "affected" => {
            let mut out = Vec::new();
            let mut taking = false;
            for w in &args[first + 1..] {
                if let Some(v) = ["--target=", "--targets=", "-t="]
                    .iter()
                    .find_map(|p| w.strip_prefix(p))
                {
                    out.extend(v.split(','));
                    taking = false;
                } else if matches!(w.as_str(), "-t" | "--target" | "--targets") {
                    taking = true;
                } else if w.starts_with('-') {
                    taking = false;
                } else if taking {
                    out.extend(w.split(','));
                }
            }
            out
        }
        c if COMMANDS.contains(&c) => return None,
        c => vec![c.strip_prefix("affected:").unwrap_or(c)],
    };
    any_task_kind(targets).map(|k| (k, 0))
}

/// turbo: `turbo run test lint --filter=web`, `turbo test`.
pub(crate) fn turbo(args: &[String]) -> Option<(RunKind, usize)> {
    const COMMANDS: &[&str] = &[
        "login",
        "logout",
        "link",
        "unlink",
        "prune",
        "gen",
        "generate",
        "daemon",
        "telemetry",
        "ls",
        "query",
        "info",
        "scan",
        "watch",
        "bin",
        "boundaries",
        "devtools",
        "docs",
        "completion",
    ];
    const VALUED: &[&str] = &[
        "--filter",
        "-F",
        "--concurrency",
        "--cache-dir",
        "--output-logs",
        "--log-order",
        "--env-mode",
        "--cache",
        "--cwd",
        "--profile",
        "--summarize",
        "--log-prefix",
    ];
    let ops = operands(args, VALUED);
    let tasks = match ops.as_slice() {
        ["run", rest @ ..] => rest,
        [first, ..] if COMMANDS.contains(first) => return None,
        all => all,
    };
    any_task_kind(tasks.iter().copied()).map(|k| (k, 0))
}

/// `npm-run-all [-s|-p] lint test:*`, `run-s build test`, `run-p "test:*"`.
pub(crate) fn run_all(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &["--max-parallel", "--npm-path"];
    any_task_kind(operands(args, VALUED)).map(|k| (k, 0))
}

/// A package script the rules know nothing of: `npm run lint`, `pnpm run check`,
/// `yarn lint`, `bun run test:e2e`. (`npm test`, `npm run test:*`, `npm run build`
/// and `npm run typecheck` are earlier rows.) `yarn check`, a yarn builtin, is not one.
pub(crate) fn package_script(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &[
        "--filter",
        "-F",
        "-C",
        "--dir",
        "--cwd",
        "--prefix",
        "-w",
        "--workspace",
    ];
    let ops = operands(args, VALUED);
    let script = match ops.as_slice() {
        ["run" | "run-script", script, ..] => *script,
        // direct `yarn lint` / `pnpm check:types`: a script unless it is a builtin
        [script, ..] if !matches!(*script, "check" | "test" | "build" | "t" | "tst" | "run") => *script,
        _ => return None,
    };
    task_kind(script).map(|k| (k, 0))
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::samples::{Fixture, OPAQUE, fail, pass};
    use super::*;

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass("just test", "just-test-pass.txt", "just test", true),
        fail(
            "just test",
            "just-test-fail.txt",
            "just test",
            1,
            "FAILED (failures=1, errors=1)",
        ),
        pass("task test", "task-test-pass.txt", "task test", true),
        fail(
            "task test",
            "task-test-fail.txt",
            "task test",
            201,
            "FAILED (failures=1, errors=1)",
        ),
        fail(
            "npm-run-all test",
            "run-s-fail.txt",
            "run-s lint test:unit",
            1,
            "# fail 1",
        ),
    ];

    /// This unit's rows built with `with_fixtures`, `matched` or `task_runner` that
    /// have no recorded run of their own, and why.
    pub(in crate::evidence::runners) const WITHOUT: &[(&str, &str)] = &[
        ("just build", OPAQUE),
        ("mise run build", OPAQUE),
        ("mise run test", OPAQUE),
        ("npm run build script", OPAQUE),
        ("npm run test script", OPAQUE),
        ("npm-run-all build", OPAQUE),
        ("npm-run-all test", "opaque; `run-s-fail.txt` is its failing run"),
        ("nx build", OPAQUE),
        ("nx test", OPAQUE),
        ("task build", OPAQUE),
        ("turbo build", OPAQUE),
        ("turbo test", OPAQUE),
    ];

    #[test]
    fn task_names_are_judged_by_their_parts() {
        assert_eq!(task_kind("test"), Some(Test));
        assert_eq!(task_kind("tests:unit"), Some(Test));
        assert_eq!(task_kind("e2e"), Some(Test));
        assert_eq!(task_kind("check"), Some(Test));
        assert_eq!(task_kind("type-check"), Some(Build));
        assert_eq!(task_kind("typecheck"), Some(Build));
        assert_eq!(task_kind("build:prod"), Some(Build));
        assert_eq!(task_kind("lint"), Some(Build));
        assert_eq!(task_kind("format:check"), Some(Build));
        assert_eq!(task_kind("lint:check"), Some(Build));
        assert_eq!(task_kind("test:lint"), Some(Test));
        assert_eq!(task_kind("verify"), Some(Test));
        assert_eq!(task_kind("ci"), Some(Test));
        assert_eq!(task_kind("types"), Some(Build));
        assert_eq!(task_kind("latest"), None);
        assert_eq!(task_kind("contest"), None);
        assert_eq!(task_kind("deploy"), None);
    }
}
