//! The claimed-failed-step rule: a step's result claimed in its own words (result words,
//! "verified", own verbs, a file's stem) over a failed last step, "already exists", patches. Must
//! not hold shared support: `support` does.

mod already;
mod failed_step;
mod own_verbs;
mod patches;
mod result_words;
mod stems;
mod verified;
