//! The found-nothing rule: a last lookup (a search, a probe, a process list, a rename) that found
//! nothing, and an answer that says it was found. Must not hold shared support: `support` does.

mod probes;
mod processes;
mod renames;
mod searches;
