//! `advisor replay`: re-run the emission guard over recorded reviews.
//!
//! Input is JSONL, one object per line: a review `{"notes":[{"text","severity"}]}`
//! or an event `{"event":"rebase"}` (dedupe history cleared) /
//! `{"event":"fresh_request"}` (a new user request: everything reset) — or the
//! lines of an advisor trace (`"schema":"advisor.trace.v1"`), whose raw notes
//! are re-gated per reviewer and compared with the recorded decisions
//! (`--check` turns a difference into exit status 1, so a recorded incident is
//! a regression fixture). Blank lines are ignored; anything else is reported
//! with its line number and makes the exit status 1 — nothing is skipped
//! silently. The guard runs through the library's own gate, so a replay can
//! never disagree with a live run.

use std::io::{self, Write};
use std::process::ExitCode;

use advisor::gate::gate_review;
use advisor::guard::DEFAULT_MAX_NOTES_PER_REVIEW;
use advisor::plugin::MAX_NOTES_PER_REVIEW_LIMIT;
use std::collections::HashMap;

use advisor::guard::Reason;
use advisor::plugin::PLUGIN_NAME;
use advisor::review::ReviewKind;
use advisor::trace::{TRACE_SCHEMA, TraceEvent, TraceEventKind};
use advisor::{EmissionGuard, Note};
use clap::Args;
use serde::Deserialize;
use serde_json::json;

use crate::input::Input;

