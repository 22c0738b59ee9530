//! What the answer claims, and of what: runs named as passing (by their name, their leading words,
//! a count, a checker, a verdict that cites its command), "everything checks out", plans that claim
//! nothing. Must not hold shared support: `support` does.

mod checkers;
mod cited_commands;
mod every;
mod named_runs;
mod passing_names;
mod plans_and_citations;
