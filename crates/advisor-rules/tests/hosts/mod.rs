//! The shapes each host records: Claude Code's calls, Codex's and Gemini CLI's, calls whose host
//! recorded no outcome, and Gemini CLI's `Output:` field. Must not hold shared support: `support`
//! does.

mod claude_code;
mod codex_and_gemini;
mod gemini_output;
mod no_outcome;
