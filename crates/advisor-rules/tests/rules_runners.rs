//! One test per row of the rules reviewer's runner table: a passing and a
//! failing sample of the runner's output, each read by the command that ran.
//!
//! The samples are WRITTEN, not captured: each is written by hand in the
//! runner's documented output format (the summary lines its own docs show),
//! not copied from a real run. Failing samples carry no exit status unless the
//! runner prints no summary of its own, so they prove the summary line alone
//! is read (as when the run is piped through `tail` and exits 0).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use advisor::Severity;
use advisor::host::ToolTrace;
use advisor::review::Review;
use advisor_rules::RulesReviewer;
use serde_json::json;

fn bash(command: &str, output: &str) -> ToolTrace {
    // built through serde so a field the readers add later (e.g. `rejected`) takes its default
    serde_json::from_value(json!({
        "name": "Bash",
        "args": json!({ "command": command, "description": "Run the checks" }).to_string(),
        "output": output,
    }))
    .unwrap()
}

const ANSWER: &str = "Done: all tests pass and the build succeeds.";

fn notes(answer: &str, command: &str, output: &str) -> Vec<advisor::Note> {
    RulesReviewer::new().check(&Review {
        final_answer: Some(answer.into()),
        tools: vec![bash(command, output)],
        ..Review::default()
    })
}

fn assert_row(command: &str, pass: &str, fail: &str, evidence: &str) {
    assert_row_claimed(ANSWER, command, pass, fail, evidence);
}

fn assert_row_claimed(answer: &str, command: &str, pass: &str, fail: &str, evidence: &str) {
    let notes = |command: &str, output: &str| notes(answer, command, output);
    let ok = notes(command, pass);
    assert!(
        ok.iter().all(|n| n.severity == Severity::Nit),
        "{command}: the passing sample raised {ok:?}"
    );
    let bad = notes(command, fail);
    let blocker = bad
        .iter()
        .find(|n| n.severity == Severity::Blocker)
        .unwrap_or_else(|| panic!("{command}: the failing sample raised no blocker: {bad:?}"));
    assert!(
        blocker.text.contains(evidence),
        "{command}: the note does not quote {evidence:?}: {}",
        blocker.text
    );
    assert!(
        blocker.text.contains('`'),
        "the note names the command: {}",
        blocker.text
    );
}

macro_rules! row {
    ($name:ident, $command:expr, pass: $pass:expr, fail: $fail:expr, quotes: $ev:expr) => {
        #[test]
        fn $name() {
            assert_row($command, $pass, $fail, $ev);
        }
    };
    // a row whose failure is no test's or build's: the claim it contradicts
    ($name:ident, $command:expr, answer: $answer:expr, pass: $pass:expr, fail: $fail:expr, quotes: $ev:expr) => {
        #[test]
        fn $name() {
            assert_row_claimed($answer, $command, $pass, $fail, $ev);
        }
    };
}

row!(cargo_test, "cargo test",
    pass: "running 12 tests\ntest retry::gives_up_after_3_failed_attempts ... ok\n\ntest result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s",
    fail: "running 12 tests\ntest parse::rejects_empty ... FAILED\n\ntest result: FAILED. 11 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n\nerror: test failed, to rerun pass `--lib`",
    quotes: "test result: FAILED. 11 passed; 1 failed");
row!(cargo_nextest, "cargo nextest run --workspace",
    pass: "    Starting 12 tests across 2 binaries\n     Summary [   0.412s] 12 tests run: 12 passed, 0 skipped",
    fail: "        FAIL [   0.003s] app parse::rejects_empty\n     Summary [   0.398s] 12 tests run: 11 passed, 1 failed, 0 skipped\nerror: test run failed",
    quotes: "12 tests run: 11 passed, 1 failed");
row!(cargo_build_check_clippy, "cargo clippy --all-targets -- -D warnings",
    pass: "    Checking app v0.1.0 (/src/app)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.91s",
    fail: "    Checking app v0.1.0 (/src/app)\nerror[E0425]: cannot find value `x` in this scope\n --> src/lib.rs:3:9\nerror: could not compile `app` (lib) due to 1 previous error",
    quotes: "could not compile `app`");
