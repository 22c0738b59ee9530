//! The `advisor` binary: sets the allocator and runs [`advisor_cli::main`].
//!
//! Owns nothing else; every command lives in the `advisor_cli` library.

/// mimalloc instead of the system allocator: `advisor replay` allocates a few
/// small strings per note on two threads, and glibc's allocator spent about a
/// fifth of the run in malloc/free (docs/performance.md, third session).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    advisor_cli::main()
}
