//! How an answer names a run as passing: by its name and a verdict after it
//! ("`go test ./...` passes", "the daemon bats file passes", "`a` and `b`
//! pass"), by a verdict that cites it after ("green (`cargo test`)", "`x` —
//! OK"), by a full count ("20/20 ok"), or by a test file ("`tests/test_a.py`
//! passes").
//!
//! Owns [`names_as_passing`], [`names_exactly_as_passing`],
//! [`cites_as_passing`], [`full_counts`] and [`test_files_named_as_passing`];
//! the caller decides which runs the names belong to. Must not look at tool
//! calls; an answer that admits a failure names nothing as passing.

use super::admissions::admits_failure;

/// The counts of tests said to have all passed: "20/20 ok", "8/8 passing",
/// "167/167 pass" — a claim about the run that counted that many (an answer
/// that admits a failure claims none).
pub(crate) fn full_counts(n: &str) -> Vec<u64> {
    if admits_failure(n) {
        return Vec::new();
    }
    let words: Vec<&str> = n
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '\'' | '"'))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter_map(|w| {
            let verdict = w[1].trim_end_matches(['.', ':', '!']);
            let (a, b) = w[0].split_once('/')?;
            let k = a.parse::<u64>().ok().filter(|k| *k > 0 && a == b)?;
            matches!(verdict, "ok" | "pass" | "passed" | "passing" | "green" | "✅").then_some(k)
        })
        .collect()
}

/// Words that, right after a run's name, say it passed: "`go test ./...`
/// passes", "`test_login` passes now", "`pytest tests/unit` is green".
const PASSED_WORDS: &[&str] = &[
    "pass",
    "passes",
    "passed",
    "passe",
    "passent",
    "succeeds",
    "succeeded",
    "went through",
    "ran clean",
    "runs clean",
    "is green",
    "are green",
    "is clean",
    "ok",
    "works",
    "is passing",
    "are passing",
    "is in place and passing",
    "are in place and passing",
    // Korean: "is clean", "passes", "passed"
    "깨끗합니다",
    "통과합니다",
    "통과했습니다",
    // Italian, Spanish, Portuguese, German: "passes", "pass"
    "passa",
    "passano",
    "pasa",
    "pasan",
    "passam",
    "besteht",
];

/// Whether `n` (normalised) says in so many words that the run or test
/// named `name` (lower case) passed.
pub(crate) fn names_as_passing(n: &str, name: &str) -> bool {
    passing_after(n, name, true)
}

/// [`names_as_passing`] with nothing between the name and the verdict but
/// "now", "all" or "both": for a runner's bare name (`ruff is clean`), which
/// "`ruff check` is clean" does not claim of `ruff format`.
pub(crate) fn names_exactly_as_passing(n: &str, name: &str) -> bool {
    passing_after(n, name, false)
}

fn passing_after(n: &str, name: &str, filler: bool) -> bool {
    if name.chars().count() < 4 || admits_failure(n) {
        return false;
    }
    n.match_indices(name).any(|(i, _)| {
        // "`pytest` passes", "`cargo test` - ok" (a dash before the verdict)
        let rest = n[i + name.len()..].trim_start_matches(['`', '\'', '"', ')', ':', ' ', '-']);
        let rest = rest.strip_prefix("now ").unwrap_or(rest);
        // a Korean particle on the name: "`ruff check`도 깨끗합니다"
        let rest = ["도 ", "는 ", "은 ", "가 ", "이 "]
            .iter()
            .find_map(|p| rest.strip_prefix(p))
            .unwrap_or(rest);
        // "`ruff check` and `ty check` pass": the other quoted names of a list before the verdict
        let rest = skip_quoted_list(rest);
        // "the daemon bats file passes", "the login tests pass": what was named, then the kind of thing it is
        let rest = if filler { skip_filler(rest) } else { rest };
        let rest = rest.strip_prefix("now ").unwrap_or(rest);
        // "lint, knip and `wrangler:check` all pass", "both pass"
        let rest = ["all ", "both "]
            .iter()
            .find_map(|p| rest.strip_prefix(p))
            .unwrap_or(rest);
        PASSED_WORDS.iter().any(|w| {
            rest.strip_prefix(w)
                .is_some_and(|after| !after.starts_with(|c: char| c.is_alphanumeric()))
        }) || cited_after_verdict(&n[..i])
    })
}

