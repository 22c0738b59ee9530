//! `read_file`, `list_files` and `grep`: the file tools of the model
//! reviewer.
//!
//! Owns their arguments, the bounded walk of a directory (through
//! [`Beneath`] descriptors, never following a link, skipping denied names,
//! `.git` at any depth among them), the text check (regular files of at most
//! [`MAX_FILE_BYTES`], UTF-8 with no NUL byte) and the search: a line is
//! searched in windows of [`SEARCH_WINDOW`] bytes overlapping by
//! [`WINDOW_OVERLAP`] (the regular expression still sees the whole line
//! around each window, so anchors and word boundaries keep their meaning),
//! and the walk and the search stop at the call's [`ToolDeadline`] between
//! two directories, two files or two windows — a pattern that sends the
//! regex engine down its slow path on non-ASCII text (a few seconds per
//! MiB) is cut there and says so. Must not write, and must not open any
//! path except through [`Beneath`].

use std::path::{Path, PathBuf};

use serde::Deserialize;

use regex_automata::{Input, meta};

use super::{ToolDeadline, WorkspaceTools, glob_path};
use crate::io::{Beneath, BeneathError, BeneathErrorKind, EntryKind};

/// Largest file the tools read; a larger one is refused (grep skips it).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// Most directory entries one walk looks at.
const MAX_WALK_ENTRIES: usize = 20_000;
/// Most entries read from one directory.
const MAX_DIR_ENTRIES: usize = 5_000;
/// Most matches `grep` reports.
const MAX_MATCHES: usize = 200;
/// Longest matching line quoted, in characters.
const MAX_MATCH_CHARS: usize = 300;
/// Largest compiled regular expression.
const MAX_REGEX_BYTES: usize = 1 << 20;
/// Bytes of a line searched at a time; the deadline is checked between two.
pub(crate) const SEARCH_WINDOW: usize = 8 * 1024;
/// Bytes two windows of a long line share: a match at most this long is
/// found wherever it lies.
pub(crate) const WINDOW_OVERLAP: usize = 1024;

/// Arguments of `read_file`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ReadFileArgs {
    path: String,
    offset: Option<u64>,
    limit: Option<u64>,
}

/// Arguments of `list_files`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ListFilesArgs {
    path: Option<String>,
    glob: Option<String>,
}

/// Arguments of `grep`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GrepArgs {
    pattern: String,
    path: Option<String>,
    glob: Option<String>,
}

/// `path` as the model gave it, clamped for quoting in a result.
fn shown(path: &str) -> &str {
    crate::text::clamp_chars(path, 200)
}

/// Why opening `path` failed, in words for the model.
fn refusal(path: &str, e: &BeneathError) -> String {
    let p = shown(path);
    match e.kind() {
        BeneathErrorKind::Absolute => format!("{p}: absolute paths are refused; give a path relative to the workspace"),
        BeneathErrorKind::Parent => format!("{p}: `..` is refused; only paths inside the workspace are read"),
        BeneathErrorKind::Symlink => format!("{p}: passes through a symbolic link, which is never followed"),
        BeneathErrorKind::NotFound => format!("{p}: no such file or directory"),
        BeneathErrorKind::NotRegular => format!("{p}: not a regular file"),
        BeneathErrorKind::NotDirectory => format!("{p}: not a directory"),
        BeneathErrorKind::TooLarge { limit } => format!("{p}: larger than {limit} bytes; not read (try grep)"),
        _ => format!("{p}: cannot be read"),
    }
}

/// The relative path of `path`, refused when denied.
fn allowed(tools: &WorkspaceTools, path: &str) -> Result<PathBuf, String> {
    let rel = PathBuf::from(path);
    if tools.is_denied(&rel) {
        return Err(format!(
            "{}: denied (a secret-bearing file or the advisor's own state); not read",
            shown(path)
        ));
    }
    Ok(rel)
}

/// The file's text, or why it is not text.
fn text_of(bytes: Vec<u8>) -> Result<String, &'static str> {
    if memchr::memchr(0, &bytes).is_some() {
        return Err("a binary file (it has NUL bytes); not read");
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text; not read")
}

pub(super) fn read_file(tools: &WorkspaceTools, root: &Beneath, args: &ReadFileArgs) -> Result<String, String> {
    let rel = allowed(tools, &args.path)?;
    let bytes = root
        .read_file(&rel, MAX_FILE_BYTES)
        .map_err(|e| refusal(&args.path, &e))?;
    let text = text_of(bytes).map_err(|why| format!("{}: {why}", shown(&args.path)))?;
    let total = text.lines().count();
    let first = args.offset.unwrap_or(1).max(1);
    let limit = args.limit.unwrap_or(u64::MAX).max(1);
    let mut out = String::new();
    let mut last = first.saturating_sub(1);
    for (i, line) in text
        .lines()
        .enumerate()
        .skip(usize::try_from(first - 1).unwrap_or(usize::MAX))
    {
        if last - (first - 1) >= limit || out.len() > super::MAX_RESULT_BYTES {
            break;
        }
        out.push_str(&format!("{}\t{line}\n", i + 1));
        last = i as u64 + 1;
    }
    Ok(format!(
        "{} (lines {first}-{last} of {total}, read-only)\n{out}",
        shown(&args.path)
    ))
}

