//! The runner table: which commands are test or build runs, one row per runner.
//!
//! Owns [`RUNNERS`] and matching a [`SimpleCommand`] against it. A row names
//! the program (its basename, so `./gradlew` and `vendor/bin/phpunit` match),
//! the subcommands that make it a run (none for programs that only run tests)
//! or a matcher of its own (`node --test`, `zig build test`, `gh run view`,
//! `sbt clean test`, task runners), and the summary formats its output uses.
//! Task runners and package scripts (`just test`, `task build`, `mise run
//! test`, `nx test app`, `turbo run test`, `run-s lint test`, `npm run lint`)
//! are runs when the task's name says test/spec/check (a test run) or
//! build/typecheck/lint/compile (a build run); their output is read with every
//! known format and the [`Invocation`] is marked
//! [`opaque`](Invocation::opaque). CI results the agent read (`gh run view`,
//! `gh run watch`, `gh pr checks`) are test runs. Recognition is by the
//! command that ran — never by a tool's name, description or paths (`git add
//! test/foo`, `cat tests/x` and `grep FAILED` are not runs). Must not read
//! output; `outcome` does that.

use super::outcome::Format;
use super::shell::SimpleCommand;

/// Whether a run tests or builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunKind {
    /// A test run.
    Test,
    /// A build, type check or lint.
    Build,
}

/// One row of the runner table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Runner {
    /// Shown in notes and used to compare runs: `cargo test`, `pytest`, …
    pub(crate) name: &'static str,
    /// Test or build.
    pub(crate) kind: RunKind,
    /// Program basenames that start this runner.
    programs: &'static [&'static str],
    /// The first non-option argument must be one of these (empty: any, or none).
    subcommands: &'static [&'static str],
    /// Subcommands matched by suffix (Gradle's `:app:test`).
    suffix_subcommands: bool,
    /// A matcher used instead of `subcommands`: given the words after the
    /// program, the kind of run they start and how many of them name the
    /// command (`run view`) rather than select what runs. The row matches
    /// when the kind is its own.
    matcher: Option<Matcher>,
    /// Words that, first in the selection, select what none would (`discover`).
    implied: &'static [&'static str],
    /// Whether the run goes through a task runner or script whose own output
    /// format the rules do not know (see [`Invocation::opaque`]).
    opaque: bool,
    /// The summary formats its output is read with.
    pub(crate) formats: &'static [Format],
}

/// A row's own matcher: the kind of run the words after the program start, and
/// how many of them name the command.
type Matcher = fn(&[String]) -> Option<(RunKind, usize)>;

use Format::*;
use RunKind::{Build, Test};

