//! Whether a later passing run covers an earlier failed one: clearing by
//! coverage, not by spelling.
//!
//! Owns [`Covers`], [`covers`], [`cleared_by`] (the later run that cleared
//! a failed one) and [`outstanding_failures`] (the failed runs no later run
//! cleared). A later run covers a failed one when it
//! ran at least the same tests: the same runner (an `npm|pnpm|yarn|bun run <script>`
//! resolved through the workspace's `package.json` scripts when the
//! caller supplies them), and a selection that is the same or wider — no
//! selection at all, a directory that holds the failed file, a `cargo test`
//! filter contained in the failed one, a file that holds the failed
//! `file::test` — compared from the directory the call started in (`cd svc
//! && pytest tests/a.py` is `pytest svc/tests/a.py`). Options that only change
//! how results are shown were dropped by the runner table; an option that
//! narrows the selection (`-k`, `--lib`, `-p`, `-t`, `--filter`, …) is part of
//! it. Where coverage cannot be decided — a wrapper such as `make test`, `npm
//! test` with unknown scripts or a task runner on either side — the answer is
//! [`Covers::Unknown`], which the caller treats as cleared: precision first.
//! Must not read output: the ending of each run is decided before.

use super::invocation::{Invocation, recognise};
use super::kind::RunKind;
use super::runners::ANY;
use super::runs::{Ending, Run};
use super::shell::simple_commands;

/// A workspace's package scripts: name → command line (`package.json`
/// `scripts`), to resolve `npm run <script>`.
pub type Scripts = std::collections::BTreeMap<String, String>;

/// Whether a later run covers an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Covers {
    /// It ran at least the same tests.
    Yes,
    /// It did not: another runner, or a narrower selection.
    No,
    /// It cannot be decided (a wrapper whose content is unknown).
    Unknown,
}

/// Options whose value narrows the selection, by program family; the
/// option and its value are one selector.
const NARROWING_WITH_VALUE: &[&str] = &[
    "-k",
    "-m",
    "-p",
    "--package",
    "--test",
    "--bin",
    "--example",
    "--bench",
    "-t",
    "--testNamePattern",
    "--testPathPattern",
    "--grep",
    "-g",
    "--filter",
    "-run",
    "--run",
    "--only",
    "--project",
    "--selectProjects",
    "--spec",
    "-pl",
    "--tests",
    "--suite",
];

/// Options that narrow the selection by themselves.
const NARROWING_FLAGS: &[&str] = &[
    "--lib",
    "--bins",
    "--doc",
    "--tests",
    "--lf",
    "--last-failed",
    "--ff",
    "--onlyChanged",
    "-o",
    "--changed",
    "--only-failures",
    "--failed",
    "--exact",
    "--related",
    "--findRelatedTests",
];

/// A run's selection, split into what it names (paths, test names) and the
/// narrowing options it was given; other options are left out.
#[derive(Debug, Default, PartialEq, Eq)]
struct Selection {
    targets: Vec<String>,
    narrowing: Vec<String>,
}

fn selection_of(inv: &Invocation, dir: &str) -> Selection {
    let mut s = Selection::default();
    // a commit's message and a push's refs select nothing: any later commit covers one
    if inv.runner().name == "git commit" {
        return s;
    }
    // `cargo nextest run …`: `run` is nextest's own subcommand, not a filter
    let skip = usize::from(
        inv.runner().name == "cargo nextest" && inv.selection.first().is_some_and(|w| w == "run" || w == "r"),
    );
    let mut words = inv.selection.iter().skip(skip).peekable();
    while let Some(w) = words.next() {
        let (name, inline) = w.split_once('=').map_or((w.as_str(), None), |(n, v)| (n, Some(v)));
        if NARROWING_WITH_VALUE.contains(&name) && w.starts_with('-') {
            let value = inline.map(str::to_owned).or_else(|| words.next().cloned());
            s.narrowing.push(format!("{name}={}", value.unwrap_or_default()));
        } else if NARROWING_FLAGS.contains(&w.as_str()) {
            s.narrowing.push(w.clone());
        } else if w.starts_with('-') {
            // an option that does not narrow (or one not known): not part of the selection
        } else if looks_like_path(w) {
            s.targets.push(rooted(dir, w));
        } else {
            s.targets.push(w.clone());
        }
    }
    // a directory the run started in narrows like a path does, for runners that take paths
    if s.targets.is_empty() && !dir.is_empty() && takes_paths(inv) {
        s.targets.push(dir.to_owned());
    }
    s.targets.sort();
    s.targets.dedup();
    s.narrowing.sort();
    s
}

