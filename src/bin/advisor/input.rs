//! Reading an input file (or standard input for `-`) line by line, with the
//! name used in error messages.
//!
//! Owns only I/O; it must not interpret lines.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};

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

/// An opened input and the name to use for it in messages.
pub(crate) struct Input {
    pub(crate) name: String,
    reader: Box<dyn BufRead>,
}

impl Input {
    /// Opens `path`, or standard input when it is `-`.
    pub(crate) fn open(path: &str) -> io::Result<Input> {
        if path == "-" {
            return Ok(Input {
                name: "<stdin>".into(),
                reader: Box::new(BufReader::new(io::stdin())),
            });
        }
        let file = File::open(path)?;
        Ok(Input {
            name: path.to_owned(),
            reader: Box::new(BufReader::new(file)),
        })
    }

    /// The lines, numbered from 1. A line that is not UTF-8 is an error for
    /// that line only.
    pub(crate) fn numbered_lines(self) -> impl Iterator<Item = (usize, io::Result<String>)> {
        let mut reader = self.reader;
        let mut n = 0usize;
        std::iter::from_fn(move || {
            let mut buf = Vec::new();
            match reader.by_ref().read_until(b'\n', &mut buf) {
                Ok(0) => None,
                Ok(_) => {
                    n += 1;
                    while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                        buf.pop();
                    }
                    let line = String::from_utf8(buf)
                        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "the line is not valid UTF-8"));
                    Some((n, line))
                }
                Err(e) => {
                    n += 1;
                    Some((n, Err(e)))
                }
            }
        })
    }
}
