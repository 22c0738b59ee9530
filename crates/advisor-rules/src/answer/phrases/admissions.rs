//! The phrases of admissions: what says the work is not done, not verified, or that something
//! failed.
//!
//! Data only, one language per column ([`Phrases`]), normalised: the admissions, the inabilities
//! and the work words that make one about the work, the zero counts that mean nothing failed, the
//! failure and check words, the words that mention a failure and those that tell an exit status.
//! Must not hold logic: [`admissions`](crate::answer::admissions) reads an answer with them.

use super::lang::Phrases;

/// Phrases that admit the work is not done (normalised form). An answer with
/// one claims nothing.
pub(crate) const ADMISSIONS: Phrases = Phrases {
    en: &[
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
        // a run that never ran
        "was not run",
        "wasn't run",
        "were not run",
        "weren't run",
        "did not run",
        "didn't run",
    ],
    // "fails", "do not pass", "still failing"
    fr: &[
        "échoue",
        "échouent",
        "ne passe pas",
        "ne passent pas",
        "en échec",
        "a échoué",
        "ont échoué",
    ],
    // "fails", "do not pass", "could not"
    // negated "completed", "done" (German's split "schlägt … fehl" is matched whole: `admits_failure`)
    de: &[
        "schlägt fehl",
        "schlagen fehl",
        "fehlgeschlagen",
        "nicht bestanden",
        "kompiliert nicht",
        "konnte nicht",
        "noch nicht",
    ],
    // "fails", "do not pass", "could not"
    // negated "completed", "done" (German's split "schlägt … fehl" is matched whole: `admits_failure`)
    it: &[
        "fallisc",
        "non passa",
        "fallit",
        "non compila",
        "non sono riuscito",
        "non è",
        "non sono",
        "non ancora",
    ],
    // "fails", "do not pass", "could not"
    // negated "completed", "done" (German's split "schlägt … fehl" is matched whole: `admits_failure`)
    es: &[
        "fallan",
        "falla",
        "falló",
        "no pasa",
        "no compila",
        "no pude",
        "no está",
        "no están",
        "todavía no",
        "aún no",
    ],
    // "fails", "do not pass", "could not"
    // negated "completed", "done" (German's split "schlägt … fehl" is matched whole: `admits_failure`)
    pt: &[
        "falham",
        "falha",
        "falhou",
        "não passa",
        "não compila",
        "não consegui",
        "não está",
        "ainda não",
    ],
    // "do(es) not pass", "did not pass", "failed to", "fails", "fell over", "does not build / compile /
    // work", "not yet", "not all", "is not ready / done / fixed"
    ru: &[
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
    ],
    // "(the tests) still fail", "did not pass"
    zh: &[
        "测试失败",
        "仍然失败",
        "仍失败",
        "还是失败",
        "未通过",
        "没有通过",
        "推送失败",
        "提交失败",
        "安装失败",
        "构建失败",
        "失败了",
    ],
    // "(the tests) still fail", "did not pass"
    ja: &[
        "テストが失敗",
        "失敗しています",
        "失敗しました",
        "できませんでした",
        "通りません",
        "通っていません",
    ],
    // "failed", "did not pass", "could not"
    ko: &["실패", "통과하지 못", "통과하지 않", "못했습니다", "깨집니다", "깨졌"],
};

/// Phrases that admit the work is not done or not verified only when their
/// sentence or list item ([`fragments`](crate::answer::sentences::fragments)) is about the checks or the work
/// (`about_the_work`): "I couldn't run the e2e suite" admits; "so
/// regenerating can't reintroduce the bug" and "I haven't changed the public
/// API" do not (normalised form).
pub(crate) const INABILITIES: Phrases = Phrases {
    en: &[
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
    ],
    // "I can't"
    ru: &["не могу"],
    ..Phrases::NONE
};

