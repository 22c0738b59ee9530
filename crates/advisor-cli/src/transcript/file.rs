//! Reading a transcript file from its end.
//!
//! Owns [`read_transcript`] / [`read_transcript_with`] and their bounds
//! ([`ReadOptions`]): only a regular file is opened; lines are read last-first
//! until the last turn's prompt and a window of history before it (or a
//! compaction, the file's start, the byte cap or the line cap) are in hand,
//! then parsed in order by the format's reader. A Gemini CLI session, one
//! record that later lines edit, is read whole within the cap. Every read
//! is bounded in bytes inside a line too: the byte cap stops the read from
//! the end even in the middle of one (a file of 12 GiB with no line break
//! costs what its last 16 MiB cost), the format sniff reads at most one
//! line cap from the start, and the forward pass that numbers lines reads
//! no further than the file's length when it was opened. Must not interpret
//! lines itself: the format readers do.

use std::fs::File;
use std::path::Path;

use serde_json::Value;

use super::{
    RawLine, Transcript, TranscriptError, TranscriptErrorKind, TranscriptFormat, claude_code, codex, copilot, droid,
    gemini, openai, parse_transcript, qwen, read_lines, reverse,
};

/// How much of a transcript to read, and the bounds of the read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadOptions {
    /// The format, or `None` to detect it.
    pub format: Option<TranscriptFormat>,
    /// Longest line kept, in bytes (default 1 MiB); a longer one is elided.
    pub max_line: usize,
    /// Bytes of history wanted before the last turn's prompt (default 1
    /// MiB): reading stops at the first turn start once this much is read.
    pub window_bytes: u64,
    /// Most bytes read from the end (default 16 MiB); the read stops there
    /// even inside the last turn (and says so in [`Transcript::truncated`]).
    pub max_bytes: u64,
    /// Drop a last line that is not valid JSON and has no line break after
    /// it (the host is still writing it) instead of failing.
    pub allow_partial_last_line: bool,
    /// Most lines read from the end (blank ones included); the read stops
    /// there as at [`max_bytes`](Self::max_bytes).
    pub max_lines: usize,
    /// The sub-agent whose lines are read, in a session file that holds
    /// several agents' lines (GitHub Copilot CLI writes a sub-agent's lines,
    /// marked with its `agentId`, into the parent's `events.jsonl`); `None`
    /// reads the main agent's. Only the Copilot CLI reader uses it.
    pub agent: Option<String>,
    /// The host's own record of the stop under review, for a host that
    /// writes its session file late or names its answer by id: whether it
    /// was read is [`Transcript`]'s to say, so the hook can wait for it.
    pub stop: Option<StopRecord>,
}

/// A host's own record of the stop under review in its session file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopRecord {
    /// GitHub Copilot CLI: the `hook.start` line of this very hook call (its
    /// `hookType` and the hook input's `timestamp`, epoch milliseconds).
    /// Copilot CLI writes the turn's last tool results and its answer in the
    /// same batch as that line, after the hook has started.
    HookStart {
        /// `agentStop` or `subagentStop`.
        hook: String,
        /// The hook input's `timestamp`.
        timestamp: i64,
    },
    /// Factory droid: the message whose `id` is the Stop input's
    /// `message_id`, which is the answer under review.
    Message(String),
}

/// Default line cap: 1 MiB.
pub(crate) const DEFAULT_MAX_LINE: usize = 1 << 20;
/// Default history wanted before the last turn: 1 MiB.
pub(crate) const DEFAULT_WINDOW_BYTES: u64 = 1 << 20;
/// Default cap on the bytes read from the end: 16 MiB.
pub(crate) const DEFAULT_MAX_BYTES: u64 = 16 << 20;
/// Default cap on the lines read from the end: 200 000 (a 16 MiB tail of
/// real sessions holds a few thousand).
pub(crate) const DEFAULT_MAX_LINES: usize = 200_000;

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: None,
            max_line: DEFAULT_MAX_LINE,
            window_bytes: DEFAULT_WINDOW_BYTES,
            max_bytes: DEFAULT_MAX_BYTES,
            allow_partial_last_line: false,
            max_lines: DEFAULT_MAX_LINES,
            agent: None,
            stop: None,
        }
    }
}

