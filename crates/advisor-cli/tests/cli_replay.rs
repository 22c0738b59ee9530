//! `advisor replay` through the built binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use serde_json::Value;

fn replay(args: &[&str], stdin: &str) -> assert_cmd::assert::Assert {
    Command::cargo_bin("advisor")
        .unwrap()
        .arg("replay")
        .args(args)
        .write_stdin(stdin.to_owned())
        .assert()
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn json_output_has_a_reason_per_note_and_a_verdict_per_review() {
    let input = r#"{"notes":[{"text":"Stop.","severity":"blocker"},{"text":"check the join","severity":"concern"}]}
{"notes":[{"text":"Check the join!","severity":"concern"}]}
{"event":"rebase"}
{"notes":[{"text":"check the join","severity":"concern"}]}
"#;
    let out = replay(&["--json", "-"], input).success().get_output().stdout.clone();
    let lines = json_lines(&out);
    assert_eq!(lines[0]["reason"], "content_free");
    assert_eq!(lines[0]["key"], "stop");
    assert_eq!(lines[0]["review"], 1);
    assert_eq!(lines[0]["note"], 1);
    assert_eq!(lines[1]["accepted"], true);
    assert_eq!(lines[2]["interrupt"], true);
    assert!(lines[2]["injection"].as_str().unwrap().contains("check the join"));
    assert_eq!(lines[3]["reason"], "duplicate");
    assert_eq!(lines[4]["interrupt"], false);
    assert!(lines[4]["injection"].is_null());
    assert_eq!(lines[5]["event"], "rebase");
    assert_eq!(lines[6]["reason"], "accepted", "a rebase clears the dedupe history");
}

#[test]
fn max_notes_changes_the_cap() {
    let input = r#"{"notes":[{"text":"one point","severity":"concern"},{"text":"two point","severity":"concern"}]}"#;
    let out = replay(&["--json", "--max-notes", "1", "-"], input)
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = json_lines(&out);
    assert_eq!(lines[1]["reason"], "over_budget");
    replay(&["--max-notes", "0", "-"], input).failure().code(2);
}

#[test]
fn a_malformed_line_is_reported_with_its_number_and_exit_1() {
    let input = "{\"notes\":[]}\nnot json\n{\"event\":\"explode\"}\n{\"notes\":[{\"text\":\"real point\",\"severity\":\"nit\"}]}\n";
    let a = replay(&["-"], input).code(1);
    let out = a.get_output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("<stdin>:2:"), "{stderr}");
    assert!(stderr.contains("<stdin>:3:"), "{stderr}");
    assert!(stderr.contains("2 malformed"), "{stderr}");
    // nothing skipped silently: the valid lines around the bad ones were still replayed
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("review 2"), "{stdout}");
    assert!(stdout.contains("real point"), "{stdout}");
}

#[test]
fn text_output_shows_decisions_and_the_exact_injection() {
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .args(["replay", "examples/replay/incident.jsonl"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("review 1: finish 3 note(s), interrupts"));
    assert!(text.contains("content_free"));
    assert!(text.contains("<advisory severity=\"concern\""));
    assert!(text.contains("over_budget"));
}

#[test]
fn a_missing_file_is_exit_2_naming_the_file() {
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["replay", "no/such/file.jsonl"])
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("no/such/file.jsonl"));
}

/// Runs the reference agent with `plugin` over two answers (two finishes).
fn run_two_finishes(plugin: advisor::AdvisorPlugin) {
    use advisor::{Agent, model::ScriptedModel};
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(
        Agent::new(ScriptedModel::texts(["a", "b"]))
            .extension(plugin)
            .run("task"),
    )
    .unwrap();
}

/// Records a real trace through the plugin and returns its JSONL text.
fn recorded_trace() -> String {
    use advisor::plugin::NamedReviewer;
    use advisor::review::{self, Review};
    use advisor::trace::MemoryTrace;
    use advisor::{AdvisorPlugin, Note, Severity};
    use std::sync::Arc;

    let trace = Arc::new(MemoryTrace::new());
    let plugin = AdvisorPlugin::builder()
        .add_reviewer(NamedReviewer::new(
            "correctness",
            review::from_sync_fn(|r: &Review| {
                Ok(vec![
                    Note::blocker("Stop."),
                    Note::concern(format!("the join drops refunds{}", "!".repeat(r.round as usize))),
                ])
            }),
        ))
        .add_reviewer(
            NamedReviewer::new(
                "style",
                review::from_sync_fn(|_r: &Review| Ok(vec![Note::blocker("rename the CTE")])),
            )
            .max_severity(Severity::Nit),
        )
        .trace(trace.clone())
        .build()
        .unwrap();
    run_two_finishes(plugin);
    trace
        .events()
        .iter()
        .map(|e| serde_json::to_string(e).unwrap() + "\n")
        .collect()
}

