//! Reading what an answer admits or discloses: that the work is not done,
//! or that a failure is known.
//!
//! Owns [`admits_failure`] (an admission — "still fails", "couldn't", "3
//! failures" — means the answer claims nothing), [`discloses`] (a failure
//! named as known: pre-existing, unrelated, failing on main too, the failing
//! test named, a formatter's verdict told) and [`mentions_failure`] (the
//! reader was told something failed). Matching runs on the normalised answer
//! ([`normalise`](super::claims::normalise)), whole words where a word could
//! hide inside another ("restored" is not "red"). Must not look at tool calls,
//! nor decide what an answer claims — [`claims`](super::claims) does that.

use super::sentences::{fragments, sentences};

/// Phrases that admit the work is not done (normalised form). An answer with
/// one claims nothing.
const ADMISSIONS: &[&str] = &[
    "still fail",
    "still broken",
    "still red",
    "fails",
    "failing",
    "does not pass",
    "doesn't pass",
    "do not pass",
    "don't pass",
    "not passing",
    "not green",
    "isn't green",
    "aren't green",
    "don't compile",
    "doesn't compile",
    "do not compile",
    "does not compile",
    "error remains",
    "errors remain",
    // the plural verb: "the `pg` store tests fail here"
    "tests fail",
    "specs fail",
    "checks fail",
    "builds fail",
    // French: "fails", "do not pass", "still failing"
    "échoue",
    "échouent",
    "ne passe pas",
    "ne passent pas",
    "en échec",
    // Chinese and Japanese: "(the tests) still fail", "did not pass"
    "测试失败",
    "仍然失败",
    "仍失败",
    "还是失败",
    "未通过",
    "没有通过",
    "テストが失敗",
    "失敗しています",
    "失敗しました",
    "できませんでした",
    "推送失败",
    "提交失败",
    "安装失败",
    "构建失败",
    "失败了",
    "通りません",
    "通っていません",
    // Korean: "failed", "did not pass", "could not"
    "실패",
    "통과하지 못",
    "통과하지 않",
    "못했습니다",
    "깨집니다",
    "깨졌",
    // Italian, Spanish, Portuguese, German: "fails", "do not pass", "could not"
    "fallisc",
    "non passa",
    "fallit",
    "non compila",
    "non sono riuscito",
    "fallan",
    "falla",
    "falló",
    "no pasa",
    "no compila",
    "no pude",
    "falham",
    "falha",
    "falhou",
    "não passa",
    "não compila",
    "não consegui",
    "schlägt fehl",
    "schlagen fehl",
    "fehlgeschlagen",
    "nicht bestanden",
    "kompiliert nicht",
    "konnte nicht",
    // negated "completed", "done" (German's split "schlägt … fehl" is
    // matched whole: `admits_failure`)
    "non è",
    "non sono",
    "non ancora",
    "no está",
    "no están",
    "todavía no",
    "aún no",
    "não está",
    "ainda não",
    "noch nicht",
    // a run that never ran
    "was not run",
    "wasn't run",
    "were not run",
    "weren't run",
    "did not run",
    "didn't run",
];

/// Phrases that admit the work is not done or not verified only when their
/// sentence or list item ([`fragments`]) is about the checks or the work
/// ([`about_the_work`]): "I couldn't run the e2e suite" admits; "so
/// regenerating can't reintroduce the bug" and "I haven't changed the public
/// API" do not (normalised form).
const INABILITIES: &[&str] = &[
    "not yet",
    "could not",
    "couldn't",
    "can't",
    "cannot",
    "unable to",
    "wasn't able",
    "was not able",
    "haven't",
    "have not",
];

/// Word beginnings that make a sentence about the work beside the
/// failure topics ([`is_failure_topic`]): running, verifying, fixing, shipping ("couldn't run",
/// "can't verify", "haven't pushed", "haven't implemented the default yet").
const WORK_WORDS: &[&str] = &[
    "pipeline",
    "verif",
    "run",
    "ran",
    "pass",
    "green",
    "fix",
    "finish",
    "done",
    "complet",
    "work",
    "deploy",
    "install",
    "push",
    "commit",
    "merg",
    "releas",
    "reproduc",
    "confirm",
    "validat",
    "execut",
    "coverage",
    "implement",
    "wire",
    "resolv",
    "address",
];

