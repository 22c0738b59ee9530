//! `advisor eval <labels.jsonl>…`: a reviewer measured on labelled sets of stop points.
//!
//! Owns the command: reviewing each stop point through the real plugin path
//! (the same as `advisor review`; the existing reader parses the prefix),
//! the thresholds and the JSON output. The label files are
//! [`labels`]' business, reviewing one stop [`judge`]'s, the confusion
//! matrices, costs and the text report [`report`]'s, answers recorded
//! earlier and the judge's count [`recorded`]'s. A case's verdict is `block` exactly when the hook, with
//! the same reviewer and `--interrupt`, would re-open a first stop.
//! Exit status 1 when `--min-recall` or `--max-false-block` is not met or a
//! prompt has no recorded answer, 2 for an unusable label file. Must not
//! judge a case itself: the verdict is whatever the plugin decides.

use crate::stdout::{out, outln};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use advisor::review::Reviewer;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;

use crate::config::{Interrupt, ReviewerTable, RulesSettings, choose_with_judge, judge_for, prompt_of};
use crate::model_args::ModelArgs;
use crate::terminal::{Exit, fail};

mod judge;
mod labels;
mod recorded;
mod report;

use judge::{Judge, Outcome};
use labels::{Label, Verdict, parse_labels};
use recorded::{Counted, Recorded};
use report::{Counts, RuleCounts, Tallies, cost_summary, judge_summary, pct, render_text};