row!(pytest, "python -m pytest -q tests/",
    pass: "..........                                                               [100%]\n10 passed in 0.20s",
    fail: "FAILED tests/test_io.py::test_roundtrip - AssertionError\n========================= 1 failed, 9 passed in 0.31s =========================",
    quotes: "1 failed, 9 passed in …s");
row!(go_test, "go test ./...",
    pass: "ok  \tgithub.com/acme/app/parse\t0.004s\nok  \tgithub.com/acme/app/store\t0.010s",
    fail: "--- FAIL: TestParse (0.00s)\n    parse_test.go:12: want 2, got 3\nFAIL\nFAIL\tgithub.com/acme/app/parse\t0.004s\nok  \tgithub.com/acme/app/store\t0.010s\nFAIL",
    quotes: "FAIL github.com/acme/app/parse");
row!(go_build, "go build ./...",
    pass: "",
    fail: "Exit code 1\n# github.com/acme/app\n./main.go:3:2: undefined: foo",
    quotes: "./main.go:3:2: undefined: foo");
row!(npm_pnpm_yarn_bun_test, "pnpm test",
    pass: "> app@1.0.0 test\n> jest\n\nTest Suites: 3 passed, 3 total\nTests:       10 passed, 10 total",
    fail: "> app@1.0.0 test\n> jest\n\nTest Suites: 1 failed, 2 passed, 3 total\nTests:       1 failed, 9 passed, 10 total",
    quotes: "Tests: 1 failed, 9 passed, 10 total");
row!(deno_test, "deno test -A",
    pass: "running 5 tests from ./main_test.ts\nok | 5 passed | 0 failed (20ms)",
    fail: "running 5 tests from ./main_test.ts\nFAILED | 4 passed | 1 failed (25ms)",
    quotes: "FAILED | 4 passed | 1 failed");
row!(vitest, "npx vitest run",
    pass: " Test Files  4 passed (4)\n      Tests  12 passed (12)\n   Duration  412ms",
    fail: " ❯ src/a.test.ts (3 tests | 2 failed) 12ms\n Test Files  1 failed | 3 passed (4)\n      Tests  2 failed | 10 passed (12)",
    quotes: "Tests 2 failed | 10 passed (12)");
row!(jest, "npx jest --ci",
    pass: "Test Suites: 3 passed, 3 total\nTests:       10 passed, 10 total\nSnapshots:   0 total",
    fail: "FAIL src/a.test.js\nTest Suites: 1 failed, 2 passed, 3 total\nTests:       3 failed, 7 passed, 10 total",
    quotes: "Tests: 3 failed, 7 passed, 10 total");
row!(mocha, "npx mocha",
    pass: "  12 passing (30ms)",
    fail: "  11 passing (30ms)\n  1 failing\n\n  1) parser rejects empty input:",
    quotes: "1 failing");
row!(mix_test, "mix test 2>&1 | tail -30",
    pass: "Finished in 1.5 seconds (0.9s async, 0.5s sync)\n14 doctests, 65 tests, 0 failures",
    fail: "Finished in 4.2 seconds (1.1s async, 3.1s sync)\n297 tests, 11 failures\n\nRandomized with seed 12345",
    quotes: "297 tests, 11 failures");
row!(rspec, "bundle exec rspec",
    pass: "............\n\nFinished in 0.02 seconds (files took 0.1 seconds to load)\n12 examples, 0 failures",
    fail: "..F.F\n\nFinished in 0.02 seconds (files took 0.1 seconds to load)\n12 examples, 2 failures",
    quotes: "12 examples, 2 failures");
row!(minitest, "bin/rails test",
    pass: "Finished in 0.1s, 120 runs/s.\n12 runs, 30 assertions, 0 failures, 0 errors, 0 skips",
    fail: "Finished in 0.1s, 120 runs/s.\n12 runs, 30 assertions, 1 failures, 0 errors, 0 skips",
    quotes: "12 runs, 30 assertions, 1 failures");
row!(phpunit, "vendor/bin/phpunit",
    pass: "PHPUnit 11.0.0 by Sebastian Bergmann and contributors.\n\n............\n\nOK (12 tests, 30 assertions)",
    fail: "PHPUnit 11.0.0 by Sebastian Bergmann and contributors.\n\n...F........\n\nFAILURES!\nTests: 12, Assertions: 30, Failures: 1.",
    quotes: "Tests: 12, Assertions: 30, Failures: 1.");