/// Whether sentence `s` (normalised) is about the checks or the work: one of
/// its words is a failure topic ([`is_failure_topic`]) or begins with one of
/// [`WORK_WORDS`].
fn about_the_work(s: &str) -> bool {
    s.split(|c: char| !c.is_alphanumeric())
        .any(|w| is_failure_topic(w) || WORK_WORDS.iter().any(|p| w.starts_with(p)))
}

/// Counts that mean nothing failed; removed before looking for admissions.
const ZERO_FAILURES: &[&str] = &[
    "0 failures",
    "0 failure",
    "0 failed",
    "0 failing",
    "0 fail",
    "0 errors",
    "0 fehler",
    "ohne fehler",
    "no failures",
    "no failing",
    "zero failures",
    "without failures",
    // an absence of errors is no failure: "renders with no console errors"
    "no errors",
    "without errors",
    "without any errors",
    "no console errors",
    "no type errors",
    "no build errors",
    "no compile errors",
    "no new errors",
    "no new failures",
    "error-free",
    "the failing test",
    "the failing tests",
    "the failing spec",
    "previously failing",
    "were failing",
    "was failing",
    "fixed the failing",
    "fixes the failing",
    "fixing the failing",
    "fix the failing",
    "fixed a failing",
    "fixed failing",
];

fn without_zero_counts(a: &str) -> String {
    ZERO_FAILURES.iter().fold(a.to_owned(), |s, z| s.replace(z, " "))
}

/// Whether `n` (normalised) admits the work is not done or not verified.
pub(crate) fn admits_failure(n: &str) -> bool {
    let s = without_zero_counts(n);
    if ADMISSIONS.iter().any(|x| s.contains(x)) {
        return true;
    }
    if sentences(&s)
        .flat_map(fragments)
        .any(|x| INABILITIES.iter().any(|p| x.contains(p)) && about_the_work(x))
    {
        return true;
    }
    // "3 failures", "2 failed", "1 test fails"
    let words: Vec<&str> = s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    // German's split "die Tests schlagen … fehl", whole: "vorgeschlagen" is "suggested"
    if words
        .iter()
        .any(|w| matches!(*w, "schlägt" | "schlagen" | "schlug" | "schlugen"))
    {
        return true;
    }
    // "14 issues", "2 problems", "3 violations" too
    count_then(&words, |w| {
        ["fail", "error", "issue", "problem", "violation", "finding"]
            .iter()
            .any(|p| w.starts_with(p))
    })
}

/// Whether a positive count stands one or two words before a word that
/// `is_what` accepts (`3 failures`, `1 test fails`).
fn count_then(words: &[&str], is_what: impl Fn(&str) -> bool) -> bool {
    (2..=3).any(|n| (words.windows(n)).any(|w| w[0].parse::<u64>().is_ok_and(|k| k > 0) && is_what(w[n - 1])))
}

/// Phrases that tell a failure as known and not the change's: it predates
/// the change or fails on the base branch too (normalised form). Part of
/// [`discloses`] and all of what [`tells_as_known`] looks for.
const KNOWN_FAILURES: &[&str] = &[
    "pre-existing",
    "preexisting",
    "already failing",
    "already failed",
    "already broken",
    "was failing before",
    "were failing before",
    "failing before",
    "failed before my",
    "fails on main",
    "failing on main",
    "fail on main",
    "also fails on",
    "fails on the base",
    "on the base branch",
    "known issue",
    "known failure",
    "known problem",
];

