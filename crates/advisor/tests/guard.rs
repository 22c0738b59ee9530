//! The emission guard through the public API (reference E1–E7) and its
//! properties.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use advisor::guard::{CONTENT_FREE_PHRASES, MAX_NOTE_CHARS, Reason, normalize_note};
use advisor::{EmissionGuard, Note, Severity};
use proptest::prelude::*;

#[test]
fn e1_normalization_folds_punctuation_and_case() {
    let rows = [
        ("Stop.", "stop"),
        ("*Stop*", "stop"),
        ("  stop  ", "stop"),
        ("STOP!!!", "stop"),
        ("No issue; continue.", "no issue continue"),
        ("", ""),
        ("...", ""),
        ("Kiểm tra lại tổng", "kiểm tra lại tổng"),
        ("run_sql returned 0 rows", "run sql returned 0 rows"),
        // robust folding (docs/design.md §5)
        ("ℌalt", "halt"),
        ("S\u{200B}top", "stop"),
        ("ＳＴＯＰ", "stop"),
        ("Re\u{301}sume\u{301} the join", "résumé the join"),
    ];
    for (input, want) in rows {
        assert_eq!(normalize_note(input), want, "{input:?}");
    }
}

#[test]
fn e2_content_free_noise_is_suppressed_and_does_not_spend_the_budget() {
    let mut g = EmissionGuard::new(1);
    g.begin_review();
    for noise in [
        "Stop.",
        "Done!",
        "No issue; continue.",
        "LGTM",
        "*all good*",
        "Nothing to add.",
    ] {
        let a = g.accept(&Note::blocker(noise));
        assert_eq!(a.reason, Reason::ContentFree, "{noise:?}");
    }
    assert!(
        g.accept(&Note::concern("the totals double-count refunded orders"))
            .accepted()
    );
}

#[test]
fn e3_real_advice_that_starts_with_a_suppressed_word_survives() {
    let mut g = EmissionGuard::new(3);
    g.begin_review();
    assert!(
        g.accept(&Note::blocker(
            "Stop: the revenue query sums a filtered and an unfiltered CTE"
        ))
        .accepted()
    );
}

#[test]
fn e4_an_exact_repeat_is_dropped_but_escalation_passes() {
    let mut g = EmissionGuard::new(5);
    g.begin_review();
    assert!(g.accept(&Note::nit("verify the join")).accepted());
    g.begin_review();
    assert_eq!(g.accept(&Note::nit("verify the join!")).reason, Reason::Duplicate);
    assert!(g.accept(&Note::concern("verify the join")).accepted());
    assert_eq!(g.accept(&Note::nit("verify the join")).reason, Reason::Duplicate);
    assert!(g.accept(&Note::blocker("verify the join")).accepted());
}

#[test]
fn e5_the_per_review_budget_bounds_breadth() {
    let mut g = EmissionGuard::new(2);
    let out = g.screen(&[
        Note::concern("first real point"),
        Note::concern("second real point"),
        Note::concern("third real point"),
    ]);
    let reasons: Vec<Reason> = out.admissions.iter().map(|a| a.reason).collect();
    assert_eq!(reasons, [Reason::Accepted, Reason::Accepted, Reason::OverBudget]);
    let out = g.screen(&[Note::concern("third real point"), Note::concern("first real point")]);
    assert_eq!(
        out.admissions[0].reason,
        Reason::Accepted,
        "never recorded, so it may come back"
    );
    assert_eq!(out.admissions[1].reason, Reason::Duplicate);
}

#[test]
fn e6_reset_lets_the_reviewer_re_raise_after_a_rewrite() {
    let mut g = EmissionGuard::new(3);
    assert!(g.screen(&[Note::concern("check the filter")]).interrupts());
    assert!(!g.screen(&[Note::concern("check the filter")]).interrupts());
    g.reset();
    assert!(g.screen(&[Note::concern("check the filter")]).interrupts());
}

#[test]
fn e7_a_note_is_clamped_so_an_injection_cannot_be_unbounded() {
    let mut g = EmissionGuard::new(1);
    let a = g.accept(&Note::concern("ê".repeat(MAX_NOTE_CHARS + 500)));
    assert!(a.accepted());
    assert_eq!(a.note.text.chars().count(), MAX_NOTE_CHARS);
    assert!(a.note.text.ends_with('ê'));
}

#[test]
fn severity_order_three_nits_then_a_blocker_admits_the_blocker() {
    let mut g = EmissionGuard::new(3);
    let out = g.screen(&[
        Note::nit("a one"),
        Note::nit("b two"),
        Note::nit("c three"),
        Note::blocker("d four"),
    ]);
    assert_eq!(out.admissions[3].reason, Reason::Accepted);
    assert_eq!(out.admissions[3].index, 3);
    assert_eq!(
        out.admissions.iter().filter(|a| a.reason == Reason::OverBudget).count(),
        1
    );
    assert_eq!(
        out.admissions[2].reason,
        Reason::OverBudget,
        "the last nit, not the first, loses its slot"
    );
    assert!(out.interrupts());
}