/// Every summary format but those of CI results and bats' TAP: for runners that
/// run other runners (`make test`, `npm test`, `tox`, task runners).
const ANY: &[Format] = &[
    Cargo, Nextest, Pytest, GoTest, Vitest, Jest, Mocha, ExUnit, RSpec, Minitest, PhpUnit, Maven, Gradle, Dotnet,
    CTest, Make, Tox, Nox, Bazel, Swift, Tsc, Deno, Bun, Unittest, NodeTest, Zig, Sbt, Clojure, Haskell, Dart, Mypy,
    Pyright,
];
const JS: &[Format] = &[Vitest, Jest, Mocha, Bun, Deno, Tsc];

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
    row("vitest", Test, &["vitest"], &[], &[Vitest]),
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
    row("ctest", Test, &["ctest"], &[], &[CTest]),
    row("make test", Test, &["make", "gmake"], &["test", "tests", "check"], ANY),
    row("tox", Test, &["tox"], &[], ANY),
    row("nox", Test, &["nox"], &[], ANY),
    row("bazel test", Test, &["bazel", "bazelisk"], &["test"], &[Bazel]),
    row("bazel build", Build, &["bazel", "bazelisk"], &["build"], &[Bazel]),
    row("swift test", Test, &["swift"], &["test"], &[Swift]),
    row("swift build", Build, &["swift"], &["build"], &[Swift]),
    row("tsc", Build, &["tsc", "vue-tsc"], &[], &[Tsc]),
    row("npm run build", Build, &["npm", "pnpm", "yarn", "bun"], &["build"], JS),
    row("make", Build, &["make", "gmake"], &[], ANY),
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
    let test = parts.iter().any(|p| {
        p.starts_with("test")
            || matches!(
                *p,
                "spec" | "specs" | "check" | "checks" | "unittest" | "unittests" | "e2e"
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

/// The words of `args` that are not options, skipping the values of the options in `valued`
/// and stopping at `--`.
fn operands<'a>(args: &'a [String], valued: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(w) = it.next() {
        if w == "--" {
            break;
        }
        if w.starts_with('-') {
            if !w.contains('=') && valued.contains(&w.as_str()) {
                it.next();
            }
            continue;
        }
        out.push(w.as_str());
    }
    out
}

/// `node --test …`: the flag among node's own options, before any script.
fn node_test(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &[
        "-r",
        "--require",
        "--import",
        "--loader",
        "--experimental-loader",
        "--test-reporter",
        "--test-reporter-destination",
        "--test-name-pattern",
        "--test-concurrency",
        "--env-file",
    ];
    let mut it = args.iter();
    while let Some(w) = it.next() {
        if w == "--test" {
            return Some((Test, 0));
        }
        if !w.starts_with('-') {
            return None;
        }
        if !w.contains('=') && VALUED.contains(&w.as_str()) {
            it.next();
        }
    }
    None
}

/// `zig test file.zig` (test), `zig build test` / `zig build test-unit` (test), `zig build [step]` (build).
fn zig(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &[
        "--summary",
        "--prefix",
        "-p",
        "--build-file",
        "--cache-dir",
        "--global-cache-dir",
        "--zig-lib-dir",
        "--sysroot",
        "--search-prefix",
        "--libc",
        "-j",
    ];
    let ops = operands(args, VALUED);
    match ops.first().copied()? {
        "test" => Some((Test, 1)),
        "build" => match ops.get(1).copied().and_then(task_kind) {
            Some(Test) => Some((Test, 1)),
            _ => Some((Build, 1)),
        },
        _ => None,
    }
}

/// sbt's commands, each word possibly several (`";clean ;test"`, `"testOnly a.B"`,
/// `core/test`, `+test`): test when one is `test`, `testOnly` or `testQuick`; a build
/// when one is `compile` or `package`.
fn sbt(args: &[String]) -> Option<(RunKind, usize)> {
    let mut kind = None;
    for w in operands(args, &[]) {
        for cmd in w.split(';') {
            let Some(first) = cmd.split_whitespace().next() else {
                continue;
            };
            let first = first.trim_start_matches('+');
            let task = first.rsplit('/').next().unwrap_or(first);
            let task = task.rsplit(':').next().unwrap_or(task);
            match task {
                "test" | "testOnly" | "testQuick" => return Some((Test, 0)),
                "compile" | "package" => kind = Some((Build, 0)),
                _ => {}
            }
        }
    }
    kind
}

/// Options that make a `gh` command print something other than the result
/// (logs, JSON, a browser), so it is not a CI result.
fn gh_other_output(args: &[String]) -> bool {
    args.iter().any(|a| {
        let a = a.split('=').next().unwrap_or(a);
        matches!(
            a,
            "--log" | "--log-failed" | "--json" | "--jq" | "-q" | "--template" | "-t" | "--web" | "-w"
        )
    })
}

/// `gh run view [id]`, `gh run watch [id]`.
fn gh_run(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &["-R", "--repo", "-j", "--job", "-a", "--attempt", "-i", "--interval"];
    let ops = operands(args, VALUED);
    (ops.first() == Some(&"run") && matches!(ops.get(1), Some(&"view" | &"watch")) && !gh_other_output(args))
        .then_some((Test, 2))
}

/// `gh pr checks [pr]`.
fn gh_pr_checks(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &["-R", "--repo", "-i", "--interval"];
    let ops = operands(args, VALUED);
    (ops.first() == Some(&"pr") && ops.get(1) == Some(&"checks") && !gh_other_output(args)).then_some((Test, 2))
}

/// `just [options] recipe [args…]`: the first recipe names the run.
fn just(args: &[String]) -> Option<(RunKind, usize)> {
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
fn go_task(args: &[String]) -> Option<(RunKind, usize)> {
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
fn mise(args: &[String]) -> Option<(RunKind, usize)> {
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
fn nx(args: &[String]) -> Option<(RunKind, usize)> {
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
fn turbo(args: &[String]) -> Option<(RunKind, usize)> {
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
fn run_all(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &["--max-parallel", "--npm-path"];
    any_task_kind(operands(args, VALUED)).map(|k| (k, 0))
}

/// A package script the rules know nothing of: `npm run lint`, `pnpm run check`,
/// `yarn lint`, `bun run test:e2e`. (`npm test`, `npm run test:*`, `npm run build`
/// and `npm run typecheck` are earlier rows.) `yarn check`, a yarn builtin, is not one.
fn package_script(args: &[String]) -> Option<(RunKind, usize)> {
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

/// Options that take the next word as their value, per program family
/// (only where the subcommand may follow them).
fn option_takes_value(program: &str, opt: &str) -> bool {
    match program {
        "mvn" | "mvnw" => matches!(opt, "-f" | "-pl" | "-P" | "-s" | "-T" | "-D"),
        "make" | "gmake" => matches!(opt, "-C" | "-f" | "-j"),
        "gradle" | "gradlew" => matches!(opt, "-p" | "-b"),
        "pnpm" => matches!(opt, "--filter" | "-F" | "-C" | "--dir"),
        "yarn" => opt == "--cwd",
        "npm" => matches!(opt, "--prefix" | "-w" | "--workspace"),
        "cabal" | "stack" => matches!(opt, "--project-file" | "--stack-yaml" | "--resolver"),
        _ => false,
    }
}

/// Runners installed as a package's binary, which `pnpm NAME` / `yarn NAME` start.
const PACKAGE_BINARIES: &[&str] = &[
    "vitest",
    "jest",
    "mocha",
    "tsc",
    "vue-tsc",
    "nx",
    "turbo",
    "run-s",
    "run-p",
    "npm-run-all",
    "pyright",
    "bats",
];

/// Launchers whose argument is the real program: `npx vitest`, `python -m pytest`,
/// `bundle exec rspec`, `uv run pytest`, `poetry run pytest`.
fn unwrap_launcher(words: &[String]) -> &[String] {
    let base = |w: &str| w.rsplit('/').next().unwrap_or("").to_owned();
    let Some(first) = words.first() else { return words };
    let first = base(first);
    let rest = &words[1..];
    let skip_opts = |r: &'_ [String]| -> usize { r.iter().take_while(|w| w.starts_with('-')).count() };
    match first.as_str() {
        "npx" | "bunx" | "pnpx" => {
            let n = skip_opts(rest);
            unwrap_launcher(&rest[n..])
        }
        "python" | "python3" | "py" if rest.first().is_some_and(|w| w == "-m") => &rest[1..],
        // `python manage.py test`, `python3 -u ./manage.py test`: the script is the program
        "python" | "python3" | "py" => {
            let n = skip_opts(rest);
            match rest.get(n) {
                Some(script) if script.ends_with(".py") => &rest[n..],
                _ => words,
            }
        }
        // `pnpm nx test app`, `yarn vitest run`: a package's binary, not a script
        "pnpm" | "yarn" | "bun" if rest.first().is_some_and(|w| PACKAGE_BINARIES.contains(&w.as_str())) => {
            unwrap_launcher(rest)
        }
        "bundle" | "pnpm" | "yarn" | "uv" | "poetry" | "pipenv" | "pdm" | "hatch"
            if rest
                .first()
                .is_some_and(|w| matches!(w.as_str(), "exec" | "run" | "dlx")) =>
        {
            // `pnpm run test` / `yarn run test` stay as they are: `run test` is the test script
            if matches!(first.as_str(), "pnpm" | "yarn") && rest.get(1).is_some_and(|w| w.starts_with("test")) {
                return words;
            }
            let n = skip_opts(&rest[1..]);
            unwrap_launcher(&rest[1 + n..])
        }
        _ => words,
    }
}

/// A command recognised as a run: the row and the arguments that select what it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Invocation {
    /// The row's index in [`RUNNERS`].
    pub(crate) row: usize,
    /// The arguments after the subcommand: test names, paths, packages and options.
    pub(crate) selection: Vec<String>,
    /// The command as written, for notes.
    pub(crate) display: String,
    /// Whether the run goes through a task runner or package script (`just`,
    /// `task`, `mise run`, `nx`, `turbo`, `npm-run-all`, `npm run <script>`
    /// other than a known runner) whose own output format the rules do not
    /// know: its outcome is read from any runner's summary line it prints,
    /// else from its exit status alone, which says less about what failed.
    pub(crate) opaque: bool,
}

impl Invocation {
    /// The row.
    pub(crate) fn runner(&self) -> &'static Runner {
        &RUNNERS[self.row]
    }
}

/// Options that change how results are shown, not which tests run.
fn is_presentation_option(o: &str) -> bool {
    matches!(
        o,
        "-q" | "--quiet"
            | "-v"
            | "-vv"
            | "--verbose"
            | "--run"
            | "--no-fail-fast"
            | "--color"
            | "--colors"
            | "--no-color"
            | "--ci"
            | "--silent"
            | "-s"
            | "--trace"
            | "--"
            | "--release"
            | "--all-targets"
            | "--workspace"
            | "--all-features"
            | "--locked"
            | "--offline"
            | "--frozen"
    ) || o.starts_with("--color=")
        || o.starts_with("--reporter")
        || o.starts_with("--format")
        || o.starts_with("-j")
        || o.starts_with("--jobs")
        || o.starts_with("--tb")
        || o.starts_with("--timeout")
        || o.starts_with("--durations")
        || o.starts_with("--max-warnings")
        || o.starts_with("--test-reporter")
}

/// The index in `args` just past its first `named` non-option words.
fn named_end(args: &[String], named: usize) -> usize {
    if named == 0 {
        return 0;
    }
    let mut seen = 0;
    for (i, w) in args.iter().enumerate() {
        if !w.starts_with('-') {
            seen += 1;
            if seen == named {
                return i + 1;
            }
        }
    }
    args.len()
}

/// The runner `cmd` invokes, if any.
pub(crate) fn recognise(cmd: &SimpleCommand) -> Option<Invocation> {
    let words = unwrap_launcher(&cmd.words);
    let program = words.first()?.rsplit('/').next()?.to_owned();
    let program = program.strip_suffix(".exe").unwrap_or(&program).to_owned();
    let mut i = 1;
    // the subcommand: the first argument that is not an option (`cargo +nightly test`, `mvn -q test`)
    while let Some(w) = words.get(i).filter(|w| w.starts_with('-') || w.starts_with('+')) {
        i += 1 + usize::from(option_takes_value(&program, w));
    }
    let sub = words.get(i).map(String::as_str);
    for (row, r) in RUNNERS.iter().enumerate() {
        if !r.programs.contains(&program.as_str()) {
            continue;
        }
        let (matched, rest_from) = if let Some(m) = r.matcher {
            match m(&words[1..]) {
                Some((kind, named)) if kind == r.kind => (true, 1 + named_end(&words[1..], named)),
                _ => (false, 0),
            }
        } else if r.subcommands.is_empty() {
            (true, 1)
        } else {
            match sub {
                Some(s) if r.subcommands.contains(&s) => (true, i + 1),
                Some(s) if r.suffix_subcommands && r.subcommands.iter().any(|c| s.ends_with(&format!(":{c}"))) => {
                    (true, i + 1)
                }
                // `npm run test`, `npm run test:unit`, `yarn test:ci`
                Some("run" | "run-script")
                    if r.name == "npm test"
                        && words.get(i + 1).is_some_and(|s| s == "test" || s.starts_with("test:")) =>
                {
                    (true, i + 2)
                }
                Some("run" | "run-script")
                    if r.name == "npm run build"
                        && words
                            .get(i + 1)
                            .is_some_and(|s| s == "build" || s.starts_with("build:") || s == "typecheck") =>
                {
                    (true, i + 2)
                }
                Some(s) if r.name == "npm test" && s.starts_with("test:") => (true, i + 1),
                _ => (false, 0),
            }
        };
        // bare `make` (or `make all`, `make build`) is a build; `make test` was matched above
        if r.name == "make" && sub.is_some_and(|s| !matches!(s, "all" | "build" | "compile" | "install")) {
            continue;
        }
        if matched {
            let mut selection: Vec<String> = words
                .get(rest_from.min(words.len())..)
                .unwrap_or_default()
                .iter()
                .filter(|w| !is_presentation_option(w))
                .cloned()
                .collect();
            if selection.first().is_some_and(|w| r.implied.contains(&w.as_str())) {
                selection.remove(0);
            }
            return Some(Invocation {
                row,
                selection,
                display: cmd.display(),
                opaque: r.opaque,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::rules::shell::simple_commands;

    fn name(line: &str) -> Option<&'static str> {
        simple_commands(line)
            .iter()
            .find_map(recognise)
            .map(|i| i.runner().name)
    }

    #[test]
    fn commands_are_recognised_by_what_ran() {
        assert_eq!(name("cargo test"), Some("cargo test"));
        assert_eq!(name("cargo +nightly test -p foo"), Some("cargo test"));
        assert_eq!(name("cargo clippy --all-targets -- -D warnings"), Some("cargo build"));
        assert_eq!(name("python -m pytest -q tests/"), Some("pytest"));
        assert_eq!(name("uv run pytest"), Some("pytest"));
        assert_eq!(name("npx vitest run"), Some("vitest"));
        assert_eq!(name("pnpm run test:unit"), Some("npm test"));
        assert_eq!(name("bundle exec rspec"), Some("rspec"));
        assert_eq!(name("./gradlew :app:test"), Some("gradle test"));
        assert_eq!(name("mvn -q test"), Some("mvn test"));
        assert_eq!(name("make -C build check"), Some("make test"));
        assert_eq!(name("make"), Some("make"));
        assert_eq!(name("git add test/foo_test.exs"), None);
        assert_eq!(name("git status"), None);
        assert_eq!(name("cat test/build/check.txt"), None);
        assert_eq!(name("make clean"), None);
        assert_eq!(name("grep -rn FAILED logs/"), None);
    }

    fn opaque(line: &str) -> Option<(&'static str, bool)> {
        simple_commands(line)
            .iter()
            .find_map(recognise)
            .map(|i| (i.runner().name, i.opaque))
    }

    #[test]
    fn new_runners_are_recognised_by_what_ran() {
        assert_eq!(name("python -m unittest"), Some("unittest"));
        assert_eq!(name("python3 -m unittest discover -s tests"), Some("unittest"));
        assert_eq!(name("uv run python -m unittest -v"), Some("unittest"));
        assert_eq!(name("python manage.py test polls"), Some("manage.py test"));
        assert_eq!(name("./manage.py test"), Some("manage.py test"));
        assert_eq!(name("python manage.py migrate"), None);
        assert_eq!(name("node --test"), Some("node --test"));
        assert_eq!(name("node --test-reporter=spec --test test/"), Some("node --test"));
        assert_eq!(name("node server.js --test"), None);
        assert_eq!(name("bats test/"), Some("bats"));
        assert_eq!(name("npx bats test/cli.bats"), Some("bats"));
        assert_eq!(name("hatch test"), Some("hatch test"));
        assert_eq!(name("zig build test --summary all"), Some("zig test"));
        assert_eq!(name("zig build -Doptimize=ReleaseFast install"), Some("zig build"));
        assert_eq!(name("zig build test"), Some("zig test"));
        assert_eq!(name("python -m ziglang build test"), Some("zig test"));
        assert_eq!(name("zig test src/main.zig"), Some("zig test"));
        assert_eq!(name("zig build"), Some("zig build"));
        assert_eq!(name("zig fmt src"), None);
        assert_eq!(name("sbt test"), Some("sbt test"));
        assert_eq!(name("sbt clean \"testOnly a.B\""), Some("sbt test"));
        assert_eq!(name("sbt core/test"), Some("sbt test"));
        assert_eq!(name("sbt compile"), Some("sbt compile"));
        assert_eq!(name("sbt run"), None);
        assert_eq!(name("lein test"), Some("lein test"));
        assert_eq!(name("cabal test"), Some("cabal test"));
        assert_eq!(name("stack test --fast"), Some("stack test"));
        assert_eq!(name("flutter test"), Some("flutter test"));
        assert_eq!(name("dart test test/a_test.dart"), Some("dart test"));
        assert_eq!(name("bun test"), Some("npm test"));
        assert_eq!(name("mypy src"), Some("mypy"));
        assert_eq!(name("python -m mypy ."), Some("mypy"));
        assert_eq!(name("pyright"), Some("pyright"));
        assert_eq!(name("npx vue-tsc --noEmit"), Some("tsc"));
        assert_eq!(name("gh run view 123"), Some("gh run view"));
        assert_eq!(name("gh run watch 123 --exit-status"), Some("gh run view"));
        assert_eq!(name("gh pr checks 12"), Some("gh pr checks"));
        assert_eq!(name("gh run view 123 --log-failed"), None);
        assert_eq!(name("gh pr checks --json name,state"), None);
        assert_eq!(name("gh pr view 12"), None);
        assert_eq!(name("gh run list"), None);
    }

    #[test]
    fn task_runners_are_runs_by_their_task_name_and_opaque() {
        assert_eq!(opaque("just test"), Some(("just test", true)));
        assert_eq!(opaque("just -f ci.just test-unit"), Some(("just test", true)));
        assert_eq!(opaque("just lint"), Some(("just build", true)));
        assert_eq!(opaque("just deploy test-env"), None);
        assert_eq!(opaque("just latest"), None);
        assert_eq!(opaque("task test"), Some(("task test", true)));
        assert_eq!(opaque("task lint ci:test"), Some(("task test", true)));
        assert_eq!(opaque("task build"), Some(("task build", true)));
        assert_eq!(opaque("task deploy"), None);
        assert_eq!(opaque("mise run test"), Some(("mise run test", true)));
        assert_eq!(opaque("mise r typecheck"), Some(("mise run build", true)));
        assert_eq!(opaque("mise install"), None);
        assert_eq!(opaque("nx test web"), Some(("nx test", true)));
        assert_eq!(opaque("npx nx run web:test:ci"), Some(("nx test", true)));
        assert_eq!(opaque("pnpm nx affected -t lint test"), Some(("nx test", true)));
        assert_eq!(opaque("nx run-many --target=build"), Some(("nx build", true)));
        assert_eq!(opaque("nx affected:test"), Some(("nx test", true)));
        assert_eq!(opaque("nx format:check"), None);
        assert_eq!(opaque("nx graph"), None);
        assert_eq!(opaque("turbo run test --filter=web"), Some(("turbo test", true)));
        assert_eq!(opaque("turbo test"), Some(("turbo test", true)));
        assert_eq!(opaque("turbo build --filter test-utils"), Some(("turbo build", true)));
        assert_eq!(opaque("turbo prune web"), None);
        assert_eq!(opaque("run-s lint test:*"), Some(("npm-run-all test", true)));
        assert_eq!(opaque("npm-run-all -p build:*"), Some(("npm-run-all build", true)));
        assert_eq!(opaque("npm run lint"), Some(("npm run build script", true)));
        assert_eq!(opaque("pnpm check:types"), Some(("npm run test script", true)));
        assert_eq!(opaque("yarn check"), None);
        assert_eq!(opaque("npm run dev"), None);
        // known runners stay as they were
        assert_eq!(opaque("npm test"), Some(("npm test", false)));
        assert_eq!(opaque("npm run test:unit"), Some(("npm test", false)));
        assert_eq!(opaque("npm run typecheck"), Some(("npm run build", false)));
        assert_eq!(opaque("pnpm --filter web test"), Some(("npm test", false)));
        assert_eq!(opaque("make test"), Some(("make test", false)));
    }

    #[test]
    fn shells_and_pipes_are_opened_and_paths_are_not_commands() {
        assert_eq!(
            name("bash -lc 'cd api && python -m unittest discover'"),
            Some("unittest")
        );
        assert_eq!(name("sh -c \"just test 2>&1 | tail -n 20\""), Some("just test"));
        assert_eq!(name("zig build test 2>&1 | tee build.log"), Some("zig test"));
        assert_eq!(name("git add test/foo.bats tests/test_x.py"), None);
        assert_eq!(name("cat tests/fixtures/pytest.txt"), None);
        assert_eq!(name("grep -rn 'FAILED (failures' logs/"), None);
        assert_eq!(name("ls test/ spec/ build/"), None);
        assert_eq!(name("vim justfile"), None);
    }

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
        assert_eq!(task_kind("latest"), None);
        assert_eq!(task_kind("contest"), None);
        assert_eq!(task_kind("deploy"), None);
    }

    #[test]
    fn the_selection_is_what_narrows_the_run() {
        let inv = |l: &str| simple_commands(l).iter().find_map(recognise).map(|i| i.selection);
        assert_eq!(inv("cargo test"), Some(vec![]));
        assert_eq!(inv("cargo test --workspace -q"), Some(vec![]));
        assert_eq!(inv("cargo test foo"), Some(vec!["foo".to_owned()]));
        assert_eq!(
            inv("mix test test/a_test.exs:42 2>&1 | tail"),
            Some(vec!["test/a_test.exs:42".to_owned()])
        );
        // `discover` runs what a bare `python -m unittest` runs
        assert_eq!(inv("python -m unittest discover"), inv("python -m unittest"));
        assert_eq!(inv("gh run view 123"), Some(vec!["123".to_owned()]));
        assert_eq!(inv("gh pr checks"), Some(vec![]));
        assert_eq!(inv("just test"), Some(vec!["test".to_owned()]));
        assert_eq!(inv("node --test --test-reporter=spec"), inv("node --test"));
    }
}
