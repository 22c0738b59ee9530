//! `advisor eval --config FILE` (issue 28, item 3): the reviewer comes from a
//! file in the user config's format — the rules, or a command reviewer (a
//! fake CLI written by the test, marked derived) — and every stop reports its
//! cost: tokens where known, tool calls and wall time.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn scratch() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_eval_config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn eval(config: &Path) -> Value {
    let labels = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/real/labels.jsonl");
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["eval", "--json", "--config"])
        .arg(config)
        .arg(labels)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_rules_from_a_config_file_report_wall_time_and_no_tokens() {
    let dir = scratch();
    let config = dir.join("rules.toml");
    std::fs::write(&config, "[reviewer]\nkind = \"rules\"\n").unwrap();
    let out = eval(&config);
    assert_eq!(out["reviewer"], "rules");
    assert_eq!(out["overall"]["recall"], 1.0, "the same verdicts as without --config");
    let case = &out["cases"][0]["cost"];
    assert!(
        case["wall_ms"].is_u64() && case["tokens"].is_null() && case["tool_calls"] == 0,
        "{case}"
    );
    assert_eq!(out["cost"]["stops_with_tokens"], 0);
}

#[test]
fn a_command_reviewer_from_a_config_file_is_measured_with_the_tokens_its_envelope_reports() {
    let dir = scratch();
    let fake = dir.join("fake-claude");
    let answer = r#"{"type":"result","is_error":false,"result":"{\"notes\":[]}","usage":{"input_tokens":700,"output_tokens":9}}"#;
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\n# derived: a stand-in for claude -p --output-format json\ncat > /dev/null\necho '{answer}'\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    // the claude preset's envelope, through a `command` of the same shape: a
    // fake on PATH named `claude`
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let _ = std::fs::remove_file(bin.join("claude"));
    std::os::unix::fs::symlink(&fake, bin.join("claude")).unwrap();
    let config = dir.join("claude.toml");
    std::fs::write(&config, "[reviewer]\nkind = \"command\"\npreset = \"claude\"\n").unwrap();
    let labels = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/real/labels.jsonl");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::cargo_bin("advisor")
        .unwrap()
        .args(["eval", "--json", "--config"])
        .arg(&config)
        .arg(labels)
        .env("PATH", path)
        .env("HOME", &dir)
        .output()
        .unwrap();
    let out: Value = serde_json::from_slice(&out.stdout).unwrap();
    // no `scope`: the rules read every stop, the preset judges only the
    // stops they contest
    assert_eq!(out["reviewer"], "claims: rules, then command preset \"claude\"");
    assert_eq!(out["errors"], 0, "{}", out["cases"]);
    let judged = out["judge"]["stops_judged"].as_u64().unwrap();
    let stops = out["overall"]["stops"].as_u64().unwrap();
    assert!(judged > 0 && judged < stops, "{}", out["judge"]);
    assert_eq!(out["judge"]["fallbacks"], 0, "{}", out["judge"]);
    assert_eq!(out["cost"]["stops_with_tokens"], judged, "{}", out["cost"]);
    assert_eq!(out["cost"]["mean_input_tokens"], 700, "{}", out["cost"]);
    assert_eq!(out["cost"]["mean_output_tokens"], 9);
    // the judge decides the stops it is asked about: it raised no notes, so
    // none is blocked, even where the rules alone would have blocked
    assert_eq!(out["overall"]["tp"], 0, "the fake raised no notes");
    let cases = out["cases"].as_array().unwrap();
    for c in cases {
        assert_eq!(c["judged"].as_bool(), Some(c["cost"]["tokens"].is_object()), "{c}");
    }

    // `scope = "full"`: one review of every stop with an answer
    std::fs::write(
        &config,
        "[reviewer]\nkind = \"command\"\npreset = \"claude\"\nscope = \"full\"\n",
    )
    .unwrap();
    let labels = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/real/labels.jsonl");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let full = Command::cargo_bin("advisor")
        .unwrap()
        .args(["eval", "--json", "--config"])
        .arg(&config)
        .arg(labels)
        .env("PATH", path)
        .env("HOME", &dir)
        .output()
        .unwrap();
    let full: Value = serde_json::from_slice(&full.stdout).unwrap();
    assert_eq!(full["reviewer"], "full: command preset \"claude\"");
    assert_eq!(full["errors"], 0, "{}", full["cases"]);
    assert!(
        full["judge"]["stops_judged"].as_u64().unwrap() > judged,
        "{}",
        full["judge"]
    );
    assert_eq!(full["cost"]["mean_input_tokens"], 700, "{}", full["cost"]);
}
