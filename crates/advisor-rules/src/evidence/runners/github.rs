//! CI results read with `gh`: `gh run view` / `gh run watch`, `gh run view --log`, `gh pr checks`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — the run's header,
//! job and closing lines ([`gh_run_line`]), a job log's failing step ([`gh_log_line`]), the checks'
//! summary and rows ([`gh_checks_line`]) and the three matchers ([`gh_run`], [`gh_run_log`],
//! [`gh_pr_checks`]) — beside their samples: written ones for the rows built with `row`, recorded
//! runs (`tests/fixtures/runner-output/`) for the others. Each reader takes one whole trimmed line,
//! so a test *named* `test_upload_failed` is no summary. The rows themselves are lines of the
//! runner table ([`table`](super::table)). Must not look at more than one line, nor decide what a
//! run is.

use super::args::operands;
use super::says::{Says, leading_number, says};
use crate::evidence::kind::RunKind;
use RunKind::Test;

/// `gh pr checks`: its summary (a terminal), its tab-separated rows (no terminal) and failing rows.
pub(crate) fn gh_checks_line(raw: &str, l: &str) -> Option<Says> {
    match l {
        "All checks were successful" => return Some(Says::Pass),
        "Some checks were not successful" => return Some(Says::Fail),
        _ => {}
    }
    // `sad tests\tfail\t1m26s\thttps://…\t` (`cancel` is printed as `fail`)
    let fields: Vec<&str> = raw.trim_start().split('\t').collect();
    if fields.len() >= 4 && !fields[0].is_empty() {
        return match fields[1] {
            "fail" => Some(Says::Fail),
            "pass" => Some(Says::Pass),
            _ => None,
        };
    }
    // a terminal's row: `X  sad tests  1m26s  https://…`
    (l.starts_with("X  ") && l.len() > 3).then_some(Says::Fail)
}

/// A CI job log's failing step: `##[error]Process completed with exit code 13.`
/// (after the job and step columns and the timestamp `gh run view --log` prints).
pub(crate) fn gh_log_line(l: &str) -> Option<Says> {
    let (_, rest) = l.split_once("##[error]Process completed with exit code ")?;
    let (code, _) = leading_number(rest)?;
    (code != 0).then_some(Says::Fail)
}

/// `gh run view` / `gh run watch`: the run's header, its job and step lines, and the closing lines.
pub(crate) fn gh_run_line(l: &str) -> Option<Says> {
    if l.starts_with("To see what failed, try: gh run view") {
        return Some(Says::Fail);
    }
    if let Some((_, conclusion)) = l.split_once(" completed with '") {
        let conclusion = conclusion.strip_suffix('\'')?;
        return says(
            conclusion == "success",
            conclusion != "skipped" && conclusion != "neutral",
        );
    }
    let (pass, body) = if let Some(b) = l.strip_prefix("✓ ") {
        (true, b)
    } else if let Some(b) = l.strip_prefix("X ") {
        (false, b)
    } else {
        return None;
    };
    // the header `✓ main CI · 123` / `X main CI OWNER/REPO#12 · 123 (Attempt #2)`, a job
    // `X test in 4m34s (ID 20)`, or `X This run likely failed because of a workflow file issue.`
    let header = body.rsplit_once(" · ").is_some_and(|(_, id)| {
        let id = id.split(" (Attempt #").next().unwrap_or(id);
        !id.is_empty() && id.chars().all(|c| c.is_ascii_digit())
    });
    let job = body
        .strip_suffix(')')
        .and_then(|b| b.rsplit_once(" (ID "))
        .is_some_and(|(_, id)| !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()));
    let workflow_issue = !pass && body.contains("failed because of a workflow file issue");
    (header || job || workflow_issue).then_some(if pass { Says::Pass } else { Says::Fail })
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

#[cfg(test)]
pub(super) mod tests {
    use super::super::format::Format;
    use super::super::samples::{Fixture, fail, pass};
    use super::super::says::Says;

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass("gh pr checks", "gh-pr-checks-tty-pass.txt", "gh pr checks", true),
        fail(
            "gh pr checks",
            "gh-pr-checks-tty-fail.txt",
            "gh pr checks",
            1,
            "X unit tests",
        ),
        pass("gh pr checks", "gh-pr-checks-pass.txt", "gh pr checks 12", true),
        fail(
            "gh pr checks",
            "gh-pr-checks-fail.txt",
            "gh pr checks 12",
            1,
            "unit tests fail",
        ),
        pass("gh run view", "gh-run-view-pass.txt", "gh run view 1235", true),
        // the job's duration is quoted as `…s` (notes never carry timings)
        fail(
            "gh run view",
            "gh-run-view-fail.txt",
            "gh run view 1234",
            0,
            "X test in …s (ID 20)",
        ),
        // a CI job's log: `gh run view` exits 0; the runner's closing line says the step failed
        fail(
            "gh run log",
            "gh-run-log-fail.txt",
            "gh run view 28549041180 --job 84641515103 --log",
            0,
            "##[error]Process completed with exit code 13.",
        ),
    ];

    /// This unit's rows built with `with_fixtures`, `matched` or `task_runner` that
    /// have no recorded run of their own, and why.
    pub(in crate::evidence::runners) const WITHOUT: &[(&str, &str)] = &[(
        "gh run log",
        "a job log never says that the job passed (`Format::only_fails`); `gh-run-log-fail.txt` is its failing run",
    )];

    #[test]
    fn github_lines_are_read_and_test_names_are_not() {
        use Says::{Fail, Pass};
        assert_eq!(Format::GhChecks.read("Some checks were not successful"), Some(Fail));
        assert_eq!(Format::GhChecks.read("Some checks are still pending"), None);
        assert_eq!(Format::GhChecks.read("slow tests\tpending\t1m26s\thttps://x\t"), None);
        assert_eq!(
            Format::GhChecks.read("failed logins\tpass\t1m26s\thttps://x\t"),
            Some(Pass)
        );
        assert_eq!(Format::GhRun.read("X main CI · 1234"), Some(Fail));
        assert_eq!(
            Format::GhRun.read("✓ main CI OWNER/REPO#12 · 3 (Attempt #2)"),
            Some(Pass)
        );
        assert_eq!(Format::GhRun.read("* main CI · 3"), None);
        assert_eq!(Format::GhRun.read("X Process completed with exit code 1."), None);
        assert_eq!(Format::GhRun.read("X Run CI (42) completed with 'failure'"), Some(Fail));
        assert_eq!(Format::GhRun.read("✓ Run CI (42) completed with 'success'"), Some(Pass));
    }
}
