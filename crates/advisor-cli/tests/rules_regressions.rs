//! Regression tests for the rules reviewer, one per bullet of issue 13 and per
//! behaviour its "what must exist" list names. Transcript snippets here are
//! written (not real sessions); the real-session checks are `advisor eval`
//! over `tests/fixtures/real/labels.jsonl` (see `tests/cli_eval.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use advisor::Severity;
use advisor::host::ToolTrace;
use advisor::review::{Review, RulesReviewer, RunKind};
use advisor_cli::transcript::parse_transcript;
use serde_json::json;

fn bash(command: &str, description: &str, output: &str, exit: Option<i32>) -> ToolTrace {
    let output = match exit {
        Some(c) if c != 0 => format!("Exit code {c}\n{output}"),
        _ => output.to_owned(),
    };
    tool(
        "Bash",
        json!({ "command": command, "description": description }),
        &output,
        exit.filter(|c| *c != 0).map(|c| format!("Exit code {c}")).as_deref(),
    )
}

fn tool(name: &str, args: serde_json::Value, output: &str, error: Option<&str>) -> ToolTrace {
    // built through serde so a field the readers add later (e.g. `rejected`) takes its default
    serde_json::from_value(json!({ "name": name, "args": args.to_string(), "output": output, "error": error })).unwrap()
}

fn check_with(rules: &RulesReviewer, answer: &str, tools: Vec<ToolTrace>) -> Vec<advisor::Note> {
    rules.check(&Review {
        final_answer: Some(answer.into()),
        tools,
        ..Review::default()
    })
}

fn check(answer: &str, tools: Vec<ToolTrace>) -> Vec<advisor::Note> {
    check_with(&RulesReviewer::new(), answer, tools)
}

fn blocker(notes: &[advisor::Note]) -> Option<&advisor::Note> {
    notes.iter().find(|n| n.severity == Severity::Blocker)
}

fn interrupts(notes: &[advisor::Note]) -> bool {
    notes.iter().any(|n| n.severity.interrupts())
}

/// Whether the rules, with stub markers made concerns (`[rules] stub_markers
/// = "concern"`), raise one on `answer`.
fn flags_stub(answer: &str) -> bool {
    let rules = RulesReviewer::new().stub_markers(Severity::Concern);
    interrupts(&check_with(&rules, answer, vec![]))
}

const MIX_FAILING: &str = "..........F....\nFinished in 4.2 seconds (1.1s async, 3.1s sync)\n297 tests, 11 failures\n\nRandomized with seed 12345";

// bullet 1
#[test]
fn a_piped_mix_test_that_exits_0_over_failures_then_all_tests_pass_is_a_blocker_quoting_the_summary() {
    let notes = check(
        "All tests pass.",
        vec![bash("mix test 2>&1 | tail -30", "Run the tests", MIX_FAILING, None)],
    );
    let b = blocker(&notes).expect("a blocker");
    assert!(
        b.text.contains("`mix test`") && b.text.contains("297 tests, 11 failures"),
        "{}",
        b.text
    );
}

