//! The actions a step can take, as subcommands (`push`, `commit`, `install`):
//! things a command does, not checks it makes. One list serves both sides of
//! an answer about such a step: the past tense that claims it was done
//! ("Fetched all remotes", "已推送", "запушил") and the names that say it was
//! left undone ("pushing is up to you", "推送需要你的凭据", "для пуша нужны
//! права").
//!
//! Owns [`ACTIONS`] and [`Action`]. Must not decide whether a sentence
//! claims or discloses: that is [`step_claims`](super::step_claims) and
//! [`disclosures`](super::disclosures).

/// One action a subcommand names.
pub(crate) struct Action {
    /// The subcommand, lower case (`push` of `git push`, `install` of `npm install`).
    pub(crate) sub: &'static str,
    /// Its own past tense, which claims it by itself ("pushed", "已推送",
    /// "запушил"); the English ones matched whole, the others inside words.
    /// Empty where the past tense is said of other things too.
    pub(crate) past: &'static [&'static str],
    /// Its names matched inside words: in scripts without spaces between
    /// words ("推送", "プッシュ") and as stems of an inflecting language
    /// ("пуш" of "пуша", "запушить"). The English forms (`push`, `pushing`,
    /// `pushed`, `pushes`) come from `sub`.
    pub(crate) inside: &'static [&'static str],
}

/// Every action a step's subcommand can name.
pub(crate) const ACTIONS: &[Action] = &[
    act("fetch", &["fetched"], &[]),
    act("pull", &["pulled"], &[]),
    act(
        "push",
        &["pushed", "已推送", "推送了", "запушил", "запушено", "запушены"],
        &["推送", "プッシュ", "пуш"],
    ),
    act(
        "commit",
        &[
            "committed",
            "已提交",
            "提交了",
            "закоммитил",
            "закоммичено",
            "закоммичены",
        ],
        &["提交", "コミット", "коммит", "закоммич"],
    ),
    act(
        "merge",
        &["merged", "已合并", "合并了", "смержил"],
        &["合并", "マージ", "мерж"],
    ),
    act(
        "install",
        &[
            "installed",
            "已安装",
            "安装了",
            "установил",
            "установлено",
            "установлены",
            "установлен",
        ],
        &["安装", "インストール", "установ"],
    ),
    act("clone", &["cloned"], &[]),
    act("rebase", &["rebased"], &[]),
    act("tag", &["tagged"], &[]),
    act("deploy", &["deployed"], &[]),
    act("publish", &["published"], &[]),
    // "released" is said of versions too ("1.4.0, released last week"): no own past
    act("release", &[], &[]),
    act("upload", &["uploaded"], &[]),
];

const fn act(sub: &'static str, past: &'static [&'static str], inside: &'static [&'static str]) -> Action {
    Action { sub, past, inside }
}

impl Action {
    /// The action `sub` names, if it names one.
    pub(crate) fn of(sub: &str) -> Option<&'static Action> {
        ACTIONS.iter().find(|a| a.sub == sub)
    }

    /// The English forms of its name: `push`, `pushing`, `pushed`, `pushes`, `pushs`.
    pub(crate) fn forms(&self) -> [String; 5] {
        let s = self.sub;
        [
            s.to_owned(),
            format!("{s}ing"),
            format!("{s}ed"),
            format!("{s}es"),
            format!("{s}s"),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_has_a_past_tense_and_one_entry() {
        for a in ACTIONS {
            assert!(!a.past.is_empty() || a.sub == "release", "{}", a.sub);
            assert_eq!(ACTIONS.iter().filter(|b| b.sub == a.sub).count(), 1, "{}", a.sub);
        }
        assert!(Action::of("push").is_some_and(|a| a.inside.contains(&"推送")));
        assert!(Action::of("test").is_none());
    }
}
