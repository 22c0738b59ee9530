//! The emission guard and rendering on arbitrary notes: rendered output has
//! exactly one open and one close tag per delivered note and no raw `<` from
//! note text; delivered text is clamped and free of control characters; no
//! invisible character ([`advisor::invisible::is_invisible`]) is in any
//! injection or rendering, even of notes that bypass the guard; and the
//! dedupe key's fast path equals its plain definition.
#![no_main]

use advisor::guard::{MAX_NOTE_CHARS, normalize_note, normalize_note_spec};
use advisor::invisible::is_invisible;
use advisor::render::render_advisories;
use advisor::kind::ReviewKind;
use advisor::{EmissionGuard, Note, Severity, gate::admit};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut guard = EmissionGuard::new(3).with_similarity(data.first().is_some_and(|b| b & 1 == 1));
    for review in text.split('\u{1}') {
        let notes: Vec<Note> = review
            .split('\u{2}')
            .enumerate()
            .map(|(i, t)| Note::new(t, [Severity::Nit, Severity::Concern, Severity::Blocker][i % 3]))
            .collect();
        let gate = admit(&mut guard, &notes, ReviewKind::Finish, Severity::Blocker);
        let accepted = gate.accepted();
        assert!(accepted.len() <= 3);
        for n in &accepted {
            assert!(n.text.chars().count() <= MAX_NOTE_CHARS);
            assert!(!n.text.chars().any(|c| c.is_control() && c != '\n' && c != '\t'));
            assert!(!n.text.chars().any(is_invisible));
        }
        for n in &notes {
            assert_eq!(normalize_note(&n.text), normalize_note_spec(&n.text));
        }
        assert!(!render_advisories(&notes).chars().any(is_invisible));
        let rendered = render_advisories(&accepted);
        assert_eq!(rendered.matches("<advisory ").count(), accepted.len());
        assert_eq!(rendered.matches("</advisory>").count(), accepted.len());
        assert_eq!(rendered.matches('<').count(), 2 * accepted.len());
        if let Some(injection) = &gate.injection {
            assert_eq!(injection.matches("</advisory>").count(), accepted.len());
            assert!(!injection.chars().any(is_invisible));
        }
    }
});
