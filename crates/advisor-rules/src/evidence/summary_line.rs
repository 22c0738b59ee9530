//! One runner's closing line at a time: what a summary line says.
//!
//! Owns [`Says`], the count readers every format uses (`11 failures`,
//! `Failures: 1`, `1 failed, 4 passed in 0.12s`) and the closing-line readers
//! of the runners whose lines need more than a prefix test (unittest, `node
//! --test`, bats, zig, sbt, lein, cabal/stack, dart, mypy, pyright, linters,
//! `gh`). Each reads one whole line, never a word inside it, so a test *named*
//! `test_upload_failed` is no summary. Must not look at more than the line it
//! is given, nor decide which runner printed it — [`formats`](super::formats)
//! does that.

/// What a summary line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Says {
    /// The run passed.
    Pass,
    /// The run failed.
    Fail,
}

/// The number written right before `word` in `line` (`11 failures` → 11), searching every occurrence.
pub(crate) fn count_before(line: &str, word: &str) -> Option<u64> {
    let lower = line.to_ascii_lowercase();
    (lower.match_indices(word))
        .filter_map(|(i, _)| {
            let head = lower[..i].trim_end_matches([' ', '\t', ':']);
            head[head.trim_end_matches(|c: char| c.is_ascii_digit()).len()..]
                .parse::<u64>()
                .ok()
        })
        .reduce(|a, b| a + b)
}