/// Word beginnings that make a sentence about the work beside the
/// failure topics ([`is_failure_topic`](crate::answer::admissions::is_failure_topic)): running, verifying, fixing, shipping ("couldn't run",
/// "can't verify", "haven't pushed", "haven't implemented the default yet").
pub(crate) const WORK_WORDS: Phrases = Phrases {
    en: &[
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
    ],
    // "run", "check", "fix", "install", "commit", "push"
    ru: &["запуст", "запуск", "провер", "исправ", "установ", "закоммит", "запуш"],
    ..Phrases::NONE
};

/// Counts that mean nothing failed; removed before looking for admissions.
pub(crate) const ZERO_FAILURES: Phrases = Phrases {
    en: &[
        "0 failures",
        "0 failure",
        "0 failed",
        "0 failing",
        "0 fail",
        "0 errors",
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
    ],
    de: &["0 fehler", "ohne fehler"],
    // "without errors", "no errors", "0 errors"
    ru: &["без ошибок", "ошибок нет", "нет ошибок", "0 ошибок"],
    ..Phrases::NONE
};

/// Word beginnings that make a passage about a failure ("red" is matched
/// whole: [`is_failure_word`](crate::answer::admissions::is_failure_word)).
pub(crate) const FAILURE_WORDS: Phrases = Phrases {
    en: &[
        "fail",
        "error",
        "broke",
        "warning",
        "diagnostic",
        "flak",
        "crash",
        "regress",
    ],
    // "error", "falls / fell", "failure", "fault", "red", "broken", "crashes", "crash", "flaky"
    ru: &[
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
    ],
    ..Phrases::NONE
};

/// Word beginnings that make a passage about a check, failed or not.
pub(crate) const CHECK_WORDS: Phrases = Phrases {
    en: &[
        "test", "spec", "suite", "snapshot", "assert", "issue", "problem", "lint", "check", "build", "ci", "type",
        "compil",
    ],
    // "test", "build", "check", "problem", "compil"
    ru: &["тест", "сборк", "билд", "провер", "проблем", "компил"],
    ..Phrases::NONE
};

/// Words that mention a failure, beside an admission ([`mentions_failure`](crate::answer::admissions::mentions_failure)).
pub(crate) const MENTIONS: Phrases = Phrases {
    en: &[
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
        "timeout",
        "declined",
        "rejected",
    ],
    // "failed", "error", "crashes", "does not work", "not found"
    fr: &[
        "échou",
        "erreur",
        "plante",
        "planté",
        "ne marche pas",
        "ne fonctionne pas",
        "introuvable",
    ],
    // "failure", "error"
    de: &["fehler"],
    // "failure", "error"
    it: &["errore"],
    // "failure", "error"
    es: &["fallo", "falla"],
    // "failure", "error"
    pt: &["falha", "erro "],
    // "error", "failure", "not found", "missing", "denied", "red", "broken", "crashes", "flaky"
    ru: &[
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
    ],
    // "failed", "error", "reports an error", "missing", "cannot", "dead link", "needs … first"
    zh: &["失败", "错误", "报错", "异常", "缺少", "无法", "未能", "死链", "需要先"],
    // "failed", "error", "reports an error", "missing", "cannot", "dead link", "needs … first"
    ja: &["エラー", "失敗", "リンク切れ", "無い", "ありません"],
    // "broken", "failure", "error"
    // "failure", "error"
    ko: &["깨진", "실패", "오류", "에러"],
};

/// What tells an exit status, before its number ([`tells_exit_status`](crate::answer::admissions::tells_exit_status)).
pub(crate) const EXIT_STATUS: Phrases = Phrases {
    en: &[
        "exited with code ",
        "exited with ",
        "exited ",
        "exit code ",
        "exit status ",
    ],
    // "exit code (is)"
    zh: &["退出码为 ", "退出码为", "退出码 "],
    // "exit code (is)"
    ja: &["終了コード ", "終了コード"],
    // "exit code (is)"
    ko: &["종료 코드 "],
    ..Phrases::NONE
};

/// Words after "exited with" that make its number a count, no status:
/// "the linter exited with 2 warnings".
pub(crate) const COUNTED: &[&str] = &[
    "warning", "error", "test", "failure", "issue", "file", "problem", "finding",
];