fn looks_like_path(w: &str) -> bool {
    w.contains('/') || w.contains("::") || w.ends_with(".py") || w.contains(".test.") || w.contains(".spec.")
}

fn rooted(dir: &str, path: &str) -> String {
    let p = path.trim_start_matches("./");
    if dir.is_empty() || p.starts_with('/') {
        p.trim_end_matches('/').to_owned()
    } else {
        format!("{dir}/{}", p.trim_end_matches('/'))
    }
}

/// Runners whose selection is paths (a directory covers the files in it).
fn takes_paths(inv: &Invocation) -> bool {
    !matches!(
        inv.runner().name,
        "cargo test" | "cargo nextest" | "cargo build" | "go test" | "go build"
    )
}

/// Whether target `wide` (of a later run) covers target `narrow` (of the failed one).
fn target_covers(inv: &Invocation, wide: &str, narrow: &str) -> bool {
    if wide == narrow {
        return true;
    }
    match inv.runner().name {
        // cargo's filter is a substring match on test names
        "cargo test" | "cargo nextest" => narrow.contains(wide),
        // Go packages: `./...` covers everything below
        "go test" | "go build" => {
            // `./...` (rooted to `...`) covers everything; `pkg/...` what is below pkg
            wide == "..."
                || wide.strip_suffix("/...").is_some_and(|w| {
                    let (w, n) = (w.trim_start_matches("./"), narrow.trim_start_matches("./"));
                    w == "." || n == w || n.starts_with(&format!("{w}/"))
                })
        }
        // a directory covers its files, a file its `::test` ids and `:line`s
        _ => narrow.starts_with(wide) && matches!(narrow.as_bytes().get(wide.len()), Some(b'/' | b':')),
    }
}

/// Whether the later selection is the same as or wider than the failed one.
fn selection_covers(inv: &Invocation, later: &Selection, failed: &Selection) -> bool {
    let narrowing_ok = later.narrowing.iter().all(|n| failed.narrowing.contains(n));
    let targets_ok = later.targets.is_empty()
        || (!failed.targets.is_empty()
            && failed
                .targets
                .iter()
                .all(|f| later.targets.iter().any(|l| target_covers(inv, l, f))));
    narrowing_ok && targets_ok
}

/// Whether an invocation is a wrapper whose content the rules do not know:
/// a package script, a make target, a task runner, tox/nox — a row read
/// with every summary format ([`ANY`]). (`git commit` reads its hooks' output
/// with many formats too, but runs no tests a later run could stand for.)
pub(crate) fn is_wrapper(inv: &Invocation) -> bool {
    inv.opaque || inv.runner().formats == ANY
}

/// The package script an `npm|pnpm|yarn|bun` invocation runs (`npm test` →
/// `test`, `pnpm run test:unit` → `test:unit`), if it is one.
fn script_of(inv: &Invocation) -> Option<String> {
    if !matches!(inv.runner().name, "npm test" | "npm run build") {
        return None;
    }
    let cmd = simple_commands(&inv.display).into_iter().next()?;
    let mut words = cmd.words.iter().skip(1).filter(|w| !w.starts_with('-'));
    let first = words.next()?;
    if matches!(first.as_str(), "run" | "run-script") {
        words.next().cloned()
    } else {
        Some(first.clone())
    }
}

fn is_js(inv: &Invocation) -> bool {
    use super::runners::Format::{Bun, Deno, Jest, Mocha, Tsc, Vitest};
    inv.runner()
        .formats
        .iter()
        .all(|f| matches!(f, Vitest | Jest | Mocha | Bun | Deno | Tsc))
}

/// A package-script invocation resolved through `scripts`: the invocations
/// of the script's command line, when it is known.
fn resolve(inv: &Invocation, scripts: &Scripts, depth: usize) -> Option<Vec<Invocation>> {
    let script = script_of(inv)?;
    let line = scripts.get(&script)?;
    let mut out = Vec::new();
    for cmd in simple_commands(line) {
        if let Some(i) = recognise(&cmd) {
            match resolve(&i, scripts, depth + 1).filter(|_| depth < 3) {
                Some(inner) => out.extend(inner),
                None => out.push(i),
            }
        }
    }
    Some(out)
}

/// The invocations a failed or later run stands for, package scripts
/// resolved where possible.
fn expanded(run: &Run, scripts: &Scripts) -> Vec<(Invocation, String)> {
    let mut out = Vec::new();
    for (inv, dir) in run.invocations.iter().zip(&run.dirs) {
        match resolve(inv, scripts, 0) {
            // the script's own selection (extra args after `--`) is passed on
            Some(inner) if !inner.is_empty() => {
                for mut i in inner {
                    i.selection.extend(inv.selection.iter().cloned());
                    out.push((i, dir.clone()));
                }
            }
            _ => out.push((inv.clone(), dir.clone())),
        }
    }
    out
}

