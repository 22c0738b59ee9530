//! The harness of the real-model test binaries (`harness = false`): each test
//! is a [`Trial`] that the runner reports as **ignored** — never as passed —
//! when the local model is switched off with `ADVISOR_SKIP_REAL_LLM=1`, so a
//! test that could not run can be seen in `cargo test`'s closing line
//! (`… 0 passed; 0 failed; 2 ignored`). `--include-ignored` runs them anyway.
//! Must not decide how a test talks to the model: that is [`crate::local_llm`].

use std::future::Future;
use std::process::ExitCode;

pub use libtest_mimic::Trial;
use libtest_mimic::{Arguments, Conclusion};

/// Whether the real-model tests are switched off (`ADVISOR_SKIP_REAL_LLM=1`).
pub fn skipped() -> bool {
    std::env::var("ADVISOR_SKIP_REAL_LLM").as_deref() == Ok("1")
}

/// A real-model test: `test` runs on a two-worker Tokio runtime (as
/// `#[tokio::test(flavor = "multi_thread", worker_threads = 2)]` did);
/// ignored when [`skipped`].
pub fn trial<F, Fut>(name: &str, test: F) -> Trial
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = ()>,
{
    trial_if(!skipped(), name, test)
}

/// [`trial`] with the switch given: ignored unless `enabled`.
pub fn trial_if<F, Fut>(enabled: bool, name: &str, test: F) -> Trial
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = ()>,
{
    Trial::test(name, move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the test's runtime: {e}"))?;
        runtime.block_on(test());
        Ok(())
    })
    .with_ignored_flag(!enabled)
}

/// Runs `trials` with the command line's arguments (`cargo test`'s filters,
/// `--include-ignored`, `--list`…) and gives the exit code. When the tests
/// are switched off it says why on stderr, and how to switch them on.
pub fn run(trials: Vec<Trial>) -> ExitCode {
    let args = Arguments::from_args();
    if !args.list {
        if skipped() && !args.include_ignored && !args.ignored {
            eprintln!(
                "real-model tests ignored: ADVISOR_SKIP_REAL_LLM=1 (unset it to run them; scripts/local-llm.sh sets up the model)"
            );
        } else {
            eprintln!("{EXPECTED}");
        }
    }
    conclude(&args, trials).exit_code()
}

/// What a run of the real-model tests says before their output: some of
/// them provoke a failure on purpose and print it.
pub const EXPECTED: &str = "real-model tests: the first one sets up the local model (its progress lines follow; minutes on a first run). \
Some provoke a failure on purpose and print it: a prompt refused for its size (`400 Bad Request`) and a server killed with SIGSEGV \
are expected there; only a line `test … FAILED` is a failure.";

/// [`libtest_mimic::run`], for the tests of this module.
fn conclude(args: &Arguments, trials: Vec<Trial>) -> Conclusion {
    libtest_mimic::run(args, trials)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// One thread, the runner's report in a log file: an inner "test result:
    /// FAILED" line must not reach this binary's own output.
    fn quietly(tag: &str, trials: Vec<Trial>) -> Conclusion {
        let log = std::env::temp_dir().join(format!("advisor-testkit-{tag}-{}.log", std::process::id()));
        let args = Arguments {
            test_threads: Some(1),
            logfile: Some(log.display().to_string()),
            ..Arguments::default()
        };
        let c = conclude(&args, trials);
        let _ = std::fs::remove_file(log);
        c
    }

    #[test]
    fn a_switched_off_test_is_ignored_and_never_runs() {
        let ran = Arc::new(AtomicBool::new(false));
        let flag = ran.clone();
        let c = quietly(
            "off",
            vec![trial_if(false, "off", move || async move {
                flag.store(true, Ordering::SeqCst);
            })],
        );
        assert_eq!((c.num_passed, c.num_ignored, c.num_failed), (0, 1, 0));
        assert!(!ran.load(Ordering::SeqCst));
    }

    #[test]
    fn a_switched_on_test_runs_and_its_panic_fails_it() {
        let c = quietly(
            "on",
            vec![
                trial_if(true, "passes", || async {}),
                trial_if(true, "fails", || async { panic!("the model answered nothing") }),
            ],
        );
        assert_eq!((c.num_passed, c.num_failed, c.num_ignored), (1, 1, 0));
    }
}
