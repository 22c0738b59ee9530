//! A command that had not ended: sessions left running, runs stopped at a timeout, scripts left
//! running and mentioned in passing. Must not hold shared support: `support` does.

mod left_running;
mod sessions;
mod timeouts;
