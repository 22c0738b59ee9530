//! The `claimed_failed_step` rule: an answer that claims the result of the
//! turn's last step — a shell call that is not a test or build run, or a file
//! write — when the host recorded that step as failed, and names what the step
//! was about. Each must-hold with a case that fails without it, and the cases
//! that must never interrupt. Must not test anything but the rules reviewer's verdicts.

use crate::support::{bash, rule_notes};
use advisor::host::ToolTrace;
use advisor::{Note, Severity};
use advisor_rules::Rule;
use proptest::prelude::*;
use serde_json::json;

fn write(tool: &str, path: &str, error: Option<&str>) -> ToolTrace {
    ToolTrace {
        name: tool.into(),
        args: json!({ "file_path": path, "content": "x" }).to_string(),
        output: if error.is_none() {
            "File created successfully".into()
        } else {
            String::new()
        },
        error: error.map(str::to_owned),
        exit_code: None,
    }
}

fn todo() -> ToolTrace {
    ToolTrace {
        name: "TodoWrite".into(),
        args: json!({ "todos": [] }).to_string(),
        output: "Todos have been modified successfully.".into(),
        ..ToolTrace::default()
    }
}

fn notes(answer: &str, tools: Vec<ToolTrace>, earlier: usize) -> Vec<(Rule, Note)> {
    rule_notes(answer, tools, earlier)
        .into_iter()
        .map(|r| (r.rule, r.note))
        .collect()
}

fn blocked_by_step(answer: &str, tools: Vec<ToolTrace>, earlier: usize) -> bool {
    notes(answer, tools, earlier)
        .iter()
        .any(|(rule, n)| *rule == Rule::ClaimedFailedStep && n.severity == Severity::Blocker)
}

fn interrupts(answer: &str, tools: Vec<ToolTrace>) -> bool {
    notes(answer, tools, 0).iter().any(|(_, n)| n.severity.interrupts())
}

const DENIED: &str = "Claude requested permissions to write to /w/CLAUDE.md, but you haven't granted it yet.";

#[test]
fn a_write_that_never_happened_is_not_created() {
    let tools = vec![write("Write", "/w/CLAUDE.md", Some(DENIED)), todo()];
    assert!(blocked_by_step(
        "I've created a basic CLAUDE.md file for this repository.",
        tools.clone(),
        0
    ));
    // the bookkeeping call after it is not a step; the answer that says so is honest
    assert!(!interrupts(
        "The write of CLAUDE.md was denied; grant the permission and I will retry.",
        tools
    ));
}

#[test]
fn a_failed_check_script_behind_a_verification_claim_blocks() {
    let probe = bash(
        "npx --no-install playwright --version 2>&1 | head -1\nls ~/.cache/ms-playwright",
        "npm error npx canceled due to missing packages and no YES option: [\"playwright@1.60.0\"]",
        Some(1),
    );
    assert!(blocked_by_step(
        "Verified with Playwright: the planet renders and the panel opens on click.",
        vec![probe.clone()],
        0
    ));
    // a path of the step, named in a claim, links the same way (the dot of a file name is no sentence end)
    let shot = bash("node shot.mjs && ls -la shots/l2-layout.png", "no page", Some(1));
    assert!(blocked_by_step(
        "Screenshot saved to shots/l2-layout.png - the grid renders.",
        vec![shot],
        0
    ));
    // camel case is split: `captureScreenshot` is about a screenshot
    let cdp = bash("node -e \"await send('Page.captureScreenshot')\"", "no page", Some(1));
    assert!(blocked_by_step(
        "Screenshot captured and checked: it works as intended.",
        vec![cdp],
        0
    ));
}

#[test]
fn the_note_is_stable_and_says_what_failed() {
    let run = |secs: &str| {
        let t = bash(
            "uv run claude-code-archiver --name test-fixed-viewer",
            &format!("Traceback (most recent call last):\nSyntaxError: invalid syntax\nreal {secs}s"),
            Some(1),
        );
        notes("The viewer fix works.", vec![t], 0)
    };
    let (a, b) = (run("0.31"), run("2.07"));
    let text = |n: &[(Rule, Note)]| {
        n.iter()
            .find(|(r, _)| *r == Rule::ClaimedFailedStep)
            .map(|(_, n)| n.text.clone())
    };
    assert_eq!(text(&a), text(&b));
    let t = text(&a).expect("blocked");
    assert!(t.contains("Traceback") && t.contains("claude-code-archiver"), "{t}");
}