/// Asides that disclose a failure when what they are said of is a failure or
/// a check ([`about_a_failure`]): "the lint warnings are unrelated", "should
/// I update the snapshot test?" — not "the untracked `.codex/` dir (unrelated
/// to this feature)" (normalised form).
const ASIDES: &[&str] = &[
    "unrelated",
    "not related to",
    "isn't related",
    "aren't related",
    "should i update",
    "shall i update",
    "want me to update",
    // a check that has not finished, told ("CI has only just started: most jobs pending")
    "pending",
    "still running",
    // a step that stopped, told ("`docfx metadata` ran into a build-host timeout")
    "ran into",
    // German: "but ran into", "error", "breaks off", "aborted"
    "lief aber",
    "fehler",
    "bricht",
    "abgebrochen",
];

/// Word beginnings that make a passage about a failure ("red" is matched
/// whole: [`is_failure_word`]).
const FAILURE_WORDS: &[&str] = &[
    "fail",
    "error",
    "broke",
    "warning",
    "diagnostic",
    "flak",
    "crash",
    "regress",
];

/// Word beginnings that make a passage about a check, failed or not.
const CHECK_WORDS: &[&str] = &[
    "test", "spec", "suite", "snapshot", "assert", "issue", "problem", "lint", "check", "build", "ci", "type", "compil",
];

/// Whether word `w` is about a failure: it begins with one of
/// [`FAILURE_WORDS`], or is "red" (not "reduce").
fn is_failure_word(w: &str) -> bool {
    w == "red" || FAILURE_WORDS.iter().any(|p| w.starts_with(p))
}

/// Whether word `w` is about a failure or a check: [`is_failure_word`], or
/// it begins with one of [`CHECK_WORDS`].
pub(crate) fn is_failure_topic(w: &str) -> bool {
    is_failure_word(w) || CHECK_WORDS.iter().any(|p| w.starts_with(p))
}

/// Offers that disclose a failure only when what they are said of is a
/// failure itself ([`is_failure_word`], the failing names or the failed
/// step's words): "want me to fix the 2 failing specs?" — not "would you
/// like me to add tests for the installer?" or "Would you like me to push?"
/// (normalised form).
const OFFERS: &[&str] = &[
    "do you want me to",
    "would you like me to",
    "let me know if",
    "do you want them",
];

/// Whether `passage` (normalised) is about a failure or a check: a word that
/// is a failure topic ([`is_failure_topic`]), one of `names` (the failing
/// tests and files) or of `steps` (the failed run's runner words: `commit`).
fn about_a_failure(passage: &str, names: &[String], steps: &[String]) -> bool {
    passage.split(|c: char| !c.is_alphanumeric()).any(is_failure_topic) || names_one(passage, names, steps)
}

/// Whether `passage` (normalised) is about a failure itself: a failure word
/// ([`is_failure_word`]), or one of `names` or `steps` — a check named
/// without a failure ("tests for the installer") is not enough.
fn about_the_failure(passage: &str, names: &[String], steps: &[String]) -> bool {
    // an offer to make it pass or to fix it says it does not pass now
    passage
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| is_failure_word(w) || matches!(w, "green" | "pass" | "passing" | "fix"))
        || names_one(passage, names, steps)
}

/// Whether `passage` names one of `names` or `steps` (four letters or more).
fn names_one(passage: &str, names: &[String], steps: &[String]) -> bool {
    names
        .iter()
        .chain(steps)
        .any(|name| name.len() >= 4 && passage.contains(name.as_str()))
}

/// Whether a list item or sentence of `n` says one of `phrases` of what
/// `about` accepts, itself or by the list item before it in the same sentence
/// ("remaining warnings: unrelated"; "All tests pass. Would you like me to
/// push?" says nothing of a failure).
fn said_of(n: &str, phrases: &[&str], about: impl Fn(&str) -> bool) -> bool {
    // "0 errors" and "ohne Fehler" say nothing failed
    let n = without_zero_counts(n);
    sentences(&n).any(|sentence| {
        let pieces: Vec<&str> = fragments(sentence).collect();
        pieces.iter().enumerate().any(|(i, piece)| {
            phrases.iter().any(|p| piece.contains(p))
                && (about(piece) || i.checked_sub(1).and_then(|j| pieces.get(j)).is_some_and(|b| about(b)))
        })
    })
}