/// Arguments of `advisor eval`.
#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    /// The label files (JSONL; paths inside each are relative to its directory).
    #[arg(required = true, num_args = 1..)]
    labels: Vec<PathBuf>,
    /// Review with a model instead of the offline rules.
    #[command(flatten)]
    model: ModelArgs,
    /// Take the reviewer from this file's `[reviewer]` table (the user
    /// config's format): rules, model, model with tools, or command. Tools
    /// and commands work in the current directory.
    #[arg(long, value_name = "FILE", conflicts_with = "model")]
    config: Option<PathBuf>,
    /// Only the stop points of this split (e.g. `tune`); repeat it for
    /// several.
    #[arg(long)]
    split: Vec<String>,
    /// Which notes send the agent back, as the hook's `interrupt`: a blocker
    /// only (the default), or a concern too.
    #[arg(long, value_enum, default_value_t = Interrupt::Blocker)]
    interrupt: Interrupt,
    /// Answer the model or command reviewer's prompts from `<id>.json` in
    /// this folder (`<id>`: the first 16 hex digits of the prompt's
    /// SHA-256); a prompt with no answer there is listed as an error.
    #[arg(long, value_name = "DIR")]
    answers: Option<PathBuf>,
    /// Write every model or command reviewer prompt to this folder as
    /// `<id>.txt`: exactly the bytes a `kind = "command"` reviewer reads on
    /// stdin.
    #[arg(long, value_name = "DIR")]
    record_prompts: Option<PathBuf>,
    /// Notes admitted per review.
    #[arg(long, default_value_t = advisor::guard::DEFAULT_MAX_NOTES_PER_REVIEW)]
    max_notes: usize,
    /// Fail (exit 1) when recall, overall or in any split, is below this fraction (0–1).
    #[arg(long)]
    min_recall: Option<f64>,
    /// Fail (exit 1) when the false-block rate, overall or in any split, is above this fraction (0–1).
    #[arg(long)]
    max_false_block: Option<f64>,
    /// List every stop point with its verdict and notes, not only the misses.
    #[arg(long)]
    verbose: bool,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub(crate) async fn run(args: &EvalArgs) -> Exit {
    let mut labels = Vec::new();
    for path in &args.labels {
        labels.extend(parse_labels(path).map_err(|e| fail("eval", 2, e))?);
    }
    if !args.split.is_empty() {
        labels.retain(|l| l.split.as_ref().is_some_and(|s| args.split.contains(s)));
        if labels.is_empty() {
            return Err(fail(
                "eval",
                2,
                format!("no labels in split {:?}", args.split.join(", ")),
            ));
        }
    }
    for (name, v) in [
        ("--min-recall", args.min_recall),
        ("--max-false-block", args.max_false_block),
    ] {
        if v.is_some_and(|v| !(0.0..=1.0).contains(&v)) {
            return Err(fail("eval", 2, format!("{name} is a fraction between 0 and 1")));
        }
    }
    // the one reviewer choice: the --config file's [reviewer] table (its
    // tools and commands work in the current directory), else the flags;
    // without either, the rules' defaults
    let from_file = match &args.config {
        Some(path) => Some(crate::config::UserConfig::load_from(path).map_err(|e| fail("eval", 2, e))?),
        None => None,
    };
    let table = match &from_file {
        Some(user) => user.reviewer.clone(),
        None => args.model.settings(),
    };
    let workspace = from_file.as_ref().and_then(|_| std::env::current_dir().ok());
    let (counted, recorded) = judge_of(args, table.as_ref(), workspace.as_deref())?;
    let chosen = choose_with_judge(
        table.as_ref(),
        &RulesSettings::default(),
        args.model.timeout(),
        workspace.as_deref(),
        counted
            .as_ref()
            .map(|(c, label)| (c.clone() as Arc<dyn Reviewer>, label.clone())),
    )
    .map_err(|e| fail("eval", 2, e))?;
    let two_stage = chosen.label.starts_with("claims");
    let (reviewer, rules, label) = match chosen.rules {
        Some(rules) if !two_stage => (None, Some(rules), chosen.label),
        _ => (Some(chosen.reviewer), None, chosen.label),
    };
    let judge = Judge {
        reviewer,
        rules,
        label,
        max_notes: args.max_notes,
        timeout: Duration::from_secs(args.model.timeout_secs),
        interrupt: args.interrupt.severity(),
        counted: counted.map(|(c, _)| c),
    };
    let bar = ProgressBar::with_draw_target(Some(labels.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("advisor eval {bar:30} {pos}/{len} {msg}") {
        bar.set_style(style);
    }
    let mut outcomes = Vec::with_capacity(labels.len());
    for label in &labels {
        bar.set_message(label.id.clone());
        outcomes.push(judge.judge(label).await);
        bar.inc(1);
    }
    bar.finish_and_clear();

    // every stop the reviewer could not review, set aside or not
    let errors = outcomes.iter().filter(|o| o.error.is_some()).count();
    // the full scope's blockers a second reading found correct at honest
    // stops: listed, not counted (labels.rs, `full_blocker_correct`)
    let full_scope = judge.reviewer.is_some() && !two_stage;
    let (aside, kept): (Vec<(Label, Outcome)>, Vec<_>) = labels
        .into_iter()
        .zip(outcomes)
        .partition(|(l, o)| full_scope && l.full_blocker_correct.is_some() && o.verdict == Verdict::Block);
    let set_aside: Vec<String> = aside.into_iter().map(|(l, _)| l.id).collect();
    let (labels, outcomes): (Vec<Label>, Vec<Outcome>) = kept.into_iter().unzip();

    let mut overall = Counts::default();
    let mut splits: BTreeMap<String, Counts> = BTreeMap::new();
    let mut sources: BTreeMap<String, Counts> = BTreeMap::new();
    let mut rules: BTreeMap<String, RuleCounts> = BTreeMap::new();
    for (label, out) in labels.iter().zip(&outcomes) {
        overall.add(label.expected, out.verdict);
        let split = label.split.clone().unwrap_or_else(|| "(none)".to_owned());
        splits.entry(split).or_default().add(label.expected, out.verdict);
        sources
            .entry(label.source().to_owned())
            .or_default()
            .add(label.expected, out.verdict);
        for rule in &out.rules {
            let c = rules.entry(rule.clone()).or_default();
            match label.expected {
                Verdict::Block => c.correct += 1,
                Verdict::Pass => c.false_blocks += 1,
            }
        }
        if label.expected == Verdict::Block && out.verdict == Verdict::Pass {
            let rule = label.rule.clone().unwrap_or_else(|| "(unnamed)".to_owned());
            rules.entry(rule).or_default().missed += 1;
        }
    }

    let mut failures = Vec::new();
    let missing = recorded.as_ref().map(|r| r.missing()).unwrap_or_default();
    if !missing.is_empty() {
        failures.push(format!(
            "{} prompt(s) have no recorded answer: {}",
            missing.len(),
            missing.join(", ")
        ));
    }
    let mut groups: Vec<(&str, &Counts)> = vec![("overall", &overall)];
    groups.extend(splits.iter().map(|(k, v)| (k.as_str(), v)));
    for (name, c) in &groups {
        if let Some((min, r)) = args.min_recall.zip(c.recall()).filter(|(min, r)| r < min) {
            failures.push(format!("{name}: recall {} is below {}", pct(Some(r)), pct(Some(min))));
        }
        if let Some((max, f)) = args.max_false_block.zip(c.false_block_rate()).filter(|(m, f)| f > m) {
            failures.push(format!(
                "{name}: false-block rate {} is above {}",
                pct(Some(f)),
                pct(Some(max))
            ));
        }
    }

    if args.json {
        let cases: Vec<serde_json::Value> = labels
            .iter()
            .zip(&outcomes)
            .map(|(l, o)| {
                json!({
                    "id": l.id, "session": l.session, "repo": l.repo, "split": l.split, "derived": l.derived,
                    "expected": l.expected.as_str(), "verdict": o.verdict.as_str(),
                    "correct": l.expected == o.verdict, "rules": o.rules, "notes": o.notes, "error": o.error,
                    "cost": o.cost.json(), "judged": o.judge.called, "prompt": o.judge.prompt, "fallback": o.fallback,
                })
            })
            .collect();
        let false_blocks: Vec<&str> = labels
            .iter()
            .zip(&outcomes)
            .filter(|(l, o)| l.expected == Verdict::Pass && o.verdict == Verdict::Block)
            .map(|(l, _)| l.id.as_str())
            .collect();
        let out = json!({
            "labels": args.labels.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "reviewer": judge.label,
            "overall": overall.json(),
            "splits": splits.iter().map(|(k, v)| (k.clone(), v.json())).collect::<serde_json::Map<_, _>>(),
            "repos": sources.iter().map(|(k, v)| (k.clone(), v.json())).collect::<serde_json::Map<_, _>>(),
            "false_blocks": false_blocks,
            "set_aside": set_aside,
            "rules": rules.iter().map(|(k, v)| (k.clone(), json!({"correct_blocks": v.correct, "false_blocks": v.false_blocks, "missed": v.missed}))).collect::<serde_json::Map<_, _>>(),
            "errors": errors,
            "cost": cost_summary(&outcomes),
            "judge": judge_summary(&labels, &outcomes),
            "cases": cases,
            "thresholds": {"min_recall": args.min_recall, "max_false_block": args.max_false_block},
            "failures": failures,
        });
        outln!("{out}");
    } else {
        out!(
            "{}",
            render_text(
                args,
                &judge.label,
                (&labels, &outcomes),
                &Tallies {
                    groups: &groups,
                    sources: &sources,
                    rules: &rules,
                    errors,
                }
            )
        );
        let c = cost_summary(&outcomes);
        // the wall time varies run to run: only when a reviewer is measured
        // from a config file (the default report stays stable)
        if args.config.is_some() {
            let j = judge_summary(&labels, &outcomes);
            if j["stops_judged"].as_u64().is_some_and(|n| n > 0) || two_stage {
                outln!(
                    "judge: called on {} of {} stops ({} per 100 real stops), prompt tokens {} median / {} p95; {} fallback(s); false claims not contested: {}",
                    j["stops_judged"],
                    labels.len(),
                    j["per_100_real_stops"],
                    j["prompt_tokens_median"],
                    j["prompt_tokens_p95"],
                    j["fallbacks"],
                    j["false_claims_uncontested"]
                );
            }
            outln!(
                "cost per stop: {} ms wall (mean), {} tool calls in all, tokens {}",
                c["mean_wall_ms"],
                c["tool_calls"],
                match (c["mean_input_tokens"].as_u64(), c["mean_output_tokens"].as_u64()) {
                    (Some(i), Some(o)) => format!(
                        "{i} in / {o} out (mean over {} stops that reported them)",
                        c["stops_with_tokens"]
                    ),
                    _ => "not known".to_owned(),
                }
            );
        }
        if !set_aside.is_empty() {
            outln!(
                "set aside: {} honest stop(s) where a second reading found the full reviewer's blocker correct (`full_blocker_correct`): {}",
                set_aside.len(),
                set_aside.join(", ")
            );
        }
        for f in &failures {
            outln!("threshold not met: {f}");
        }
    }
    Ok(if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The judge the eval runs for `table` (a model or command reviewer),
/// counted, and its recorded answers when `--answers` or `--record-prompts`
/// is given; none for the rules.
#[allow(clippy::type_complexity)]
fn judge_of(
    args: &EvalArgs,
    table: Option<&ReviewerTable>,
    workspace: Option<&std::path::Path>,
) -> Result<(Option<(Arc<Counted>, String)>, Option<Arc<Recorded>>), std::process::ExitCode> {
    let Some(t) = table.filter(|t| t.sends_data()) else {
        if args.answers.is_some() || args.record_prompts.is_some() {
            return Err(fail(
                "eval",
                2,
                "--answers and --record-prompts need a model or command reviewer (--config)",
            ));
        }
        return Ok((None, None));
    };
    let prompt = prompt_of(t).ok();
    let recording = args.answers.is_some() || args.record_prompts.is_some();
    for dir in [&args.answers, &args.record_prompts].into_iter().flatten() {
        if !dir.is_dir() {
            return Err(fail("eval", 2, format!("{} is not a folder", dir.display())));
        }
    }
    let (live, label) = match (&args.answers, recording) {
        (Some(dir), _) => (None, format!("answers recorded in {}", dir.display())),
        _ => {
            let (j, label) = judge_for(t, args.model.timeout(), workspace).map_err(|e| fail("eval", 2, e))?;
            (Some(j), label)
        }
    };
    let recorded = match (recording, &prompt) {
        (false, _) => None,
        (true, None) => {
            return Err(fail(
                "eval",
                2,
                "a reviewer with workspace tools has no fixed prompt to record or answer",
            ));
        }
        (true, Some(p)) => Some(Arc::new(Recorded::new(
            p.clone(),
            args.answers.clone(),
            args.record_prompts.clone(),
            live.clone(),
        ))),
    };
    let inner: Arc<dyn Reviewer> = match (&recorded, live) {
        (Some(r), _) => r.clone(),
        (None, Some(l)) => l,
        (None, None) => return Ok((None, None)),
    };
    Ok((Some((Arc::new(Counted::new(inner, prompt)), label)), recorded))
}
