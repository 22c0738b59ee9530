//! Long outputs as the rules read them in a plugin's finish review: tools
//! bounded with the rules' own evidence bounds (16 000 bytes of each call),
//! the checks over them, a Codex `shell_command` record, and the fillers that
//! put a decisive line far from the end of an output. Derived, written for
//! these tests. Must not hold cases.

use advisor::evidence::{EvidenceBounds, bound_tools};
use advisor::host::ToolTrace;
use advisor::review::Reviewer;
use advisor_rules::RulesReviewer;
use serde_json::json;

use super::{blocks, honest, interrupting};

/// The tools bounded_for_rules as a plugin finish review bounds them for the rules.
pub(crate) fn bounded_for_rules(tools: Vec<ToolTrace>) -> Vec<ToolTrace> {
    let bounds = RulesReviewer::new().evidence_bounds(EvidenceBounds::default());
    bound_tools(&tools, &bounds).0
}
/// An honest stop over bounded_for_rules tools.
pub(crate) fn honest_b(answer: &str, tools: Vec<ToolTrace>) {
    honest(answer, bounded_for_rules(tools));
}
/// An honest stop over bounded_for_rules tools whose first `earlier` came before the turn.
pub(crate) fn honest_after_b(answer: &str, tools: Vec<ToolTrace>, earlier: usize) {
    let notes = interrupting(answer, bounded_for_rules(tools), earlier);
    assert!(
        notes.is_empty(),
        "false block of an honest answer {answer:?}: {notes:?}"
    );
}
/// A false claim over bounded_for_rules tools.
pub(crate) fn blocks_b(answer: &str, tools: Vec<ToolTrace>) {
    blocks(answer, bounded_for_rules(tools), 0);
}
/// A Codex `shell_command` call as its reader records it.
pub(crate) fn shell_command(cmd: &str, output: &str, code: i64) -> ToolTrace {
    ToolTrace {
        name: "shell_command".into(),
        args: json!({ "command": cmd, "workdir": "repo" }).to_string(),
        output: format!("Exit code: {code}\nWall time: 4.1 seconds\nOutput:\n{output}"),
        error: (code != 0).then(|| format!("exit code {code}")),
        exit_code: Some(code),
    }
}
/// `n` lines, the `i`-th written by `line(i)`, joined by newlines: the filler
/// that puts a decisive line far from the end of an output.
pub(crate) fn numbered(n: usize, line: impl Fn(usize) -> String) -> String {
    (0..n).map(line).collect::<Vec<_>>().join("\n")
}
pub(crate) fn pytest_passed(n: usize) -> String {
    numbered(n, |i| {
        format!(
            "tests/test_api_{}.py::test_case_{i} PASSED{:>30}",
            i / 25,
            format!("[{:>3}%]", i * 100 / n)
        )
    })
}
pub(crate) fn go_ok(n: usize) -> String {
    numbered(n, |i| {
        format!("ok  \texample.com/app/internal/pkg{i:02}\t0.{:03}s", 10 + i)
    })
}
pub(crate) fn compiling(n: usize) -> String {
    numbered(n, |i| format!("   Compiling dependency-{i:02} v0.{i}.3"))
}
pub(crate) fn vite_assets(n: usize) -> String {
    numbered(n, |i| {
        format!(
            "dist/assets/chunk-{i:02}-9f3a1c.js    {}.42 kB │ gzip:  4.10 kB",
            10 + i
        )
    })
}
pub(crate) fn pip_lines(n: usize) -> String {
    numbered(n, |i| {
        format!(
            "Requirement already satisfied: package-{i:02}>=1.{i} in ./.venv/lib/python3.12/site-packages (1.{i}.4)"
        )
    })
}
pub(crate) fn jest_pass_lines(n: usize) -> String {
    numbered(n, |i| {
        format!("PASS src/components/widget{i:02}.test.tsx\n  ✓ renders widget {i} (12 ms)")
    })
}
pub(crate) fn cargo_ok_tests(n: usize) -> String {
    numbered(n, |i| format!("test parse::tests::case_{i:03} ... ok"))
}
pub(crate) const JEST_FAIL: &str = "FAIL src/cart.test.ts\n  ● cart › applies discount\n\n    expect(received).toBe(expected)\n\n    Expected: 90\n    Received: 100\n\nTest Suites: 1 failed, 11 passed, 12 total\nTests:       1 failed, 87 passed, 88 total\nSnapshots:   0 total\nTime:        6.1 s";
pub(crate) const JEST_OK: &str = "Test Suites: 12 passed, 12 total\nTests:       88 passed, 88 total\nSnapshots:   0 total\nTime:        5.8 s\nRan all test suites.";
pub(crate) const PYTEST_FAIL: &str = "=================================== FAILURES ===================================\n______________________________ test_parse_dates ______________________________\n\n    def test_parse_dates():\n>       assert parse('2024-03-10T02:30') == expected\nE       AssertionError: assert datetime(2024, 3, 10, 3, 30) == datetime(2024, 3, 10, 2, 30)\n\ntests/test_dates.py:41: AssertionError\n=========================== short test summary info ============================\nFAILED tests/test_dates.py::test_parse_dates - AssertionError\n========================= 1 failed, 209 passed in 8.12s =========================";
pub(crate) const PYTEST_OK: &str = "============================= 210 passed in 7.95s ==============================";
pub(crate) fn sized(s: &str) -> &str {
    assert!(s.len() > 2_000 && s.len() < 16_000, "filler size {}", s.len());
    s
}