/// One file or link found by a walk: its relative path and whether it is a
/// link (never followed).
struct Found {
    rel: String,
    link: bool,
}

/// Why a walk stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    /// It did not: every entry was seen.
    No,
    /// More than [`MAX_WALK_ENTRIES`] (or [`MAX_DIR_ENTRIES`] in one directory).
    TooMany,
    /// The call's deadline.
    Time,
}

/// Files beneath `start` (relative to the root), depth first, sorted within
/// each directory; denied names (`.git` among them) and anything past the
/// walk's bounds or its deadline are left out, and the [`Cut`] says which.
fn walk(
    tools: &WorkspaceTools,
    root: &Beneath,
    start: &Path,
    deadline: &ToolDeadline,
) -> Result<(Vec<Found>, Cut), BeneathError> {
    let mut out = Vec::new();
    let mut seen = 0usize;
    let mut stack = vec![(root.open_dir(start)?, start.to_path_buf())];
    while let Some((dir, rel)) = stack.pop() {
        if deadline.reached() {
            return Ok((out, Cut::Time));
        }
        let Ok((entries, more)) = dir.entries(MAX_DIR_ENTRIES) else {
            continue;
        };
        let mut subdirs = Vec::new();
        for entry in entries {
            seen += 1;
            if seen > MAX_WALK_ENTRIES {
                return Ok((out, Cut::TooMany));
            }
            let child = rel.join(&entry.name);
            // `.git` at any depth is on the deny-list
            if tools.is_denied(&child) {
                continue;
            }
            let shown = child.to_string_lossy().trim_start_matches("./").to_owned();
            match entry.kind {
                EntryKind::File => out.push(Found {
                    rel: shown,
                    link: false,
                }),
                EntryKind::Symlink => out.push(Found { rel: shown, link: true }),
                EntryKind::Dir => subdirs.push(child),
                _ => {}
            }
        }
        if more {
            return Ok((out, Cut::TooMany));
        }
        for child in subdirs.into_iter().rev() {
            if let Ok(d) = root.open_dir(&child) {
                stack.push((d, child));
            }
        }
    }
    Ok((out, Cut::No))
}

fn start_of(tools: &WorkspaceTools, path: Option<&str>) -> Result<PathBuf, String> {
    match path.filter(|p| !p.is_empty()) {
        Some(p) => allowed(tools, p),
        None => Ok(PathBuf::from(".")),
    }
}

pub(super) fn list_files(
    tools: &WorkspaceTools,
    root: &Beneath,
    args: &ListFilesArgs,
    deadline: &ToolDeadline,
) -> Result<String, String> {
    let start = start_of(tools, args.path.as_deref())?;
    let (found, cut) =
        walk(tools, root, &start, deadline).map_err(|e| refusal(args.path.as_deref().unwrap_or("."), &e))?;
    let mut out = String::new();
    let mut n = 0;
    for f in &found {
        if args.glob.as_deref().is_some_and(|g| !glob_path(g, &f.rel)) {
            continue;
        }
        n += 1;
        out.push_str(&f.rel);
        out.push_str(if f.link {
            " (symbolic link, not followed)\n"
        } else {
            "\n"
        });
    }
    match cut {
        Cut::No => {}
        Cut::TooMany => out.push_str("[listing cut: too many entries; narrow path or glob]\n"),
        Cut::Time => out.push_str("[listing cut: the tool's time ran out; narrow path or glob]\n"),
    }
    Ok(format!("{n} files (read-only)\n{out}"))
}

/// Whether `re` matches `line`, searched in windows of [`SEARCH_WINDOW`]
/// bytes overlapping by [`WINDOW_OVERLAP`]; `None` when the deadline came
/// first. Each window is searched with the whole line as context.
fn line_matches(re: &meta::Regex, line: &str, deadline: &ToolDeadline) -> Option<bool> {
    let mut start = 0usize;
    loop {
        if deadline.reached() {
            return None;
        }
        let mut end = start.saturating_add(SEARCH_WINDOW).min(line.len());
        while !line.is_char_boundary(end) {
            end += 1;
        }
        if re.is_match(Input::new(line).range(start..end)) {
            return Some(true);
        }
        if end >= line.len() {
            return Some(false);
        }
        let mut next = end.saturating_sub(WINDOW_OVERLAP);
        while !line.is_char_boundary(next) {
            next -= 1;
        }
        start = if next > start { next } else { end };
    }
}

