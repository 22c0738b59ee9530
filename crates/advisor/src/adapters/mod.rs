//! Adapters that plug [`AdvisorPlugin`](crate::AdvisorPlugin) into agent
//! frameworks. Each lives behind its own feature and in its own file.

#[cfg(feature = "rig")]
pub mod rig;