row!(mvn_test, "mvn -q test",
    pass: "[INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS",
    fail: "[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0\n[INFO] BUILD FAILURE",
    quotes: "BUILD FAILURE");
row!(gradle_test, "./gradlew :app:test",
    pass: "> Task :app:test\n\nBUILD SUCCESSFUL in 4s\n5 actionable tasks: 2 executed, 3 up-to-date",
    fail: "> Task :app:test FAILED\n\n12 tests completed, 1 failed\n\nFAILURE: Build failed with an exception.\n\nBUILD FAILED in 4s",
    quotes: "12 tests completed, 1 failed");
row!(dotnet_test, "dotnet test",
    pass: "Passed!  - Failed:     0, Passed:    42, Skipped:     0, Total:    42, Duration: 1 s - App.Tests.dll (net8.0)",
    fail: "  Failed CliSpec_ListsCommands [12 ms]\nFailed!  - Failed:     2, Passed:    40, Skipped:     0, Total:    42, Duration: 1 s - App.Tests.dll (net8.0)",
    quotes: "Failed! - Failed: 2, Passed: 40");
row!(dotnet_build, "dotnet build",
    pass: "Build succeeded.\n    0 Warning(s)\n    0 Error(s)",
    fail: "Program.cs(3,1): error CS0103: The name 'x' does not exist in the current context\nBuild FAILED.",
    quotes: "error CS0103");
// DocFX's passing output is from hindermath/TinyCalc's committed Codex rollouts
// (tests/fixtures/real/repos/hindermath-tinycalc/, 019cc3c3 line 321); its crashes
// there (exit 255) print only a stack trace, read by the exit status. The failing
// sample (derived) is a compiler error of the project it reads.
row!(docfx, "docfx metadata docfx.json",
    pass: "Processing TuiVision.Core\nCreating output...\n.NET API done in 00:00:00.6076142\n\n\nBuild succeeded.\n\n    0 warning(s)\n    0 error(s)\n",
    fail: "Processing TuiVision.Core\nsrc/TuiVision.Core/TRect.cs(65,34): error CS1002: ; expected\n",
    quotes: "error CS1002");
row!(ctest, "ctest --output-on-failure",
    pass: "100% tests passed, 0 tests failed out of 12\n\nTotal Test time (real) =   0.50 sec",
    fail: "83% tests passed, 2 tests failed out of 12\n\nTotal Test time (real) =   0.50 sec\n\nThe following tests FAILED:\n\t  3 - parse (Failed)",
    quotes: "The following tests FAILED");
row!(make_test_check, "make check",
    pass: "python -m pytest -q\n12 passed in 0.10s",
    fail: "python -m pytest -q\nmake: *** [Makefile:12: check] Error 1",
    quotes: "make: *** [Makefile:12: check] Error 1");
row!(tox, "tox -e py311",
    pass: "  py311: OK (3.10 seconds)\n  congratulations :) (3.21 seconds)",
    fail: "  py311: FAIL code 1 (3.10 seconds)\n  evaluation failed :( (3.21 seconds)",
    quotes: "evaluation failed :(");
row!(nox, "nox -s tests",
    pass: "nox > Running session tests\nnox > Session tests was successful.",
    fail: "nox > Running session tests\nnox > Session tests failed.",
    quotes: "nox > Session tests failed.");
row!(bazel_test, "bazel test //...",
    pass: "INFO: Build completed successfully, 12 total actions\nExecuted 3 out of 3 tests: 3 tests pass.",
    fail: "INFO: Build completed, 1 test FAILED, 12 total actions\nExecuted 3 out of 3 tests: 2 tests pass and 1 fails locally.",
    quotes: "1 fails locally");
row!(bazel_build, "bazel build //app:all",
    pass: "INFO: Build completed successfully, 12 total actions",
    fail: "ERROR: /src/app/BUILD:3:10: Compiling app.cc failed\nFAILED: Build did NOT complete successfully",
    quotes: "FAILED: Build did NOT complete successfully");
