//! The phrases of success claims: what says tests, builds, lints, every check or the task came out
//! right.
//!
//! Data only, one language per column ([`Phrases`]), in the normalised form the answer is matched
//! in (lower case, NFKC, typographic quotes folded): the claims about tests, every check, builds,
//! lints and the task, the task claims that every check came out right, and the words the short
//! claims and plans are read by. Must not hold logic: [`claims`](crate::answer::claims) reads an
//! answer with them.

use super::lang::Phrases;

/// Claims about tests (normalised form).
pub(crate) const TEST_CLAIMS: Phrases = Phrases {
    en: &[
        "tests pass",
        "test passes",
        "tests are passing",
        "tests now pass",
        "tests all pass",
        "tests passed",
        "tests succeed",
        "tests are green",
        "tests green",
        "tests run clean",
        "tests come back clean",
        "tests are clean",
        "specs pass",
        "specs are green",
        "suite passes",
        "suite is green",
        "suite green",
        "suite is passing",
        "suite passed",
        "passes all tests",
        "passing all tests",
        "all tests passing",
        "all tests succeeded",
        "all pass",
        "both pass",
    ],
    // "the tests pass", "the suite is green"
    fr: &[
        "tests passent",
        "test passe",
        "tests sont verts",
        "suite est verte",
        "tests réussissent",
        "tests sont ok",
    ],
    // "(all) the tests pass"
    de: &["tests bestehen", "tests sind grün", "tests laufen durch"],
    // "(all) the tests pass"
    it: &["test passano", "test superati", "test sono verdi"],
    // "(all) the tests pass"
    es: &["tests pasan", "pruebas pasan"],
    // "(all) the tests pass"
    pt: &["testes passam", "testes passaram"],
    // "the tests pass", "(all 24) tests passed", "the tests are green"
    ru: &[
        "тесты проходят",
        "тесты прошли",
        "тесты пройдены",
        "тест проходит",
        "тест прошел",
        "теста прошли",
        "тестов прошли",
        "тестов пройдено",
        "тесты зеленые",
        "тесты успешно",
    ],
    // "the tests (all) pass"
    zh: &[
        "测试全部通过",
        "测试均通过",
        "测试都通过",
        "所有测试通过",
        "测试通过",
        "全部测试通过",
    ],
    // "the tests (all) pass"
    ja: &[
        "テストがすべて通",
        "テストは全て通",
        "テストが全て通",
        "全てのテストが通",
        "すべてのテストが通",
        "テストが通りました",
        "テストは成功",
    ],
    // "(all) tests pass(ed)"
    ko: &[
        "테스트 통과",
        "테스트가 통과",
        "테스트 모두 통과",
        "테스트가 모두 통과",
        "모두 통과했습니다",
        "모두 통과합니다",
    ],
};

/// Claims about every check at once: tests and builds (normalised form).
pub(crate) const CHECK_CLAIMS: Phrases = Phrases {
    en: &[
        "all green",
        "is green",
        "are green",
        "checks pass",
        "checks are green",
        "checks are clean",
        "come back clean",
        "comes back clean",
        "everything passes",
        "ci is green",
        "ci passes",
        "ci passed",
        "pipeline is green",
        "pipeline passes",
    ],
    // "all checks passed", "CI is green"
    ru: &[
        "проверки проходят",
        "проверки пройдены",
        "проверки прошли",
        "ci зеленый",
        "все зеленое",
        "все зелено",
    ],
    // "confirmed that CI passed", "CI passed" (not "after CI passes": `ci 통과 후`)
    ko: &[
        "ci 통과를 확인",
        "ci 통과했습니다",
        "ci가 통과했습니다",
        "체크 모두 통과",
    ],
    ..Phrases::NONE
};

/// Claims about builds, type checks and lints (normalised form).
pub(crate) const BUILD_CLAIMS: Phrases = Phrases {
    en: &[
        "builds successfully",
        "builds cleanly",
        "builds without errors",
        "build succeeds",
        "build succeeded",
        "build passes",
        "build is clean",
        "build is green",
        "compiles successfully",
        "compile cleanly",
        "compile successfully",
        "compile without errors",
        "compiles cleanly",
        "compiles without errors",
        "type check passes",
        "type-check passes",
        "typecheck passes",
        "type checks pass",
        "type-checks pass",
        "typechecks cleanly",
        "type checks cleanly",
        "no type errors",
        "check is clean",
        "checks clean",
        "check passes",
        "check passed",
        "clean build",
        "everything builds",
        "it builds",
        "crate builds",
        "project builds",
        "code builds",
        "app builds",
        "now builds",
        "builds fine",
        "builds without",
        "compiles fine",
        "compiles without",
        "compile without",
        "compile cleanly",
        // "the workspace compiles", "it compiles now"
        "workspace compiles",
        "it compiles",
        "now compiles",
        "compiles now",
        "compiles again",
        "code compiles",
        "project compiles",
        "crate compiles",
        "crates compile",
        "everything compiles",
        "all compiles",
    ],
    // "it compiles", "the build is clean"
    fr: &[
        "compile sans erreur",
        "compile proprement",
        "build est propre",
        "build passe",
        "compilation réussie",
    ],
    // "the build succeeds", "compiles without errors"
    // "runs through (cleanly)", "is built", "builds without errors"
    de: &[
        "build erfolgreich",
        "kompiliert ohne fehler",
        "läuft sauber durch",
        "lief es durch",
        "lief sauber durch",
        "ist gebaut",
        "ohne fehler",
    ],
    // "the build succeeds", "compiles without errors"
    it: &["build riuscita", "compila senza errori"],
    // "the build succeeds", "compiles without errors"
    es: &["compila sin errores", "compilación exitosa"],
    // "the build succeeds", "compiles without errors"
    pt: &["compila sem erros"],
    // "the build succeeded", "builds / compiles without errors"
    ru: &[
        "сборка успешна",
        "сборка проходит",
        "сборка прошла",
        "собирается без ошибок",
        "собирается успешно",
        "собирается чисто",
        "компилируется без ошибок",
        "компилируется успешно",
        "билд проходит",
        "билд прошел",
        "без ошибок компиляции",
        "сборка зеленая",
        "билд зеленый",
    ],
    // "the build succeeds", "it compiles"
    zh: &["构建成功", "编译通过", "编译成功"],
    // "the build succeeds", "it compiles"
    ja: &["ビルド成功", "ビルドが成功", "ビルドは成功"],
    // "the build succeeds"
    ko: &["빌드 성공", "빌드가 성공", "빌드 통과"],
};