// bullet 2 (through the real Codex reader: the output arrives on write_stdin)
#[test]
fn codex_unified_exec_output_arriving_on_write_stdin_is_attributed_to_its_run() {
    let line = |v: serde_json::Value| v.to_string() + "\n";
    let mut text = String::new();
    text += &line(json!({"timestamp":"t","type":"session_meta","payload":{"id":"x","cli_version":"0.125.0"}}));
    text += &line(
        json!({"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"make the test pass"}]}}),
    );
    text += &line(
        json!({"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":json!({"cmd":"npx vitest run src/a.test.ts","yield_time_ms":1000}).to_string(),"call_id":"c1"}}),
    );
    text += &line(
        json!({"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 83395\nOriginal token count: 0\nOutput:\n"}}),
    );
    text += &line(
        json!({"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"write_stdin","arguments":json!({"session_id":83395,"chars":""}).to_string(),"call_id":"c2"}}),
    );
    text += &line(
        json!({"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"Chunk ID: b\nWall time: 0.0 seconds\nProcess exited with code 1\nOutput:\n Test Files  1 failed (1)\n      Tests  1 failed | 15 skipped (16)\n"}}),
    );
    text += &line(
        json!({"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Implemented it; all tests pass."}]}}),
    );
    let (t, _) = parse_transcript("rollout", &text, None).expect("reads");
    let notes = check(t.last_answer().unwrap_or_default(), t.tools.clone());
    let b = blocker(&notes).expect("a blocker");
    assert!(
        b.text.contains("`npx vitest run src/a.test.ts`") && b.text.contains("Tests 1 failed | 15 skipped (16)"),
        "{}",
        b.text
    );
}

// bullet 3
#[test]
fn an_admission_with_a_typographic_apostrophe_is_read_like_one_with_an_ascii_one() {
    for answer in [
        "I couldn’t get the renderer test green yet.",
        "I couldn't get the renderer test green yet.",
        "I COULDN’T get the renderer test green yet — it’s close.",
    ] {
        let notes = check(answer, vec![bash("mix test", "Run the tests", MIX_FAILING, Some(2))]);
        assert!(blocker(&notes).is_none(), "{answer}: {notes:?}");
        assert!(
            !interrupts(&notes),
            "{answer}: an admission reports the failure: {notes:?}"
        );
    }
}

// bullet 4
#[test]
fn reads_git_commands_and_descriptions_mentioning_test_or_check_are_not_test_runs() {
    let answer = "All tests pass; the changes are committed.";
    let cases = vec![
        tool(
            "Read",
            json!({"file_path": "test/support/conn_case.ex"}),
            "",
            Some("<tool_use_error>File does not exist.</tool_use_error>"),
        ),
        bash(
            "git add test/foo_test.exs",
            "Stage the test file",
            "fatal: pathspec 'test/foo_test.exs' did not match any files",
            Some(128),
        ),
        bash(
            "git status --porcelain=v3",
            "Check git status",
            "error: unknown porcelain version",
            Some(129),
        ),
        bash(
            "make clean",
            "Clean the build",
            "rm: cannot remove 'build': Permission denied",
            Some(2),
        ),
        tool("build_docs", json!({"target": "check"}), "", Some("HTTP 500")),
    ];
    for t in cases {
        let notes = check(answer, vec![t.clone()]);
        assert!(!interrupts(&notes), "{}: {notes:?}", t.name);
        assert!(notes.iter().all(|n| !n.text.contains("claims success")), "{notes:?}");
    }
}

// bullet 5
#[test]
fn a_grep_whose_output_says_failed_is_not_a_failed_run() {
    let grep = tool(
        "Grep",
        json!({"pattern": "FAILED", "path": "logs"}),
        "logs/ci.txt:12:test result: FAILED. 1 passed; 1 failed",
        Some("logs/ci.txt:12:test result: FAILED. 1 passed; 1 failed"),
    );
    assert!(!interrupts(&check("All tests pass.", vec![grep])));
    let rg = bash(
        "rg -n FAILED logs/",
        "Search the logs",
        "logs/ci.txt:12:FAILED tests/a.py::b",
        None,
    );
    assert!(!interrupts(&check("All tests pass.", vec![rg])));
}

#[test]
fn a_passing_cargo_test_whose_test_names_contain_failed_is_a_pass() {
    let out = "running 2 tests\ntest retry::gives_up_after_3_failed_attempts ... ok\ntest retry::failed_fetch_is_retried ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s";
    let mut t = bash("cargo test", "Run the tests", out, None);
    // the transcript readers' generic heuristic flags "3 failed" in a test name; the summary line wins
    t.error = Some("test retry::gives_up_after_3_failed_attempts ... ok".into());
    assert!(check("All tests pass.", vec![t]).is_empty());
}

// bullet 6
#[test]
fn the_blocker_quotes_the_failing_runners_summary_not_a_sibling_error() {
    let cargo = bash(
        "cargo test",
        "Run the tests",
        "test parse::rejects_empty ... FAILED\n\ntest result: FAILED. 11 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s",
        Some(101),
    );
    let sibling = tool(
        "Bash",
        json!({"command": "cargo clippy --all-targets"}),
        "<tool_use_error>Sibling tool call errored</tool_use_error>",
        Some("<tool_use_error>Sibling tool call errored</tool_use_error>"),
    );
    let notes = check("Everything is fixed; all tests pass.", vec![cargo, sibling]);
    let b = blocker(&notes).expect("a blocker");
    assert!(
        b.text.contains("`cargo test`") && b.text.contains("test result: FAILED. 11 passed; 1 failed"),
        "{}",
        b.text
    );
    assert!(!b.text.contains("Sibling"), "{}", b.text);
}

// item 2: clearing
#[test]
fn a_narrower_passing_run_does_not_clear_a_failing_run_but_the_same_or_a_broader_one_does() {
    let fail = || {
        bash(
            "cargo test",
            "Run the tests",
            "test result: FAILED. 11 passed; 1 failed",
            Some(101),
        )
    };
    let pass = |cmd: &str| {
        bash(
            cmd,
            "Run the tests",
            "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 11 filtered out",
            None,
        )
    };
    let claim = "Fixed it; the tests pass now.";
    assert!(
        blocker(&check(claim, vec![fail(), pass("cargo test foo")])).is_some(),
        "cargo test foo is narrower"
    );
    assert!(
        blocker(&check(claim, vec![fail(), pass("cargo test -p other")])).is_some(),
        "another package is narrower"
    );
    assert!(
        check(claim, vec![fail(), pass("cargo test")]).is_empty(),
        "the same command clears it"
    );
    assert!(
        check(
            claim,
            vec![fail(), pass("cd app && RUST_LOG=debug cargo test -q 2>&1 | tail -3")]
        )
        .is_empty(),
        "prefixes, a pipe and -q select the same tests"
    );
    let narrow_fail = bash(
        "cargo test foo",
        "Run one test",
        "test result: FAILED. 0 passed; 1 failed",
        Some(101),
    );
    assert!(
        check(claim, vec![narrow_fail, pass("cargo test")]).is_empty(),
        "a broader run clears a narrow failure"
    );
    let build_fail = bash("cargo build", "Build", "error[E0425]: cannot find value `x`", Some(101));
    assert!(
        check(claim, vec![build_fail, pass("cargo test")]).is_empty(),
        "a passing cargo test also built"
    );
}

#[test]
fn a_rejected_or_cancelled_call_is_not_a_failure() {
    let rejected = tool(
        "Bash",
        json!({"command": "cargo test"}),
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).",
        Some(
            "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).",
        ),
    );
    assert!(check("Done; all tests pass.", vec![rejected.clone()]).is_empty());
    // and it does not clear an earlier failure either
    let fail = bash(
        "cargo test",
        "Run the tests",
        "test result: FAILED. 1 passed; 1 failed",
        Some(101),
    );
    assert!(blocker(&check("Done; all tests pass.", vec![fail, rejected])).is_some());
}

