//! `advisor review <transcript>`: one finish review of a transcript file.
//!
//! Reads Claude Code, OpenAI-style or Codex JSONL or a Gemini CLI session (auto-detected or
//! `--format`), reviews the last assistant answer through the one finish path
//! the hook takes — the current directory loaded as the hook loads its
//! workspace ([`crate::finish::workspace`]: the config under the trust rules,
//! the `[reviewer]` the user configured or trusted, the package scripts) —
//! or, with `--model NAME --base-url URL`, with that model (key from
//! `ADVISOR_API_KEY`), and prints which reviewer ran, every note with the
//! guard's decision and the exact injection that would reach the agent
//! (`--json` for machines). Input problems are one
//! line naming the file and line, exit status 2. Every text from the
//! transcript or the reviewer is printed through [`crate::terminal`], so it
//! cannot repaint the terminal.

use crate::stdout::outln;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::transcript::{ReadOptions, TranscriptFormat, read_transcript, read_transcript_with};
use advisor::plugin::AdvisorPluginBuilder;

use crate::config::{Interrupt, choose_reviewer, choose_reviewer_in};
use clap::Args;
use serde_json::json;

use crate::finish::workspace::load;
use crate::finish::{notes_json, review_transcript};
use crate::model_args::ModelArgs;
use crate::terminal::{Exit, fail, json as safe_json, line};

/// Arguments of `advisor review`.
#[derive(Debug, Args)]
pub(crate) struct ReviewArgs {
    /// The transcript file (JSONL, or a Gemini CLI JSON session).
    transcript: PathBuf,
    /// Transcript format: claude-code, openai, codex, gemini (Gemini CLI JSON or JSONL), copilot, qwen or droid (default: detected).
    #[arg(long, value_enum, ignore_case = true)]
    format: Option<TranscriptFormat>,
    /// Review with a model instead of the offline rules.
    #[command(flatten)]
    model: ModelArgs,
    /// Take the reviewer from this file's `[reviewer]` table (the user
    /// config's format) instead of the one the hook would use.
    #[arg(long, value_name = "FILE", conflicts_with = "model")]
    config: Option<PathBuf>,
    /// Which notes send the agent back (default: the workspace config's
    /// `interrupt`, else blocker).
    #[arg(long, value_enum)]
    interrupt: Option<Interrupt>,
    /// Notes admitted per review (default: the workspace config's
    /// max_notes_per_review, 3 unless it says otherwise).
    #[arg(long)]
    max_notes: Option<usize>,
    /// One JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The plugin `advisor review` runs, and its reviewer's name: the current
/// directory's advisor as the hook would load it ([`load`]); the model flags,
/// when given, name the reviewer instead (and bound the review by
/// `--timeout-secs`); `--max-notes` sets the breadth cap. A workspace that
/// has not opted in gets the defaults (the offline rules).
fn plugin(args: &ReviewArgs) -> Result<(AdvisorPluginBuilder, String), advisor::Error> {
    let setup = load(Path::new("."))?;
    if let Some(why) = &setup.notice {
        eprintln!("{}", crate::terminal::message(&format!("advisor review: {why}")));
    }
    let (builder, label) = match (args.model.settings(), &args.config) {
        (Some(flags), _) => {
            let chosen = choose_reviewer(Some(&flags), &setup.config.rules, args.model.timeout())?;
            let builder = setup.config.plugin_builder_with(chosen.reviewer)?;
            (builder.timeout(args.model.timeout()), chosen.label)
        }
        (None, Some(file)) => {
            let table = crate::config::UserConfig::load_from(file)?.reviewer;
            let timeout = Duration::from_secs(setup.config.timeout_secs);
            let here = std::env::current_dir().ok();
            let chosen = choose_reviewer_in(table.as_ref(), &setup.config.rules, timeout, here.as_deref())?;
            let label = format!("{} ({})", chosen.label, file.display());
            (setup.config.plugin_builder_with(chosen.reviewer)?, label)
        }
        (None, None) => setup.builder()?,
    };
    let builder = builder.interrupt(args.interrupt.unwrap_or(setup.config.interrupt).severity());
    Ok(match args.max_notes {
        Some(n) => (builder.max_notes_per_review(n), label),
        None => (builder, label),
    })
}

/// When `--format` was given and read nothing, the format the file does read
/// as, if it reads as another one: the forced reader skipped every line.
fn other_format(args: &ReviewArgs, transcript: &crate::transcript::Transcript) -> Option<TranscriptFormat> {
    let forced = args.format?;
    if !transcript.messages.is_empty() {
        return None;
    }
    let (_, detected) = read_transcript_with(&args.transcript, &ReadOptions::default()).ok()?;
    (detected != forced).then_some(detected)
}

/// A note's evidence, and whether a blocker's was found in what the
/// reviewer was shown (anchored) or not (demoted to a concern).
fn print_evidence(note: &serde_json::Value) {
    if let Some(e) = note["evidence"].as_str() {
        for (i, l) in e.lines().take(6).enumerate() {
            outln!("      {} {}", if i == 0 { "evidence:" } else { "         " }, line(l));
        }
    }
    match note["anchored"].as_bool() {
        Some(true) => outln!("      anchored: its evidence is in what the reviewer was shown"),
        Some(false) => outln!(
            "      demoted to a concern: a blocker whose evidence is missing or not found in what the reviewer was shown"
        ),
        None => {}
    }
}

/// `n` and the noun, plural unless `n` is 1.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Says, while the model is asked, that the review is waiting: on a terminal
/// a line repainted every second; on a pipe or file one plain line, once
/// (no carriage return, no escape sequence in a log).
fn progress(label: String, terminal: bool) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let started = Instant::now();
        tokio::time::sleep(Duration::from_secs(1)).await;
        if !terminal {
            eprintln!("advisor review: waiting for {label}…");
            return;
        }
        loop {
            eprint!(
                "\radvisor review: waiting for {label}… {}s",
                started.elapsed().as_secs()
            );
            let _ = std::io::stderr().flush();
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    })
}

