//! The phrases of step claims: the words that claim a step's result, that a check was made, or what
//! an action did, and those that take it back.
//!
//! Data only, one language per column ([`Phrases`]), normalised; Russian result words, which
//! inflect, are a list of whole words of their own. Must not hold logic:
//! [`step_claims`](crate::answer::step_claims) reads an answer with them.

use super::lang::Phrases;

/// Words of a sentence that claim a step's result (normalised answer).
pub(crate) const RESULT_WORDS: Phrases = Phrases {
    en: &[
        "verified",
        "confirmed",
        "checked",
        "captured",
        "saved",
        "created",
        "wrote",
        "written",
        "generated",
        "works",
        "working",
        "renders",
        "rendered",
        "builds",
        "built",
        "succeeded",
        "went through",
        "is formatted",
        "fixed",
        "patched",
        "done",
        "complete",
        "checks out",
        // an edit's own word: "Updated the README"
        "updated",
    ],
    // "written", "saved", "created"
    // "verified", "integrated", "updated", "is up to date", "synchronised" (not the noun "mise à jour", an
    // update)
    fr: &[
        "écrit",
        "enregistré",
        "créé",
        "vérifié",
        "intégré",
        "mis à jour",
        "est à jour",
        "sont à jour",
        "synchronisé",
    ],
    // "written", "saved", "created"
    de: &["geschrieben", "gespeichert", "erstellt"],
    // "written", "saved", "created"
    it: &["scritta", "scritto", "salvata", "salvato", "creata", "creato"],
    // "written", "saved", "created"
    es: &["escrito", "guardado", "creado"],
    // "written", "saved", "created"
    pt: &["salvo", "criado"],
    // "generated", "created", "written", "saved"
    // "verified", "confirmed" (with the step named only: "我已确认 docs/ 下有 3 个死链" reports what a check found)
    zh: &[
        "已生成",
        "生成了",
        "已创建",
        "创建了",
        "已写入",
        "写入了",
        "已保存",
        "保存了",
        "验证过",
        "已验证",
        "验证了",
        "确认过",
        "已确认",
    ],
    // "generated", "created", "written", "saved"
    // "verified", "confirmed" (with the step named only: "我已确认 docs/ 下有 3 个死链" reports what a check found)
    ja: &[
        "作成しました",
        "生成しました",
        "保存しました",
        "書き込みました",
        "確認しました",
        "検証しました",
    ],
    // "generated", "created", "written", "saved"
    // "verified", "confirmed" (with the step named only: "我已确认 docs/ 下有 3 个死链" reports what a check found)
    ko: &[
        "생성했습니다",
        "작성했습니다",
        "저장했습니다",
        "만들었습니다",
        "확인했습니다",
    ],
    ..Phrases::NONE
};

/// Russian words of a sentence that claim a step's result, matched whole
/// (Russian inflects: "обновлён" of a README, "обновлена" of a page; the
/// noun "обновление", an update, claims nothing): "updated", "created",
/// "saved", "written", "added", "fixed", "checked", "works", as short
/// participles and past tenses.
pub(crate) const RUSSIAN_RESULT_WORDS: &[&str] = &[
    "обновлен",
    "обновлена",
    "обновлено",
    "обновлены",
    "обновил",
    "обновила",
    "создан",
    "создана",
    "создано",
    "созданы",
    "создал",
    "создала",
    "сохранен",
    "сохранена",
    "сохранено",
    "сохранены",
    "сохранил",
    "записан",
    "записана",
    "записано",
    "записаны",
    "записал",
    "добавлен",
    "добавлена",
    "добавлено",
    "добавлены",
    "добавил",
    "исправлен",
    "исправлена",
    "исправлено",
    "исправлены",
    "исправил",
    "проверено",
    "проверил",
    "работает",
    "готово",
];

/// Words of a sentence that say a check was made and came out right, with
/// or without naming what was checked ("Verified — the page renders",
/// "everything checks out").
pub(crate) const VERIFIED_WORDS: Phrases = Phrases {
    en: &[
        "verified",
        "confirmed",
        "checks out",
        "check out",
        "succeeded",
        "went through",
    ],
    // "verified", "all good"
    fr: &["vérifié", "tout est bon"],
    // "checked", "confirmed"
    ru: &["проверено", "подтверждено"],
    ..Phrases::NONE
};

/// Words that claim what an action did ("`cargo deny check` is clean",
/// "pulled issue #532 with `gh issue view`", "installed `cross` with `cargo
/// install cross --locked`"): weaker than [`RESULT_WORDS`], so they count
/// only in a sentence that quotes the step's command (`quotes_command`).
pub(crate) const ACTION_WORDS: Phrases = Phrases {
    en: &[
        "passes",
        "passed",
        "is clean",
        "are clean",
        "both clean",
        "resolves",
        "installed",
        "pulled",
        "fetched",
        "downloaded",
        "finished",
        "now shows",
        "bumped",
        "pinned",
        "upgraded",
        "forced",
        "counted",
        "now match",
        "rolled",
        "deployed",
        "is live",
        "released",
        "published",
        "is open",
        "opened",
        "merged",
        "is set to",
        "enabled",
    ],
    // "(the command) went through"
    fr: &["est passé", "sont passés"],
    ..Phrases::NONE
};

/// Words of a sentence that take its claim back ("could not verify").
pub(crate) const NEGATIONS: Phrases = Phrases {
    en: &[
        "not ",
        "n't",
        "unable",
        "never",
        "no longer",
        "without",
        "instead",
        // an absence the failing probe showed, stated as such
        "is gone",
        "are gone",
        "there is none",
        "there are none",
        "is absent",
        "inactive",
        // nothing done yet: "the files are staged but nothing is committed yet"
        "nothing is",
        "nothing was",
        "nothing has",
        "nothing got",
    ],
    // French "pas": "n'a pas été vérifié"
    fr: &[" pas "],
    // Russian "not" as a word of its own (`claims_with` pads the sentence): "README не обновлён"; "мне"
    // and "вне" hold no "не"
    ru: &[" не "],
    ..Phrases::NONE
};
