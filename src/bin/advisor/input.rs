//! Reading an input file (or standard input for `-`), with the name used in
//! error messages.
//!
//! Owns only I/O; it must not interpret lines.

use std::io::{self, Read};

/// Reads all of `path` (standard input for `-`); the error names the input.
pub(crate) fn read_all(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut s = String::new();
        io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("<stdin>: {e}"))?;
        return Ok(s);
    }
    std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
}
