//! `advisor replay`: re-run the emission guard over recorded reviews.
//!
//! Input is JSONL, one object per line: a review `{"notes":[{"text","severity"}]}`
//! or an event `{"event":"rebase"}` (dedupe history cleared) /
//! `{"event":"fresh_request"}` (a new user request: everything reset). Blank
//! lines are ignored; anything else is reported with its line number and makes
//! the exit status 1 — nothing is skipped silently. The guard runs with the
//! plugin's defaults through the library's own gate, so a replay can never
//! disagree with a live run.

use std::io::{self, Write};
use std::process::ExitCode;

use advisor::gate::gate_review;
use advisor::guard::DEFAULT_MAX_NOTES_PER_REVIEW;
use advisor::plugin::MAX_NOTES_PER_REVIEW_LIMIT;
use advisor::review::ReviewKind;
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

enum Line {
    Review(Vec<Note>),
    Event(EventName),
}

fn parse_line(text: &str) -> Result<Line, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("event").is_some() {
        let e: EventLine = serde_json::from_value(value)
            .map_err(|e| format!("not an event (expected {{\"event\":\"rebase\"|\"fresh_request\"}}): {e}"))?;
        return Ok(Line::Event(e.event));
    }
    let r: ReviewLine = serde_json::from_value(value)
        .map_err(|e| format!("not a review (expected {{\"notes\":[{{\"text\",\"severity\"}}]}}): {e}"))?;
    Ok(Line::Review(r.notes))
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
    let mut guard = EmissionGuard::new(usize::try_from(args.max_notes).unwrap_or(DEFAULT_MAX_NOTES_PER_REVIEW));
    let mut review_no = 0usize;
    let mut malformed = 0usize;
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
            Ok(Some(Line::Event(event))) => {
                guard.reset();
                print_event(&mut out, args.json, &event)
            }
            Ok(Some(Line::Review(notes))) => {
                review_no += 1;
                let gate = gate_review(&mut guard, &notes, ReviewKind::Finish);
                print_review(&mut out, args.json, review_no, &notes, &gate)
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
    ExitCode::SUCCESS
}

fn print_event(out: &mut impl Write, json: bool, event: &EventName) -> io::Result<()> {
    let (name, what) = match event {
        EventName::Rebase => ("rebase", "dedupe history cleared"),
        EventName::FreshRequest => ("fresh_request", "new user request: dedupe history cleared"),
    };
    if json {
        writeln!(out, "{}", json!({ "event": name }))
    } else {
        writeln!(out, "-- {name}: {what}")
    }
}

fn print_review(
    out: &mut impl Write,
    json: bool,
    review: usize,
    notes: &[Note],
    gate: &advisor::gate::GateResult,
) -> io::Result<()> {
    if json {
        for a in &gate.outcome.admissions {
            let line = json!({
                "review": review,
                "note": a.index + 1,
                "accepted": a.accepted(),
                "reason": a.reason.as_str(),
                "key": a.key,
            });
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
    writeln!(out, "review {review}: {} note(s), {verdict}", notes.len())?;
    for a in &gate.outcome.admissions {
        writeln!(
            out,
            "  note {} {:<9} {:<12} {:?}",
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
