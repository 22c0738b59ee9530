//! Codex code mode: shell commands run inside JavaScript cells.
//!
//! With code mode on (Codex Desktop 0.144; the Codex CLI 0.171 package ships it
//! too, `codex-code-mode-host`), the model writes a `custom_tool_call` named
//! `exec` whose `input` is JavaScript — `const r = await
//! tools.exec_command({cmd:"cargo test","workdir":"…"});text(r.output)` — and
//! gets back a `custom_tool_call_output` whose `output` (a string, or a list
//! of `input_text` parts) opens with the host's header: `Script completed` /
//! `Script running with cell ID N` / `Script error…` / `Script terminated`,
//! `Wall time N seconds`, `Output:`; what follows is what the cell printed.
//! A cell that yields is continued by `function_call`s named `wait` with
//! `{"cell_id":"N"}`: their output belongs to the cell, as a unified-exec
//! `write_stdin` poll belongs to its command.
//!
//! Owns [`Cells`]: it rewrites a cell whose JavaScript calls
//! `tools.exec_command({...})` into a shell call (`exec_command` with JSON
//! `{"cmd": …, "workdir": …}`, several calls one command line each), strips
//! the host's header from every cell's output and attaches a `wait`'s output
//! to the cell it names. The JavaScript is never run: each call's `cmd` is
//! read as a string literal, within [`MAX_SCAN`] bytes and [`MAX_CALLS`]
//! calls; anything else (a computed `cmd`, a template with `${…}`, a cut
//! literal) leaves the cell as it was. Must not take an exit code from what a
//! cell printed (`text(r.output)` prints no exit code; `JSON.stringify(r)`
//! prints the tool's, which is not the host's record).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::{Outcome, Transcript, looks_failed, text_of};

/// The name of a code-mode cell.
const CELL: &str = "exec";

/// The name of the call that waits on a yielded cell.
const WAIT: &str = "wait";

/// How much of a cell's JavaScript is read, in bytes.
pub(super) const MAX_SCAN: usize = 64 * 1024;

/// How many `tools.exec_command` calls one cell may make before it is left as it is.
pub(super) const MAX_CALLS: usize = 32;

/// How many header lines may come before `Output:`.
const MAX_HEADER_LINES: usize = 8;

/// The call whose object literal holds a shell command.
const EXEC_CALL: &str = "tools.exec_command";

/// Code-mode cells seen so far, and the yielded ones still running.
#[derive(Default)]
pub(super) struct Cells {
    /// Call ids of `exec` cells.
    calls: HashSet<String>,
    /// `wait` call id → the cell id it waits on.
    waits: HashMap<String, String>,
    /// Yielded cells: cell id → trace index of the cell.
    running: HashMap<String, usize>,
}

/// What became of a call's output.
pub(super) enum Handled {
    /// Not a code-mode output: the caller reads it as usual.
    No,
    /// A `wait`'s output, attached to its cell: no trace of its own.
    Attached,
    /// A cell's own trace, at this index.
    Traced(usize),
}

impl Cells {
    /// Records a call; an `exec` cell that runs shell commands is returned as
    /// that shell call's name and arguments, anything else as it came.
    pub(super) fn call(&mut self, kind: &str, call_id: &str, name: &str, args: String) -> (String, String) {
        match (kind, name) {
            ("custom_tool_call", CELL) => {
                self.calls.insert(call_id.to_owned());
                match shell_args(&args) {
                    Some(shell) => ("exec_command".to_owned(), shell),
                    None => (name.to_owned(), args),
                }
            }
            ("function_call", WAIT) => {
                if let Some(cell) = waited_cell(&args) {
                    self.waits.insert(call_id.to_owned(), cell);
                }
                (name.to_owned(), args)
            }
            _ => (name.to_owned(), args),
        }
    }

    /// Reads the output of call `id` when it is a cell's or a `wait`'s.
    pub(super) fn output(&mut self, t: &mut Transcript, id: &str, raw: &Value) -> Handled {
        let waited = self.waits.get(id).cloned();
        if !self.calls.contains(id) && waited.is_none() {
            return Handled::No;
        }
        let text = text_of(raw);
        let Some((status, body)) = parse_output(&text, raw.is_array()) else {
            return Handled::No;
        };
        let attach_to = (waited.as_ref())
            .and_then(|cell| self.running.get(cell).copied())
            .filter(|at| *at < t.tools.len());
        let at = match attach_to {
            Some(at) => {
                let call = t.call(id);
                t.messages
                    .push(advisor::host::Message::tool_result(&call, body.to_owned()));
                super::codex::append_bounded(&mut t.tools[at].output, body);
                if let Some(cell) = &waited {
                    self.running.remove(cell);
                }
                at
            }
            // the host's `Output:` line stays first in the trace: what the
            // cell printed comes below a line of the host's, so a printed
            // `exit code 0` is never read as the host's exit status
            None => match &status {
                Status::Running(_) => t.tool_outcome(id, format!("{HOST_LINE}{body}"), Outcome::Running),
                _ => t.tool_result(id, format!("{HOST_LINE}{body}"), false),
            },
        };
        let trace = &mut t.tools[at];
        match &status {
            Status::Running(cell) => {
                self.running.insert(cell.clone(), at);
            }
            Status::Error(message) => {
                let line = format!("script error: {message}");
                trace.error = Some(crate::terminal::clamp(&line, 300).to_owned());
            }
            // what the cell printed is the tool's own words, said as such:
            // a printed `exit code 0` line never reads as an exit status
            Status::Done => {
                trace.error = looks_failed(&trace.output).then(|| {
                    let line = format!(
                        "the cell's output reads as failed: {}",
                        super::outcome::first_line_with_failure(&trace.output)
                    );
                    crate::terminal::clamp(&line, 300).to_owned()
                });
            }
        }
        match attach_to {
            Some(_) => Handled::Attached,
            None => Handled::Traced(at),
        }
    }
}