// item 1: non-shell tools marked as runners by name
#[test]
fn a_tool_marked_as_a_test_runner_by_name_is_read_and_an_unmarked_one_is_not() {
    let run = tool("run_tests", json!({}), "3 passed, 2 failed in 0.50s", Some("2 failed"));
    let marked = RulesReviewer::new().runner_tool("run_tests", RunKind::Test);
    let notes = check_with(&marked, "All tests pass.", vec![run.clone()]);
    let b = blocker(&notes).expect("a configured runner tool is read");
    assert!(
        b.text.contains("`run_tests`") && b.text.contains("3 passed, 2 failed in …s"),
        "{}",
        b.text
    );
    // no summary line: the host's error decides
    let bare = tool("RUN_TESTS", json!({}), "", Some("suite crashed"));
    assert!(
        blocker(&check_with(&marked, "All tests pass.", vec![bare])).is_some(),
        "names match case-insensitively"
    );
    // a passing later call clears it
    let ok = tool("run_tests", json!({}), "5 passed in 0.40s", None);
    assert!(blocker(&check_with(&marked, "All tests pass.", vec![run.clone(), ok])).is_none());
    // not configured: a tool name is never read as a runner
    assert!(blocker(&check("All tests pass.", vec![run])).is_none());
    let build = RulesReviewer::new().runner_tool("compile", RunKind::Build);
    let notes = check_with(
        &build,
        "It builds successfully.",
        vec![tool("compile", json!({}), "", Some("exit status 1"))],
    );
    assert!(
        blocker(&notes).is_some_and(|b| b.text.contains("same build")),
        "{notes:?}"
    );
}