/// The number written right after `label` (`Failures: 1` → 1).
pub(crate) fn count_after(line: &str, label: &str) -> Option<u64> {
    let i = line.find(label)? + label.len();
    let digits: String = line[i..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// `Pass` when `pass` holds, else `Fail` when `fail` holds, else nothing.
pub(crate) fn says(pass: bool, fail: bool) -> Option<Says> {
    if pass {
        Some(Says::Pass)
    } else {
        fail.then_some(Says::Fail)
    }
}

pub(crate) fn fail_if(n: Option<u64>) -> Option<Says> {
    n.map(|n| if n > 0 { Says::Fail } else { Says::Pass })
}

/// Whether `line` is a pytest-style count list (`1 failed, 4 passed in 0.12s`).
pub(crate) fn pytest_counts(line: &str) -> Option<Says> {
    let body = line.trim().trim_matches('=').trim();
    let (counts, tail) = body.rsplit_once(" in ")?;
    if !tail.trim_end().ends_with('s') || !tail.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut failed = false;
    for part in counts.split(',') {
        let mut it = part.split_whitespace();
        let n: u64 = it.next()?.parse().ok()?;
        failed |= matches!(it.next()?, "failed" | "error" | "errors") && n > 0;
    }
    says(!failed, true)
}

/// The number at the start of `s` and the rest (`12 tests` → 12, ` tests`).
pub(crate) fn leading_number(s: &str) -> Option<(u64, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// Python unittest's closing lines: `Ran 3 tests in 0.001s`, `FAILED (failures=1, errors=1)`.
pub(crate) fn unittest_line(l: &str) -> Option<Says> {
    if let Some(rest) = l.strip_prefix("FAILED (") {
        let known = [
            "failures=",
            "errors=",
            "unexpected successes=",
            "skipped=",
            "expected failures=",
        ];
        return (rest.ends_with(')') && known.iter().any(|k| rest.starts_with(k))).then_some(Says::Fail);
    }
    // `Ran 0 tests` passes nothing; its exit status (5 from Python 3.12 on) says how it ended
    let (n, rest) = leading_number(l.strip_prefix("Ran ")?)?;
    let rest = rest
        .strip_prefix(" tests in ")
        .or_else(|| rest.strip_prefix(" test in "))?;
    (n > 0 && rest.ends_with('s') && rest.starts_with(|c: char| c.is_ascii_digit())).then_some(Says::Pass)
}

/// `node --test`'s closing counts: `# fail 1` (TAP) / `ℹ fail 1` (spec), `# pass 3`, `# cancelled 0`.
pub(crate) fn node_test_line(l: &str) -> Option<Says> {
    let rest = l.strip_prefix("# ").or_else(|| l.strip_prefix("ℹ "))?;
    let (word, n) = rest.split_once(' ')?;
    let n: u64 = n.parse().ok()?;
    match word {
        "fail" => fail_if(Some(n)),
        "cancelled" if n > 0 => Some(Says::Fail),
        "pass" if n > 0 => Some(Says::Pass),
        _ => None,
    }
}

/// A TAP result line that fails: `not ok 2 name`, unless it is a `# TODO` or `# SKIP`.
pub(crate) fn tap_not_ok(l: &str) -> bool {
    let Some(rest) = l.strip_prefix("not ok ") else {
        return false;
    };
    let directive = rest.rsplit_once(" # ").map(|(_, d)| d.to_ascii_lowercase());
    rest.starts_with(|c: char| c.is_ascii_digit())
        && !directive.is_some_and(|d| d.starts_with("todo") || d.starts_with("skip"))
}

/// A run that ran no test, every one skipped: a TAP stream (bats, `node
/// --test`) whose plan `1..N` is followed by `ok` lines that are all `# skip`,
/// or a pytest closing line with nothing but `skipped` / `deselected` counts.
/// Returns the line to quote. A run that passed one test is not this.
pub(crate) fn all_skipped(output: &str) -> Option<String> {
    let (mut plan, mut skipped, mut ran) = (false, 0u64, false);
    let mut pytest = None;
    let lines: Vec<&str> = output.lines().rev().take(4000).map(str::trim).collect();
    // a line cut where the evidence was truncated (`…[977 bytes truncated]…`) says nothing
    let marker = |l: &str| l.starts_with("…[") && l.ends_with("truncated]…");
    for (i, l) in lines.iter().copied().enumerate() {
        let cut = marker(l) || (i > 0 && marker(lines[i - 1])) || lines.get(i + 1).is_some_and(|n| marker(n));
        if cut {
            continue;
        }
        if l.strip_prefix("1..")
            .is_some_and(|n| n.parse::<u64>().is_ok_and(|n| n > 0))
        {
            plan = true;
        } else if let Some(rest) = l.strip_prefix("ok ") {
            let skip = rest
                .rsplit_once(" # ")
                .is_some_and(|(_, d)| d.to_ascii_lowercase().starts_with("skip"));
            if skip {
                skipped += 1;
            } else {
                ran = true;
            }
        } else if l.starts_with("not ok ") {
            ran = true;
        } else if pytest.is_none() && pytest_counts(l).is_some() {
            let body = l.trim_matches('=').trim();
            let counts = body.rsplit_once(" in ").map_or(body, |(c, _)| c);
            let only_skips = counts.split(',').all(|part| {
                let mut it = part.split_whitespace();
                it.next().is_some_and(|n| n.parse::<u64>().is_ok())
                    && matches!(it.next(), Some("skipped" | "deselected"))
            });
            pytest = Some(only_skips.then(|| body.to_owned()));
        }
    }
    if let Some(line) = pytest {
        return line;
    }
    // no count: a truncated output shows only some of the skips
    (plan && skipped > 0 && !ran).then(|| "every test was skipped".to_owned())
}

/// Whether a test run's output says it ran no test: every one skipped or
/// deselected ([`all_skipped`]), or pytest's `no tests ran in 0.01s`.
pub(crate) fn ran_no_test(output: &str) -> bool {
    all_skipped(output).is_some()
        || (output.lines().rev().take(4000)).any(|l| l.trim().trim_matches('=').trim().starts_with("no tests ran in "))
}

/// bats: the pretty formatter's `3 tests, 1 failure` (`, 1 skipped`, `, 2 not run` may follow),
/// TAP's `not ok N` and its plan `1..N`.
pub(crate) fn bats_line(l: &str) -> Option<Says> {
    if tap_not_ok(l) {
        return Some(Says::Fail);
    }
    if let Some(n) = l.strip_prefix("1..") {
        return n.parse::<u64>().ok().filter(|n| *n > 0).map(|_| Says::Pass);
    }
    let (_, rest) = leading_number(l)?;
    let rest = rest.strip_prefix(" tests, ").or_else(|| rest.strip_prefix(" test, "))?;
    let (failures, tail) = leading_number(rest)?;
    (tail.starts_with(" failure"))
        .then(|| fail_if(Some(failures)))
        .flatten()
}

/// Zig's build summary and test runner lines.
pub(crate) fn zig_line(l: &str) -> Option<Says> {
    if let Some(rest) = l.strip_prefix("Build Summary: ") {
        let (_, rest) = leading_number(rest)?;
        let rest = rest.strip_prefix('/')?;
        let (_, rest) = leading_number(rest)?;
        if !rest.starts_with(" steps succeeded") {
            return None;
        }
        return says(!rest.contains("failed"), true);
    }
    if let Some(rest) = l.strip_prefix("All ") {
        let (n, rest) = leading_number(rest)?;
        return (n > 0 && (rest == " tests passed." || rest == " test passed.")).then_some(Says::Pass);
    }
    // `0 passed; 0 skipped; 1 failed.`
    if l.ends_with(" failed.") && l.contains(" passed; ") && l.contains(" skipped; ") {
        return fail_if(count_before(l, "failed."));
    }
    let rest = l.strip_prefix("error: ")?;
    let (n, rest) = leading_number(rest)?;
    (n > 0 && (rest == " compilation errors" || rest == " compilation error")).then_some(Says::Fail)
}

/// sbt's test summary and closing lines, after its `[info]` / `[error]` / `[success]` level.
pub(crate) fn sbt_line(l: &str) -> Option<Says> {
    let (level, rest) = l.split_once("] ")?;
    let level = level.strip_prefix('[')?;
    match level {
        "info" if rest.starts_with("Passed: Total ") => Some(Says::Pass),
        "error" if rest.starts_with("Failed: Total ") || rest.starts_with("Error: Total ") => Some(Says::Fail),
        "error" if rest.contains("TestsFailedException: Tests unsuccessful") => Some(Says::Fail),
        "error" if rest.starts_with("Total time: ") => Some(Says::Fail),
        "success" if rest.starts_with("Total time: ") => Some(Says::Pass),
        _ => None,
    }
}

/// clojure.test's closing lines, as `lein test` prints them.
pub(crate) fn clojure_line(l: &str) -> Option<Says> {
    if l == "Tests failed." {
        return Some(Says::Fail);
    }
    if let Some(rest) = l.strip_prefix("Ran ") {
        let (n, rest) = leading_number(rest)?;
        return (n > 0 && (rest.starts_with(" tests containing ") || rest.starts_with(" test containing ")))
            .then_some(Says::Pass);
    }
    // `1 failures, 0 errors.`
    let (failures, rest) = leading_number(l)?;
    let rest = rest.strip_prefix(" failures, ")?;
    let (errors, rest) = leading_number(rest)?;
    (rest == " errors.").then(|| fail_if(Some(failures + errors))).flatten()
}

/// cabal's and stack's test-suite lines.
pub(crate) fn haskell_line(l: &str) -> Option<Says> {
    if l.starts_with("cabal: Tests failed for ") || l.starts_with("Test suite failure for package ") {
        return Some(Says::Fail);
    }
    // cabal: `Test suite demo-test: PASS`
    if let Some(rest) = l.strip_prefix("Test suite ") {
        if let Some((_, verdict)) = rest.rsplit_once(": ") {
            return says(verdict == "PASS", verdict == "FAIL" || verdict == "ERROR");
        }
    }
    // stack: `demo> Test suite demo-test passed`
    if let Some((pkg, rest)) = l.split_once("> Test suite ") {
        if !pkg.contains(' ') {
            return says(rest.ends_with(" passed"), rest.ends_with(" failed"));
        }
    }
    // cabal: `0 of 1 test suites (0 of 1 test cases) passed.`
    let (passed, rest) = leading_number(l)?;
    let (total, rest) = leading_number(rest.strip_prefix(" of ")?)?;
    (rest.starts_with(" test suites") && rest.ends_with(" passed."))
        .then(|| says(passed == total, true))
        .flatten()
}

/// package:test's closing line (`dart test`, `flutter test`): `MM:SS +N ~N -N: message`.
pub(crate) fn dart_line(l: &str) -> Option<Says> {
    let (time, rest) = l.split_once(" +")?;
    if time.len() < 5 || !time.chars().all(|c| c.is_ascii_digit() || c == ':') {
        return None;
    }
    let (_, message) = rest.split_once(": ")?;
    says(message == "All tests passed!", message == "Some tests failed.")
}

/// mypy's closing line.
pub(crate) fn mypy_line(l: &str) -> Option<Says> {
    if let Some(rest) = l.strip_prefix("Success: no issues found in ") {
        return (rest.ends_with(" source file") || rest.ends_with(" source files")).then_some(Says::Pass);
    }
    // `Found 2 errors in 1 file (checked 3 source files)`; ty: `Found 1 diagnostic`
    let (n, rest) = leading_number(l.strip_prefix("Found ")?)?;
    if rest == " diagnostic" || rest == " diagnostics" {
        return fail_if(Some(n));
    }
    (rest.starts_with(" error") && rest.contains("(checked "))
        .then(|| fail_if(Some(n)))
        .flatten()
}

/// pyright's closing counts: `2 errors, 0 warnings, 0 informations`.
pub(crate) fn pyright_line(l: &str) -> Option<Says> {
    let (errors, rest) = leading_number(l)?;
    let rest = rest
        .strip_prefix(" errors, ")
        .or_else(|| rest.strip_prefix(" error, "))?;
    let (_, rest) = leading_number(rest)?;
    let rest = rest
        .strip_prefix(" warnings, ")
        .or_else(|| rest.strip_prefix(" warning, "))?;
    let (_, rest) = leading_number(rest)?;
    (rest.starts_with(" info")).then(|| fail_if(Some(errors))).flatten()
}

/// A Go compiler error: `cmd/app/main.go:8:2: undefined: x` (file, line and
/// column; a test's own `t.Log` lines carry no column).
pub(crate) fn is_go_compile_error(l: &str) -> bool {
    let Some((file, rest)) = l.split_once(".go:") else {
        return false;
    };
    let mut parts = rest.splitn(3, ':');
    let (line, col) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    !file.is_empty() && !file.contains(char::is_whitespace) && digits(line) && digits(col) && parts.next().is_some()
}

/// A `go` command's own error, printed before it builds or tests anything
/// (the command exits 1): `pattern ./...: directory prefix . does not
/// contain main module or its selected dependencies`, `go: go.mod file not
/// found in current directory or any parent directory; …`, `go: cannot find
/// main module, …`, `no Go files in /src/app`, `build constraints exclude all
/// Go files in …`, `no required module provides package x; to add it:`,
/// `package x is not in std (…)`. Informational lines (`go: downloading …`,
/// `go: warning: "./..." matched no packages`) are none of these.
pub(crate) fn is_go_command_error(l: &str) -> bool {
    (l.starts_with("pattern ")
        && (l.contains(" does not contain main module") || l.contains(" is outside main module")))
        || l.starts_with("go: go.mod file not found in ")
        || l.starts_with("go: cannot find main module")
        || l.starts_with("no Go files in ")
        || l.starts_with("build constraints exclude all Go files in ")
        || (l.starts_with("no required module provides package ") && l.ends_with("; to add it:"))
        || (l.starts_with("package ") && l.contains(" is not in std"))
}

/// Whether a failing line says the code did not compile: a Go compiler
/// error, rustc's `error[E…]` / `could not compile`, a TypeScript `error TS`,
/// Elixir's `CompileError`, a Python `SyntaxError`, a test module pytest
/// could not import (`ERROR collecting …`, `… errors during collection`).
pub(crate) fn is_compile_error(l: &str) -> bool {
    is_go_compile_error(l)
        || l.starts_with("error[E")
        || l.contains("could not compile")
        || l.contains("error TS")
        || l.contains("CompileError")
        || l.contains("SyntaxError")
        // swiftc: `Tests/AppTests/A.swift:70:5: error: …`
        || (l.contains(".swift:") && l.contains(": error: "))
        // pytest could not import a test module: the code does not load
        || l.contains("ERROR collecting ")
        || l.contains(" during collection")
}

/// A linter's or formatter's closing line (see [`Format::Lint`]).
pub(crate) fn lint_line(l: &str) -> Option<Says> {
    // ESLint: `✖ 3 problems (2 errors, 1 warning)`; warnings alone exit 0
    if let Some(rest) = l.strip_prefix("✖ ").filter(|r| r.contains(" problem")) {
        let inside = rest.split_once('(').map_or(rest, |(_, i)| i);
        return fail_if(count_before(inside, "error")).or(Some(Says::Fail));
    }
    // Biome, Ruff: `Found 2 errors.`, `Found 3 errors (2 fixed, 1 remaining).`
    if let Some(rest) = l.strip_prefix("Found ").filter(|r| r.contains(" error")) {
        let remaining = rest.split_once('(').and_then(|(_, i)| count_before(i, "remaining"));
        return fail_if(remaining.or_else(|| count_before(rest, "error")));
    }
    // pre-commit: `flake8.......Failed`, `no tabs......Passed` (`Skipped` says nothing)
    if l.contains("....") {
        if l.ends_with("...Failed") {
            return Some(Says::Fail);
        }
        if l.ends_with("...Passed") {
            return Some(Says::Pass);
        }
    }
    // golangci-lint: `3 issues:`
    if let Some(n) = l.strip_suffix(" issues:").or_else(|| l.strip_suffix(" issue:")) {
        return fail_if(n.trim().parse().ok());
    }
    let pass =
        l == "All checks passed!" || l == "All matched files use Prettier code style!" || l.starts_with("All done! ");
    let fail = l.starts_with("[warn] Code style issues found")
        || l.starts_with("[error] ")
        || l.starts_with("Oh no! ")
        || l.starts_with("would reformat ")
        // ruff / black `format --check`: `1 file would be reformatted, 7 files already formatted`
        || leading_number(l).is_some_and(|(n, rest)| {
            n > 0 && (rest.starts_with(" file would be reformatted") || rest.starts_with(" files would be reformatted"))
        });
    says(pass, fail)
}

/// Whether `l` opens a hunk `cargo fmt --check` (rustfmt `--check`) prints
/// for a file it would reformat: `Diff in src/lib.rs:3:`, or rustfmt 1.4's
/// `Diff in src/lib.rs at line 3:`.
pub(crate) fn is_rustfmt_diff(l: &str) -> bool {
    let Some(rest) = l.strip_prefix("Diff in ").and_then(|r| r.strip_suffix(':')) else {
        return false;
    };
    let number = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    match rest.rsplit_once(" at line ") {
        Some((path, n)) => !path.is_empty() && number(n),
        None => rest
            .rsplit_once(':')
            .is_some_and(|(path, n)| path.ends_with(".rs") && number(n)),
    }
}

/// flake8's, pycodestyle's and pylint's lines (see [`Format::PyLint`](super::formats::Format::PyLint)).
pub(crate) fn pylint_line(l: &str) -> Option<Says> {
    if let Some(score) = l.strip_prefix("Your code has been rated at ") {
        return says(score.starts_with("10.00/10"), false);
    }
    // `path:LINE:COL: CODE message`: a code of one capital letter and digits
    let mut parts = l.splitn(4, ':');
    let (path, line, col, rest) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let numbers = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let code = rest.strip_prefix(' ')?.split([' ', ':']).next()?;
    let coded = code.len() >= 4
        && code.starts_with(|c: char| c.is_ascii_uppercase())
        && code[1..].bytes().all(|b| b.is_ascii_digit());
    (!path.is_empty() && !path.contains(' ') && numbers(line) && numbers(col) && coded).then_some(Says::Fail)
}

/// A package manager's or framework's line that the script it ran failed
/// (see [`Format::Script`](super::formats::Format::Script)).
pub(crate) fn script_line(l: &str) -> Option<Says> {
    // bun: `error: script "build" exited with code 1`
    if let Some(rest) = l.strip_prefix("error: script \"") {
        let (_, code) = rest.split_once("\" exited with code ")?;
        return failed_code(code);
    }
    // pnpm ` ELIFECYCLE  Command failed with exit code 1.` (thin spaces around
    // its tag), yarn `error Command failed with exit code 1.`
    if let Some((tag, code)) = l.split_once("Command failed with exit code ") {
        let tag = tag.trim_matches(char::is_whitespace);
        if tag == "ELIFECYCLE" || tag == "error" {
            return failed_code(code);
        }
    }
    // Next.js
    if l == "Failed to compile." || l == "> Build failed because of webpack errors" {
        return Some(Says::Fail);
    }
    let code = l.strip_prefix("Next.js build worker exited with code: ")?;
    failed_code(code)
}

/// `Says::Fail` when `code` starts with a non-zero exit status.
fn failed_code(code: &str) -> Option<Says> {
    leading_number(code).filter(|(n, _)| *n != 0).map(|_| Says::Fail)
}

/// Playwright Test's closing counts (see [`Format::Playwright`](super::formats::Format::Playwright)):
/// `1 failed`, `2 passed (1.4s)`, `1 timed out`, `1 interrupted`.
pub(crate) fn playwright_line(l: &str) -> Option<Says> {
    let (n, rest) = leading_number(l)?;
    match rest {
        " failed" | " timed out" | " interrupted" => fail_if(Some(n)),
        _ if rest.starts_with(" passed (") && rest.ends_with(')') => Some(Says::Pass),
        _ => None,
    }
}

/// `gh pr checks`: its summary (a terminal), its tab-separated rows (no terminal) and failing rows.
pub(crate) fn gh_checks_line(raw: &str, l: &str) -> Option<Says> {
    match l {
        "All checks were successful" => return Some(Says::Pass),
        "Some checks were not successful" => return Some(Says::Fail),
        _ => {}
    }
    // `sad tests\tfail\t1m26s\thttps://…\t` (`cancel` is printed as `fail`)
    let fields: Vec<&str> = raw.trim_start().split('\t').collect();
    if fields.len() >= 4 && !fields[0].is_empty() {
        return match fields[1] {
            "fail" => Some(Says::Fail),
            "pass" => Some(Says::Pass),
            _ => None,
        };
    }
    // a terminal's row: `X  sad tests  1m26s  https://…`
    (l.starts_with("X  ") && l.len() > 3).then_some(Says::Fail)
}

/// A CI job log's failing step: `##[error]Process completed with exit code 13.`
/// (after the job and step columns and the timestamp `gh run view --log` prints).
pub(crate) fn gh_log_line(l: &str) -> Option<Says> {
    let (_, rest) = l.split_once("##[error]Process completed with exit code ")?;
    let (code, _) = leading_number(rest)?;
    (code != 0).then_some(Says::Fail)
}

/// `gh run view` / `gh run watch`: the run's header, its job and step lines, and the closing lines.
pub(crate) fn gh_run_line(l: &str) -> Option<Says> {
    if l.starts_with("To see what failed, try: gh run view") {
        return Some(Says::Fail);
    }
    if let Some((_, conclusion)) = l.split_once(" completed with '") {
        let conclusion = conclusion.strip_suffix('\'')?;
        return says(
            conclusion == "success",
            conclusion != "skipped" && conclusion != "neutral",
        );
    }
    let (pass, body) = if let Some(b) = l.strip_prefix("✓ ") {
        (true, b)
    } else if let Some(b) = l.strip_prefix("X ") {
        (false, b)
    } else {
        return None;
    };
    // the header `✓ main CI · 123` / `X main CI OWNER/REPO#12 · 123 (Attempt #2)`, a job
    // `X test in 4m34s (ID 20)`, or `X This run likely failed because of a workflow file issue.`
    let header = body.rsplit_once(" · ").is_some_and(|(_, id)| {
        let id = id.split(" (Attempt #").next().unwrap_or(id);
        !id.is_empty() && id.chars().all(|c| c.is_ascii_digit())
    });
    let job = body
        .strip_suffix(')')
        .and_then(|b| b.rsplit_once(" (ID "))
        .is_some_and(|(_, id)| !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()));
    let workflow_issue = !pass && body.contains("failed because of a workflow file issue");
    (header || job || workflow_issue).then_some(if pass { Says::Pass } else { Says::Fail })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_next_to_their_word() {
        assert_eq!(count_before("297 tests, 11 failures", "failure"), Some(11));
        assert_eq!(count_before("Tests  1 failed | 15 skipped (16)", "failed"), Some(1));
        assert_eq!(count_before("no numbers failed", "failed"), None);
        assert_eq!(
            count_after("Tests: 3, Assertions: 4, Failures: 1.", "Failures:"),
            Some(1)
        );
    }
}