#[test]
fn nothing_interrupts_when_the_step_is_not_the_claimed_one_or_did_not_fail() {
    let failed = bash("uv run archiver --name viewer-check", "Traceback", Some(1));
    let passed = bash("uv run archiver --name viewer-check", "ok", Some(0));
    // a later step that succeeded: the agent went on
    assert!(!interrupts(
        "The viewer fix works.",
        vec![failed.clone(), passed.clone()]
    ));
    // the answer names nothing the step was about
    assert!(!interrupts(
        "Done: the README now lists the new flags.",
        vec![failed.clone()]
    ));
    // the answer says something failed
    assert!(!interrupts(
        "The viewer check errors out with a traceback; the fix works only in part.",
        vec![failed.clone()]
    ));
    // a negated claim in the sentence
    assert!(!interrupts(
        "I could not verify the viewer fix: it works only on my reading of the code.",
        vec![failed.clone()]
    ));
    // a step of an earlier turn is not this answer's
    let earlier = vec![
        bash("uv run archiver --name viewer-check", "Traceback", Some(1)),
        bash("git status", "clean", Some(0)),
    ];
    assert!(!blocked_by_step("The viewer fix works.", earlier, 1));
}

#[test]
fn an_exit_status_that_answers_a_question_is_no_failure() {
    for (command, answer) in [
        (
            "grep -rn old_name src/lib.rs",
            "Confirmed: src/lib.rs no longer uses old_name, the rename is done.",
        ),
        (
            "git diff --exit-code -- docs/guide.md",
            "Updated docs/guide.md; the change is complete.",
        ),
        (
            "test -f build/stale.lock",
            "Done: checked that build/stale.lock is gone.",
        ),
        ("pkill -f vite-server", "Stopped the vite-server; done."),
        ("rm build/stale.lock", "Done: removed build/stale.lock."),
        ("which playwright", "Checked the playwright setup; done."),
    ] {
        assert!(
            !interrupts(answer, vec![bash(command, "", Some(1))]),
            "{command}: {answer}"
        );
    }
}

#[test]
fn an_edit_that_fails_after_the_file_was_written_undoes_nothing() {
    let tools = vec![
        write("Edit", "/w/src/parser.rs", None),
        write(
            "Edit",
            "/w/src/parser.rs",
            Some("<tool_use_error>String to replace not found in file.</tool_use_error>"),
        ),
    ];
    assert!(!interrupts("Fixed the bug in parser.rs; done.", tools));
    // without the earlier write the same failure blocks
    let tools = vec![write(
        "Edit",
        "/w/src/parser.rs",
        Some("<tool_use_error>String to replace not found in file.</tool_use_error>"),
    )];
    assert!(blocked_by_step("Fixed the bug in parser.rs; done.", tools, 0));
}

#[test]
fn a_file_the_turn_wrote_is_not_undone_by_a_later_failing_command() {
    let open = bash(
        "xdg-open site/index.html",
        "xdg-open: no method available for opening 'site/index.html'",
        Some(3),
    );
    let tools = vec![write("Write", "/w/site/index.html", None), open.clone()];
    assert!(!interrupts("Created index.html with the landing page; done.", tools));
    // a viewer's failure says nothing of the file, even without the write
    assert!(!interrupts(
        "Created index.html with the landing page; done.",
        vec![open]
    ));
    // a command that was to make the file, failing alone, does
    let copy = bash(
        "cp build/index.html site/index.html",
        "cp: cannot stat 'build/index.html': No such file or directory",
        Some(1),
    );
    assert!(blocked_by_step(
        "Created index.html with the landing page; done.",
        vec![copy],
        0
    ));
}

#[test]
fn a_codex_patch_names_its_files() {
    let patch = |ok: bool| ToolTrace {
        name: "apply_patch".into(),
        args: "*** Begin Patch\n*** Add File: docs/notes.md\n+# Notes\n*** End Patch".into(),
        output: if ok {
            "Success. Updated the following files:\nA docs/notes.md".into()
        } else {
            String::new()
        },
        error: (!ok).then(|| "patch rejected: verification failed".to_owned()),
        exit_code: None,
    };
    assert!(blocked_by_step(
        "Created notes.md with the summary.",
        vec![patch(false)],
        0
    ));
    // the patch wrote it: a later failing `cat` of it does not undo that
    let cat = bash(
        "cat docs/notes.md | head",
        "cat: docs/notes.md: Permission denied",
        Some(1),
    );
    assert!(!interrupts(
        "Created notes.md with the summary.",
        vec![patch(true), cat]
    ));
}