/// Whether `before`, the text up to a quoted name, ends with a verdict and
/// then the name cited as its evidence: "formatting passes - `node --run
/// format:check` reports …", "green (`cargo test`)", "clean with `ruff check`".
/// The name must be quoted: an unquoted word after a verdict is not a citation.
fn cited_after_verdict(before: &str) -> bool {
    let Some(before) = before.strip_suffix('\'') else {
        return false;
    };
    let before = before.trim_end_matches([' ', '(', ':', '-', ',']);
    let before = ["according to", "with", "via", "by", "per", "using", "in"]
        .iter()
        .find_map(|c| before.strip_suffix(c).filter(|b| b.ends_with(' ')))
        .unwrap_or(before)
        .trim_end_matches([' ', '(', ':', '-', ',']);
    // "ok, `npm test` next" acknowledges; it cites nothing
    let verdicts = PASSED_WORDS
        .iter()
        .filter(|w| **w != "ok")
        .chain(&["verified", "confirmed"]);
    verdicts.into_iter().any(|w| {
        before
            .strip_suffix(w)
            .is_some_and(|b| !b.ends_with(|c: char| c.is_alphanumeric()))
    })
}

/// Whether `s` cites the run named `name` as the evidence of a verdict
/// before it: "unit tests are green (`go test ./internal/...`)" — a claim
/// about that run, not about every test.
pub(crate) fn cites_as_passing(s: &str, name: &str) -> bool {
    name.chars().count() >= 4 && !admits_failure(s) && s.match_indices(name).any(|(i, _)| cited_after_verdict(&s[..i]))
}

/// `rest` after the other quoted names of a list that follows a name: "and
/// 'ty check' pass" → "pass", ", 'lint' and 'test' pass" → "pass" (up to
/// four).
fn skip_quoted_list(rest: &str) -> &str {
    let mut rest = rest;
    for _ in 0..4 {
        let Some(after) = [", and '", "and '", ", '", "& '", "/ '"]
            .iter()
            .find_map(|sep| rest.strip_prefix(sep))
        else {
            break;
        };
        let Some((_, after)) = after.split_once('\'') else {
            break;
        };
        rest = after.trim_start_matches(['\'', '"', ')', ':', ' ']);
    }
    rest
}

/// Whether `n` names a test file as passing: "`tests/test_alias_help.py`
/// passes", "spec/user_spec.rb is green" (a word with `test` or `spec` in its
/// stem and a file extension, then a verdict).
pub(crate) fn test_files_named_as_passing(n: &str) -> bool {
    n.split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '(' | ')' | ','))
        .map(|w| w.trim_end_matches(['.', ':', ';']))
        .filter(|w| {
            let name = w.rsplit('/').next().unwrap_or(w);
            let Some((stem, ext)) = name.rsplit_once('.') else {
                return false;
            };
            (stem.contains("test") || stem.contains("spec"))
                && (1..=4).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_lowercase())
        })
        .take(16)
        .any(|w| names_as_passing(n, w))
}

/// Words that may stand between a run's name and the word saying it passed:
/// what kind of thing the name is ("the daemon bats file passes").
const FILLER: &[&str] = &[
    "bats", "test", "tests", "spec", "specs", "file", "files", "suite", "suites", "job", "jobs", "check", "checks",
    "task", "step", "target", "module", "package", "crate", "run", "script", "workflow", "case", "cases",
];

/// `rest` after up to three [`FILLER`] words.
fn skip_filler(rest: &str) -> &str {
    let mut rest = rest;
    for _ in 0..3 {
        let Some((word, after)) = rest.split_once(' ') else {
            break;
        };
        if !FILLER.contains(&word.trim_end_matches(['\'', '`'])) {
            break;
        }
        rest = after;
    }
    rest
}