row!(swift_test, "swift test",
    pass: "Test Suite 'All tests' passed at 2026-01-01 10:00:00.000.\n\t Executed 12 tests, with 0 failures (0 unexpected) in 0.050 (0.052) seconds",
    fail: "Test Suite 'All tests' failed at 2026-01-01 10:00:00.000.\n\t Executed 12 tests, with 1 failure (0 unexpected) in 0.050 (0.052) seconds",
    quotes: "Executed 12 tests, with 1 failure");
row!(swift_build, "swift build",
    pass: "Building for debugging...\nBuild complete! (1.20s)",
    fail: "Sources/App/main.swift:3:1: error: cannot find 'x' in scope",
    quotes: "error: cannot find 'x' in scope");
row!(tsc, "npx tsc --noEmit",
    pass: "",
    fail: "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n\nFound 1 error in src/a.ts:3",
    quotes: "Found 1 error in src/a.ts:3");
row!(npm_run_build, "npm run build",
    pass: "> app@1.0.0 build\n> tsc && vite build\n\n✓ built in 1.20s",
    fail: "> app@1.0.0 build\n> tsc && vite build\n\nsrc/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    quotes: "error TS2322");
row!(make_build, "make",
    pass: "cc -O2 -o app main.c",
    fail: "cc -O2 -o app main.c\nmain.c:3:1: error: unknown type name 'x'\nmake: *** [Makefile:4: app] Error 1",
    quotes: "error: unknown type name 'x'");

row!(cargo_fmt, "cargo fmt --check",
    pass: "",
    fail: "error: could not create temp file: Operation not permitted (os error 1)",
    quotes: "could not create temp file");
row!(git_commit, "git commit -m 'Add the parser'",
    pass: "On branch main\nnothing to commit, working tree clean",
    fail: "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\nhusky - pre-commit script failed (code 2)",
    quotes: "husky - pre-commit script failed");
row!(eslint, "npx eslint src",
    pass: "",
    fail: "/app/src/a.js\n  1:7  error  'x' is assigned a value but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)",
    quotes: "✖ 1 problem (1 error, 0 warnings)");
row!(biome, "bunx biome check .",
    pass: "Checked 12 files in 3ms. No fixes applied.",
    fail: "src/a.ts:1:7 lint/correctness/noUnusedVariables ━━━━━━━\n\nChecked 12 files in 3ms. No fixes applied.\nFound 1 error.",
    quotes: "Found 1 error.");
row!(ruff, "ruff check .",
    pass: "All checks passed!",
    fail: "a.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.\n[*] 1 fixable with the `--fix` option.",
    quotes: "Found 1 error.");
row!(prettier, "npx prettier --check .",
    pass: "Checking formatting...\nAll matched files use Prettier code style!",
    fail: "Checking formatting...\n[warn] src/a.ts\n[warn] Code style issues found in the above file. Run Prettier with --write to fix.",
    quotes: "[warn] Code style issues found");
row!(black, "black --check .",
    pass: "All done! ✨ 🍰 ✨\n3 files would be left unchanged.",
    fail: "would reformat a.py\n\nOh no! 💥 💔 💥\n1 file would be reformatted, 2 files would be left unchanged.",
    // the count line, read as ruff format --check prints it too
    quotes: "1 file would be reformatted");
// rustfmt prints nothing when all is formatted; with no exit status recorded
// (the sample's `Bash` call has none), its `Diff in …` lines decide
row!(rustfmt, "rustfmt --check --edition 2021 src/lib.rs",
    answer: "Done: formatting is clean.",
    pass: "",
    fail: "Diff in src/lib.rs:3:\n-use std::fmt::{self,Display};\n+use std::fmt::{self, Display};",
    quotes: "Diff in src/lib.rs:3:");
row!(golangci_lint, "golangci-lint run ./...",
    pass: "0 issues.",
    fail: "main.go:5:2: `x` is unused (unused)\n1 issues:\n* unused: 1",
    quotes: "1 issues:");

#[test]
fn every_row_of_the_table_has_a_test_here() {
    // every `row(` of src/evidence/runners.rs but the function that builds one
    let source = include_str!("../src/evidence/runners.rs");
    // (`with_fixtures` builds its rows with one `row(` call of its own)
    let rows = source.matches("row(").count() - source.matches("fn row(").count() - 1;
    let here = include_str!("rules_runners.rs").matches("\nrow!(").count();
    assert_eq!(rows, here, "each runner row needs a passing and a failing sample here");
}