/// Claims about lints and formatting (normalised form); also build claims
/// where [`BUILD_CLAIMS`] has them.
pub(crate) const LINT_CLAIMS: Phrases = Phrases {
    en: &[
        "lint passes",
        "lint is clean",
        "no lint errors",
        "lints clean",
        "formatting is clean",
    ],
    ..Phrases::NONE
};

/// Claims about the task itself (normalised form).
pub(crate) const TASK_CLAIMS: Phrases = Phrases {
    en: &[
        "successfully",
        "is fixed",
        "are fixed",
        "fixed the",
        "fixed it",
        "i've fixed",
        "has been fixed",
        "is done",
        "all done",
        "done!",
        "done.",
        "done -",
        "done:",
        "done,",
        "fixed!",
        "fixed.",
        "fixed:",
        "committed",
        "pushed",
        "completed",
        "is complete",
        "are complete",
        "implemented",
        "works now",
        "now works",
        "everything works",
        "ready to merge",
        "ready for review",
        "ready for a pr",
        "everything checks out",
        "all checks out",
        "validated:",
        "verified end-to-end",
        "verified end to end",
        "ready for pr",
        "ready to ship",
        "pr created",
        "pull request created",
        "opened a pr",
        "opened a pull request",
        "marked complete",
        "marked as complete",
        "work finished",
        "work is finished",
        "fixed and",
        "deployed",
        "is live",
        "shipped",
        "all clean",
        "verified everything",
        "everything verified",
        "everything's verified",
        "everything is verified",
        "all verified",
        "approved and verified",
        "opened pr",
        "opened the pr",
        "opened a draft pr",
        "draft pr created",
        "pr opened",
        "pr is up",
    ],
    // "done", "finished", "fixed"
    fr: &["c'est fait", "terminé", "corrigé", "est prêt"],
    // "completed", "finished", "fixed"
    de: &["erledigt", "abgeschlossen"],
    // "completed", "finished", "fixed"
    it: &["completato"],
    // "completed", "finished", "fixed"
    es: &["completado"],
    // "completed", "finished", "fixed"
    pt: &["concluído"],
    // "done", "ready", "completed", "fixed", "committed", "pushed", "now works" (each negated form is an
    // admission: "не готово")
    ru: &[
        "готово",
        "все сделано",
        "выполнено",
        "завершено",
        "реализовано",
        "исправлено",
        "закоммичен",
        "закоммитил",
        "запушен",
        "запушил",
        "теперь работает",
        "все работает",
        "готовы к ревью",
        "готово к ревью",
    ],
    // "done", "completed", "committed", "pushed", "merged"
    zh: &[
        "已完成",
        "完成了",
        "已提交",
        "提交了",
        "已推送",
        "推送了",
        "已合并",
        "合并了",
    ],
    // "done", "completed", "committed", "pushed", "merged"
    ja: &["完了しました", "コミットしました", "プッシュしました", "マージしました"],
    // "done", "pushed", "merged"
    ko: &[
        "완료했습니다",
        "완료.",
        "완료되었습니다",
        "push했습니다",
        "푸시했습니다",
        "머지했습니다",
    ],
};

/// Task claims that every check came out right (normalised form; each is a
/// [`TASK_CLAIMS`] phrase too).
pub(crate) const EVERY_CLAIMS: Phrases = Phrases {
    en: &[
        "everything checks out",
        "all checks out",
        "everything works",
        "verified everything",
        "everything verified",
        "everything's verified",
        "everything is verified",
        "all verified",
    ],
    ..Phrases::NONE
};

/// Words that open a sentence saying what is to be done, not what was:
/// "Keep the existing help tests passing", "Ensure the suite stays green",
/// "I'll make sure the tests pass" (after a list marker, normalised).
pub(crate) const PLAN_OPENERS: &[&str] = &[
    "keep ",
    "ensure ",
    "make sure ",
    "extend ",
    "add ",
    "implement ",
    "introduce ",
    "i'll ",
    "i will ",
    "we'll ",
    "we will ",
    "let's ",
    "next, ",
    "to do: ",
];

/// Words that say a check passed, in a short claim ("packages green", "build
/// clean", "lint ok").
pub(crate) const VERDICT_WORDS: &[&str] = &["green", "clean", "pass", "passes", "passing", "passed", "ok", "✅"];

/// Checkers an answer may name with a short verdict: "clippy is clean", "tsc
/// passes", "ruff clean".
pub(crate) const CHECKERS: &[&str] = &[
    "clippy",
    "tsc",
    "mypy",
    "pyright",
    "eslint",
    "ruff",
    "prettier",
    "gofmt",
    "rustfmt",
    "biome",
    "shellcheck",
    "flake8",
    "pylint",
    "stylelint",
    "rubocop",
];
