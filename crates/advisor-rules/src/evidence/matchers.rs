//! Matchers of the rows whose command has no plain subcommand: `node --test`,
//! `zig build test`, sbt's command lists, `gh run view` / `gh pr checks`, and
//! task runners and package scripts judged by their task's name.
//!
//! Owns [`task_kind`] — `test`, `test:unit`, `e2e-tests`, `spec`, `check` are
//! tests; `build`, `typecheck`, `lint`, `compile` are builds, judged by the
//! name's parts so `latest` and `contest` are neither — and one matcher per
//! such row: given the words after the program, the kind of run and how many
//! words name it. Must not look at anything but those words.

use super::kind::RunKind;
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
pub(crate) fn node_test(args: &[String]) -> Option<(RunKind, usize)> {
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
pub(crate) fn zig(args: &[String]) -> Option<(RunKind, usize)> {
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
pub(crate) fn sbt(args: &[String]) -> Option<(RunKind, usize)> {
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

/// `xcodebuild [options] test|build|…`: the action may stand after the options
/// (`xcodebuild -scheme App -destination 'platform=macOS' test`); every word
/// selects (scheme, destination, `-only-testing:…`).
pub(crate) fn xcodebuild(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &[
        "-project",
        "-workspace",
        "-scheme",
        "-target",
        "-destination",
        "-configuration",
        "-sdk",
        "-arch",
        "-derivedDataPath",
        "-resultBundlePath",
        "-testPlan",
        "-xctestrun",
        "-toolchain",
        "-jobs",
    ];
    operands(args, VALUED).iter().find_map(|w| match *w {
        "test" | "test-without-building" => Some((Test, 0)),
        "build" | "build-for-testing" | "analyze" | "archive" => Some((Build, 0)),
        _ => None,
    })
}

/// `gh run view [id]`, `gh run watch [id]`.
pub(crate) fn gh_run(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &["-R", "--repo", "-j", "--job", "-a", "--attempt", "-i", "--interval"];
    let ops = operands(args, VALUED);
    (ops.first() == Some(&"run") && matches!(ops.get(1), Some(&"view" | &"watch")) && !gh_other_output(args))
        .then_some((Test, 2))
}

/// `gh run view [id] --log` / `--log-failed`: a CI job's log, read for the
/// runner's own closing line (`##[error]Process completed with exit code 13.`).
pub(crate) fn gh_run_log(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &["-R", "--repo", "-j", "--job", "-a", "--attempt"];
    let ops = operands(args, VALUED);
    let log = args.iter().any(|a| a == "--log" || a == "--log-failed");
    let other = args.iter().any(|a| {
        let a = a.split('=').next().unwrap_or(a);
        matches!(a, "--json" | "--jq" | "-q" | "--template" | "-t" | "--web" | "-w")
    });
    (ops.first() == Some(&"run") && ops.get(1) == Some(&"view") && log && !other).then_some((Test, 2))
}

/// `gh pr checks [pr]`.
pub(crate) fn gh_pr_checks(args: &[String]) -> Option<(RunKind, usize)> {
    const VALUED: &[&str] = &["-R", "--repo", "-i", "--interval"];
    let ops = operands(args, VALUED);
    (ops.first() == Some(&"pr") && ops.get(1) == Some(&"checks") && !gh_other_output(args)).then_some((Test, 2))
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
mod tests {
    use super::*;

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
