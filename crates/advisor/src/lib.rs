//! # advisor — a second opinion for LLM agent loops
//!
//! A *reviewer* that did not do the work reads a bounded window of an agent's
//! run and raises notes; an emission guard decides which notes reach the agent;
//! the agent is sent back to resolve what matters. The plugin is ejectable:
//! without it, the answer the agent produces is the answer the run returns.
//!
//! ## From `cargo add` to a reviewed run
//!
//! The library needs a Tokio runtime (reviews run as Tokio tasks under a
//! timeout, so timers must be enabled):
//!
//! ```text
//! cargo add advisor --path path/to/advisor/crates/advisor   # from a checkout
//! cargo add tokio --features rt-multi-thread,macros,time
//! ```
//!
//! or in `Cargo.toml`:
//!
//! ```toml
//! [dependencies]
//! advisor = { path = "path/to/advisor/crates/advisor" }   # default feature: `http`
//! tokio = { version = "1", features = ["rt-multi-thread", "macros", "time"] }
//! ```
//!
//! The library never pulls in the command line's dependencies (clap, toml,
//! mimalloc, rmcp…: those are the `advisor-cli` crate's). Then, with the
//! reference loop [`Agent`]:
//!
//! ```
//! use advisor::{Agent, AdvisorPlugin, Note, model::ScriptedModel, review};
//!
//! #[tokio::main]
//! async fn main() -> Result<(), advisor::Error> {
//!     // The agent answers wrongly, then corrects itself once the advisor objects.
//!     let model = ScriptedModel::texts(["revenue was 4.2M", "revenue was 3.1M (refunds excluded)"]);
//!     let plugin = AdvisorPlugin::builder()
//!         .reviewer(review::from_sync_fn(|r: &review::Review| {
//!             Ok(if r.round == 0 { vec![Note::concern("the total double-counts refunded orders")] } else { vec![] })
//!         }))
//!         .build()?;
//!     // `.extension` takes the plugin; a clone shares its report.
//!     let outcome = Agent::new(model).extension(plugin.clone()).run("what was revenue?").await?;
//!     assert!(outcome.final_answer.contains("3.1M"));
//!     let report = plugin.last_report().expect("the run was reviewed");
//!     assert_eq!((report.finish_reviews, report.interruptions), (2, 1));
//!     Ok(())
//! }
//! ```
//!
//! `cargo run --example quickstart` runs a longer version. Replace
//! [`ScriptedModel`](model::ScriptedModel) with
//! [`OpenAiCompatible`](model::OpenAiCompatible) (feature `http`) and the
//! closure with [`ModelReviewer`](review::ModelReviewer) for a real model.
//!
//! ## Your own loop: the host calls
//!
//! A loop of your own drives its extensions through [`Extensions`], which
//! keeps the contract's rules (order, containment, attempts): `observe`
//! before each model request and for every change of the history, and
//! `turn_stopping` only when the model finished a turn without tool calls
//! and the run chose to stop. A re-open carries the message to append before
//! the next turn.
//!
//! ```
//! use std::sync::Arc;
//! use advisor::host::{ExtensionFactory, Message, ObservePhase, RunEnd, StopDecision, StopInfo, StopReason};
//! use advisor::{AdvisorPlugin, Extensions, Note, review};
//!
//! # tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap().block_on(async {
//! let plugin = AdvisorPlugin::builder()
//!     .reviewer(review::from_sync_fn(|_: &review::Review| Ok(vec![Note::concern("the total double-counts refunds")])))
//!     .build()?;
//! let factories: Vec<Arc<dyn ExtensionFactory>> = vec![Arc::new(plugin.clone())];
//! let mut extensions = Extensions::begin_run(&factories)?;
//!
//! let mut history = vec![Message::user("what was revenue?")];
//! extensions.observe(ObservePhase::Request, 1, &history);
//! history.push(Message::assistant("4.2M")); // the model's answer, no tool calls: the run would stop
//! extensions.observe(ObservePhase::Append, 1, &history[1..]);
//! let stop = StopInfo { final_answer: "4.2M".into(), turns: 1, ..StopInfo::default() };
//! match extensions.turn_stopping(&stop).await {
//!     StopDecision::Reopen { inject, .. } => history.extend(inject), // send these, run another turn
//!     _ => {}                                                       // the answer stands
//! }
//! assert!(history.last().is_some_and(|m| m.content.contains("<advisory")));
//! extensions.finalize(&RunEnd::new(1, StopReason::Stop));
//! assert_eq!(plugin.last_report().map(|r| r.interruptions), Some(1));
//! # Ok::<(), advisor::Error>(())
//! # }).unwrap();
//! ```
//!
//! ## Map
//!
//! Every public module, by floor (a module uses only its own floor and those
//! below it):
//!
//! - Ground: [`error`] — [`Error`] / [`ErrorKind`]; [`usage`] — token
//!   [`Usage`](usage::Usage); [`kind`] — the review tags
//!   [`ReviewKind`](kind::ReviewKind) and [`ReviewErrorKind`](kind::ReviewErrorKind);
//!   [`io`] — bounded reads and atomic writes for files a host does not
//!   control; [`invisible`] — the characters that render as nothing.
//! - Contract: [`host`] — the contract between an agent loop and its
//!   extensions, and the [`Extensions`] dispatcher that keeps it; [`model`] —
//!   the [`ChatModel`](model::ChatModel) seam, a scripted model and the
//!   OpenAI-compatible client (`http`); [`budget`] — token budgets shared by
//!   every asker.
//! - Policy core: [`note`] — [`Note`], [`Severity`]; [`guard`] — *which notes*:
//!   the emission guard ([`EmissionGuard`]), its settings and the dedupe key;
//!   [`render`] — the `<advisory>` injection; [`gate`] — *what is admitted*:
//!   one review clamped, through the guard, and the injection it yields;
//!   [`evidence`] — the bounded window a reviewer reads; [`trace`] — JSONL
//!   traces of every review decision.
//! - Reviewers: [`review`] — the [`Reviewer`](review::Reviewer) seam and the
//!   model reviewer (the offline rules reviewer is the `advisor-rules` crate).
//! - Products: [`plugin`] — [`AdvisorPlugin`], the finish and periodic review
//!   extension; [`rollout`] — the privileged advisor for RL / eval rollouts;
//!   [`consult`] — `advisor-request.v1` in, strictly validated
//!   `advisor-response.v1` out.
//! - Hosts: [`agent`] — a small reference loop ([`Agent`]); [`finish_rule`] —
//!   *a rule*: a rule-based stop interceptor
//!   ([`FinishRule`](finish_rule::FinishRule)) to register before the advisor;
//!   [`adapters`] — host adapters (the rig adapter, feature `rig`).
//!
//! The `advisor` command is the `advisor-cli` crate: the Claude Code, Codex,
//! Gemini CLI and OpenAI-style transcript readers, the stop hook for those
//! agents and Cursor, workspace config and trust (`advisor_cli::config`,
//! e.g. `plugin_from_workspace`), and its own features `mimalloc` (default:
//! the binary's allocator) and `mcp` (`advisor mcp`).
//!
//! ## Crate features
//!
//! - `http` (default): [`model::OpenAiCompatible`], the OpenAI-compatible HTTP
//!   model client (reqwest with rustls).
//! - `rig`: `adapters::rig::RigAdvisor`, a rig `AgentHook` (rig-agent 0.44;
//!   rustc 1.95).
//!
//! Built with `default-features = false`, the crate is the core alone
//! (async-trait, memchr, serde, serde_json, tokio, tracing and the Unicode
//! crates).
//!
//! ## Supported Rust versions
//!
//! The minimum supported Rust version is 1.85 (edition 2024). Raising it is a
//! minor-version change.