/// Where a line stands in the turn structure, for deciding where a read from
/// the end may stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Boundary {
    /// Neither.
    None,
    /// A genuine user prompt: a turn starts here.
    TurnStart,
    /// A compaction: nothing before it is part of the conversation.
    Compaction,
}

impl TranscriptFormat {
    /// Where `line` stands, for a read from the end. `sidechain` is whether
    /// the transcript is a sub-agent's own (Claude Code); `agent` the
    /// sub-agent whose lines are read (Copilot CLI).
    fn boundary(self, line: &Value, sidechain: bool, agent: Option<&str>) -> Boundary {
        match self {
            TranscriptFormat::ClaudeCode => claude_code::boundary(line, sidechain),
            TranscriptFormat::Codex => codex::boundary(line),
            TranscriptFormat::OpenAi => openai::boundary(line),
            TranscriptFormat::Copilot => copilot::boundary(line, agent),
            TranscriptFormat::Qwen => qwen::boundary(line),
            TranscriptFormat::Droid => droid::boundary(line),
            // read whole by `read_transcript_with`, never from the end
            TranscriptFormat::Gemini => Boundary::None,
        }
    }
}

/// Reads the transcript at `path` in `format`, or the detected format, from
/// its end with the default bounds (see [`read_transcript_with`]).
pub fn read_transcript(path: &Path, format: Option<TranscriptFormat>) -> Result<Transcript, TranscriptError> {
    read_transcript_with(
        path,
        &ReadOptions {
            format,
            ..ReadOptions::default()
        },
    )
    .map(|(t, _)| t)
}

/// Reads what the review needs from the end of the transcript at `path`:
/// lines last-first until the last turn's prompt and
/// [`window_bytes`](ReadOptions::window_bytes) of history before it are read
/// (or a compaction, the file's start, or [`max_bytes`](ReadOptions::max_bytes)),
/// then parses them in order. Only a regular file is read: a FIFO, a device
/// or a directory is refused at once.
pub fn read_transcript_with(
    path: &Path,
    options: &ReadOptions,
) -> Result<(Transcript, TranscriptFormat), TranscriptError> {
    let name = path.display().to_string();
    let file = advisor::io::open_regular(path)
        .map_err(|e| TranscriptError::new(TranscriptErrorKind::Io, &name, None, read_problem(&e)))?;
    read_transcript_from(&file, &name, options)
}