/// The host's line kept above what a cell printed.
const HOST_LINE: &str = "Output:\n";

/// What the header says of a cell.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Status {
    /// Completed (or terminated): what it printed is all there is.
    Done,
    /// Yielded under this cell id; a `wait` brings the rest.
    Running(String),
    /// The script threw: the host's message.
    Error(String),
}

/// A cell's output split into the host's header and what the cell printed.
/// `parts`: the output was a list of parts, joined with a newline after the
/// header's part. `None` when it does not open with the host's header.
fn parse_output(text: &str, parts: bool) -> Option<(Status, &str)> {
    let mut status = None;
    let mut offset = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if n >= MAX_HEADER_LINES {
            return None;
        }
        offset += line.len();
        let line = line.trim_end_matches(['\n', '\r']);
        if n == 0 {
            status = Some(if let Some(id) = line.strip_prefix("Script running with cell ID ") {
                Status::Running(id.trim().to_owned())
            } else if let Some(message) = line.strip_prefix("Script error") {
                Status::Error(message.trim_start_matches(':').trim().to_owned())
            } else if line.starts_with("Script completed") || line.starts_with("Script terminated") {
                Status::Done
            } else {
                return None;
            });
        } else if line == "Output:" {
            let body = &text[offset..];
            let body = if parts {
                body.strip_prefix('\n').unwrap_or(body)
            } else {
                body
            };
            let status = match status? {
                Status::Error(m) if m.is_empty() => {
                    let first = body.lines().find(|l| !l.trim().is_empty()).unwrap_or("failed");
                    Status::Error(first.trim().to_owned())
                }
                other => other,
            };
            return Some((status, body));
        } else if !line.starts_with("Wall time") && !matches!(status, Some(Status::Error(_))) {
            return None;
        }
    }
    None
}

