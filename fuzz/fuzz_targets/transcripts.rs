//! The transcript readers (auto-detected and each explicit format) never
//! panic, and what they read is internally consistent.
#![no_main]

use advisor_cli::transcript::{TranscriptFormat, parse_transcript};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for format in [None, Some(TranscriptFormat::ClaudeCode), Some(TranscriptFormat::OpenAi), Some(TranscriptFormat::Codex)] {
        if let Ok((t, _)) = parse_transcript("fuzz", &text, format) {
            assert!(t.history_before_answer().len() <= t.messages.len());
            assert!(t.tools.iter().all(|tr| tr.error.as_deref().is_none_or(|e| e.chars().count() <= 300)));
            let _ = t.last_answer();
        }
    }
});