/// [`read_transcript_with`] on a file already open (through
/// [`advisor::io::Beneath`], say): every read, the format sniff and the line
/// numbering of errors included, goes through this one descriptor, so the
/// file checked is the file read. `name` is what errors call it.
pub(crate) fn read_transcript_from(
    src: &File,
    name: &str,
    options: &ReadOptions,
) -> Result<(Transcript, TranscriptFormat), TranscriptError> {
    let io = |e: String| TranscriptError::new(TranscriptErrorKind::Io, name, None, e);
    if options.format == Some(TranscriptFormat::Gemini)
        || (options.format.is_none() && gemini::sniff(src, options.max_line))
    {
        // A Gemini CLI session is one record (or JSONL whose edits refer to
        // earlier lines): read whole, within the read cap.
        let bytes = advisor::io::read_stream(
            from_start(src).map_err(|e| io(format!("cannot read it: {e}")))?,
            Path::new(name),
            options.max_bytes,
        )
        .map_err(|e| io(read_problem(&e)))?;
        let text = String::from_utf8(bytes).map_err(|_| io("not UTF-8 text".to_owned()))?;
        return parse_transcript(name, &text, options.format);
    }
    let file = src.try_clone().map_err(|e| io(format!("cannot read it: {e}")))?;
    let len = file.metadata().map_err(|e| io(format!("cannot read it: {e}")))?.len();
    let mut lines = reverse::ReverseLines::new(file, len, options.max_line).limit(options.max_bytes);
    let mut count = 0usize;
    let mut raw: Vec<RawLine> = Vec::new();
    let mut format = options.format;
    let mut sidechain: Option<bool> = None;
    let mut turn_seen = false;
    let mut truncated = false;
    let mut first = true;
    let mut exhausted = true;
    while let Some(line) = lines.next() {
        let line = line.map_err(|e| io(format!("cannot read it: {e}")))?;
        let last = std::mem::replace(&mut first, false);
        count += 1;
        if count > options.max_lines {
            truncated = !turn_seen;
            exhausted = false;
            break;
        }
        let value = match line.bytes {
            Err(len) => Err(len),
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                if text.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Value>(&text) {
                    Ok(v) => Ok(v),
                    Err(_) if last && !line.terminated && options.allow_partial_last_line => continue,
                    Err(e) => {
                        let (kind, number) = (TranscriptErrorKind::NotJson, line_number_at(src, line.offset));
                        let msg = format!("not JSON ({e})");
                        return Err(TranscriptError::at(kind, name, number, line.offset, msg));
                    }
                }
            }
        };
        let mut boundary = Boundary::None;
        if let Ok(v) = &value {
            format = format.or_else(|| TranscriptFormat::detect(v));
            sidechain = sidechain.or_else(|| claude_code::sidechain_of(v));
            if let Some(f) = format {
                boundary = f.boundary(v, sidechain.unwrap_or(false), options.agent.as_deref());
            }
        }
        raw.push(RawLine {
            number: None,
            offset: line.offset,
            value,
        });
        turn_seen |= matches!(boundary, Boundary::TurnStart);
        // the last turn's prompt with its window of history read, or a compaction
        let enough = match boundary {
            Boundary::Compaction => true,
            Boundary::TurnStart => bytes_from(&raw, len) >= options.window_bytes,
            Boundary::None => false,
        };
        if enough || lines.bytes_read() >= options.max_bytes {
            truncated = !enough && !turn_seen;
            exhausted = false;
            break;
        }
    }
    if lines.cut() {
        // the byte cap ended the read inside a line whose start lies further back
        truncated = !turn_seen;
        exhausted = false;
    }
    raw.reverse();
    if exhausted {
        // every line was read: number them (blank lines were not kept, so
        // count from the offsets)
        number_lines(src, len, &mut raw);
    }
    let options = ReadOptions {
        format,
        ..options.clone()
    };
    let (mut t, format) = read_lines(name, &raw, &options)?;
    t.truncated = truncated;
    Ok((t, format))
}

/// What went wrong opening a transcript, without repeating its path.
fn read_problem(e: &advisor::io::BoundedReadError) -> String {
    use advisor::io::BoundedReadErrorKind as K;
    match e.kind() {
        K::NotFound => "cannot read it: no such file".to_owned(),
        K::NotRegular => "not a regular file; refused".to_owned(),
        K::Io(e) => format!("cannot read it: {e}"),
        _ => "cannot read it".to_owned(),
    }
}

/// The 1-based number of the line at `offset`, counted with a bounded
/// forward read (only for error messages; `None` past the read cap).
fn line_number_at(file: &File, offset: u64) -> Option<usize> {
    if offset > DEFAULT_MAX_BYTES {
        return None;
    }
    let reader = std::io::BufReader::new(std::io::Read::take(from_start(file).ok()?, offset));
    Some(advisor::io::BoundedLines::new(reader, 0).count() + 1)
}

/// Numbers lines read from the end once the read reached the file's start
/// (a second, forward pass that keeps no line bytes and reads no further
/// than the `len` bytes the first pass saw, however the file grew since).
fn number_lines(file: &File, len: u64, raw: &mut [RawLine]) {
    let Ok(file) = from_start(file) else {
        return;
    };
    let lines = advisor::io::BoundedLines::new(std::io::BufReader::new(std::io::Read::take(file, len)), 0);
    let mut offset = 0u64;
    let mut next = raw.iter_mut().peekable();
    for line in lines {
        let Ok(line) = line else { return };
        let Some(want) = next.peek_mut() else { return };
        if want.offset == offset {
            want.number = Some(line.number);
            next.next();
        }
        offset += match line.bytes {
            Ok(b) => b.len() as u64,
            Err(len) => len,
        } + 1;
    }
}

/// `file` positioned at its start, for a forward read through the same
/// descriptor.
pub(super) fn from_start(file: &File) -> std::io::Result<&File> {
    let mut f = file;
    std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(0))?;
    Ok(f)
}

/// Bytes from the first collected line (the earliest read) to the file's end.
fn bytes_from(raw: &[RawLine], len: u64) -> u64 {
    raw.last().map_or(0, |l| len.saturating_sub(l.offset))
}