/// The cell id a `wait` call's arguments name (`"27"` or `27`).
fn waited_cell(args: &str) -> Option<String> {
    let v: Value = serde_json::from_str(args).ok()?;
    match v.get("cell_id")? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The shell call a cell's JavaScript makes: `{"cmd": …, "workdir": …}` with
/// one command line per `tools.exec_command` call, or `None` when it makes
/// none or one whose `cmd` is not a string literal.
pub(super) fn shell_args(js: &str) -> Option<String> {
    let mut end = js.len().min(MAX_SCAN);
    while !js.is_char_boundary(end) {
        end -= 1;
    }
    let js = &js[..end];
    let (mut cmds, mut workdir) = (Vec::new(), None);
    let mut rest = js;
    while let Some(at) = rest.find(EXEC_CALL) {
        if cmds.len() == MAX_CALLS {
            return None;
        }
        let after = &rest[at + EXEC_CALL.len()..];
        let call = after.trim_start().strip_prefix('(')?.trim_start();
        let (cmd, dir, tail) = object(call.strip_prefix('{')?)?;
        cmds.push(cmd?);
        if workdir.is_none() {
            workdir = dir;
        }
        rest = tail;
    }
    if cmds.is_empty() {
        return None;
    }
    let mut args = serde_json::Map::new();
    args.insert("cmd".into(), Value::String(cmds.join("\n")));
    if let Some(dir) = workdir {
        args.insert("workdir".into(), Value::String(dir));
    }
    Some(Value::Object(args).to_string())
}

/// An object literal's `cmd` and `workdir` (string literals), read from just
/// after its `{`, and the text after its `}`. `None` when it is not a literal
/// this reader can follow (a spread, a shorthand, a computed key, a cut).
fn object(mut s: &str) -> Option<(Option<String>, Option<String>, &str)> {
    let (mut cmd, mut workdir) = (None, None);
    loop {
        s = skip_blank(s);
        if let Some(tail) = s.strip_prefix('}') {
            return Some((cmd, workdir, tail));
        }
        let (key, tail) = key(s)?;
        s = skip_blank(tail).strip_prefix(':')?;
        s = skip_blank(s);
        let tail = match key.as_str() {
            "cmd" | "workdir" => {
                let (value, tail) = string_literal(s)?;
                *(if key == "cmd" { &mut cmd } else { &mut workdir }) = Some(value);
                tail
            }
            _ => skip_value(s)?,
        };
        s = skip_blank(tail);
        s = match s.strip_prefix(',') {
            Some(tail) => tail,
            None if s.starts_with('}') => s,
            None => return None,
        };
    }
}

/// A property key: a bare identifier or a string literal.
fn key(s: &str) -> Option<(String, &str)> {
    if s.starts_with(['"', '\'']) {
        return string_literal(s);
    }
    let len = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(s.len());
    (len > 0).then(|| (s[..len].to_owned(), &s[len..]))
}

/// Skips whitespace and comments.
fn skip_blank(mut s: &str) -> &str {
    loop {
        let t = s.trim_start();
        if let Some(c) = t.strip_prefix("//") {
            s = c.find('\n').map_or("", |i| &c[i..]);
        } else if let Some(c) = t.strip_prefix("/*") {
            s = c.find("*/").map_or("", |i| &c[i + 2..]);
        } else {
            return t;
        }
    }
}

/// Skips one property value: up to the `,` or `}` that ends it, past nested
/// brackets and string literals. `None` when the text ends first.
fn skip_value(s: &str) -> Option<&str> {
    let mut depth = 0usize;
    let mut i = 0;
    let bytes = s.as_bytes();
    while let Some(&b) = bytes.get(i) {
        match b {
            b'"' | b'\'' | b'`' => {
                let (_, tail) = skip_string(&s[i..])?;
                i = s.len() - tail.len();
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth > 0 => depth -= 1,
            b',' | b'}' if depth == 0 => return Some(&s[i..]),
            b')' | b']' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Skips a string or template literal; returns its raw inside and the rest.
fn skip_string(s: &str) -> Option<(&str, &str)> {
    let quote = s.chars().next()?;
    let mut escaped = false;
    for (i, c) in s.char_indices().skip(1) {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '\n' if quote != '`' => return None,
            c if c == quote => return Some((&s[1..i], &s[i + 1..])),
            _ => {}
        }
    }
    None
}

/// A JavaScript string literal (`"…"`, `'…'`, or a template without `${`),
/// decoded, and the text after it.
fn string_literal(s: &str) -> Option<(String, &str)> {
    if !s.starts_with(['"', '\'', '`']) {
        return None;
    }
    let (raw, tail) = skip_string(s)?;
    if s.starts_with('`') && raw.contains("${") {
        return None;
    }
    Some((unescape(raw)?, tail))
}

/// Decodes a literal's escapes (`\n`, `\t`, `\"`, `\xHH`, `\uHHHH`,
/// `\u{H…}`, surrogate pairs, line continuations); `None` when one is invalid.
fn unescape(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    let mut high: Option<u32> = None;
    while let Some(c) = chars.next() {
        if c != '\\' {
            flush(&mut out, &mut high);
            out.push(c);
            continue;
        }
        let unit = match chars.next()? {
            'n' => '\n' as u32,
            't' => '\t' as u32,
            'r' => '\r' as u32,
            'b' => 0x08,
            'f' => 0x0c,
            'v' => 0x0b,
            '0' => 0,
            'x' => hex(&mut chars, 2)?,
            'u' if chars.peek() == Some(&'{') => {
                chars.next();
                let digits: String = chars.by_ref().take_while(|c| *c != '}').collect();
                if digits.is_empty() || digits.len() > 6 {
                    return None;
                }
                u32::from_str_radix(&digits, 16).ok()?
            }
            'u' => hex(&mut chars, 4)?,
            '\r' => {
                chars.next_if_eq(&'\n');
                continue;
            }
            '\n' | '\u{2028}' | '\u{2029}' => continue,
            other => other as u32,
        };
        match (high.take(), unit) {
            (Some(h), 0xDC00..=0xDFFF) => {
                let code = 0x10000 + ((h - 0xD800) << 10) + (unit - 0xDC00);
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            (h, _) => {
                if h.is_some() {
                    out.push('\u{FFFD}');
                }
                match unit {
                    0xD800..=0xDBFF => high = Some(unit),
                    _ => out.push(char::from_u32(unit).unwrap_or('\u{FFFD}')),
                }
            }
        }
    }
    flush(&mut out, &mut high);
    Some(out)
}

/// Writes a lone high surrogate as U+FFFD.
fn flush(out: &mut String, high: &mut Option<u32>) {
    if high.take().is_some() {
        out.push('\u{FFFD}');
    }
}

/// Reads `n` hex digits.
fn hex(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, n: usize) -> Option<u32> {
    let digits: String = (0..n).map_while(|_| chars.next()).collect();
    (digits.len() == n).then(|| u32::from_str_radix(&digits, 16).ok())?
}

#[cfg(test)]
mod tests;
