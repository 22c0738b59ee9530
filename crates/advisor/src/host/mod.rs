//! The host contract: what an agent loop promises its extensions, and the
//! dispatcher that keeps those promises.
//!
//! Owns the transcript types ([`Message`], [`ToolCall`], [`ToolTrace`]), the
//! capability traits ([`RunObserver`], [`StepInterceptor`], [`StopInterceptor`],
//! [`Checkpoint`]), [`Extension`]/[`ExtensionFactory`] and the [`Extensions`]
//! dispatcher every host drives its extensions through. It must not know about
//! any particular extension: the loop never names the advisor, so removing it
//! leaves the run exactly as it was.

pub(crate) mod contain;
mod contract;
mod extensions;
mod message;

pub use contract::{
    Checkpoint, Extension, ExtensionFactory, ObservePhase, RunEnd, RunFinalizer, RunObserver, StepInfo,
    StepInterceptor, StopDecision, StopInfo, StopInterceptor, StopReason,
};
pub use extensions::Extensions;
pub use message::{Message, Role, ToolCall, ToolTrace};