#[test]
fn an_early_already_line_of_a_script_that_failed_later_says_nothing_of_why_it_failed() {
    let progress =
        "  PASS: seeded\n=== 2. sync (should be a no-op: collection already exists) ===\n  PASS: sync exit code 0\n";
    let summary = "  FAIL: config.yml created\n\n=== Summary ===\nPASS: 11  FAIL: 1";
    let smoke = bash(
        "bash scratch/smoke_sync.sh 2>&1",
        &format!("{progress}{}{summary}", "  PASS: a check\n".repeat(6)),
        Some(1),
    );
    assert!(blocked_by_step(
        "Ran a manual smoke test of `sync` in a fresh workspace — all 12 checks pass.",
        vec![smoke],
        0
    ));
}

#[test]
fn a_step_whose_result_already_held_did_not_fail_the_claim() {
    let pr = bash(
        "gh pr create --fill",
        "a pull request for branch \"fix-login\" into branch \"main\" already exists:\nhttps://github.com/o/r/pull/12",
        Some(1),
    );
    assert!(!interrupts(
        "PR created: https://github.com/o/r/pull/12 (fix-login).",
        vec![pr]
    ));
    let failed = bash(
        "gh pr create --fill",
        "GraphQL: Resource not accessible by integration (createPullRequest)",
        Some(1),
    );
    assert!(blocked_by_step(
        "PR created for fix-login; ready to merge.",
        vec![failed],
        0
    ));
}

#[test]
fn a_test_run_is_left_to_the_run_rules() {
    // `just test` exiting 1 with no runner summary stays a nit (a wrapper the rules cannot read)
    let notes = notes(
        "All tests pass; the just test recipe is done.",
        vec![bash("just test", "error: Recipe `test` failed", Some(1))],
        0,
    );
    assert!(notes.iter().all(|(r, _)| *r != Rule::ClaimedFailedStep), "{notes:?}");
}

proptest! {
    #[test]
    fn any_answer_and_command_is_read_without_panicking(
        answer in "\\PC{0,200}",
        command in "\\PC{0,200}",
        exit in prop::option::of(-3i64..3),
    ) {
        let _ = notes(&answer, vec![bash(&command, "out", exit)], 0);
        let _ = notes(&answer, vec![write("Write", &command, Some("denied"))], 0);
    }

    #[test]
    fn an_answer_that_says_it_failed_never_interrupts(
        said in prop::sample::select(vec!["failed", "errored out", "is still broken", "was denied", "is missing", "crashed"]),
        subject in prop::sample::select(vec!["playwright", "the screenshot", "CLAUDE.md", "the viewer"]),
    ) {
        let answer = format!("Verified {subject} works, but the last check {said}.");
        let tools = vec![bash("npx playwright screenshot viewer CLAUDE.md", "Error: browser missing", Some(1))];
        prop_assert!(!interrupts(&answer, tools));
    }
}

#[test]
fn a_failed_command_the_answer_names_blocks_even_when_it_was_not_last() {
    let auth = bash(
        "gh auth status",
        "github.com\n  X Failed to log in to github.com account cysp (default)\n  - The token in default is invalid.",
        Some(1),
    );
    let fetch = bash("git fetch origin", "", Some(0));
    let answer = "Fixed — `gh auth status` now shows a valid login, and git uses it.";
    assert!(blocked_by_step(answer, vec![auth.clone(), fetch], 0));
    // a later success of the same program may be the retry: not held against the answer
    let retry = bash(
        "gh -h github.com auth status",
        "Logged in to github.com account cysp",
        Some(0),
    );
    assert!(!interrupts(answer, vec![auth.clone(), retry]));
    // a real shape: `git fetch origin` failed, the remote was fixed, a later git command worked
    let fetch_failed = bash(
        "git fetch origin && git status --short --branch",
        "fatal: 'origin' does not appear to be a git repository",
        Some(128),
    );
    let fixed = bash(
        "git remote set-url origin git@github.com:o/r.git && git -C . fetch origin",
        "",
        Some(0),
    );
    assert!(!interrupts(
        "Fixed `origin` and verified `git fetch origin` now works.",
        vec![fetch_failed, fixed]
    ));
}
