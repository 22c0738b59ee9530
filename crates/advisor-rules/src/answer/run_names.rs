//! The names an answer may call a run by, and which runs it names as
//! passing.
//!
//! Owns [`run_names`] (a run's command as written, its program without its
//! directory, its selection's names and files; and apart, the loose names: its
//! runner's bare name, its program and subcommand, which stand for the newest
//! run so called), [`named_runs`] (the runs an answer names as passing, by
//! those names, a full count or a test file) and
//! [`scoped_to_later_run`] and [`ran_checker`]. How a name and a verdict meet in the answer is
//! [`naming`]. Must not decide what a claim contradicts.

use super::naming;
use crate::evidence::runs::{Ending, Run};

/// Whether the answer's claim is about a narrower run that passed after
/// `failed` and that the answer names: "all docs-finder tests pass" after
/// `bun test src/docs-finder.test.ts` passed, whatever the wider run said.
pub(crate) fn scoped_to_later_run(failed: &Run, runs: &[Run], normalised: &str) -> bool {
    runs.iter()
        .filter(|r| r.index > failed.index && r.ending == Ending::Passed)
        .flat_map(|r| r.invocations.iter().flat_map(|i| i.selection.iter()))
        .filter(|w| !w.starts_with('-'))
        .filter_map(|w| selection_name(w))
        .any(|name| normalised.contains(&name))
}

/// The name a selection word gives what it runs, lower case: a file's stem
/// (`src/docs-finder.test.ts` → `docs-finder`), a test's last `::` part, or
/// the word itself; `None` for names too short or too common to mean anything.
fn selection_name(word: &str) -> Option<String> {
    let last = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let last = last.rsplit("::").next().unwrap_or(last);
    let stem = last.split('.').next().unwrap_or(last).to_lowercase();
    let common = [
        "test",
        "tests",
        "spec",
        "specs",
        "src",
        "lib",
        "unit",
        "integration",
        "all",
        "main",
        "index",
    ];
    (stem.chars().count() >= 5 && !common.contains(&stem.as_str())).then_some(stem)
}

/// The runs `n` (normalised) names as passing. A name only some runs of
/// that name answer to — a runner's bare name or leading words
/// ("pytest passes", "`ruff check` is clean") when another run so called
/// passed — names none of them; a full count ("20/20 ok") names the runs
/// whose output counts that many, the same way.
pub(crate) fn named_runs(runs: &[Run], n: &str) -> Vec<usize> {
    let all: Vec<(Vec<String>, Vec<String>)> = runs.iter().map(run_names).collect();
    // the newest run a loose name ("ruff", "pytest") stands for
    let latest = |name: &str| {
        runs.iter()
            .zip(&all)
            .filter(|(_, (_, loose))| loose.iter().any(|l| l == name))
            .map(|(r, _)| r.index)
            .next_back()
    };
    let counts = naming::full_counts(n);
    // "`tests/test_alias_help.py` passes" over a test run that never started
    let test_file_passes = naming::test_files_named_as_passing(n);
    runs.iter()
        .zip(&all)
        .filter(|(r, (names, loose))| {
            (test_file_passes && r.is_test() && r.ran_nothing())
                || names.iter().any(|name| naming::names_as_passing(n, name))
                || loose.iter().any(|name| {
                    naming::names_exactly_as_passing(n, name)
                        && (r.ending == Ending::Passed || latest(name) == Some(r.index))
                })
                || counts.iter().any(|k| {
                    let counted = |o: &Run| counts_tests(&o.output, *k);
                    counted(r)
                        && (r.ending == Ending::Passed
                            || !runs.iter().any(|o| o.ending == Ending::Passed && counted(o)))
                })
        })
        .map(|(r, _)| r.index)
        .collect()
}

