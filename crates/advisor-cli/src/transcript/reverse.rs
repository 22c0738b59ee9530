//! Reading a regular file's lines from the end backwards, within bounds.
//!
//! Owns [`ReverseLines`]: it reads fixed-size blocks from the end of an
//! already opened regular file (see [`advisor::io::open_regular`]) and
//! yields lines last-first with their byte offsets, never holding more than
//! the line cap of one line: a longer line (a multi-megabyte base64 image,
//! say) is skipped and reported by its length. It stops reading once the
//! caller stops asking, so a 200 MB session costs what its tail costs, and
//! never reads more than its byte budget ([`ReverseLines::limit`]), inside
//! a line too: a line whose start lies beyond the budget (a 12 GiB file
//! with no line break) ends the iteration there, and [`ReverseLines::cut`]
//! says so. Must not parse or interpret the lines.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

/// The block size read at a time.
const BLOCK: usize = 64 * 1024;

/// One line read backwards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReverseLine {
    /// Byte offset of the line's first byte in the file.
    pub offset: u64,
    /// The line without its `\n` (a trailing `\r` is kept), or its length in
    /// bytes when it was over the line cap (the bytes were not kept).
    pub bytes: Result<Vec<u8>, u64>,
    /// Whether a `\n` ends the line (false only for a last line that is
    /// still being written).
    pub terminated: bool,
}

/// Lines of a file, last first. Empty lines are yielded too; a final `\n`
/// does not start an empty line (as in a forward read).
#[derive(Debug)]
pub(crate) struct ReverseLines {
    file: File,
    /// Bytes of the file not yet read (everything before `pos`).
    pos: u64,
    /// Bytes read but not yet assigned to a line, in file order, ending
    /// where the current line's assembled part begins.
    pending: Vec<u8>,
    /// The current line's bytes assembled so far (its end), in file order.
    carry: Vec<u8>,
    /// The current line's length so far, once it went over the cap.
    over: Option<u64>,
    max_line: usize,
    block: usize,
    /// `None` before the first block; then whether the file ends with `\n`.
    ends_with_newline: Option<bool>,
    /// Whether a line was yielded already.
    yielded: bool,
    done: bool,
    read: u64,
    /// Most bytes read from the file.
    budget: u64,
    /// Whether the budget ended the iteration inside a line.
    cut: bool,
}

impl ReverseLines {
    /// Lines of `file` (of `len` bytes), last first, each capped at `max_line` bytes.
    pub(crate) fn new(file: File, len: u64, max_line: usize) -> ReverseLines {
        ReverseLines {
            file,
            pos: len,
            pending: Vec::new(),
            carry: Vec::new(),
            over: None,
            max_line,
            block: BLOCK,
            ends_with_newline: None,
            yielded: false,
            done: false,
            read: 0,
            budget: u64::MAX,
            cut: false,
        }
    }

    /// Reads at most `max_bytes` of the file: a line whose start lies
    /// further back is not yielded, and the iteration ends there
    /// ([`cut`](Self::cut)).
    pub(crate) fn limit(mut self, max_bytes: u64) -> ReverseLines {
        self.budget = max_bytes;
        self
    }

    /// Whether the byte budget ended the iteration before the file's start,
    /// inside a line it did not yield.
    pub(crate) fn cut(&self) -> bool {
        self.cut
    }

    #[cfg(test)]
    fn with_block(mut self, block: usize) -> ReverseLines {
        self.block = block.max(1);
        self
    }

    /// Bytes read from the file so far.
    pub(crate) fn bytes_read(&self) -> u64 {
        self.read
    }

    /// Reads the block before `pos` into `pending`; `false` (and
    /// [`cut`](Self::cut)) when the budget is spent.
    fn read_block(&mut self) -> io::Result<bool> {
        let room = self.budget.saturating_sub(self.read);
        let n = usize::try_from(self.pos.min(self.block as u64).min(room)).unwrap_or(self.block);
        if n == 0 {
            self.cut = true;
            return Ok(false);
        }
        let start = self.pos - n as u64;
        self.file.seek(SeekFrom::Start(start))?;
        let mut buf = vec![0u8; n];
        self.file.read_exact(&mut buf)?;
        self.pos = start;
        self.read += n as u64;
        self.pending = buf;
        Ok(true)
    }

    /// Puts `chunk` (which precedes the assembled part) in front of the line.
    fn push_front(&mut self, chunk: &[u8]) {
        if let Some(len) = self.over.as_mut() {
            *len += chunk.len() as u64;
            return;
        }
        if self.carry.len() + chunk.len() > self.max_line {
            self.over = Some((self.carry.len() + chunk.len()) as u64);
            self.carry = Vec::new();
            return;
        }
        self.carry.splice(0..0, chunk.iter().copied());
    }

    fn take_line(&mut self, offset: u64) -> ReverseLine {
        let terminated = self.yielded || self.ends_with_newline == Some(true);
        self.yielded = true;
        let bytes = match self.over.take() {
            Some(len) => Err(len),
            None => Ok(std::mem::take(&mut self.carry)),
        };
        ReverseLine {
            offset,
            bytes,
            terminated,
        }
    }

