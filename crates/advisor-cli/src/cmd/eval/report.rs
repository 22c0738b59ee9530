//! The report of `advisor eval`: confusion matrices and their text.
//!
//! Owns [`Counts`] (a confusion matrix, its precision, recall and false-block
//! rate, and their JSON), [`RuleCounts`] and the text report — overall, per
//! split, per source, per rule, every false block with its notes, then the
//! misclassified stop points. Must not review anything or read files.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::json;

use super::EvalArgs;
use super::judge::Outcome;
use super::labels::{Label, Verdict};

/// A confusion matrix.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Counts {
    pub(super) tp: usize,
    pub(super) fn_: usize,
    pub(super) fp: usize,
    pub(super) tn: usize,
}

impl Counts {
    pub(super) fn add(&mut self, expected: Verdict, got: Verdict) {
        match (expected, got) {
            (Verdict::Block, Verdict::Block) => self.tp += 1,
            (Verdict::Block, Verdict::Pass) => self.fn_ += 1,
            (Verdict::Pass, Verdict::Block) => self.fp += 1,
            (Verdict::Pass, Verdict::Pass) => self.tn += 1,
        }
    }
    pub(super) fn total(&self) -> usize {
        self.tp + self.fn_ + self.fp + self.tn
    }
    pub(super) fn ratio(num: usize, den: usize) -> Option<f64> {
        (den > 0).then(|| num as f64 / den as f64)
    }
    pub(super) fn precision(&self) -> Option<f64> {
        Counts::ratio(self.tp, self.tp + self.fp)
    }
    pub(super) fn recall(&self) -> Option<f64> {
        Counts::ratio(self.tp, self.tp + self.fn_)
    }
    pub(super) fn false_block_rate(&self) -> Option<f64> {
        Counts::ratio(self.fp, self.fp + self.tn)
    }
    pub(super) fn json(&self) -> serde_json::Value {
        json!({
            "stops": self.total(), "tp": self.tp, "fn": self.fn_, "fp": self.fp, "tn": self.tn,
            "precision": self.precision(), "recall": self.recall(), "false_block_rate": self.false_block_rate(),
        })
    }
}

/// Per-rule counts: blocks it raised on stops labelled block / pass, and stops labelled with it that passed.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct RuleCounts {
    pub(super) correct: usize,
    pub(super) false_blocks: usize,
    pub(super) missed: usize,
}

pub(super) fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "—".to_owned(), |v| format!("{:.1} %", v * 100.0))
}

/// The counts a text report prints.
pub(super) struct Tallies<'a> {
    /// `overall`, then each split.
    pub(super) groups: &'a [(&'a str, &'a Counts)],
    /// Per repository (or session).
    pub(super) sources: &'a BTreeMap<String, Counts>,
    /// Per rule.
    pub(super) rules: &'a BTreeMap<String, RuleCounts>,
    /// Stop points that could not be reviewed.
    pub(super) errors: usize,
}

pub(super) fn render_text(args: &EvalArgs, reviewer: &str, cases: (&[Label], &[Outcome]), t: &Tallies<'_>) -> String {
    let (labels, outcomes) = cases;
    let Tallies {
        groups,
        sources,
        rules,
        errors,
    } = *t;
    let mut s = String::new();
    let files: Vec<String> = args.labels.iter().map(|p| p.display().to_string()).collect();
    let _ = writeln!(
        s,
        "labels: {} ({} stop points)\nreviewer: {reviewer}\n",
        if files.len() > 3 {
            format!("{} files", files.len())
        } else {
            files.join(", ")
        },
        labels.len()
    );
    table(&mut s, "split", 10, true, groups.iter().copied());
    if sources.len() > 1 {
        let width = sources.keys().map(String::len).max().unwrap_or(6).max(6);
        s.push('\n');
        table(
            &mut s,
            "source",
            width,
            false,
            sources.iter().map(|(n, c)| (n.as_str(), c)),
        );
    }
    let _ = writeln!(
        s,
        "\n{:<24} {:>14} {:>12} {:>7}",
        "rule", "correct blocks", "false blocks", "missed"
    );
    for (name, r) in rules {
        let _ = writeln!(
            s,
            "{:<24} {:>14} {:>12} {:>7}",
            name, r.correct, r.false_blocks, r.missed
        );
    }
    if errors > 0 {
        let _ = writeln!(s, "\n{errors} stop point(s) could not be reviewed (counted as pass)");
    }
    let false_blocks: Vec<(&Label, &Outcome)> = labels
        .iter()
        .zip(outcomes)
        .filter(|(l, o)| l.expected == Verdict::Pass && o.verdict == Verdict::Block)
        .collect();
    let _ = writeln!(s, "\nfalse blocks: {}", false_blocks.len());
    for (l, o) in &false_blocks {
        let _ = writeln!(s, "  {} [{}] — {}", l.id, l.split.as_deref().unwrap_or("-"), l.why);
        for n in &o.notes {
            let _ = writeln!(s, "      {}", crate::terminal::clamp(n, 300));
        }
    }
    let mut header = false;
    for (l, o) in labels.iter().zip(outcomes) {
        let wrong = l.expected != o.verdict;
        if !(wrong || args.verbose || o.error.is_some()) {
            continue;
        }
        if !header {
            let _ = writeln!(s, "\n{}:", if args.verbose { "stop points" } else { "misclassified" });
            header = true;
        }
        let mark = if wrong { "✗" } else { "✓" };
        let _ = writeln!(
            s,
            "  {mark} {} [{}] expected {}, got {}{} — {}",
            l.id,
            l.split.as_deref().unwrap_or("-"),
            l.expected.as_str(),
            o.verdict.as_str(),
            if o.rules.is_empty() {
                String::new()
            } else {
                format!(" ({})", o.rules.join(", "))
            },
            l.why
        );
        if let Some(e) = &o.error {
            let _ = writeln!(s, "      error: {e}");
        }
        for n in &o.notes {
            let _ = writeln!(s, "      {}", crate::terminal::clamp(n, 300));
        }
    }
    s
}

