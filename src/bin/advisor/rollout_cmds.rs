//! `advisor summarize` and `advisor decision check`: the rollout advisor's
//! command-line tools.
//!
//! `summarize <trace files or dirs>` prints per-arm counts and rates (a table,
//! or `--json`); a malformed line is reported with file and line and makes the
//! exit status 1. Directories are walked without following symbolic links to
//! directories (so a `-> ..` link cannot loop), each file is counted once
//! however many links reach it, only regular files are read, and they are
//! streamed line by line with a per-line cap. `decision check <file|->`
//! validates an advisor answer: the decision as JSON (exit 0) or one problem
//! per line (exit 1). Output goes through [`crate::terminal`].

use std::collections::HashSet;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use advisor::bounded_read::{BoundedLines, open_regular};
use advisor::rollout::{Arm, Summarizer, parse_decision};
use clap::{Args, Subcommand};

use crate::input::read_all;
use crate::terminal::{json as safe_json, line};

/// Longest trace line read; a longer one is reported and skipped.
const MAX_TRACE_LINE: usize = 4 * 1024 * 1024;

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

/// `advisor decision` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum DecisionCommand {
    /// Validate an advisor answer (a file, or - for stdin).
    Check {
        /// The answer.
        file: String,
    },
}

/// Adds the trace files under `path` to `out`, each real file once (`seen`
/// holds canonical paths). A path named on the command line is followed if
/// it is a link; inside a directory, links to directories are not followed
/// and links to files count once with their target.
fn collect(path: &Path, top: bool, seen: &mut HashSet<PathBuf>, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    let is_link = meta.file_type().is_symlink();
    let is_dir = if is_link {
        std::fs::metadata(path).is_ok_and(|m| m.is_dir())
    } else {
        meta.is_dir()
    };
    if is_dir {
        if is_link && !top {
            return Ok(());
        }
        if !seen.insert(std::fs::canonicalize(path)?) {
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            let dir_like = std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir());
            if dir_like || p.extension().is_some_and(|e| e == "jsonl") {
                collect(&p, false, seen, out)?;
            }
        }
    } else {
        // a dangling link or a special file is kept, so reading it reports it
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        if seen.insert(key) {
            out.push(path.to_owned());
        }
    }
    Ok(())
}

/// Streams `file`'s lines into `summary`; `Err` when it cannot be read.
fn read_trace(file: &Path, summary: &mut Summarizer) -> Result<(), String> {
    let name = file.display().to_string();
    let f = open_regular(file).map_err(|e| e.to_string())?;
    for l in BoundedLines::new(BufReader::new(f), MAX_TRACE_LINE) {
        let l = l.map_err(|e| format!("{name}: {e}"))?;
        match l.bytes {
            Ok(bytes) => match std::str::from_utf8(&bytes) {
                Ok(text) => summary.line(&name, l.number, text),
                Err(_) => summary.malformed(&name, l.number, "the line is not UTF-8"),
            },
            Err(len) => summary.malformed(
                &name,
                l.number,
                &format!("the line is {len} bytes, over the {MAX_TRACE_LINE}-byte cap; skipped"),
            ),
        }
    }
    Ok(())
}

fn pct(r: Option<f64>) -> String {
    r.map_or_else(|| "-".to_owned(), |r| format!("{:.1}%", r * 100.0))
}

pub(crate) fn run_summarize(args: &SummarizeArgs) -> ExitCode {
    let mut files = Vec::new();
    let mut seen = HashSet::new();
    for p in &args.paths {
        if let Err(e) = collect(p, true, &mut seen, &mut files) {
            eprintln!(
                "advisor summarize: {}: {}",
                line(&p.display().to_string()),
                line(&e.to_string())
            );
            return ExitCode::from(2);
        }
    }
    let mut summarizer = Summarizer::new();
    for f in &files {
        if let Err(e) = read_trace(f, &mut summarizer) {
            eprintln!("advisor summarize: {}", line(&e));
            return ExitCode::from(2);
        }
    }
    let summary = summarizer.finish();
    for m in &summary.malformed {
        eprintln!("advisor summarize: {}", line(m));
    }
    if args.json {
        println!(
            "{}",
            safe_json(&serde_json::to_string_pretty(&summary).unwrap_or_default())
        );
    } else {
        println!(
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
            let name = match arm {
                Arm::Advised => "advised",
                Arm::Unadvised => "unadvised",
            };
            println!(
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
                println!(
                    "\n{arm:?} interventions by action: {}",
                    line(&by(&s.interventions_by_action))
                );
                println!(
                    "{arm:?} interventions by reason: {}",
                    line(&by(&s.interventions_by_reason))
                );
            }
        }
    }
    if summary.malformed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

pub(crate) fn run_decision(cmd: &DecisionCommand) -> ExitCode {
    let DecisionCommand::Check { file } = cmd;
    let text = match read_all(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("advisor decision check: {}", line(&e));
            return ExitCode::from(2);
        }
    };
    match parse_decision(&text) {
        Ok(d) => {
            println!("{}", safe_json(&serde_json::to_string_pretty(&d).unwrap_or_default()));
            ExitCode::SUCCESS
        }
        Err(e) => {
            for p in &e.problems {
                eprintln!("{}: {}", line(&p.location), line(&p.description));
            }
            ExitCode::from(1)
        }
    }
}