    fn step(&mut self) -> io::Result<Option<ReverseLine>> {
        if self.ends_with_newline.is_none() {
            if self.pos == 0 || !self.read_block()? {
                return Ok(None);
            }
            let newline = self.pending.last() == Some(&b'\n');
            if newline {
                self.pending.pop();
            }
            self.ends_with_newline = Some(newline);
        }
        loop {
            if let Some(i) = self.pending.iter().rposition(|&b| b == b'\n') {
                let chunk = self.pending.split_off(i + 1);
                self.pending.truncate(i);
                let offset = self.pos + i as u64 + 1;
                self.push_front(&chunk);
                return Ok(Some(self.take_line(offset)));
            }
            let chunk = std::mem::take(&mut self.pending);
            self.push_front(&chunk);
            if self.pos == 0 {
                self.done = true;
                return Ok(Some(self.take_line(0)));
            }
            if !self.read_block()? {
                // the line starts beyond the budget: it is not yielded
                self.carry = Vec::new();
                return Ok(None);
            }
        }
    }
}

impl Iterator for ReverseLines {
    type Item = io::Result<ReverseLine>;

    fn next(&mut self) -> Option<io::Result<ReverseLine>> {
        if self.done {
            return None;
        }
        let item = self.step().transpose();
        // the end, or an error, ends the iteration
        self.done |= !matches!(item, Some(Ok(_)));
        item
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor::io::BoundedLines;

    fn reverse(bytes: &[u8], cap: usize, block: usize) -> Vec<ReverseLine> {
        let dir = std::env::temp_dir().join(format!("advisor-reverse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let path = dir.join(format!("f{}", N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)));
        std::fs::write(&path, bytes).unwrap();
        let file = File::open(&path).unwrap();
        let out = ReverseLines::new(file, bytes.len() as u64, cap)
            .with_block(block)
            .map(|l| l.unwrap())
            .collect();
        let _ = std::fs::remove_file(&path);
        out
    }

    #[test]
    fn yields_lines_last_first_with_offsets() {
        let got = reverse(b"ab\n\ncdef\nxyz", 3, 2);
        let bytes: Vec<_> = got.iter().map(|l| l.bytes.clone()).collect();
        assert_eq!(
            bytes,
            vec![Ok(b"xyz".to_vec()), Err(4), Ok(Vec::new()), Ok(b"ab".to_vec())]
        );
        assert_eq!(got.iter().map(|l| l.offset).collect::<Vec<_>>(), vec![9, 4, 3, 0]);
        assert!(!got[0].terminated && got[1].terminated);
        assert!(reverse(b"", 3, 2).is_empty());
        assert_eq!(reverse(b"a\n", 3, 1).len(), 1);
    }

    #[test]
    fn a_line_longer_than_the_budget_is_never_read_to_its_start() {
        // a sparse file of 4 GiB with no line break: the budget ends the read
        let dir = std::env::temp_dir().join(format!("advisor-reverse-sparse-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("sparse");
        let file = File::create(&path).unwrap();
        file.set_len(4 << 30).unwrap();
        let started = std::time::Instant::now();
        let mut lines = ReverseLines::new(File::open(&path).unwrap(), 4 << 30, 1024).limit(1 << 20);
        assert!(lines.next().is_none());
        assert!(lines.cut());
        assert_eq!(lines.bytes_read(), 1 << 20);
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        let _ = std::fs::remove_dir_all(&dir);
    }

    proptest::proptest! {
        #[test]
        fn within_a_budget_it_yields_the_lines_that_start_inside_it(
            input in proptest::collection::vec(proptest::prop_oneof![proptest::prelude::Just(b'\n'), proptest::prelude::any::<u8>()], 0..300),
            budget in 0u64..320,
            block in 1usize..40,
        ) {
            let dir = std::env::temp_dir().join(format!("advisor-reverse-budget-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let path = dir.join(format!("f{}", N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)));
            std::fs::write(&path, &input).unwrap();
            let mut lines = ReverseLines::new(File::open(&path).unwrap(), input.len() as u64, 1000)
                .with_block(block)
                .limit(budget);
            let got: Vec<_> = lines.by_ref().map(|l| l.unwrap()).collect();
            let _ = std::fs::remove_file(&path);
            proptest::prop_assert!(lines.bytes_read() <= budget);
            // every line yielded is whole: what an unlimited read yields, in order
            let all = reverse(&input, 1000, block);
            proptest::prop_assert_eq!(&all[..got.len()], &got[..]);
            // and only a budget smaller than the file cuts
            proptest::prop_assert_eq!(lines.cut(), got.len() < all.len());
            proptest::prop_assert!(budget < input.len() as u64 || !lines.cut());
        }

        #[test]
        fn matches_a_forward_read(input in proptest::collection::vec(proptest::prop_oneof![proptest::prelude::Just(b'\n'), proptest::prelude::any::<u8>()], 0..300), cap in 1usize..20, block in 1usize..40) {
            let forward: Vec<_> = BoundedLines::new(io::BufReader::new(&input[..]), cap).map(|l| l.unwrap().bytes).collect();
            let mut backward: Vec<_> = reverse(&input, cap, block).into_iter().map(|l| l.bytes).collect();
            backward.reverse();
            proptest::prop_assert_eq!(forward, backward);
        }
    }
}