#[test]
fn a_recorded_trace_replays_to_the_same_decisions() {
    let trace = recorded_trace();
    let out = replay(&["--json", "--check", "-"], &trace)
        .success()
        .get_output()
        .stdout
        .clone();
    let lines = json_lines(&out);
    let notes: Vec<&Value> = lines.iter().filter(|l| l.get("note").is_some()).collect();
    assert!(notes.iter().all(|l| l["reason"] == l["recorded_reason"]));
    assert!(
        notes.iter().any(|l| l["reason"] == "duplicate"),
        "the second finish review repeated itself"
    );
    assert!(notes.iter().any(|l| l["reviewer"] == "style"));
    // the style reviewer's blocker was clamped to a nit when recorded, and is replayed as one
    let style_reviews: Vec<&Value> = lines.iter().filter(|l| l.get("interrupt").is_some()).collect();
    assert!(style_reviews.len() >= 3);
}

#[test]
fn check_fails_when_a_replayed_decision_differs_from_the_trace() {
    let tampered = recorded_trace().replacen("\"reason\":\"content_free\"", "\"reason\":\"accepted\"", 1);
    let a = replay(&["--check", "-"], &tampered).code(1);
    assert!(String::from_utf8_lossy(&a.get_output().stderr).contains("differ"));
    assert!(String::from_utf8_lossy(&a.get_output().stdout).contains("(recorded: accepted)"));
    // without --check the difference is shown but is not an error
    replay(&["-"], &tampered).success();
}

/// Issue 16 item 3: a trace records its guard settings (notes per review,
/// similarity, clamp), so `replay --check` is exact without repeating flags;
/// a trace without them falls back to the flags.
#[test]
fn a_trace_records_its_guard_settings_and_replay_needs_no_flags() {
    use advisor::review::{self, Review};
    use advisor::trace::MemoryTrace;
    use advisor::{AdvisorPlugin, Note, Severity};
    use std::sync::Arc;

    let trace = Arc::new(MemoryTrace::new());
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|_r: &Review| {
            Ok(vec![
                Note::blocker("the join drops refunded orders from the revenue total"),
                Note::concern("revenue total drops refunded orders in the join"),
                Note::concern("rename the CTE"),
            ])
        }))
        .max_notes_per_review(2)
        .similarity_dedupe(true)
        .max_severity(Severity::Concern)
        .trace(trace.clone())
        .build()
        .unwrap();
    run_two_finishes(plugin);
    let events = trace.events();
    let first = events.iter().find(|e| e.guard.is_some()).unwrap();
    let guard = first.guard.unwrap();
    assert_eq!(
        (guard.max_notes_per_review, guard.similarity, guard.max_severity),
        (2, true, Severity::Concern)
    );
    let lines: Vec<Value> = events.iter().map(|e| serde_json::to_value(e).unwrap()).collect();
    let text = |lines: &[Value]| lines.iter().map(|l| l.to_string() + "\n").collect::<String>();
    let out = replay(&["--json", "--check", "-"], &text(&lines))
        .success()
        .get_output()
        .stdout
        .clone();
    let reasons: Vec<String> = json_lines(&out)
        .iter()
        .filter_map(|l| l["reason"].as_str().map(str::to_owned))
        .collect();
    assert!(
        reasons.iter().any(|r| r == "duplicate"),
        "similarity was on: {reasons:?}"
    );
    // the same trace without its settings (as before 0.2.0): the flags decide
    let old: Vec<Value> = lines
        .into_iter()
        .map(|mut l| {
            l.as_object_mut().unwrap().remove("guard");
            l
        })
        .collect();
    replay(&["--check", "-"], &text(&old)).code(1);
    replay(&["--check", "--max-notes", "2", "--similarity", "-"], &text(&old)).success();
}

