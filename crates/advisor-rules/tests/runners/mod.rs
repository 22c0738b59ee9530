//! Which commands are runs and how their output reads beyond the runner units' own samples: runners
//! their shell could not start, rustfmt's diffs, `xcodebuild`, the Python checkers and Playwright,
//! proxies (`rtk`), scripts, `go`'s own errors. Must not hold shared support: `support` does.

mod fmt_and_not_started;
mod go;
mod not_started;
mod proxies;
mod python_and_playwright;
mod rustfmt;
mod scripts;
mod xcodebuild;