#[test]
fn control_and_bidi_characters_never_reach_the_agent() {
    let mut g = EmissionGuard::new(3);
    let a = g.accept(&Note::concern(
        "check\u{202E} the\u{0007} join\u{200B}\u{0085}\nplease\ttoo",
    ));
    assert_eq!(a.note.text, "check the join\nplease\ttoo");
}

#[test]
fn every_decision_has_a_reason() {
    let mut g = EmissionGuard::new(1);
    let out = g.screen(&[
        Note::concern("..."),
        Note::concern("Looks good!"),
        Note::concern("real one"),
        Note::concern("real two"),
    ]);
    let reasons: Vec<&str> = out.admissions.iter().map(|a| a.reason.as_str()).collect();
    assert_eq!(reasons, ["empty", "content_free", "accepted", "over_budget"]);
    let out = g.screen(&[Note::concern("Real one.")]);
    assert_eq!(out.admissions[0].reason.as_str(), "duplicate");
}

/// Rewrites a phrase as a reviewer might: random case, fullwidth letters,
/// punctuation and invisible characters between and around words.
fn variant(phrase: &'static str) -> impl Strategy<Value = String> {
    let words: Vec<&'static str> = phrase.split(' ').collect();
    let n = words.len();
    (
        proptest::collection::vec(any::<bool>(), 64),
        proptest::collection::vec(any::<bool>(), 64),
        proptest::collection::vec(
            prop::sample::select(vec![" ", "  ", ". ", "; ", " - ", "*", "\u{3000}", "!\n", ", "]),
            n + 1,
        ),
        proptest::collection::vec(
            prop::sample::select(vec!["", "\u{200B}", "\u{200D}", "\u{AD}", "\u{2060}", "\u{FEFF}"]),
            64,
        ),
    )
        .prop_map(move |(upper, wide, seps, invisible)| {
            let mut out = String::new();
            let mut k = 0usize;
            for (i, w) in words.iter().enumerate() {
                out.push_str(if i == 0 {
                    seps[0].trim_start_matches(' ')
                } else {
                    seps[i]
                });
                for c in w.chars() {
                    let c = if upper[k % 64] { c.to_ascii_uppercase() } else { c };
                    let c = if wide[k % 64] {
                        char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap_or(c)
                    } else {
                        c
                    };
                    out.push(c);
                    out.push_str(invisible[k % 64]);
                    k += 1;
                }
            }
            out.push_str(seps[n]);
            out
        })
}

fn any_phrase_variant() -> impl Strategy<Value = String> {
    prop::sample::select(CONTENT_FREE_PHRASES.to_vec()).prop_flat_map(variant)
}

fn any_severity() -> impl Strategy<Value = Severity> {
    prop::sample::select(vec![Severity::Nit, Severity::Concern, Severity::Blocker])
}

proptest! {
    #[test]
    fn normalization_is_idempotent(s in "\\PC{0,80}") {
        let once = normalize_note(&s);
        prop_assert_eq!(normalize_note(&once), once.clone());
    }

    #[test]
    fn normalization_is_idempotent_on_any_chars(s in proptest::collection::vec(any::<char>(), 0..40)) {
        let s: String = s.into_iter().collect();
        let once = normalize_note(&s);
        prop_assert_eq!(normalize_note(&once), once.clone());
    }

    #[test]
    fn no_content_free_phrase_variant_is_ever_admitted(text in any_phrase_variant(), sev in any_severity()) {
        let mut g = EmissionGuard::new(3);
        let a = g.accept(&Note::new(text.clone(), sev));
        prop_assert_eq!(a.reason, Reason::ContentFree, "{:?} -> {:?}", text, a.key);
    }

    #[test]
    fn the_clamp_never_splits_a_char(s in "\\PC{0,2600}") {
        let mut g = EmissionGuard::new(0);
        let a = g.accept(&Note::concern(s.clone()));
        prop_assert!(a.note.text.chars().count() <= MAX_NOTE_CHARS);
        // what is delivered is the input's own characters, in order: nothing split or invented
        let mut input = s.chars();
        prop_assert!(a.note.text.chars().all(|c| input.any(|d| d == c)));
    }

    #[test]
    fn the_breadth_cap_holds_and_dedupe_never_lowers_severity(
        notes in proptest::collection::vec(("[a-e]{1,3}( [a-e]{1,3})?", any_severity()), 0..12),
        cap in 1usize..5,
    ) {
        let mut g = EmissionGuard::new(cap);
        let notes: Vec<Note> = notes.into_iter().map(|(t, s)| Note::new(t, s)).collect();
        for _ in 0..2 {
            let before: std::collections::HashMap<String, Severity> =
                g.history().into_iter().map(|k| (k.key, k.severity)).collect();
            let out = g.screen(&notes);
            prop_assert!(out.accepted().len() <= cap);
            for a in out.admissions.iter().filter(|a| a.accepted()) {
                if let Some(prev) = before.get(&a.key) {
                    prop_assert!(a.note.severity > *prev);
                }
            }
            for k in g.history() {
                if let Some(prev) = before.get(&k.key) {
                    prop_assert!(k.severity >= *prev);
                }
            }
        }
    }
}
