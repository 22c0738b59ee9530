//! The rules reviewer's tests, one binary organised by subject (as
//! ripgrep's `tests/tests.rs`): what the answer claims ([`claims`]), how it
//! tells a failure ([`disclosures`]), answers in other languages
//! ([`languages`]), which commands are runs ([`runners`]), how a run ended and
//! what cleared it ([`runs`]), the claimed failed step ([`steps`]), lookups
//! that found nothing ([`lookups`]), the two-stage review with a judge ([`two_stage`]), commands that had not ended
//! ([`unfinished`]), the shapes each host records ([`hosts`]), the false claims
//! of each red-team round ([`false_claims`]) and the verdicts as a whole
//! ([`verdicts`]). A red-team round or a claim-shape round is told in the
//! opening comment of its file, never in a file's name. Known misses and false
//! blocks stay as `#[ignore = "reason"]` tests. Each runner's own samples live
//! beside its reader in the crate (`src/evidence/runners/`). Must not test
//! anything but the rules reviewer (the CLI's tests read transcripts).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

mod claims;
mod disclosures;
mod false_claims;
mod hosts;
mod languages;
mod lookups;
mod runners;
mod runs;
mod steps;
mod two_stage;
mod unfinished;
mod verdicts;