/// A scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("advisor-cli-replay-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_file_the_size_of_the_benchmark_corpus_streams_through() {
    // issue 14 item 4: 57 000 lines, 21 MB, replayed line by line
    let dir = scratch("big");
    let path = dir.join("big.jsonl");
    let filler = "x".repeat(330);
    let mut text = String::with_capacity(22 << 20);
    for i in 0..57_000 {
        text.push_str(&format!(
            "{{\"notes\":[{{\"text\":\"note {} {filler}\",\"severity\":\"nit\"}}]}}\n",
            i % 7
        ));
    }
    assert!(text.len() > 21_000_000);
    std::fs::write(&path, &text).unwrap();
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["replay", "--json"])
        .arg(&path)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert_eq!(stdout.lines().count(), 2 * 57_000);
    assert!(stdout.lines().last().unwrap().contains("\"review\":57000"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_line_over_the_cap_is_an_error_naming_it_and_the_rest_still_replays() {
    let dir = scratch("long-line");
    let path = dir.join("long.jsonl");
    let long = format!("{{\"notes\":[{{\"text\":\"{}\"}}]}}", "y".repeat(5 << 20));
    let text = format!(
        "{{\"notes\":[{{\"text\":\"first\",\"severity\":\"concern\"}}]}}\n{long}\n{{\"notes\":[{{\"text\":\"third\",\"severity\":\"concern\"}}]}}\n"
    );
    std::fs::write(&path, text).unwrap();
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["replay", "--json"])
        .arg(&path)
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("long.jsonl:2:") && stderr.contains("line cap"),
        "{stderr}"
    );
    let lines = json_lines(&out.get_output().stdout);
    assert_eq!(
        lines.iter().filter(|l| l["accepted"] == true).count(),
        2,
        "lines 1 and 3 replayed"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn endless_standard_input_is_an_error_naming_line_1_not_an_abort() {
    // issue 14 item 4: `replay - < /dev/zero` used to grow until killed
    // the device itself as standard input (not a copy of it)
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("advisor"))
        .args(["replay", "-"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(stderr.contains("<stdin>:1:") && stderr.contains("line cap"), "{stderr}");
    assert!(stderr.contains("longer than"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_device_or_directory_is_refused_without_reading_it() {
    for path in ["/dev/zero", "."] {
        let out = Command::cargo_bin("advisor")
            .unwrap()
            .args(["replay", path])
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains("not a regular file"), "{path}: {stderr}");
    }
}

#[test]
fn text_output_escapes_control_characters_from_notes_and_traces() {
    // issue 14 item 6: \r and ESC sequences must not repaint what a person reads
    let note = "the join drops refunds\r\u{1b}[2K\u{1b}[8mnit: fine";
    let input = serde_json::json!({"notes": [{"text": note, "severity": "blocker"}]}).to_string()
        + "\n"
        + &serde_json::json!({
            "schema": "advisor.trace.v1", "event": "review", "reviewer": "style\r\u{1b}[2Kok",
            "kind": "finish", "error": {"kind": "timeout", "message": "late\u{1b}[8m\r"}
        })
        .to_string()
        + "\n";
    let out = replay(&["-"], &input).get_output().clone();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(!stdout.contains('\u{1b}') && !stdout.contains('\r'), "{stdout:?}");
    assert!(stdout.contains("the join drops refunds"), "{stdout}");
    assert!(stdout.contains("style\\r\\u{1b}[2Kok"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
}

#[test]
fn json_output_is_unchanged_by_the_fast_writer() {
    // keys, reviewers and injections with every character class JSON escapes
    let input = serde_json::json!({"notes": [
        {"text": "quote \" backslash \\ tab\there — ünï 注文", "severity": "blocker"},
        {"text": "L.G.T.M", "severity": "concern"},
    ]})
    .to_string()
        + "\n";
    let out = replay(&["--json", "-"], &input).success().get_output().stdout.clone();
    for line in String::from_utf8(out).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            line,
            "written as serde_json writes it"
        );
    }
}

#[test]
fn review_lines_read_severities_as_models_write_them_and_traces_strictly() {
    let input = r#"{"notes":[{"text":"the join double-counts","severity":"Blocker"}]}
{"notes":[{"text":"refunds are missing","severity":" concern "}]}
{"notes":[{"text":"rename x","severity":"nit"}]}"#;
    let out = replay(&["--json", "-"], input).success().get_output().stdout.clone();
    let verdicts: Vec<Value> = json_lines(&out)
        .into_iter()
        .filter(|l| l.get("interrupt").is_some())
        .collect();
    let injection = |i: usize| verdicts[i]["injection"].as_str().unwrap_or_default().to_owned();
    assert!(
        injection(0).contains("<advisory severity=\"blocker\""),
        "{}",
        injection(0)
    );
    assert!(
        injection(1).contains("<advisory severity=\"concern\""),
        "{}",
        injection(1)
    );
    assert_eq!(verdicts[2]["interrupt"], false, "a nit does not interrupt");
    // a trace is what we wrote ourselves: an unknown severity there is a malformed line
    let trace = r#"{"schema":"advisor.trace.v1","reviewer":"advisor","event":"review","notes":[{"text":"x","severity":"critical"}],"decisions":[]}"#;
    let out = replay(&["--json", "-"], trace).get_output().clone();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("unknown variant"),
        "{out:?}"
    );
}