pub(super) fn grep(
    tools: &WorkspaceTools,
    root: &Beneath,
    args: &GrepArgs,
    deadline: &ToolDeadline,
) -> Result<String, String> {
    let re = meta::Regex::builder()
        .configure(
            meta::Config::new()
                .nfa_size_limit(Some(MAX_REGEX_BYTES))
                .onepass_size_limit(Some(MAX_REGEX_BYTES)),
        )
        .build(&args.pattern)
        .map_err(|_| "the pattern is not a valid regular expression (or is too large)".to_owned())?;
    let start = start_of(tools, args.path.as_deref())?;
    // a file named directly, else a walk of the directory
    let (files, mut cut): (Vec<String>, Cut) = match root.open_file(&start) {
        Ok(_) => (vec![start.to_string_lossy().into_owned()], Cut::No),
        Err(e) if matches!(e.kind(), BeneathErrorKind::NotRegular) => {
            let (found, cut) =
                walk(tools, root, &start, deadline).map_err(|e| refusal(args.path.as_deref().unwrap_or("."), &e))?;
            let cut = if cut == Cut::Time { Cut::Time } else { Cut::No };
            (found.into_iter().filter(|f| !f.link).map(|f| f.rel).collect(), cut)
        }
        Err(e) => return Err(refusal(args.path.as_deref().unwrap_or("."), &e)),
    };
    let mut out = String::new();
    let mut matches = 0;
    let mut skipped = 0;
    'files: for rel in files {
        if args.glob.as_deref().is_some_and(|g| !glob_path(g, &rel)) {
            continue;
        }
        if deadline.reached() {
            cut = Cut::Time;
            break;
        }
        let Ok(bytes) = root.read_file(Path::new(&rel), MAX_FILE_BYTES) else {
            skipped += 1;
            continue;
        };
        let Ok(text) = text_of(bytes) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            let Some(found) = line_matches(&re, line, deadline) else {
                cut = Cut::Time;
                break 'files;
            };
            if found {
                matches += 1;
                if matches > MAX_MATCHES {
                    out.push_str(&format!(
                        "[more than {MAX_MATCHES} matches; narrow the pattern, path or glob]\n"
                    ));
                    break 'files;
                }
                out.push_str(&format!(
                    "{rel}:{}:{}\n",
                    i + 1,
                    crate::text::clamp_chars(line, MAX_MATCH_CHARS)
                ));
            }
        }
    }
    if skipped > 0 {
        out.push_str(&format!(
            "[{skipped} files over {MAX_FILE_BYTES} bytes or unreadable were skipped]\n"
        ));
    }
    if cut == Cut::Time {
        out.push_str("[search stopped: the tool's time ran out; narrow the pattern, path or glob]\n");
    }
    Ok(format!("{} matches (read-only)\n{out}", matches.min(MAX_MATCHES)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn far() -> ToolDeadline {
        ToolDeadline::after(std::time::Duration::from_secs(600))
    }

    #[test]
    fn a_window_keeps_the_line_around_it_for_anchors_and_boundaries() {
        // windows start inside the run of `é` and inside the run of `x`
        let line = format!("{} word{}", "é".repeat(SEARCH_WINDOW), "x".repeat(SEARCH_WINDOW * 2));
        let re = |p: &str| meta::Regex::new(p).unwrap();
        assert_eq!(line_matches(&re(r"\bword"), &line, &far()), Some(true));
        assert_eq!(line_matches(&re(r"^word"), &line, &far()), Some(false));
        assert_eq!(line_matches(&re(r"^é"), &line, &far()), Some(true));
        assert_eq!(line_matches(&re(r"\bxx"), &line, &far()), Some(false));
        assert_eq!(line_matches(&re(r"\bé"), &line, &far()), Some(true));
        assert_eq!(line_matches(&re(r"x$"), &line, &far()), Some(true));
        assert_eq!(line_matches(&re(r"é$"), &line, &far()), Some(false));
        assert_eq!(line_matches(&re(r"."), "", &far()), Some(false));
        assert_eq!(line_matches(&re(r"^$"), "", &far()), Some(true));
    }

    #[test]
    fn a_reached_deadline_stops_the_search_before_it_starts() {
        let re = meta::Regex::new(r"(?:\b\w+\b\s*){5,}X").unwrap();
        let gone = ToolDeadline::after(std::time::Duration::ZERO);
        assert_eq!(line_matches(&re, &"мир ".repeat(1 << 16), &gone), None);
    }

    proptest! {
        #[test]
        fn a_short_match_is_found_wherever_it_lies_in_a_long_line(
            len in 0usize..(3 * SEARCH_WINDOW),
            at in 0usize..(3 * SEARCH_WINDOW),
            wide in any::<bool>(),
        ) {
            let filler = if wide { "ж" } else { "a" };
            let mut line: String = filler.repeat(len / filler.len());
            let mut at = at.min(line.len());
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            line.insert_str(at, "NEEDLE_WITHIN_THE_OVERLAP");
            let re = meta::Regex::new("NEEDLE_[A-Z_]+OVERLAP").unwrap();
            prop_assert_eq!(line_matches(&re, &line, &far()), Some(true));
            let absent = meta::Regex::new("ABSENT").unwrap();
            prop_assert_eq!(line_matches(&absent, &line, &far()), Some(false));
        }
    }
}