// item 1: shapes of commands
#[test]
fn commands_are_read_through_chains_env_prefixes_cd_shells_and_argv_arrays() {
    let claim = "Done; all tests pass.";
    for args in [
        json!({"command": "cd web && CI=1 npx vitest run"}),
        json!({"cmd": "cd web && CI=1 npx vitest run"}),
        json!({"command": ["bash", "-lc", "cd web && npx vitest run"]}),
        json!({"command": "npm ci && npm test -- --run 2>&1 | tail -20"}),
    ] {
        let t = tool("exec_command", args.clone(), "Tests  2 failed | 10 passed (12)", None);
        assert!(blocker(&check(claim, vec![t])).is_some(), "{args}");
    }
}

// item 4
#[test]
fn an_unreported_failure_is_a_nit_that_quotes_the_run() {
    let notes = check(
        "I refactored the parser into two modules.",
        vec![bash(
            "go test ./...",
            "Run go tests",
            "--- FAIL: TestParse (0.00s)\nFAIL\tgithub.com/acme/app/parse\t0.004s",
            Some(1),
        )],
    );
    assert_eq!(notes.len(), 1, "{notes:?}");
    // the answer claims nothing the failure contradicts: recorded, never sent back
    assert_eq!(notes[0].severity, Severity::Nit);
    assert!(
        notes[0].text.contains("`go test ./...`") && notes[0].text.contains("FAIL github.com/acme/app/parse"),
        "{}",
        notes[0].text
    );
}

#[test]
fn stub_markers_are_nits_by_default_concerns_when_asked_and_mock_is_not_one() {
    // the answer told the user itself: recorded, not sent back
    assert!(!interrupts(&check("Added a TODO for the last page.", vec![])));
    assert!(
        check("Added a TODO for the last page.", vec![])
            .iter()
            .any(|n| n.severity == Severity::Nit)
    );
    assert!(flags_stub("Added a TODO for the last page."));
    assert!(flags_stub("It returns a placeholder value."));
    assert!(!flags_stub("The HTTP client is mocked in the integration tests."));
    assert!(!flags_stub("I used a mock server for the API tests."));
    // inside a negation, in so many words
    assert!(!flags_stub("No TODOs or stubs are left."));
    assert!(!flags_stub(
        "I removed the placeholder values; there are no stubs anymore."
    ));
    assert!(!flags_stub("The module is free of TODO markers."));
    assert!(flags_stub("No tests changed, but I left a TODO in the parser."));
}

// item 1: the runner tools come from the workspace file's `[rules]` table
#[test]
fn the_workspace_rules_table_marks_runner_tools_by_name() {
    let config = advisor_cli::config::WorkspaceConfig::parse(
        "config.toml",
        "[rules]\ntest_tools = [\"run_tests\"]\nbuild_tools = [\"compile\"]\n",
    )
    .unwrap();
    let rules = config.rules.reviewer();
    let run = tool("run_tests", json!({}), "3 passed, 2 failed in 0.50s", Some("2 failed"));
    assert!(blocker(&check_with(&rules, "All tests pass.", vec![run])).is_some());
    let build = tool("compile", json!({}), "", Some("exit status 1"));
    assert!(blocker(&check_with(&rules, "It builds successfully.", vec![build])).is_some());
    let err = advisor_cli::config::WorkspaceConfig::parse("config.toml", "[rules]\ntest_tool = [\"x\"]\n").unwrap_err();
    assert!(err.to_string().contains("test_tool"), "{err}");
}

// a report that describes existing code as "a placeholder" is not a stub (real: the
// Explore subagent of tests/fixtures/real/claude-2.1.38-spotter-subagent-afc096d.jsonl)
#[test]
fn a_marker_word_that_describes_existing_code_is_not_a_stub() {
    assert!(!flags_stub(
        "This is a placeholder directory (2 small config files), not containing application code."
    ));
    assert!(!flags_stub("The legacy module is a stub kept for compatibility"));
    assert!(flags_stub("I left a placeholder in the config loader."));
    assert!(flags_stub("The handler is a stub for now."));
    assert!(flags_stub("The endpoint returns stub data."));
}

#[test]
fn a_marker_word_that_closes_its_clause_names_the_result() {
    assert!(flags_stub("Done, though the export is still a placeholder."));
    assert!(flags_stub("The parser is a stub; the rest works"));
}