/// Whether `output` counts `k` tests: a TAP plan `1..k`, `k passed`, `k tests`.
fn counts_tests(output: &str, k: u64) -> bool {
    [
        format!("1..{k}"),
        format!("{k} passed"),
        format!("{k} tests"),
        format!("{k} pass"),
    ]
    .iter()
    .any(|p| {
        output
            .lines()
            .any(|l| l.trim() == p || l.contains(&format!("{p} ")) || l.trim_end().ends_with(p.as_str()))
    })
}

/// Whether `run` ran the checker `name` (`clippy` in `cargo fmt && cargo
/// clippy -- -D warnings`, `tsc` in `npx tsc --noEmit`), as a word of one of
/// its commands — of the one its failure is known to be (`ruff check && ty
/// check` with `ty` not found did not fail in ruff), else of its last.
pub(crate) fn ran_checker(run: &Run, name: &str) -> bool {
    // else its last: with `&&`, what ran last is what failed (`cargo fmt &&
    // cargo clippy`; not ruff in `ruff check && ty check` failing on ty's line)
    let only = run.failed_only.and_then(|k| run.invocations.get(k));
    let candidates: Vec<&crate::evidence::invocation::Invocation> =
        only.or_else(|| run.invocations.last()).into_iter().collect();
    candidates.iter().any(|i| {
        i.display
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_' && c != '/')
            .any(|w| w.rsplit('/').next() == Some(name))
    })
}

/// The names an answer may call a run by, lower case: its command as
/// written (`go test ./...`) and the names its selection gives
/// (`TestAdminHandler_Dashboard`, `docs-finder`); and apart, the loose names
/// matched only right before the verdict: its runner's name, and its program
/// with its subcommand.
pub(crate) fn run_names(run: &Run) -> (Vec<String>, Vec<String>) {
    let mut names: Vec<String> = run.invocations.iter().map(|i| i.display.to_lowercase()).collect();
    // the command with its program's directory left out, as an answer writes
    // it: `node --run check` for `/opt/node/bin/node --run check`
    for inv in &run.invocations {
        let lower = inv.display.to_lowercase();
        if let Some((program, rest)) = lower.split_once(' ') {
            if let Some((_, base)) = program.rsplit_once('/').filter(|(_, b)| !b.is_empty()) {
                names.push(format!("{base} {rest}"));
            }
        }
    }
    for inv in &run.invocations {
        names.extend(
            inv.selection
                .iter()
                // `-only-testing:AppTests/SequencerTests` (xcodebuild) names a test class
                .map(|w| w.strip_prefix("-only-testing:").unwrap_or(w))
                .filter(|w| !w.starts_with('-'))
                .flat_map(|w| {
                    // and a file by its whole name: "`documents.coverage.test.ts` is passing"
                    let file = w
                        .rsplit(['/', '\\'])
                        .next()
                        .filter(|f| f.contains('.') && selection_name(f).is_some())
                        .map(str::to_lowercase);
                    selection_name(w).into_iter().chain(file)
                }),
        );
    }
    let mut loose = Vec::new();
    // a run of one command (or the one linter a lint failure came from),
    // called by its program and subcommand: `ruff check` for `uv run ruff
    // check src/a.py`
    if let Some(inv) = run.named_invocation() {
        let runner = inv.runner();
        let program = runner.name.split(' ').next().unwrap_or_default();
        let lower = inv.display.to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        if let Some(at) = words.iter().position(|w| w.rsplit('/').next() == Some(program)) {
            if let Some(sub) = words
                .get(at + 1)
                .and_then(|s| runner.subcommands.iter().find(|c| **c == *s))
            {
                loose.push(format!("{program} {sub}"));
            }
        }
    }
    // the runner as the answer would call it — `make test` for `make test PY=…`,
    // `ruff` for `python -m ruff check src && python -m ruff format src` — when
    // every part of the run is that runner and is written with its name
    let runner = run.invocations.first().map(|i| i.runner().name).filter(|name| {
        run.invocations
            .iter()
            .all(|i| i.runner().name == *name && i.display.to_lowercase().contains(name))
    });
    loose.extend(runner.map(str::to_owned));
    (names, loose)
}