/// Words that disclose a failure as not hidden beside [`KNOWN_FAILURES`],
/// [`ASIDES`] and [`OFFERS`] (normalised form).
const DISCLOSURES: &[&str] = &[
    // a commit kept local on purpose: its failed push is told
    "not pushed",
    "not been pushed",
    "not yet pushed",
    "n't pushed",
    "flaky",
    "still red",
    "still broken",
    "needs updating",
    "need to be updated",
    "needs to be updated",
    "not yet passing",
    "not passing yet",
    // a formatter's verdict, told
    "wants to reformat",
    "would reformat",
    "would be reformatted",
    "needs reformatting",
    "needs formatting",
    // Korean: "a fix is needed", "on hold"
    "수정이 필요",
    "보류",
    "remaining failure",
    "remaining failures",
    // a red run told as such ("the new cart test is red as expected")
    "is red",
    "are red",
    "red as expected",
    "fails as expected",
    "failed as expected",
    "failing as expected",
    // a cross mark in a status table
    "❌",
    "left failing",
    // a run that ran nothing, told ("none of them ran", "deselected"; "all
    // skips" is a whole word, see `discloses`: `--skipLibCheck` is no skip)
    "none of them ran",
    "did not run",
    "didn't run",
    "deselected",
    "no tests collected",
    "no tests ran",
    // a failure that is the environment's, told as such
    "predate",
    "isn't running",
    "is not running",
    "needs a running",
    "isn't installed",
    "is not installed",
    "not installed here",
    "lacks",
    "left alone",
    "left as is",
    "to reformat",
    // Korean: "already broken on main", "needs the network, does not run"
    "깨져 있",
    "돌지 않",
    "실행되지 않",
];

/// Whether `n` (normalised) discloses a failure in any wording: an
/// admission, a disclosure word, an aside said of the failure (of a failure
/// topic, one of `names` or `steps`: [`about_a_failure`]), an offer said of
/// the failure itself ([`about_the_failure`]), or one of `names` (the failing
/// tests or files, lower case) named in so many words.
pub(crate) fn discloses(n: &str, names: &[String], steps: &[String]) -> bool {
    // whole words: `--skipLibCheck` is no skip
    let skips = sentences(n).flat_map(fragments).any(|piece| {
        piece
            .split(|c: char| !c.is_alphanumeric() && c != '-')
            .any(|w| matches!(w, "skip" | "skips" | "skipped" | "skipping"))
            && about_a_failure(piece, names, steps)
    });
    admits_failure(n)
        || skips
        || DISCLOSURES.iter().any(|d| n.contains(d))
        || said_of(n, KNOWN_FAILURES, |p| about_a_failure(p, names, steps))
        || said_of(n, ASIDES, |p| about_a_failure(p, names, steps))
        || said_of(n, OFFERS, |p| about_the_failure(p, names, steps))
        || names_failing(n, names)
}

/// Whether a sentence of `n` names one of `names` together with a word that
/// says it fails ("`test_login` still errors", "all pass except `test_io`"),
/// so "I fixed `test_login`; all tests pass" is no disclosure.
fn names_failing(n: &str, names: &[String]) -> bool {
    sentences(n)
        .filter(|s| names.iter().any(|name| name.len() >= 4 && s.contains(name.as_str())))
        .any(|s| {
            // whole words: "restored" says nothing is red
            let s = without_zero_counts(s);
            s.split(|c: char| !c.is_alphanumeric()).any(|w| {
                ["fail", "error", "skip", "flak"].iter().any(|p| w.starts_with(p))
                    || matches!(
                        w,
                        "broken"
                            | "red"
                            | "except"
                            | "but"
                            | "still"
                            | "remaining"
                            | "remain"
                            | "remains"
                            | "untouched"
                    )
            })
        })
}

/// Whether one of `messages` (normalised) tells a failure as known and not
/// the change's in a sentence ("pre-existing", "fails on main too", "a known
/// issue") that names one of `words`, what the failure's lines say
/// ("cypress"), and does not go on to fix it ("… let me quickly fix it").
pub(crate) fn tells_as_known(messages: &[String], words: &[String]) -> bool {
    messages
        .iter()
        .filter(|m| !m.contains("fix"))
        .any(|m| tells_known_in(m, words))
}