pub(crate) async fn run(args: &ReviewArgs) -> Exit {
    let transcript = read_transcript(&args.transcript, args.format).map_err(|e| fail("review", 2, e))?;
    let name = args.transcript.display().to_string();
    if let (Some(forced), Some(detected)) = (args.format, other_format(args, &transcript)) {
        return Err(fail(
            "review",
            2,
            format!(
                "{name}: read as {} it has no messages; it reads as {} (drop --format or pass --format {})",
                forced.as_str(),
                detected.as_str(),
                detected.as_str()
            ),
        ));
    }
    let Some(answer) = transcript.last_answer().map(str::to_owned) else {
        if args.json {
            let out = json!({"transcript": name, "status": "nothing_to_review", "notes": [], "interrupt": false, "injection": null, "skipped": transcript.skipped});
            outln!("{}", safe_json(&out.to_string()));
        } else {
            outln!(
                "{}: nothing to review: the last turn has no final assistant answer (none yet, or interrupted)",
                line(&name)
            );
        }
        return Ok(ExitCode::SUCCESS);
    };
    let (builder, label) = plugin(args).map_err(|e| fail("review", 2, e))?;
    let terminal = std::io::stderr().is_terminal();
    // a model or a command reviewer takes seconds: say that the review waits
    let progress = (label != "rules").then(|| progress(label.clone(), terminal));
    let mut warnings = Vec::new();
    let finish = review_transcript(builder, &transcript, &answer, None, None, None, &mut |w| {
        warnings.push(w)
    })
    .await;
    if let Some(p) = progress {
        p.abort();
        if terminal {
            eprint!("\r\x1b[K");
        }
    }
    let finish = finish.map_err(|e| fail("review", 2, e))?;
    let injection = finish.injection();
    let error = finish.record().and_then(|r| r.error.as_ref());
    let decisions = finish.record().map_or(&[][..], |r| &r.decisions[..]);
    let notes = finish.record().map(notes_json).unwrap_or_default();
    let to_user: Vec<&str> = finish.advice.to_user().map(|n| n.text.as_str()).collect();
    let fallback = finish.record().and_then(|r| r.fallback.as_deref());
    if args.json {
        let out = json!({
            "transcript": name,
            "status": if error.is_some() { "reviewer_failed" } else { "reviewed" },
            "reviewer": label,
            "answer": answer,
            "notes": notes,
            "interrupt": injection.is_some(),
            "injection": injection,
            "to_user": to_user,
            "fallback": fallback,
            "error": error.map(|e| e.message.clone()),
            "skipped": transcript.skipped,
        });
        outln!("{}", safe_json(&out.to_string()));
    } else {
        outln!(
            "transcript: {} ({}, {})\nreviewer: {}\nanswer under review: \"{}\"\n",
            line(&name),
            count(transcript.messages.len(), "message", "messages"),
            count(transcript.tools.len(), "tool call", "tool calls"),
            line(&label),
            line(crate::terminal::clamp(&answer, 200))
        );
        if notes.is_empty() && error.is_none() {
            outln!("no notes: the answer would go through unchanged");
        }
        for (i, (d, n)) in decisions.iter().zip(&notes).enumerate() {
            outln!(
                "  note {} [{}] {:<12} {}",
                i + 1,
                d.severity,
                d.reason.as_str(),
                line(n["text"].as_str().unwrap_or_default())
            );
            print_evidence(n);
        }
        if let Some(why) = fallback {
            outln!("{}", line(why));
        }
        if let Some(e) = error {
            outln!(
                "the reviewer failed ({}); the answer would go through unchanged",
                line(&e.message)
            );
        }
        match injection {
            Some(text) => {
                outln!("\nverdict: the agent would be sent back with this message:\n");
                for l in text.lines() {
                    outln!("    {}", line(l));
                }
            }
            None if !notes.is_empty() => outln!("\nverdict: nothing would reach the agent"),
            None => {}
        }
        if !to_user.is_empty() {
            outln!("\nthe user would see (not sent to the agent):");
            for t in &to_user {
                outln!("    {}", line(t));
            }
        }
    }
    Ok(if error.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
