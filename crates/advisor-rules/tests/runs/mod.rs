//! How a run ended and what cleared it: later runs of other spellings, job counts and workspace
//! filters, long outputs read to a line far from the end, a test run that selected no test. Must
//! not hold shared support: `support` does.

mod clearing;
mod long_outputs;
mod no_test_selected;
mod other_spellings;
