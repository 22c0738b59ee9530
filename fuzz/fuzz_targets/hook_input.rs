//! The hook's stdin parser never panics; what it accepts has a session id.
#![no_main]

use advisor_cli::hook_input::HookInput;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(input) = HookInput::parse(&text) {
        let _ = input.session_id.len();
    }
});