/// Builder setters that store their argument and return the builder: each
/// `/// doc` `name(arg: Type) => field = value;` becomes
/// `pub fn name(mut self, arg: Type) -> Self { self.field = value; self }`
/// (`field` may be a path such as `config.fail_open`).
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident($arg:ident: $ty:ty) => $($field:ident).+ = $value:expr;)+) => {
        $($(#[$doc])* pub fn $name(mut self, $arg: $ty) -> Self {
            self.$($field).+ = $value;
            self
        })+
    };
}

/// Getters that return a `Copy` field by value: each `/// doc` `name: Type;`
/// becomes `pub fn name(&self) -> Type { self.name }`.
macro_rules! getters {
    ($($(#[$doc:meta])* $name:ident: $ty:ty;)+) => {
        $($(#[$doc])* pub fn $name(&self) -> $ty {
            self.$name
        })+
    };
}

/// A fieldless enum whose every value has one wire name: serde reads and
/// writes exactly those names, `as_str` returns them, `Display` prints them
/// and `ALL` lists every value in declaration order. Write each variant as
/// `/// doc` `Variant => "wire_name",`; attributes before the name (docs, extra
/// derives, `#[non_exhaustive]`) are kept.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, ::serde::Serialize, ::serde::Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $wire)] $variant),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value as written on the wire.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $wire),+ }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub mod adapters;
pub mod agent;
pub mod anchor;
pub mod budget;
pub mod consult;
pub mod error;
pub mod evidence;
pub mod finish_rule;
pub mod gate;
pub mod guard;
pub mod host;
pub mod invisible;
pub mod io;
pub mod kind;
pub mod model;
pub mod note;
pub mod plugin;
pub mod render;
pub mod review;
pub mod rollout;
pub mod trace;
pub mod usage;

mod ask;
mod json;
mod markup;
mod text;
mod write_behind;

pub use agent::{Agent, RunOutcome, StopReason};
pub use error::{Error, ErrorKind, Problem, ValidationError};
pub use guard::EmissionGuard;
pub use host::Extensions;
pub use note::{Note, Severity};
pub use plugin::AdvisorPlugin;

/// The Rust examples of the README and of `docs/`, compiled and run as
/// doctests (some use the HTTP client, so only with that feature; the CLI
/// crate runs those of `docs/security.md`, which use its config).
#[cfg(all(doctest, feature = "http"))]
mod doc_examples {
    #[doc = include_str!("../../../README.md")]
    struct Readme;
    #[doc = include_str!("../../../docs/plugin.md")]
    struct Plugin;
    #[doc = include_str!("../../../docs/reviewers.md")]
    struct Reviewers;
    #[doc = include_str!("../../../docs/consult.md")]
    struct Consult;
    #[doc = include_str!("../../../docs/budget.md")]
    struct Budget;
}
