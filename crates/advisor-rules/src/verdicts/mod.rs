//! The verdict wing: each rule holds what the answer says against what ran.
//!
//! Owns the rules and their notes ([`rule`]): the completion rules
//! ([`completion`]: unverified completion, unreported failure), a claimed
//! failed step ([`failed_step`], with a lookup that found nothing,
//! [`found_nothing`], and a command that had not ended, [`unfinished`]), tool
//! failures ([`tool_failure`]); the words a failed run names ([`failing`]);
//! note text without volatile parts ([`stable`]); and the reviewer that
//! applies them in order ([`reviewer`]). Must not read a tool call or the
//! answer's words itself: the evidence and answer wings do.

pub(crate) mod completion;
pub(crate) mod failed_step;
pub(crate) mod failing;
pub(crate) mod found_nothing;
pub(crate) mod reviewer;
pub(crate) mod rule;
pub(crate) mod stable;
pub(crate) mod tool_failure;
pub(crate) mod unfinished;

pub use reviewer::RulesReviewer;
pub use rule::{Rule, RuleNote};
