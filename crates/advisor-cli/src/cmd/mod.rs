//! The `advisor` commands, one file each (mdBook's `cmd/`), each with its
//! helpers in a folder beside it.
//!
//! Owns nothing shared: what more than one command needs lives below
//! (`finish`, `config`, `reviewer`, `transcript`, the output helpers). A
//! command parses its flags, calls the library and prints; it must not
//! re-implement review policy.

pub(crate) mod consult;
pub(crate) mod decision;
pub(crate) mod eval;
pub(crate) mod hook;
pub(crate) mod init;
#[cfg(feature = "mcp")]
pub(crate) mod mcp;
pub(crate) mod replay;
pub(crate) mod review;
pub(crate) mod summarize;
pub(crate) mod trust;