/// Whether passing run `later` covers failed run `failed`.
pub(crate) fn covers(later: &Run, failed: &Run, scripts: &Scripts) -> Covers {
    if let (Some((n1, a1, _)), Some((n2, a2, _))) = (&later.tool, &failed.tool) {
        return if n1 == n2 && (a1.is_empty() || a1 == a2) {
            Covers::Yes
        } else {
            Covers::No
        };
    }
    if later.display == failed.display {
        return Covers::Yes;
    }
    // a CI result the agent read (`gh run view`, `gh pr checks`) ran what the
    // workspace's CI runs, which no local spelling decides: a later passing
    // local test run may be it, so the failure is no longer held (precision first)
    let local = !later.invocations.is_empty() && !later.is_ci_read();
    if failed.is_ci_read() && later.is_test() && local {
        return Covers::Unknown;
    }
    let failed_invs = expanded(failed, scripts);
    let later_invs = expanded(later, scripts);
    // what failed must be covered: the test invocations of a run whose tests
    // failed, the build ones of a run whose build or lint failed
    let want_tests = failed.failed_tests();
    // …or the one invocation the failure is known to be (a runner not found)
    let only = failed
        .failed_only
        .and_then(|k| failed.invocations.get(k))
        .map(|i| i.runner().name);
    let picked: Vec<&(Invocation, String)> = failed_invs
        .iter()
        .filter(|(i, _)| (i.runner().kind == RunKind::Test) == want_tests)
        .filter(|(i, _)| only.is_none_or(|name| i.runner().name == name))
        .collect();
    let needed: Vec<&(Invocation, String)> = if picked.is_empty() {
        failed_invs.iter().collect()
    } else {
        picked
    };
    if needed.is_empty() {
        return Covers::No;
    }
    let mut verdict = Covers::Yes;
    for (inv, dir) in needed {
        match covers_one(&later_invs, inv, dir) {
            Covers::Yes => {}
            Covers::No => return Covers::No,
            Covers::Unknown => verdict = Covers::Unknown,
        }
    }
    verdict
}

fn same_family(later: &Invocation, failed: &Invocation) -> bool {
    let program = |i: &Invocation| i.runner().name.split(' ').next().unwrap_or_default();
    later.row == failed.row
        // `cargo nextest` runs what `cargo test` runs
        || (matches!(later.runner().name, "cargo test" | "cargo nextest")
            && matches!(failed.runner().name, "cargo test" | "cargo nextest"))
        // a passing test run of the same tool also builds: `cargo test` covers
        // `cargo build` (not `cargo fmt --check` nor `cargo clippy`: it
        // neither formats nor lints)
        || (program(later) == program(failed)
            && later.runner().kind == RunKind::Test
            && failed.runner().kind == RunKind::Build
            && !matches!(failed.runner().name, "cargo fmt" | "rustfmt")
            && !failed.display.split_whitespace().any(|w| w == "clippy"))
}

fn covers_one(later: &[(Invocation, String)], failed: &Invocation, failed_dir: &str) -> Covers {
    let failed_sel = selection_of(failed, failed_dir);
    let mut unknown = false;
    for (l, dir) in later {
        if same_family(l, failed) {
            if selection_covers(failed, &selection_of(l, dir), &failed_sel) {
                return Covers::Yes;
            }
            // another task of a task runner (`lint:fix` after `lint`) or another
            // target of a wrapper (`make verify` after `make fmt`): what it
            // runs is unknown, so whether it covers is too
            unknown |= l.opaque || (is_wrapper(l) && l.row != failed.row);
            // one ran from an absolute directory (`cd /repo/board && go test
            // ./...`), the other from wherever the shell stood: whether they
            // ran the same tests is not known when only the directories differ
            unknown |= dir.starts_with('/') != failed_dir.starts_with('/')
                && selection_covers(failed, &selection_of(l, ""), &selection_of(failed, ""));
            continue;
        }
        // a wrapper on either side may or may not run the failed tests
        if is_wrapper(l) || is_wrapper(failed) {
            unknown |= related(l, failed);
        }
    }
    if unknown { Covers::Unknown } else { Covers::No }
}

/// Whether a wrapper and a runner may stand for each other: a package
/// script only for the JavaScript runners, any other wrapper for any runner.
fn related(a: &Invocation, b: &Invocation) -> bool {
    match (script_of(a).is_some(), script_of(b).is_some()) {
        (true, true) | (false, false) => true,
        (true, false) => is_js(b),
        (false, true) => is_js(a),
    }
}

