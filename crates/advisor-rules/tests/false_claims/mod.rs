//! The other side of each red-team round: false claims in the shapes of its honest stops, which
//! must block — those the rules miss stay as ignored tests with the reason. Each file opens with
//! the round it came from. Must not hold shared support: `support` does.

mod checkers_and_diffs;
mod lookups;
mod named_runs;
mod offers_and_runs;
mod proxies_and_scripts;
mod russian_and_french;
mod unfinished;
mod verifications;