/// Arguments of `advisor replay`.
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// JSONL file of reviews and events (`-` for standard input).
    file: String,
    /// Notes admitted per review (the plugin's breadth cap).
    #[arg(long, default_value_t = DEFAULT_MAX_NOTES_PER_REVIEW as u64,
          value_parser = clap::value_parser!(u64).range(1..=MAX_NOTES_PER_REVIEW_LIMIT as u64))]
    max_notes: u64,
    /// One JSON object per line instead of text.
    #[arg(long)]
    json: bool,
    /// Turn on similarity dedupe, as the plugin's `similarity_dedupe(true)`.
    #[arg(long)]
    similarity: bool,
    /// Exit with status 1 when a replayed decision differs from the one a trace recorded.
    #[arg(long)]
    check: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewLine {
    notes: Vec<Note>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
enum EventName {
    Rebase,
    FreshRequest,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventLine {
    event: EventName,
}

/// One review to replay.
struct Replayed {
    reviewer: String,
    kind: ReviewKind,
    notes: Vec<Note>,
    /// The decisions a trace recorded, by note index.
    recorded: Option<Vec<Reason>>,
    /// The review failed when it was recorded: there is nothing to gate.
    failed: Option<String>,
}

enum Line {
    Review(Replayed),
    Event(String, EventName),
    /// A traced review that did not run (its token budget was spent).
    BudgetSpent(String, String),
}

fn parse_trace(value: serde_json::Value) -> Result<Line, String> {
    let schema = value
        .get("schema")
        .and_then(|s| s.as_str())
        .unwrap_or_default()
        .to_owned();
    if schema != TRACE_SCHEMA {
        return Err(format!("trace schema {schema:?} is not {TRACE_SCHEMA:?}"));
    }
    let e: TraceEvent = serde_json::from_value(value).map_err(|e| format!("not an advisor trace event: {e}"))?;
    Ok(match e.event {
        TraceEventKind::Rebase => Line::Event(e.reviewer, EventName::Rebase),
        TraceEventKind::FreshRequest => Line::Event(e.reviewer, EventName::FreshRequest),
        TraceEventKind::BudgetSpent => {
            let why = e
                .budget
                .map_or_else(|| "a token budget was spent".to_owned(), |b| b.to_string());
            Line::BudgetSpent(e.reviewer, why)
        }
        TraceEventKind::Review => {
            let cap = e.max_severity;
            let notes = e
                .notes
                .into_iter()
                .map(|mut n| {
                    if let Some(cap) = cap {
                        n.severity = n.severity.min(cap);
                    }
                    n
                })
                .collect();
            let mut recorded = vec![Reason::Accepted; e.decisions.len()];
            for d in &e.decisions {
                if let Some(slot) = recorded.get_mut(d.note) {
                    *slot = d.reason;
                }
            }
            Line::Review(Replayed {
                reviewer: e.reviewer,
                kind: e.kind.unwrap_or_default(),
                notes,
                recorded: (!e.decisions.is_empty()).then_some(recorded),
                failed: e.error.map(|err| format!("{:?}: {}", err.kind, err.message)),
            })
        }
    })
}

fn parse_line(text: &str) -> Result<Line, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("schema").is_some() {
        return parse_trace(value);
    }
    if value.get("event").is_some() {
        let e: EventLine = serde_json::from_value(value)
            .map_err(|e| format!("not an event (expected {{\"event\":\"rebase\"|\"fresh_request\"}}): {e}"))?;
        return Ok(Line::Event(PLUGIN_NAME.to_owned(), e.event));
    }
    let r: ReviewLine = serde_json::from_value(value)
        .map_err(|e| format!("not a review (expected {{\"notes\":[{{\"text\",\"severity\"}}]}}): {e}"))?;
    Ok(Line::Review(Replayed {
        reviewer: PLUGIN_NAME.to_owned(),
        kind: ReviewKind::Finish,
        notes: r.notes,
        recorded: None,
        failed: None,
    }))
}

pub(crate) fn run(args: &ReplayArgs) -> ExitCode {
    let input = match Input::open(&args.file) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("advisor replay: {}: {e}", args.file);
            return ExitCode::from(2);
        }
    };
    let name = input.name.clone();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let max_notes = usize::try_from(args.max_notes).unwrap_or(DEFAULT_MAX_NOTES_PER_REVIEW);
    let mut guards: HashMap<String, EmissionGuard> = HashMap::new();
    let new_guard = || EmissionGuard::new(max_notes).with_similarity(args.similarity);
    let mut review_no = 0usize;
    let mut malformed = 0usize;
    let mut differences = 0usize;
    for (line_no, line) in input.numbered_lines() {
        let parsed = line.map_err(|e| e.to_string()).and_then(|l| {
            if l.trim().is_empty() {
                Ok(None)
            } else {
                parse_line(&l).map(Some)
            }
        });
        let result = match parsed {
            Ok(None) => Ok(()),
            Ok(Some(Line::Event(reviewer, event))) => {
                guards.entry(reviewer.clone()).or_insert_with(new_guard).reset();
                print_event(&mut out, args.json, &reviewer, &event)
            }
            Ok(Some(Line::BudgetSpent(reviewer, why))) => {
                if args.json {
                    writeln!(
                        out,
                        "{}",
                        json!({ "event": "budget_spent", "reviewer": reviewer, "why": why })
                    )
                } else {
                    writeln!(out, "-- budget_spent ({reviewer}): {why}")
                }
            }
            Ok(Some(Line::Review(r))) => {
                review_no += 1;
                if let Some(why) = &r.failed {
                    print_failed(&mut out, args.json, review_no, &r.reviewer, why)
                } else {
                    let guard = guards.entry(r.reviewer.clone()).or_insert_with(new_guard);
                    let gate = gate_review(guard, &r.notes, r.kind);
                    let differs = r.recorded.as_ref().map_or(0, |rec| {
                        gate.outcome
                            .admissions
                            .iter()
                            .filter(|a| rec.get(a.index) != Some(&a.reason))
                            .count()
                    });
                    if differs > 0 {
                        differences += differs;
                        eprintln!(
                            "advisor replay: {name}:{line_no}: {differs} decision(s) differ from the recorded ones"
                        );
                    }
                    print_review(&mut out, args.json, review_no, &r, &gate)
                }
            }
            Err(msg) => {
                malformed += 1;
                eprintln!("advisor replay: {name}:{line_no}: {msg}");
                Ok(())
            }
        };
        if let Err(e) = result {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("advisor replay: writing output: {e}");
            return ExitCode::from(2);
        }
    }
    if malformed > 0 {
        eprintln!("advisor replay: {name}: {malformed} malformed line(s)");
        return ExitCode::from(1);
    }
    if args.check && differences > 0 {
        eprintln!("advisor replay: {name}: {differences} decision(s) differ from the trace");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

fn print_failed(out: &mut impl Write, json: bool, review: usize, reviewer: &str, why: &str) -> io::Result<()> {
    if json {
        writeln!(
            out,
            "{}",
            json!({ "review": review, "reviewer": reviewer, "interrupt": false, "injection": null, "error": why })
        )
    } else {
        writeln!(
            out,
            "review {review} ({reviewer}): the reviewer failed ({why}); the run went on without advice"
        )
    }
}

fn print_event(out: &mut impl Write, json: bool, reviewer: &str, event: &EventName) -> io::Result<()> {
    let (name, what) = match event {
        EventName::Rebase => ("rebase", "dedupe history cleared"),
        EventName::FreshRequest => ("fresh_request", "new user request: dedupe history cleared"),
    };
    if json {
        writeln!(out, "{}", json!({ "event": name, "reviewer": reviewer }))
    } else {
        writeln!(out, "-- {name} ({reviewer}): {what}")
    }
}

fn print_review(
    out: &mut impl Write,
    json: bool,
    review: usize,
    r: &Replayed,
    gate: &advisor::gate::GateResult,
) -> io::Result<()> {
    let recorded = |i: usize| r.recorded.as_ref().and_then(|rec| rec.get(i)).copied();
    if json {
        for a in &gate.outcome.admissions {
            let mut line = json!({
                "review": review,
                "note": a.index + 1,
                "accepted": a.accepted(),
                "reason": a.reason.as_str(),
                "key": a.key,
            });
            if r.reviewer != PLUGIN_NAME {
                line["reviewer"] = json!(r.reviewer);
            }
            if let Some(rec) = recorded(a.index) {
                line["recorded_reason"] = json!(rec.as_str());
            }
            writeln!(out, "{line}")?;
        }
        return writeln!(
            out,
            "{}",
            json!({ "review": review, "interrupt": gate.interrupts(), "injection": gate.injection })
        );
    }
    let verdict = if gate.interrupts() {
        "interrupts"
    } else {
        "does not interrupt"
    };
    let who = if r.reviewer == PLUGIN_NAME {
        String::new()
    } else {
        format!(" ({})", r.reviewer)
    };
    writeln!(
        out,
        "review {review}{who}: {} {} note(s), {verdict}",
        r.kind,
        r.notes.len()
    )?;
    for a in &gate.outcome.admissions {
        let differs = match recorded(a.index) {
            Some(rec) if rec != a.reason => format!("  (recorded: {})", rec.as_str()),
            _ => String::new(),
        };
        writeln!(
            out,
            "  note {} {:<9} {:<12} {:?}{differs}",
            a.index + 1,
            format!("[{}]", a.note.severity),
            a.reason.as_str(),
            a.note.text
        )?;
    }
    if let Some(injection) = &gate.injection {
        writeln!(out, "  injection:")?;
        for l in injection.lines() {
            writeln!(out, "    {l}")?;
        }
    }
    Ok(())
}
