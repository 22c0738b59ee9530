//! Test and bench support shared by the advisor crates; never published.
//!
//! Owns the note corpus and timers of the benches ([`corpus`]) and the local
//! SmolLM2 server of the real-model tests ([`local_llm`]) with their harness
//! ([`trials`]: ignored, never passed, when the model is switched off), so
//! that each has one copy for every crate's tests and benches. Must not be a dependency of
//! anything but tests and benches.
#![allow(clippy::unwrap_used, clippy::expect_used)]

pub mod corpus;
pub mod local_llm;
pub mod trials;
