//! `advisor summarize <trace files or dirs>`: per-arm counts and rates of the
//! rollout advisor's traces (a table, or `--json`).
//!
//! A malformed line is reported with file and line and makes the exit status
//! 1, and so does a run that found no attempt at all (said on stderr, no
//! empty table); the files are read by [`advisor::rollout::summarize_paths`].
//! Output goes through [`crate::terminal`]. Must not interpret trace lines:
//! the library's summarizer does.

use crate::stdout::outln;
use std::path::PathBuf;
use std::process::ExitCode;

use advisor::rollout::{Arm, Summary, summarize_paths};
use clap::Args;

use crate::terminal::{Exit, fail, json as safe_json, line};

/// Arguments of `advisor summarize`.
#[derive(Debug, Args)]
pub(crate) struct SummarizeArgs {
    /// Trace files (JSONL) or directories searched recursively for *.jsonl.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// One JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

/// The arm as the traces and `--json` name it (`advised`, `unadvised`).
fn arm_name(arm: Arm) -> &'static str {
    match arm {
        Arm::Advised => "advised",
        Arm::Unadvised => "unadvised",
    }
}

fn pct(r: Option<f64>) -> String {
    r.map_or_else(|| "-".to_owned(), |r| format!("{:.1}%", r * 100.0))
}

/// Runs `advisor summarize`.
pub(crate) fn run(args: &SummarizeArgs) -> Exit {
    let summary = summarize_paths(&args.paths).map_err(|e| fail("summarize", 2, e))?;
    for m in &summary.malformed {
        eprintln!("advisor summarize: {}", line(m));
    }
    let empty = summary.arms.is_empty();
    if empty {
        let paths: Vec<String> = args.paths.iter().map(|p| crate::terminal::show(p)).collect();
        eprintln!(
            "advisor summarize: no rollout attempt found in {} (no *.jsonl trace file, or none with an attempt); nothing to summarize",
            paths.join(", ")
        );
    }
    if args.json {
        outln!(
            "{}",
            safe_json(&serde_json::to_string_pretty(&summary).unwrap_or_default())
        );
    } else if !empty {
        print_table(&summary);
    }
    Ok(if summary.malformed.is_empty() && !empty {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The per-arm table and, for an arm with interventions, their counts by
/// action and by reason.
fn print_table(summary: &Summary) {
    outln!(
        "{:<10} {:>8} {:>8} {:>13} {:>10} {:>21} {:>23} {:>9}",
        "arm",
        "attempts",
        "reviews",
        "interventions",
        "fail-open",
        "effectively_unadvised",
        "advised_without_reviews",
        "pass rate"
    );
    for (arm, s) in &summary.arms {
        let name = arm_name(*arm);
        outln!(
            "{name:<10} {:>8} {:>8} {:>13} {:>10} {:>21} {:>23} {:>9}",
            s.attempts,
            s.reviews,
            s.interventions,
            s.fail_open_events,
            format!("{} ({})", s.effectively_unadvised, pct(s.effectively_unadvised_rate)),
            format!(
                "{} ({})",
                s.advised_without_reviews,
                pct(s.advised_without_reviews_rate)
            ),
            pct(s.pass_rate)
        );
    }
    for (arm, s) in &summary.arms {
        if s.interventions > 0 {
            let by = |m: &std::collections::BTreeMap<String, u32>| {
                m.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ")
            };
            let name = arm_name(*arm);
            outln!(
                "\n{name} interventions by action: {}",
                line(&by(&s.interventions_by_action))
            );
            outln!(
                "{name} interventions by reason: {}",
                line(&by(&s.interventions_by_reason))
            );
        }
    }
}
