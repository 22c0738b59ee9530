//! Python checkers: `mypy` (and astral's `ty`), `pyright`, `flake8` / `pycodestyle`, `pylint`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — mypy's closing line
//! ([`mypy_line`]), pyright's counts ([`pyright_line`]) and the message lines of flake8,
//! pycodestyle and pylint ([`pylint_line`]) — beside their samples: written ones for the rows built
//! with `row`, recorded runs (`tests/fixtures/runner-output/`) for the others. Each reader takes
//! one whole trimmed line, so a test *named* `test_upload_failed` is no summary. The rows
//! themselves are lines of the runner table ([`table`](super::table)). Must not look at more than
//! one line, nor decide what a run is.

use super::says::{Says, fail_if, leading_number, says};

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

/// flake8's, pycodestyle's and pylint's lines (see [`Format::PyLint`](super::format::Format::PyLint)).
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

#[cfg(test)]
pub(super) mod tests {
    use super::super::format::Format;
    use super::super::samples::{Fixture, fail, pass};
    use super::super::says::Says;

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass("mypy", "mypy-pass.txt", "mypy .", true),
        fail(
            "mypy",
            "mypy-fail.txt",
            "mypy .",
            1,
            "Found 2 errors in 1 file (checked 3 source files)",
        ),
        pass("ty", "ty-check-pass.txt", "uv run ty check ok.py", true),
        fail(
            "ty",
            "ty-check-fail.txt",
            "uv run ty check tbad.py",
            1,
            "Found 1 diagnostic",
        ),
        // flake8 prints nothing when clean
        pass("flake8", "flake8-pass.txt", "flake8 ok.py", false),
        fail(
            "flake8",
            "flake8-fail.txt",
            "flake8 bad.py",
            1,
            "bad.py:4:3: E111 indentation is not a multiple of 4",
        ),
        pass("pylint", "pylint-pass.txt", "pylint ok.py", true),
        fail(
            "pylint",
            "pylint-fail.txt",
            "pylint bad.py",
            20,
            "bad.py:1:0: W0611: Unused import os",
        ),
        pass("pyright", "pyright-pass.txt", "pyright", true),
        fail(
            "pyright",
            "pyright-fail.txt",
            "npx pyright",
            1,
            "2 errors, 0 warnings, 0 informations",
        ),
    ];

    #[test]
    fn python_checks_lines_are_read_and_test_names_are_not() {
        use Says::{Fail, Pass};
        assert_eq!(
            Format::Mypy.read("Success: no issues found in 3 source files"),
            Some(Pass)
        );
        assert_eq!(
            Format::Mypy.read("Found 1 error in 1 file (checked 1 source file)"),
            Some(Fail)
        );
        assert_eq!(Format::Pyright.read("1 error, 0 warnings, 0 informations "), Some(Fail));
        assert_eq!(Format::Pyright.read("0 errors, 1 warning, 0 infos"), Some(Pass));
    }
}
