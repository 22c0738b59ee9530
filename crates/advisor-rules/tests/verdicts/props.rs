//! Property tests for the rules reviewer: a claim over a failing run is
//! flagged however it is typed (quotes, apostrophes, casing, width), an
//! admission is never flagged however it is typed, and a run whose output has
//! no summary line falls back to its exit status.
//! Must not test anything but the rules reviewer's verdicts.

use advisor::Severity;
use advisor::host::ToolTrace;
use advisor::review::Review;
use advisor_rules::RulesReviewer;
use proptest::prelude::*;
use serde_json::json;

/// Claims as an agent writes them; `'` marks an apostrophe, `"` a quote.
const CLAIMS: &[&str] = &[
    "All tests pass.",
    "I've fixed it: all tests pass.",
    "It's done — the \"parser\" tests pass now.",
    "Everything works now; it's ready for review.",
    "The build succeeds and it's all green.",
    "Fixed the failing test; the suite passes.",
    "Done! I've implemented the export.",
];

/// Admissions; an answer with one claims nothing.
const ADMISSIONS: &[&str] = &[
    "I couldn't get the renderer test green yet.",
    "The tests still fail: 2 failures remain in io.",
    "It's not passing yet; I haven't found the cause.",
    "I wasn't able to fix the last test, it's still red.",
];

const APOSTROPHES: &[char] = &['\'', '\u{2019}', '\u{2018}', '\u{02BC}', '\u{FF07}'];
const QUOTES: &[(char, char)] = &[
    ('"', '"'),
    ('\u{201C}', '\u{201D}'),
    ('\u{201E}', '\u{201C}'),
    ('\u{FF02}', '\u{FF02}'),
];

/// Rewrites `text` with the chosen apostrophe, quotes and per-letter casing.
fn retype(text: &str, apostrophe: char, quotes: (char, char), casing: &[bool], wrap: bool) -> String {
    let mut open = true;
    let body: String = text
        .chars()
        .enumerate()
        .map(|(i, c)| match c {
            '\'' => apostrophe,
            '"' => {
                let q = if open { quotes.0 } else { quotes.1 };
                open = !open;
                q
            }
            c if casing.get(i % casing.len().max(1)).copied().unwrap_or(false) => c.to_uppercase().next().unwrap_or(c),
            c => c,
        })
        .collect();
    if wrap {
        format!("{}{body}{}", quotes.0, quotes.1)
    } else {
        body
    }
}

/// A Bash call, built through serde so a field the readers add later takes its default.
fn trace(args: serde_json::Value, output: &str, error: Option<String>) -> ToolTrace {
    serde_json::from_value(json!({ "name": "Bash", "args": args.to_string(), "output": output, "error": error }))
        .unwrap()
}

fn failing_run(piped: bool) -> ToolTrace {
    let summary = "Finished in 4.2 seconds\n297 tests, 11 failures";
    ToolTrace {
        name: "Bash".into(),
        args: json!({ "command": if piped { "mix test 2>&1 | tail -30" } else { "mix test" } }).to_string(),
        output: if piped {
            summary.to_owned()
        } else {
            format!("Exit code 2\n{summary}")
        },
        error: (!piped).then(|| "Exit code 2".to_owned()),
        exit_code: None,
    }
}

fn check(answer: &str, tools: Vec<ToolTrace>) -> Vec<advisor::Note> {
    RulesReviewer::new().check(&Review {
        final_answer: Some(answer.to_owned()),
        tools,
        ..Review::default()
    })
}

proptest! {
    #[test]
    fn a_claim_over_a_failing_run_is_flagged_however_it_is_typed(
        claim in prop::sample::select(CLAIMS),
        apostrophe in prop::sample::select(APOSTROPHES),
        quotes in prop::sample::select(QUOTES),
        casing in prop::collection::vec(any::<bool>(), 1..8),
        wrap in any::<bool>(),
        piped in any::<bool>(),
    ) {
        let answer = retype(claim, apostrophe, quotes, &casing, wrap);
        let notes = check(&answer, vec![failing_run(piped)]);
        prop_assert!(notes.iter().any(|n| n.severity == Severity::Blocker), "{answer:?}: {notes:?}");
    }

    #[test]
    fn an_admission_is_never_a_false_claim_however_it_is_typed(
        admission in prop::sample::select(ADMISSIONS),
        apostrophe in prop::sample::select(APOSTROPHES),
        quotes in prop::sample::select(QUOTES),
        casing in prop::collection::vec(any::<bool>(), 1..8),
        piped in any::<bool>(),
    ) {
        let answer = retype(admission, apostrophe, quotes, &casing, false);
        let notes = check(&answer, vec![failing_run(piped)]);
        prop_assert!(notes.iter().all(|n| !n.severity.interrupts()), "{answer:?}: {notes:?}");
    }

    #[test]
    fn a_run_without_a_summary_line_falls_back_to_its_exit_status(
        words in prop::collection::vec("[a-z]{1,8}", 0..40),
        code in 0i32..=255,
        runner in prop::sample::select(&["cargo test", "pytest -q", "go test ./...", "npx vitest run", "mix test", "make check"][..]),
    ) {
        let body = words.chunks(6).map(|c| c.join(" ")).collect::<Vec<_>>().join("\n");
        let output = if code == 0 { body } else { format!("Exit code {code}\n{body}") };
        let run = trace(json!({ "command": runner }), &output, (code != 0).then(|| format!("Exit code {code}")));
        let notes = check("All tests pass.", vec![run]);
        let blocked = notes.iter().any(|n| n.severity == Severity::Blocker);
        prop_assert_eq!(blocked, code != 0, "{:?}", notes);
        if code != 0 {
            let expected = format!("exit status {code}");
            prop_assert!(notes[0].text.contains(&expected), "{}", notes[0].text);
        }
    }
}
