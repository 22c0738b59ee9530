//! Reading the answer: normalisation and success claims.
//!
//! Owns [`normalise`] (NFKC, typographic quotes and apostrophes folded,
//! lower case, Russian ё as е, whitespace collapsed), [`Claims`] and [`claims`] (what an
//! answer claims: tests, builds, lints, the task — an answer that admits a
//! failure claims nothing, see [`admissions`](super::admissions); a plan —
//! "Keep the tests passing", "I'll make sure they pass" — claims nothing
//! either). How an answer names one run as passing is
//! [`naming`](super::naming). Matching always runs on the normalised text, so
//! "I couldn’t", "I couldn't" and "I COULDN'T" read the same. Must not look at
//! tool calls.

use unicode_normalization::UnicodeNormalization;

use super::admissions::admits_failure;
use super::sentences::{fragments, sentences};
use advisor::invisible::is_invisible;

/// The answer as the phrase lists are matched against it.
pub(crate) fn normalise(answer: &str) -> String {
    let folded: String = answer
        .chars()
        .filter(|c| !is_invisible(*c))
        .nfkc()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{02BC}' | '\u{02B9}' | '`'
            | '\u{00B4}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}' | '\u{00BB}' => '"',
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
            c => c,
        })
        .flat_map(char::to_lowercase)
        // Russian writes "всё" and "все" alike: the lists hold "е" only
        .map(|c| if c == 'ё' { 'е' } else { c })
        .collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What an answer claims, by what the claim is about. A claim about tests,
/// builds or type checks is judged by every failure no later run cleared;
/// a claim about the task ("Done", "PR created") only by the turn's own
/// evidence.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Claims {
    /// "All tests pass", "the suite is green".
    pub(crate) tests: bool,
    /// "Builds cleanly", "type check passes", "no lint errors".
    pub(crate) build: bool,
    /// "Lint is clean", "format and lint are clean": a linter's or formatter's
    /// run, and no other build (a type check is not a lint).
    pub(crate) lint: bool,
    /// "Done", "fixed", "the feature is complete", "ready to merge".
    pub(crate) task: bool,
    /// "Everything checks out", "all verified": a task claim that every check
    /// of the turn came out right, whatever else the answer claims.
    pub(crate) every: bool,
}

impl Claims {
    /// Whether the answer claims anything.
    pub(crate) fn any(self) -> bool {
        self.tests || self.build || self.lint || self.task
    }
}

/// Claims about tests (normalised form).
const TEST_CLAIMS: &[&str] = &[
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
    // French: "the tests pass", "the suite is green"
    "tests passent",
    "test passe",
    "tests sont verts",
    "suite est verte",
    "tests réussissent",
    "tests sont ok",
    // Chinese and Japanese: "the tests (all) pass"
    "测试全部通过",
    "测试均通过",
    "测试都通过",
    "所有测试通过",
    "测试通过",
    "全部测试通过",
    "テストがすべて通",
    "テストは全て通",
    "テストが全て通",
    "全てのテストが通",
    "すべてのテストが通",
    "テストが通りました",
    "テストは成功",
    // Korean: "(all) tests pass(ed)"
    "테스트 통과",
    "테스트가 통과",
    "테스트 모두 통과",
    "테스트가 모두 통과",
    "모두 통과했습니다",
    "모두 통과합니다",
    // Italian, Spanish, Portuguese, German: "(all) the tests pass"
    "test passano",
    "test superati",
    "test sono verdi",
    "tests pasan",
    "pruebas pasan",
    "testes passam",
    "testes passaram",
    "tests bestehen",
    "tests sind grün",
    "tests laufen durch",
    // Russian: "the tests pass", "(all 24) tests passed", "the tests are green"
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
];

/// Claims about every check at once: tests and builds (normalised form).
const CHECK_CLAIMS: &[&str] = &[
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
    // Korean: "confirmed that CI passed", "CI passed" (not "after CI passes": `ci 통과 후`)
    "ci 통과를 확인",
    "ci 통과했습니다",
    "ci가 통과했습니다",
    "체크 모두 통과",
    // Russian: "all checks passed", "CI is green"
    "проверки проходят",
    "проверки пройдены",
    "проверки прошли",
    "ci зеленый",
    "все зеленое",
    "все зелено",
];

/// Claims about builds, type checks and lints (normalised form).
const BUILD_CLAIMS: &[&str] = &[
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
    // French: "it compiles", "the build is clean"
    "compile sans erreur",
    "compile proprement",
    "build est propre",
    "build passe",
    "compilation réussie",
    // Chinese and Japanese: "the build succeeds", "it compiles"
    "构建成功",
    "编译通过",
    "编译成功",
    "ビルド成功",
    "ビルドが成功",
    "ビルドは成功",
    // Korean: "the build succeeds"
    "빌드 성공",
    "빌드가 성공",
    "빌드 통과",
    // Italian, Spanish, Portuguese, German: "the build succeeds", "compiles without errors"
    "build riuscita",
    "compila senza errori",
    "compila sin errores",
    "compilación exitosa",
    "compila sem erros",
    "build erfolgreich",
    "kompiliert ohne fehler",
    // German: "runs through (cleanly)", "is built", "builds without errors"
    "läuft sauber durch",
    "lief es durch",
    "lief sauber durch",
    "ist gebaut",
    "ohne fehler",
    // Russian: "the build succeeded", "builds / compiles without errors"
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
];

/// Claims about lints and formatting (normalised form); also build claims
/// where [`BUILD_CLAIMS`] has them.
const LINT_CLAIMS: &[&str] = &[
    "lint passes",
    "lint is clean",
    "no lint errors",
    "lints clean",
    "formatting is clean",
];

/// Claims about the task itself (normalised form).
const TASK_CLAIMS: &[&str] = &[
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
    // French: "done", "finished", "fixed"
    "c'est fait",
    "terminé",
    "corrigé",
    "est prêt",
    // Chinese and Japanese: "done", "completed", "committed", "pushed", "merged"
    "已完成",
    "完成了",
    "完了しました",
    "已提交",
    "提交了",
    "已推送",
    "推送了",
    "已合并",
    "合并了",
    "コミットしました",
    "プッシュしました",
    "マージしました",
    // Korean: "done", "pushed", "merged"
    "완료했습니다",
    "완료.",
    "완료되었습니다",
    "push했습니다",
    "푸시했습니다",
    "머지했습니다",
    // Italian, Spanish, Portuguese, German: "completed", "finished", "fixed"
    "completato",
    "completado",
    "concluído",
    "erledigt",
    "abgeschlossen",
    // Russian: "done", "ready", "completed", "fixed", "committed", "pushed",
    // "now works" (each negated form is an admission: "не готово")
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
];

/// Task claims that every check came out right (normalised form; each is a
/// [`TASK_CLAIMS`] phrase too).
const EVERY_CLAIMS: &[&str] = &[
    "everything checks out",
    "all checks out",
    "everything works",
    "verified everything",
    "everything verified",
    "everything's verified",
    "everything is verified",
    "all verified",
];

/// What `n` (normalised) claims, when it admits no failure (an answer that
/// admits one claims nothing).
pub(crate) fn claims(n: &str) -> Claims {
    if admits_failure(n) {
        return Claims::default();
    }
    let stated = without_plans(n);
    let n = stated.as_str();
    let has = |list: &[&str]| list.iter().any(|c| n.contains(c));
    let checks = has(CHECK_CLAIMS);
    let (near_tests, near_build, near_lint) = short_claims(n);
    Claims {
        lint: near_lint || has(LINT_CLAIMS),
        tests: checks || near_tests || has(TEST_CLAIMS),
        build: checks || near_build || has(BUILD_CLAIMS),
        task: has(TASK_CLAIMS),
        every: has(EVERY_CLAIMS),
    }
}

/// Words that open a sentence saying what is to be done, not what was:
/// "Keep the existing help tests passing", "Ensure the suite stays green",
/// "I'll make sure the tests pass" (after a list marker, normalised).
const PLAN_OPENERS: &[&str] = &[
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

/// `n` without what says what is to be done ([`PLAN_OPENERS`]): a sentence,
/// or a list item or heading's text inside one (a list loses its line breaks
/// in normalising: "what's left: - ensure the tests pass on ci - next, tag
/// it"), so a proposal's "Keep existing tests passing" claims nothing.
fn without_plans(n: &str) -> String {
    sentences(n)
        .map(|s| {
            fragments(s)
                .filter(|f| {
                    let t = f.trim_start_matches(|c: char| {
                        c.is_whitespace() || c.is_ascii_digit() || matches!(c, '-' | '*' | '•' | ')' | '.' | ':')
                    });
                    !PLAN_OPENERS.iter().any(|p| t.starts_with(p))
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(". ")
}

/// Words that say a check passed, in a short claim ("packages green", "build
/// clean", "lint ok").
const VERDICT_WORDS: &[&str] = &["green", "clean", "pass", "passes", "passing", "passed", "ok", "✅"];

/// Short claims a phrase list misses — a verdict word one or two words after
/// what it is about: "all packages green", "build clean", "tests ✅"; a lint's
/// or formatter's word claims lints only ("lint pass", "format is clean" claim
/// nothing of a type check). Returns whether one is about tests, whether one is
/// about builds, and whether one is about lints; a negation just before the
/// verdict ("not clean") claims nothing.
fn short_claims(n: &str) -> (bool, bool, bool) {
    let (mut tests, mut build, mut lint) = (false, false, false);
    for before in verdict_subjects(n) {
        for b in before {
            match b {
                "tests" | "test" | "suite" | "specs" | "packages" | "e2e" => tests = true,
                "build" | "builds" => build = true,
                "checks" | "ci" | "pipeline" => (tests, build) = (true, true),
                "lint" | "lints" | "linting" | "linter" | "format" | "formatting" | "formatter" => lint = true,
                _ => {}
            }
        }
    }
    (tests, build, lint)
}

/// The words of `n` split for short claims.
fn short_words(n: &str) -> Vec<&str> {
    n.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '.' | ':' | '(' | ')' | '`' | '!' | '*' | '|'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The one or two words before each verdict word of `n` not negated there
/// ("build clean" → `["build"]`; "build is not clean" → none).
fn verdict_subjects(n: &str) -> Vec<Vec<&str>> {
    let words = short_words(n);
    words
        .iter()
        .enumerate()
        .filter(|(_, w)| VERDICT_WORDS.contains(w))
        .map(|(i, _)| words[i.saturating_sub(2)..i].to_vec())
        .filter(|before| {
            !before
                .iter()
                .any(|b| matches!(*b, "not" | "no" | "never" | "isn't" | "aren't" | "wasn't"))
        })
        .collect()
}

/// Checkers an answer may name with a short verdict: "clippy is clean", "tsc
/// passes", "ruff clean".
const CHECKERS: &[&str] = &[
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

/// The checkers `n` (normalised) names with a short verdict ("clippy is
/// clean", "`tsc` passes"): a claim about that checker's runs alone, held
/// against a failed run that ran it, never against another checker's.
pub(crate) fn named_checkers(n: &str) -> Vec<&'static str> {
    if admits_failure(n) {
        return Vec::new();
    }
    let stated = without_plans(n);
    let mut named: Vec<&'static str> = verdict_subjects(&stated)
        .iter()
        .flatten()
        .filter_map(|w| CHECKERS.iter().find(|c| **c == *w).copied())
        .collect();
    named.sort_unstable();
    named.dedup();
    named
}

#[cfg(test)]
mod tests {
    use super::super::admissions::mentions_failure;
    use super::*;

    #[test]
    fn typographic_forms_read_like_ascii() {
        assert_eq!(
            normalise("I couldn’t get “it” green — yet"),
            "i couldn't get \"it\" green - yet"
        );
        assert_eq!(normalise("ＡＬＬ　TESTS\tPASS"), "all tests pass");
        assert_eq!(normalise("Всё ещё КРАСНЫЙ"), "все еще красный");
        assert!(admits_failure(&normalise("I couldn’t get the renderer test green yet")));
        assert!(claims(&normalise("All tests pass, 0 failures.")).any());
        assert!(claims(&normalise("Fixed the failing test; all tests pass.")).any());
        assert!(!claims(&normalise("All tests pass except 2 failures in io.")).any());
        let short = claims(&normalise(
            "T2 verified — all packages green, build clean, gofmt clean.",
        ));
        assert!(short.tests && short.build);
        assert!(!claims(&normalise("The build is not clean yet.")).build);
        assert_eq!(
            named_checkers(&normalise("Clippy is clean with warnings denied.")),
            ["clippy"]
        );
        assert!(named_checkers(&normalise("Clippy is not clean yet.")).is_empty());
        assert!(!claims(&normalise("Clippy is clean.")).build);
        assert_eq!(
            super::super::naming::full_counts(&normalise("Ran the bats file: 20/20 ok.")),
            vec![20]
        );
        assert!(super::super::naming::full_counts(&normalise("Ran the bats file: 19/20 ok.")).is_empty());
        assert!(!mentions_failure("i refactored the parser"));
        assert!(mentions_failure("the suite is still red"));
    }
}
