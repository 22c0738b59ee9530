//! Go: `go test`, `go build` / `go vet`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — `go test`'s package
//! lines (`ok  \tpkg`, `FAIL\tpkg`, `--- FAIL: TestX`), the compiler's `file.go:L:C:` errors
//! ([`is_go_compile_error`]) and the `go` command's own errors before it builds anything
//! ([`is_go_command_error`]) — beside their samples: written ones for the rows built with `row`,
//! recorded runs (`tests/fixtures/runner-output/`) for the others. Each reader takes one whole
//! trimmed line, so a test *named* `test_upload_failed` is no summary. The rows themselves are
//! lines of the runner table ([`table`](super::table)). Must not look at more than one line, nor
//! decide what a run is.

use super::says::{Says, says};

/// What a line says in [`Format::GoTest`](super::format::Format::GoTest):
/// `ok  \tpkg` / `FAIL\tpkg` / `--- FAIL: TestX`.
pub(super) fn go_test_line(l: &str) -> Option<Says> {
    says(
        l.starts_with("ok  \t") || l.starts_with("ok \t") || l.starts_with("ok\t") || l == "PASS",
        l.starts_with("--- FAIL")
            || l == "FAIL"
            || l.starts_with("FAIL\t")
            || l.starts_with("FAIL ")
            || is_go_compile_error(l)
            || is_go_command_error(l),
    )
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

#[cfg(test)]
pub(super) mod tests {
    use super::super::samples::{Fixture, blockers, fail, review, sample};

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        // `go` stops before it builds anything; piped, only its own line says so
        fail(
            "go build",
            "go-build-no-module-fail.txt",
            "go build ./... 2>&1 | tail -50",
            0,
            "does not contain main module",
        ),
    ];

    sample!(go_test, "go test ./...",
        pass: "ok  \tgithub.com/acme/app/parse\t0.004s\nok  \tgithub.com/acme/app/store\t0.010s",
        fail: "--- FAIL: TestParse (0.00s)\n    parse_test.go:12: want 2, got 3\nFAIL\nFAIL\tgithub.com/acme/app/parse\t0.004s\nok  \tgithub.com/acme/app/store\t0.010s\nFAIL",
        quotes: "FAIL github.com/acme/app/parse");
    sample!(go_build, "go build ./...",
        pass: "",
        fail: "Exit code 1\n# github.com/acme/app\n./main.go:3:2: undefined: foo",
        quotes: "./main.go:3:2: undefined: foo");

    #[test]
    fn go_stopping_before_it_builds_is_a_failure_and_its_progress_lines_are_not() {
        // piped through `tail`, the exit status says nothing: `go`'s own line decides
        let command = "go build ./... 2>&1 | tail -20";
        for line in [
            "go: go.mod file not found in current directory or any parent directory; see 'go help modules'",
            "go: cannot find main module, but found .git/config in /src",
            "no Go files in /src/app",
            "build constraints exclude all Go files in /src/app/win",
            "no required module provides package github.com/acme/x; to add it:",
            "package github.com/acme/x is not in std (/usr/local/go/src/github.com/acme/x)",
        ] {
            let notes = blockers(&review(command, format!("{line}\n"), None, Some(0)));
            assert!(notes.iter().any(|n| n.contains(&line[..20])), "{line}: {notes:?}");
        }
        for line in [
            "go: downloading github.com/acme/x v1.2.0",
            "go: warning: \"./...\" matched no packages",
            "pattern matching is done on the import path",
            "no required module provides package x, which is fine here",
        ] {
            let notes = blockers(&review(command, format!("{line}\n"), None, Some(0)));
            assert!(notes.is_empty(), "{line}: {notes:?}");
        }
    }
}
