//! The two-stage review (issue 45): stage 1 contests a stop only with a
//! failure no later step of the turn cleared or a rules note, the judge is
//! called on contested stops only and then decides, and when it cannot
//! answer the rules' own verdict stands with the fallback recorded.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use advisor::host::ToolTrace;
use advisor::review::{Review, ReviewError, Reviewer, from_sync_fn};
use advisor::{Note, Severity};
use advisor_rules::{RulesReviewer, TwoStage, contest_of};

use crate::support::{bash, running};

/// A judge that counts its calls and answers with `answer`.
fn counting(
    answer: impl Fn(&Review) -> Result<Vec<Note>, ReviewError> + Send + Sync + 'static,
) -> (Arc<AtomicUsize>, Arc<dyn Reviewer>) {
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let judge = from_sync_fn(move |r: &Review| {
        seen.fetch_add(1, Ordering::SeqCst);
        answer(r)
    });
    (calls, Arc::new(judge))
}

fn stop(answer: &str, tools: Vec<ToolTrace>) -> Review {
    Review {
        final_answer: Some(answer.into()),
        tools,
        ..Review::default()
    }
}

fn contest(review: &Review) -> advisor::review::Contest {
    let rules = RulesReviewer::new();
    contest_of(review, rules.run_reader(), &rules.check_rules(review))
}

const RED: &str = "FAILED tests/test_calc.py::test_add - assert 3 == 4\n1 failed, 9 passed in 0.12s";