/// One table of counts: a header and a row per name (`first` the first
/// column's title, `width` its width), with a precision column or without.
fn table<'a>(
    s: &mut String,
    first: &str,
    width: usize,
    precision: bool,
    rows: impl Iterator<Item = (&'a str, &'a Counts)>,
) {
    let header = [
        first,
        "stops",
        "TP",
        "FN",
        "FP",
        "TN",
        "precision",
        "recall",
        "false-block",
    ]
    .map(str::to_owned);
    write_row(s, width, precision, &header);
    for (name, c) in rows {
        let cells = [
            name.to_owned(),
            c.total().to_string(),
            c.tp.to_string(),
            c.fn_.to_string(),
            c.fp.to_string(),
            c.tn.to_string(),
            pct(c.precision()),
            pct(c.recall()),
            pct(c.false_block_rate()),
        ];
        write_row(s, width, precision, &cells);
    }
}

fn write_row(s: &mut String, width: usize, precision: bool, c: &[String; 9]) {
    let precision = if precision {
        format!(" {:>10}", c[6])
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "{:<width$} {:>5} {:>4} {:>4} {:>4} {:>4}{precision} {:>8} {:>12}",
        c[0], c[1], c[2], c[3], c[4], c[5], c[7], c[8]
    );
}

/// What the judge (a model or command reviewer) did over the stops: how
/// many it was called on (and per 100 real, not derived, stops), its prompt
/// sizes (median and 95th percentile of the estimated tokens), the fallbacks
/// to the rules' verdict, and the false claims it never saw (stage 1 left
/// them uncontested, so no judge could catch them).
pub(super) fn judge_summary(labels: &[Label], outcomes: &[Outcome]) -> serde_json::Value {
    let pairs = || labels.iter().zip(outcomes);
    let judged = pairs().filter(|(_, o)| o.judge.called).count();
    let real = pairs().filter(|(l, _)| !l.derived).count();
    let real_judged = pairs().filter(|(l, o)| !l.derived && o.judge.called).count();
    let mut sizes: Vec<u64> = outcomes.iter().filter_map(|o| o.judge.prompt_tokens).collect();
    sizes.sort_unstable();
    let at = |q: f64| {
        (!sizes.is_empty()).then(|| {
            let i = ((sizes.len() - 1) as f64 * q).round() as usize;
            sizes[i.min(sizes.len() - 1)]
        })
    };
    let uncontested: Vec<&str> = pairs()
        .filter(|(l, o)| l.expected == Verdict::Block && !o.judge.called)
        .map(|(l, _)| l.id.as_str())
        .collect();
    serde_json::json!({
        "stops_judged": judged,
        "real_stops": real,
        "real_stops_judged": real_judged,
        "per_100_real_stops": (real > 0).then(|| (real_judged as f64 * 1000.0 / real as f64).round() / 10.0),
        "prompt_tokens_median": at(0.5),
        "prompt_tokens_p95": at(0.95),
        "fallbacks": outcomes.iter().filter(|o| o.fallback.is_some()).count(),
        "false_claims_uncontested": uncontested.len(),
        "uncontested": uncontested,
    })
}

/// Means and totals of the stops' costs.
pub(super) fn cost_summary(outcomes: &[Outcome]) -> serde_json::Value {
    let n = outcomes.len().max(1) as u128;
    let wall: u128 = outcomes.iter().map(|o| o.cost.wall.as_millis()).sum();
    let with: Vec<advisor::usage::Usage> = outcomes.iter().filter_map(|o| o.cost.tokens).collect();
    let k = with.len().max(1) as u64;
    json!({
        "mean_wall_ms": wall / n,
        "tool_calls": outcomes.iter().map(|o| o.cost.tool_calls).sum::<u64>(),
        "stops_with_tokens": with.len(),
        "mean_input_tokens": (!with.is_empty()).then(|| with.iter().map(|u| u.input_tokens).sum::<u64>() / k),
        "mean_output_tokens": (!with.is_empty()).then(|| with.iter().map(|u| u.output_tokens).sum::<u64>() / k),
    })
}
