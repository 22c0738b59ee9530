//! Reading untrusted files and streams within bounds.
//!
//! Owns the one way the crate and the CLI read input they do not control —
//! transcripts, configs, session state, recorded reviews, traces: only
//! regular files are opened (a FIFO, a device such as `/dev/zero`, a
//! directory or a socket is refused at once, without blocking on it), and
//! every read stops at a byte cap. [`BoundedLines`] streams a reader line by
//! line with a per-line cap, reporting an over-long line by its number and
//! length instead of buffering it. Must not interpret the bytes it reads.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

/// Why a bounded read failed. Its `Display` names the file and the bound,
/// never the content.
#[derive(Debug)]
pub struct BoundedReadError {
    path: PathBuf,
    kind: BoundedReadErrorKind,
}

/// What went wrong in a bounded read.
#[derive(Debug)]
#[non_exhaustive]
pub enum BoundedReadErrorKind {
    /// The path names no file.
    NotFound,
    /// The path names something other than a regular file (a directory,
    /// FIFO, device or socket).
    NotRegular,
    /// The file (or stream) is longer than the cap.
    TooLarge {
        /// The cap, in bytes.
        limit: u64,
    },
    /// The bytes are not UTF-8.
    NotUtf8,
    /// Any other I/O error.
    Io(io::Error),
}

impl BoundedReadError {
    /// The file the read was about (`-` for standard input).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What went wrong.
    pub fn kind(&self) -> &BoundedReadErrorKind {
        &self.kind
    }

    /// Whether the path named no file.
    pub fn is_not_found(&self) -> bool {
        matches!(self.kind, BoundedReadErrorKind::NotFound)
    }

    fn new(path: &Path, kind: BoundedReadErrorKind) -> BoundedReadError {
        BoundedReadError {
            path: path.to_path_buf(),
            kind,
        }
    }

    /// An [`Io`](BoundedReadErrorKind::Io) error about `path`, whatever
    /// the I/O error's kind (walking a directory, reading a line).
    pub(crate) fn other(path: &Path, e: io::Error) -> BoundedReadError {
        BoundedReadError::new(path, BoundedReadErrorKind::Io(e))
    }

    fn io(path: &Path, e: io::Error) -> BoundedReadError {
        let kind = if e.kind() == io::ErrorKind::NotFound {
            BoundedReadErrorKind::NotFound
        } else {
            BoundedReadErrorKind::Io(e)
        };
        BoundedReadError::new(path, kind)
    }
}

impl fmt::Display for BoundedReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path.display();
        match &self.kind {
            BoundedReadErrorKind::NotFound => write!(f, "{p}: no such file"),
            BoundedReadErrorKind::NotRegular => write!(f, "{p}: not a regular file; refused"),
            BoundedReadErrorKind::TooLarge { limit } => write!(f, "{p}: larger than the {limit}-byte cap; refused"),
            BoundedReadErrorKind::NotUtf8 => write!(f, "{p}: not UTF-8 text"),
            BoundedReadErrorKind::Io(e) => write!(f, "{p}: {e}"),
        }
    }
}

impl std::error::Error for BoundedReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            BoundedReadErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// Opens `path` for reading only if it is a regular file (symbolic links are
/// followed). A FIFO is opened non-blocking so that refusing it never waits
/// for a writer.
pub fn open_regular(path: &Path) -> Result<File, BoundedReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path).map_err(|e| BoundedReadError::io(path, e))?;
    let meta = file.metadata().map_err(|e| BoundedReadError::io(path, e))?;
    if !meta.is_file() {
        return Err(BoundedReadError::new(path, BoundedReadErrorKind::NotRegular));
    }
    Ok(file)
}

/// Reads a whole regular file of at most `limit` bytes.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, BoundedReadError> {
    let file = open_regular(path)?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len > limit {
        return Err(BoundedReadError::new(path, BoundedReadErrorKind::TooLarge { limit }));
    }
    read_stream(file, path, limit)
}

/// Reads a whole regular UTF-8 file of at most `limit` bytes.
pub fn read_file_to_string(path: &Path, limit: u64) -> Result<String, BoundedReadError> {
    let bytes = read_file(path, limit)?;
    String::from_utf8(bytes).map_err(|_| BoundedReadError::new(path, BoundedReadErrorKind::NotUtf8))
}

/// Reads a stream (standard input, say) to its end, refusing more than
/// `limit` bytes; `name` is what errors call it.
pub fn read_stream(reader: impl Read, name: &Path, limit: u64) -> Result<Vec<u8>, BoundedReadError> {
    let mut out = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| BoundedReadError::io(name, e))?;
    if out.len() as u64 > limit {
        return Err(BoundedReadError::new(name, BoundedReadErrorKind::TooLarge { limit }));
    }
    Ok(out)
}

