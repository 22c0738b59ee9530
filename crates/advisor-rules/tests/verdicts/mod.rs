//! The verdicts as a whole: the rules never block honest work (one test per item of the verdicts
//! issue), property tests over typing, and the rules as a plugin's member. Must not hold shared
//! support: `support` does.

mod honest_work;
mod plugin;
mod props;
