//! Reading rollout trace files and directories into a [`Summary`].
//!
//! Owns [`summarize_paths`], the one reader behind `advisor summarize` and the
//! Python bindings' `summarize`: directories are walked without following
//! symbolic links to directories (so a `-> ..` link cannot loop), each file is
//! counted once however many links reach it, only regular files are read, and
//! they are streamed line by line with a per-line cap (an over-long line is
//! reported as malformed and skipped). Must not interpret trace lines; the
//! [`Summarizer`] does that.

use std::collections::HashSet;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use crate::io::{BoundedLines, BoundedReadError, open_regular};

use super::summary::{Summarizer, Summary};

/// Longest trace line read; a longer one is reported and skipped.
pub const MAX_TRACE_LINE: usize = 4 * 1024 * 1024;

/// Adds the trace files under `path` to `out`, each real file once (`seen`
/// holds canonical paths). A path named by the caller is followed if it is a
/// link; inside a directory, links to directories are not followed and links
/// to files count once with their target.
fn collect(path: &Path, top: bool, seen: &mut HashSet<PathBuf>, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    let is_link = meta.file_type().is_symlink();
    let is_dir = if is_link {
        std::fs::metadata(path).is_ok_and(|m| m.is_dir())
    } else {
        meta.is_dir()
    };
    if is_dir {
        if is_link && !top {
            return Ok(());
        }
        if !seen.insert(std::fs::canonicalize(path)?) {
            return Ok(());
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for p in entries {
            let dir_like = std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir());
            if dir_like || p.extension().is_some_and(|e| e == "jsonl") {
                collect(&p, false, seen, out)?;
            }
        }
    } else {
        // a dangling link or a special file is kept, so reading it reports it
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        if seen.insert(key) {
            out.push(path.to_owned());
        }
    }
    Ok(())
}

/// Streams `file`'s lines into `summary`.
fn read_trace(file: &Path, summary: &mut Summarizer) -> Result<(), BoundedReadError> {
    let name = file.display().to_string();
    let f = open_regular(file)?;
    for l in BoundedLines::new(BufReader::new(f), MAX_TRACE_LINE) {
        let l = l.map_err(|e| BoundedReadError::other(file, e))?;
        match l.bytes {
            Ok(bytes) => match std::str::from_utf8(&bytes) {
                Ok(text) => summary.line(&name, l.number, text),
                Err(_) => summary.malformed(&name, l.number, "the line is not UTF-8"),
            },
            Err(len) => summary.malformed(
                &name,
                l.number,
                &format!("the line is {len} bytes, over the {MAX_TRACE_LINE}-byte cap; skipped"),
            ),
        }
    }
    Ok(())
}

/// Summarizes trace files; a directory is searched recursively for `*.jsonl`
/// (in name order, each file once, links to directories not followed). The
/// source of each malformed line is the file's path. A path that cannot be
/// walked or a file that cannot be read is a [`BoundedReadError`] naming it.
pub fn summarize_paths<P: AsRef<Path>>(paths: &[P]) -> Result<Summary, BoundedReadError> {
    let mut files = Vec::new();
    let mut seen = HashSet::new();
    for p in paths {
        let p = p.as_ref();
        collect(p, true, &mut seen, &mut files).map_err(|e| BoundedReadError::other(p, e))?;
    }
    let mut summarizer = Summarizer::new();
    for f in &files {
        read_trace(f, &mut summarizer)?;
    }
    Ok(summarizer.finish())
}