/// One line from [`BoundedLines`]: its 1-based number and either its bytes
/// (without the line break) or, when it was over the cap, its length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundedLine {
    /// The 1-based line number.
    pub number: usize,
    /// The line's bytes, or `Err(length)` when it exceeded the line cap
    /// (the bytes were skipped, never buffered).
    pub bytes: Result<Vec<u8>, u64>,
}

/// Streams a reader line by line, never holding more than `max_line` bytes
/// of one line. Lines end at `\n`; a trailing `\r` is kept (callers that
/// parse JSON need not care). The last line need not end with `\n`.
#[derive(Debug)]
pub struct BoundedLines<R> {
    reader: R,
    max_line: usize,
    number: usize,
    done: bool,
}

impl<R: BufRead> BoundedLines<R> {
    /// Lines of `reader`, each capped at `max_line` bytes.
    pub fn new(reader: R, max_line: usize) -> BoundedLines<R> {
        BoundedLines {
            reader,
            max_line,
            number: 0,
            done: false,
        }
    }
}

impl<R: BufRead> Iterator for BoundedLines<R> {
    type Item = io::Result<BoundedLine>;

    fn next(&mut self) -> Option<io::Result<BoundedLine>> {
        if self.done {
            return None;
        }
        let mut line = Vec::new();
        let mut len: u64 = 0;
        let mut over = false;
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            if buf.is_empty() {
                self.done = true;
                if len == 0 {
                    return None;
                }
                break;
            }
            let (chunk, found) = match memchr::memchr(b'\n', buf) {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            len += chunk.len() as u64;
            if !over {
                if line.len() + chunk.len() > self.max_line {
                    over = true;
                    line = Vec::new();
                } else {
                    line.extend_from_slice(chunk);
                }
            }
            let consumed = found.unwrap_or(buf.len());
            self.reader.consume(consumed);
            if found.is_some() {
                break;
            }
        }
        self.number += 1;
        Some(Ok(BoundedLine {
            number: self.number,
            bytes: if over { Err(len) } else { Ok(line) },
        }))
    }
}

impl From<BoundedReadError> for crate::Error {
    /// An [`ErrorKind::Io`](crate::ErrorKind::Io) error with this one as its source.
    fn from(e: BoundedReadError) -> crate::Error {
        crate::Error::with_source(crate::ErrorKind::Io, "a file could not be read", e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<BoundedLine> {
        BoundedLines::new(io::BufReader::with_capacity(4, input), cap)
            .map(|l| l.unwrap())
            .collect()
    }

    #[test]
    fn splits_lines_and_reports_over_long_ones_by_length() {
        let got = lines(b"ab\ncdefgh\n\nxyz", 3);
        assert_eq!(got[0].bytes, Ok(b"ab".to_vec()));
        assert_eq!(got[1].bytes, Err(6));
        assert_eq!(got[2].bytes, Ok(Vec::new()));
        assert_eq!(got[3].bytes, Ok(b"xyz".to_vec()));
        assert_eq!(got[3].number, 4);
        assert_eq!(got.len(), 4);
    }

    #[test]
    fn a_trailing_newline_makes_no_extra_line() {
        assert_eq!(lines(b"a\nb\n", 10).len(), 2);
        assert!(lines(b"", 10).is_empty());
    }

    #[test]
    fn refuses_directories_and_streams_over_the_cap() {
        let dir = std::env::temp_dir();
        let e = read_file(&dir, 10).unwrap_err();
        assert!(matches!(e.kind(), BoundedReadErrorKind::NotRegular), "{e}");
        let e = read_stream(&b"0123456789ab"[..], Path::new("-"), 10).unwrap_err();
        assert!(matches!(e.kind(), BoundedReadErrorKind::TooLarge { limit: 10 }), "{e}");
        assert_eq!(read_stream(&b"0123456789"[..], Path::new("-"), 10).unwrap().len(), 10);
    }

    #[cfg(unix)]
    #[test]
    fn refuses_devices_without_reading_them() {
        let e = read_file(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert!(matches!(e.kind(), BoundedReadErrorKind::NotRegular), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_fifo_at_once() {
        let dir = std::env::temp_dir().join(format!("advisor-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("pipe");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.map(|s| s.success()).unwrap_or(false) {
            let e = read_file(&fifo, 10).unwrap_err();
            assert!(matches!(e.kind(), BoundedReadErrorKind::NotRegular), "{e}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    proptest::proptest! {
        #[test]
        fn lines_match_a_plain_split(input in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200), cap in 1usize..16) {
            let got = lines(&input, cap);
            let mut want: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
            if input.last() == Some(&b'\n') || input.is_empty() {
                want.pop();
            }
            proptest::prop_assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(want) {
                if w.len() > cap {
                    proptest::prop_assert_eq!(&g.bytes, &Err(w.len() as u64));
                } else {
                    proptest::prop_assert_eq!(&g.bytes, &Ok(w.to_vec()));
                }
            }
        }
    }
}