/// The first run after `runs[i]` that clears it: a later passing run (or
/// the part of a later run that passed, [`Run::passed_part`]) that covers it,
/// or whose coverage cannot be decided — precision first.
pub(crate) fn cleared_by<'a>(runs: &'a [Run], i: usize, scripts: &Scripts) -> Option<&'a Run> {
    let failed = runs.get(i)?;
    runs.get(i + 1..)?.iter().find(|later| {
        let passed = if later.ending == Ending::Passed {
            Some(std::borrow::Cow::Borrowed(*later))
        } else {
            later.passed_part().map(std::borrow::Cow::Owned)
        };
        passed.is_some_and(|p| covers(&p, failed, scripts) != Covers::No)
    })
}

/// The failed runs no later run cleared ([`cleared_by`]), oldest first.
pub(crate) fn outstanding_failures<'a>(runs: &'a [Run], scripts: &Scripts) -> Vec<&'a Run> {
    runs.iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.ending, Ending::Failed(_)))
        .filter(|(i, _)| cleared_by(runs, *i, scripts).is_none())
        .map(|(_, r)| r)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::runs::runs_of;
    use advisor::host::ToolTrace;

    fn run(cmd: &str, output: &str, exit: i64) -> ToolTrace {
        ToolTrace {
            name: "Bash".into(),
            args: serde_json::json!({ "command": cmd }).to_string(),
            output: output.into(),
            exit_code: Some(exit),
            ..ToolTrace::default()
        }
    }

    fn verdict(failed: &str, later: &str, scripts: &Scripts) -> Covers {
        let runs = runs_of(&[run(failed, "", 1), run(later, "", 0)], &[]);
        covers(&runs[1], &runs[0], scripts)
    }

    #[test]
    fn a_wider_or_equal_selection_covers() {
        let none = Scripts::default();
        assert_eq!(verdict("cargo test parser::tokens", "cargo test", &none), Covers::Yes);
        assert_eq!(
            verdict("cargo test parser::tokens", "cargo test parser", &none),
            Covers::Yes
        );
        assert_eq!(
            verdict("pytest tests/test_a.py::test_x", "pytest tests", &none),
            Covers::Yes
        );
        assert_eq!(
            verdict("pytest svc/tests/test_a.py", "cd svc && pytest tests/test_a.py", &none),
            Covers::Yes
        );
        assert_eq!(verdict("pytest", "pytest -x --no-header", &none), Covers::Yes);
        assert_eq!(verdict("cargo test", "cargo nextest run", &none), Covers::Yes);
        assert_eq!(
            verdict("go test ./internal/ui -run TestA -v", "go test ./...", &none),
            Covers::Yes
        );
        assert_eq!(
            verdict("go test ./internal/ui", "go test ./internal/...", &none),
            Covers::Yes
        );
        assert_eq!(verdict("go test ./...", "go test ./internal/...", &none), Covers::No);
    }

    #[test]
    fn a_narrower_selection_or_another_runner_does_not() {
        let none = Scripts::default();
        assert_eq!(verdict("cargo test", "cargo test parser", &none), Covers::No);
        assert_eq!(verdict("pytest", "pytest tests/test_a.py", &none), Covers::No);
        assert_eq!(verdict("pytest", "pytest -k smoke", &none), Covers::No);
        assert_eq!(verdict("cargo test", "cargo test --lib", &none), Covers::No);
        assert_eq!(verdict("pytest", "cargo test", &none), Covers::No);
        assert_eq!(
            verdict("pytest tests/test_a.py", "pytest tests/test_ab.py", &none),
            Covers::No
        );
    }

    #[test]
    fn package_scripts_resolve_and_unknown_wrappers_are_undecided() {
        let none = Scripts::default();
        assert_eq!(verdict("pnpm run test", "npx jest", &none), Covers::Unknown);
        let scripts = Scripts::from([("test".to_owned(), "jest --ci".to_owned())]);
        assert_eq!(verdict("pnpm run test", "npx jest", &scripts), Covers::Yes);
        assert_eq!(verdict("npm test", "npx jest src/a.test.ts", &scripts), Covers::No);
        assert_eq!(verdict("npm test", "pytest", &none), Covers::No);
        assert_eq!(verdict("make test", "pytest", &none), Covers::Unknown);
        // a refused commit is no wrapper of tests: a later test run does not stand for it
        assert_eq!(verdict("git commit -m x", "pytest", &none), Covers::No);
    }
}
