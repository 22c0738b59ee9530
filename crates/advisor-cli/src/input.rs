//! Reading a whole input file (or standard input for `-`) within a cap, with
//! the name used in error messages.
//!
//! Owns only I/O, through [`advisor::io`]: regular files only (a
//! FIFO or `/dev/zero` is refused at once) and at most [`MAX_INPUT_BYTES`].
//! Must not interpret the text.

use std::path::Path;

/// Largest input read whole: consultation requests and responses, advisor
/// decisions (real ones are a few KiB).
pub(crate) const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

/// Reads all of `path` (standard input for `-`); the error names the input.
pub(crate) fn read_all(path: &str) -> Result<String, String> {
    let bytes = if path == "-" {
        advisor::io::read_stream(std::io::stdin().lock(), Path::new("<stdin>"), MAX_INPUT_BYTES)
    } else {
        advisor::io::read_file(Path::new(path), MAX_INPUT_BYTES)
    }
    .map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8 text"))
}
