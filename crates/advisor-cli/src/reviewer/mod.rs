//! The reviewer's home in the command line: what it takes to run an agent
//! CLI the user is logged into as the reviewer (`[reviewer] kind =
//! "command"`).
//!
//! Owns the presets and their argv ([`preset`]), the command reviewer that
//! gives every review a fresh recursion nonce ([`command`]), the recursion
//! marker an `advisor hook` fired inside a review reads ([`recursion`]), and
//! the clean-up of what Gemini CLI keeps of a review ([`gemini_session`]). Must not read
//! config files or decide trust: the settings it gets were resolved under
//! the trust rules.

pub(crate) mod command;
mod gemini_session;
pub(crate) mod preset;
pub(crate) mod recursion;