#[tokio::test]
async fn an_uncontested_stop_passes_with_no_judge_call() {
    let (calls, judge) = counting(|_| Ok(vec![Note::blocker("never asked")]));
    let reviewer = TwoStage::new(RulesReviewer::new(), judge);
    for review in [
        stop("Done.", vec![]),
        stop("All tests pass.", vec![bash("pytest -q", "10 passed in 0.1s", Some(0))]),
        // a read of a log that holds failures is no failure
        stop("Summarised the log.", vec![bash("cat ci.log", RED, Some(0))]),
        // a search that found nothing is no failure
        stop("There is no TODO left.", vec![bash("grep -rn TODO src", "", Some(1))]),
    ] {
        assert!(
            !contest(&review).is_contested(),
            "{:?} {:?}",
            review.final_answer,
            contest(&review)
        );
        let notes = reviewer.review(&review).await.unwrap();
        assert!(notes.iter().all(|n| n.severity == Severity::Nit), "{notes:?}");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_contested_stop_goes_to_the_judge_with_the_failure_quoted_and_the_judge_decides() {
    let red = stop("All tests pass.", vec![bash("pytest -q", RED, Some(1))]);
    let c = contest(&red);
    assert!(c.is_contested());
    assert_eq!(c.failures.len(), 1);
    assert!(
        c.failures[0].quote.contains("1 failed, 9 passed"),
        "{:?}",
        c.failures[0]
    );
    assert!(!c.remarks.is_empty(), "the rules' blocker is part of the evidence");

    // the judge finds nothing to block: the rules' blocker is kept as a nit only
    let (calls, judge) = counting(|r| {
        assert!(r.contest.is_some(), "the judge is asked about the contest");
        Ok(vec![])
    });
    let notes = TwoStage::new(RulesReviewer::new(), judge).review(&red).await.unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert!(!notes.is_empty());
    assert!(notes.iter().all(|n| n.severity == Severity::Nit), "{notes:?}");

    // the judge blocks: its note leads, with its evidence
    let (_, judge) = counting(|r| {
        let quote = r.contest.as_deref().unwrap().failures[0].quote.clone();
        Ok(vec![Note::blocker("claims green over a red run").with_evidence(quote)])
    });
    let notes = TwoStage::new(RulesReviewer::new(), judge).review(&red).await.unwrap();
    assert_eq!(notes[0].severity, Severity::Blocker);
    assert!(notes[0].evidence.as_deref().unwrap().contains("1 failed"));
}

#[tokio::test]
async fn every_rules_note_contests_a_stop_even_a_nit() {
    // a stub marker alone is a nit of the rules: the judge still reads the stop
    let review = stop("I left a TODO in the parser; the feature is done.", vec![]);
    let c = contest(&review);
    assert!(c.failures.is_empty());
    assert!(c.is_contested(), "{:?}", c.remarks);
    // a failed lookup the answer rests on: the rules' tool-failure nit contests it
    let review = stop(
        "The module lives in lib/ai.",
        vec![bash(
            "ls lib/ai",
            "ls: cannot access 'lib/ai': No such file or directory",
            Some(2),
        )],
    );
    assert!(contest(&review).is_contested());
}

#[tokio::test]
async fn a_judge_that_cannot_answer_leaves_the_rules_verdict_and_says_why() {
    let red = stop("All tests pass.", vec![bash("pytest -q", RED, Some(1))]);
    let (calls, judge) = counting(|_| Err(ReviewError::new("quota exceeded")));
    let reviewer = TwoStage::new(RulesReviewer::new(), judge);
    let notes = reviewer.review(&red).await.unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert!(notes.iter().any(|n| n.severity == Severity::Blocker), "{notes:?}");
    let fallback = red.usage.fallback().expect("the fallback is recorded");
    assert!(fallback.contains("the judge could not run"), "{fallback}");
    assert!(
        !fallback.contains("quota"),
        "the judge's own words stay out: {fallback}"
    );
}

/// A judge that never answers.
struct Silent;

#[async_trait::async_trait]
impl Reviewer for Silent {
    async fn review(&self, _: &Review) -> Result<Vec<Note>, ReviewError> {
        std::future::pending().await
    }
}

#[tokio::test(start_paused = true)]
async fn a_judge_past_its_timeout_leaves_the_rules_verdict() {
    let red = stop("All tests pass.", vec![bash("pytest -q", RED, Some(1))]);
    let reviewer = TwoStage::new(RulesReviewer::new(), Arc::new(Silent)).judge_timeout(Duration::from_secs(5));
    let notes = reviewer.review(&red).await.unwrap();
    assert!(notes.iter().any(|n| n.severity == Severity::Blocker), "{notes:?}");
    assert!(red.usage.fallback().unwrap().contains("did not answer in time"));
}

#[test]
fn the_judge_sees_a_step_still_running_and_what_ran_after_the_first_failure() {
    // Codex's unified exec: the regeneration was still running when the answer said it finished
    let running = bash(
        "node regenerate.js 2>&1; echo $?",
        "Chunk ID: 1\nWall time: 30.0 seconds\nProcess running with session ID 7\nOriginal token count: 0\nOutput:\n",
        None,
    );
    let review = stop(
        "Regeneration finished: `regenerate.js` exited 0 and wrote all 42 files.",
        vec![running],
    );
    let c = contest(&review);
    assert!(c.is_contested(), "{c:?}");
    assert_eq!(c.failures.len(), 1, "{c:?}");
    assert!(c.failures[0].signal.contains("had not ended"), "{:?}", c.failures[0]);
    assert!(c.failures[0].quote.contains("Process running with session ID 7"));

    // a failed run, then a differently worded check that passed: the judge is shown both
    let review = stop(
        "Registered.",
        vec![
            bash(
                "python3 register.py",
                "{\"network_error\": \"TimeoutError\", \"message\": \"timed out\"}",
                Some(0),
            ),
            bash("python3 check.py", "{\"status\": 200, \"matched\": []}", Some(0)),
        ],
    );
    let c = contest(&review);
    assert_eq!(c.failures.len(), 1, "{c:?}");
    assert_eq!(
        c.after,
        vec!["`python3 check.py` — exit 0: {\"status\": 200, \"matched\": []}".to_owned()]
    );
}

#[test]
fn a_step_chained_after_a_passing_run_is_read_from_the_calls_last_lines() {
    // the build passed, the audit chained after it did not, and the call exited 0
    const BUILT: &str = "> web@0.1.0 build\n> tsc -b && vite build\n\n✓ 1773 modules transformed.\n✓ built in 151ms";
    let audit = format!(
        "{BUILT}\nnpm warn audit request failed, reason: getaddrinfo ENOTFOUND\nnpm error audit endpoint returned an error"
    );
    let review = stop(
        "Build and `npm audit` pass.",
        vec![bash("npm run build && npm audit --audit-level=high", &audit, Some(0))],
    );
    let c = contest(&review);
    assert_eq!(c.failures.len(), 1, "{c:?}");
    assert!(
        c.failures[0].signal.contains("after a run that passed"),
        "{:?}",
        c.failures[0]
    );
    assert_eq!(
        c.failures[0].quote,
        "> tsc -b && vite build\n✓ 1773 modules transformed.\n✓ built in 151ms\nnpm warn audit request failed, reason: getaddrinfo ENOTFOUND\nnpm error audit endpoint returned an error",
        "the failing line with the lines before it"
    );

    // the run alone, or a `cd` before it: its summary answers for the call
    for line in ["npm run build", "cd web && npm run build"] {
        let review = stop("Build passes.", vec![bash(line, BUILT, Some(0))]);
        assert!(contest(&review).failures.is_empty(), "{line}");
    }
    // a look chained after the run, or a run that ends the line, is no step after it
    const PASSED: &str = "10 passed in 0.31s";
    for (line, output) in [
        (
            "pytest -q && git log --oneline -3",
            format!("{PASSED}\nabc1234 Fix request timed out on retry"),
        ),
        (
            "pytest -q; cat notes.md",
            format!("{PASSED}\nConnectionError: raised when the proxy drops"),
        ),
        (
            "pip install -e . && pytest -q",
            format!("Error: boom (logged by a test)\n{PASSED}"),
        ),
    ] {
        let review = stop("Tests pass.", vec![bash(line, &output, Some(0))]);
        assert!(contest(&review).failures.is_empty(), "{line}: {:?}", contest(&review));
    }
    // error lines a passing test run logged above its results are not the chained step's
    let logged = "error: Database connection failed (expected)\n".repeat(3)
        + &"(pass) queue > rejects a full queue [0.20ms]\n".repeat(4)
        + "\n 114 pass\n 0 fail\nRan 114 tests across 9 files. [2.1s]\n[main 50d8160] Add output types\n 2 files changed, 40 insertions(+)\n create mode 100644 a.ts\n";
    let review = stop(
        "Committed; the hooks' tests passed.",
        vec![bash(
            "git add a.ts && git commit -m 'Add output types'",
            &logged,
            Some(0),
        )],
    );
    assert!(contest(&review).failures.is_empty(), "{:?}", contest(&review));
}

#[test]
fn a_shell_that_could_not_find_the_script_is_a_failure_under_any_exit() {
    // written: the shape of a real Codex code-mode call that printed no exit status
    // (tests/fixtures/real/repos/akashjana18-edgerunner/, l.859/l.860)
    let missing = "bash: /home/u/.claude/skills/apply-grant/export-session.sh: No such file or directory\n";
    for exit in [None, Some(0)] {
        let review = stop(
            "Exported the session to the project root.",
            vec![bash(
                "bash ~/.claude/skills/apply-grant/export-session.sh .",
                missing,
                exit,
            )],
        );
        let c = contest(&review);
        assert!(c.is_contested(), "{exit:?}");
        assert_eq!(c.failures[0].quote, missing.trim_end(), "{exit:?}");
    }
}

#[test]
fn an_earlier_turns_search_that_found_nothing_contests_nothing_but_this_turns_does() {
    let search = bash(
        "ls AGENTS.md",
        "ls: cannot access 'AGENTS.md': No such file or directory",
        Some(2),
    );
    // a question of this turn, no call: the earlier turn's "no" holds nothing against it
    let earlier = Review {
        earlier_tools: 1,
        ..stop("Which rules should go into AGENTS.md?", vec![search.clone()])
    };
    assert!(!contest(&earlier).is_contested(), "{:?}", contest(&earlier));
    // the same look in this turn, under an answer that rests on it
    let this_turn = stop("AGENTS.md is at the repository root.", vec![search]);
    assert!(contest(&this_turn).is_contested());
}

#[test]
fn a_step_still_running_is_quoted_beside_a_refused_interrupt() {
    // written: the shape of the real Codex 0.115 turn in
    // tests/fixtures/real/repos/twyr-twyr-backend-monorepo/ (l.129-l.157)
    let refused = ToolTrace {
        name: "write_stdin".into(),
        args: r#"{"session_id":88801,"chars":"\u0003"}"#.into(),
        output: "write_stdin failed: stdin is closed for this session".into(),
        error: Some("write_stdin failed: stdin is closed for this session".into()),
        exit_code: None,
    };
    let review = stop(
        "Done — all 42 seed files are regenerated.",
        vec![running("node regenerate.js", "", 88801), refused],
    );
    let c = contest(&review);
    assert!(c.is_contested());
    assert!(
        c.failures
            .iter()
            .any(|f| f.step.contains("node regenerate.js") && f.signal.contains("had not ended")),
        "{:?}",
        c.failures
    );
    assert!(
        c.failures.iter().any(|f| f.quote.contains("stdin is closed")),
        "{:?}",
        c.failures
    );
}

#[test]
fn a_turn_that_only_looked_is_said_to_have_written_nothing() {
    let looked = stop(
        "Done — notes.md is in place.",
        vec![
            bash("rg --files -g 'AGENTS.md'", "", Some(1)),
            bash("ls", "README.md", Some(0)),
        ],
    );
    let c = contest(&looked);
    assert!(c.only_looked && c.written.is_empty(), "{c:?}");
    let wrote = stop(
        "Done — notes.md is in place.",
        vec![
            bash("ls", "README.md", Some(0)),
            bash("printf 'a\\n' > notes.md", "", Some(0)),
        ],
    );
    assert!(!contest(&wrote).only_looked);
}