fn tells_known_in(n: &str, words: &[String]) -> bool {
    sentences(n)
        .filter(|s| KNOWN_FAILURES.iter().any(|d| s.contains(d)))
        .any(|s| {
            s.split(|c: char| !c.is_alphanumeric())
                .any(|w| words.iter().any(|f| f == w))
        })
}

/// Whether a sentence of `n` names one of `subcommands` (a failed run's own:
/// `push` of `git commit … && git push`), in any of its forms, with a word that
/// says it is not done or is left to someone: "pushing is up to you", "I
/// didn't push: there are no credentials", "推送需要你的凭据".
pub(crate) fn tells_unmet(n: &str, subcommands: &[String]) -> bool {
    const UNMET: &[&str] = &[
        "needs",
        "need",
        "requires",
        "first",
        "missing",
        "yourself",
        "up to you",
        "didn't",
        "did not",
        "n't",
        "not ",
        "cannot",
        "refused",
        "rejected",
        "denied",
        "blocked",
        "credentials",
        "失败",
        "需要",
        "无法",
        "できません",
        "失敗",
        "必要",
    ];
    // actions, not checks: "the tests need a database" is `tells_unrun`'s
    const ACTIONS: &[&str] = &[
        "push", "commit", "merge", "install", "deploy", "publish", "release", "tag", "fetch", "pull", "clone", "upload",
    ];
    let forms: Vec<String> = subcommands
        .iter()
        .filter(|s| ACTIONS.contains(&s.as_str()))
        .flat_map(|s| {
            [
                s.clone(),
                format!("{s}ing"),
                format!("{s}ed"),
                format!("{s}es"),
                format!("{s}s"),
            ]
        })
        .collect();
    let cjk = |s: &str| match s {
        "push" => &["推送", "プッシュ"][..],
        "commit" => &["提交", "コミット"][..],
        "merge" => &["合并", "マージ"][..],
        "install" => &["安装", "インストール"][..],
        _ => &[][..],
    };
    sentences(n).any(|s| {
        let names = s
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| forms.iter().any(|f| f == w))
            || subcommands.iter().any(|sub| cjk(sub).iter().any(|c| s.contains(c)));
        names && UNMET.iter().any(|u| s.contains(u))
    })
}

/// Whether a sentence of `n` names one of `programs` (a failed run's runner:
/// `playwright`, `ty`) with a word that says it has yet to run: "the e2e run needs
/// `npx playwright install` first", "pytest requires the database". A
/// program's name with a failure word says nothing here ("cargo clippy
/// reports no warnings and the errors are gone"): programs are wider names
/// than tests.
pub(crate) fn tells_unrun(n: &str, programs: &[String]) -> bool {
    sentences(n)
        .filter(|s| {
            // a word of its own: `user.go` and `main.py` do not name `go` or `py`
            programs.iter().any(|p| {
                s.split_whitespace()
                    .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
                    .any(|w| w == p)
            })
        })
        .any(|s| {
            s.split(|c: char| !c.is_alphanumeric())
                .any(|w| matches!(w, "needs" | "need" | "requires" | "first" | "missing"))
        })
}

/// Whether `n` (normalised) talks about a failure at all (the reader was told).
pub(crate) fn mentions_failure(n: &str) -> bool {
    let s = without_zero_counts(n);
    admits_failure(n)
        || [
            "fail",
            "error",
            "broken",
            "crash",
            "panic",
            "not exist",
            "no longer exist",
            "missing",
            "not found",
            "blocked",
            "denied",
            "timed out",
            // Korean: "failure", "error"
            "실패",
            "오류",
            "에러",
            // Italian, Spanish, Portuguese, German: "failure", "error"
            "errore",
            "fallo",
            "falla",
            "falha",
            "erro ",
            "fehler",
            "timeout",
            "declined",
            "rejected",
        ]
        .iter()
        .any(|w| s.contains(w))
        || s.split(|c: char| !c.is_alphanumeric()).any(|w| w == "red")
}
