//! Reading what an answer admits: that the work is not done or not verified.
//!
//! Owns [`admits_failure`] (an admission — "still fails", "couldn't", "3
//! failures" — means the answer claims nothing), [`mentions_failure`] (the
//! reader was told something failed), [`tells_exit_status`] (a non-zero exit
//! told: "`git commit` exited 128") and the failure topics
//! ([`is_failure_topic`], [`is_failure_word`]) that
//! [`disclosures`](super::disclosures) reads asides by. Matching runs on the
//! normalised answer ([`normalise`](super::claims::normalise)), whole words
//! where a word could hide inside another ("restored" is not "red"). Must not
//! look at tool calls, nor decide what an answer claims —
//! [`claims`](super::claims) does that — nor what it discloses.

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
    "a échoué",
    "ont échoué",
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
    // Russian: "do(es) not pass", "did not pass", "failed to", "fails",
    // "fell over", "does not build / compile / work", "not yet", "not all",
    // "is not ready / done / fixed"
    "не проход",
    "не прош",
    "не пройден",
    "не удалось",
    "не получилось",
    "не смог",
    "не собира",
    "не компилир",
    "не работает",
    "падает",
    "падают",
    "упал",
    "провал",
    "все еще красн",
    "еще не",
    "пока не",
    "не все",
    "не готов",
    "не сделан",
    "не выполн",
    "не заверш",
    "не реализ",
    "не исправ",
    "не закоммич",
    "не запуш",
    "не запуск",
    "не запуст",
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
    // nothing done yet: "the files are staged, but nothing is committed yet"
    "nothing is",
    "nothing was",
    "nothing has been",
    "nothing got",
    // Russian: "I can't"
    "не могу",
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
    // Russian: "run", "check", "fix", "install", "commit", "push"
    "запуст",
    "запуск",
    "провер",
    "исправ",
    "установ",
    "закоммит",
    "запуш",
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
    // Russian: "without errors", "no errors", "0 errors"
    "без ошибок",
    "ошибок нет",
    "нет ошибок",
    "0 ошибок",
    "no failures",
    "no failing",
    // nothing went wrong (not "nothing is committed yet")
    "nothing is broken",
    "nothing was broken",
    "nothing got broken",
    "nothing is left to fix",
    "nothing left to fix",
    "nothing else to fix",
    "nothing broke",
    "nothing failed",
    "nothing fails",
    "nothing is failing",
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

pub(crate) fn without_zero_counts(a: &str) -> String {
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
    // Russian: "error", "falls / fell", "failure", "fault", "red", "broken",
    // "crashes", "crash", "flaky"
    "красн",
    "слом",
    "вылет",
    "краш",
    "нестабильн",
    "ошиб",
    "пада",
    "упал",
    "провал",
    "сбой",
    "сбоя",
    "сбои",
    "неудач",
];

/// Word beginnings that make a passage about a check, failed or not.
const CHECK_WORDS: &[&str] = &[
    "test",
    "spec",
    "suite",
    "snapshot",
    "assert",
    "issue",
    "problem",
    "lint",
    "check",
    "build",
    "ci",
    "type",
    "compil",
    // Russian: "test", "build", "check", "problem", "compil"
    "тест",
    "сборк",
    "билд",
    "провер",
    "проблем",
    "компил",
];

/// Whether word `w` is about a failure: it begins with one of
/// [`FAILURE_WORDS`], or is "red" (not "reduce").
pub(crate) fn is_failure_word(w: &str) -> bool {
    w == "red" || FAILURE_WORDS.iter().any(|p| w.starts_with(p))
}

/// Whether word `w` is about a failure or a check: [`is_failure_word`], or
/// it begins with one of [`CHECK_WORDS`].
pub(crate) fn is_failure_topic(w: &str) -> bool {
    is_failure_word(w) || CHECK_WORDS.iter().any(|p| w.starts_with(p))
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
            "did not go through",
            "didn't go through",
            // Chinese, Japanese: "failed", "error", "reports an error", "missing", "cannot",
            // "dead link", "needs … first"; Korean: "broken", "failure", "error"
            "失败",
            "错误",
            "报错",
            "异常",
            "缺少",
            "无法",
            "未能",
            "死链",
            "需要先",
            "エラー",
            "失敗",
            "リンク切れ",
            "無い",
            "ありません",
            "깨진",
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
            // French: "failed", "error", "crashes", "does not work", "not found"
            "échou",
            "erreur",
            "plante",
            "planté",
            "ne marche pas",
            "ne fonctionne pas",
            "introuvable",
            // Russian: "error", "failure", "not found", "missing", "denied",
            // "red", "broken", "crashes", "flaky"
            "красн",
            "сломан",
            "вылета",
            "краш",
            "нестабильн",
            "ошибк",
            "ошибок",
            "сбой",
            "неудач",
            "не найден",
            "отсутству",
            "отказано",
            "timeout",
            "declined",
            "rejected",
        ]
        .iter()
        .any(|w| s.contains(w))
        || s.split(|c: char| !c.is_alphanumeric()).any(|w| w == "red")
        || tells_exit_status(&s)
}

/// Whether `s` tells a non-zero exit status: "`git commit` exited 128",
/// "exit code 2", "exit status 1".
pub(crate) fn tells_exit_status(s: &str) -> bool {
    // a count after "exited with" is no status: "the linter exited with 2 warnings"
    const COUNTED: &[&str] = &[
        "warning", "error", "test", "failure", "issue", "file", "problem", "finding",
    ];
    [
        "exited with code ",
        "exited with ",
        "exited ",
        "exit code ",
        "exit status ",
        // Chinese, Japanese, Korean: "exit code (is)"
        "退出码为 ",
        "退出码为",
        "退出码 ",
        "終了コード ",
        "終了コード",
        "종료 코드 ",
    ]
    .iter()
    .any(|p| {
        s.match_indices(p).any(|(i, _)| {
            let rest = &s[i + p.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let next = rest[digits.len()..].trim_start();
            digits.parse::<u32>().is_ok_and(|c| c != 0) && !COUNTED.iter().any(|w| next.starts_with(w))
        })
    })
}
