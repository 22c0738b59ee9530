//! `CommandReviewer`: a [`Reviewer`] that runs a program — typically the agent
//! CLI the user is already logged into (`claude`, `codex`, `gemini`) — with
//! the review prompt on stdin and parses its answer as notes.
//!
//! Owns the child's lifetime and bounds: an argv (never a shell string) whose
//! program, given by name, is found on `PATH` outside the workspace, the
//! workspace as working directory, the inherited environment plus the
//! variables the host adds (the recursion marker), the prompt written to
//! stdin, stdout and stderr each read up to a cap (past it the child is
//! killed and the review fails), and the timeout: on it — or when the caller
//! drops the review (the plugin's own timeout) — the child's whole process
//! group is killed. The group is also killed once the child exits, and its
//! stdout is read on only briefly after that (`DRAIN_AFTER_EXIT`): a
//! process it detached from the group (`setsid`) may hold the pipe open, and
//! is never waited for. No blocking thread of the runtime is used, so
//! nothing of a review holds a runtime's shutdown; the group is listed for
//! [`kill_process_groups`](crate::io::kill_process_groups) while it runs. An exit status other than 0, an answer that is not the
//! notes object, or an [`Envelope`] that does not hold one is a reviewer
//! error (the plugin fails open). Errors never quote the child's output.
//! Must not choose the program or its flags (the host's presets do) and must
//! not admit notes. A blocker whose evidence is not found in the prompt's
//! evidence part is demoted to a concern ([`crate::anchor`]): the program's
//! own reads are not advisor's to check.
//!
//! # Token effect
//!
//! One run of the program per review: the same bounded prompt as the model
//! reviewer in, its answer out; tokens are charged when the envelope reports
//! them (Claude Code's and Gemini CLI's JSON do), otherwise none are known.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use serde_json::Value;

use super::model_reviewer::{ModelReviewer, parse_notes};
use super::{Review, ReviewError, Reviewer};
use crate::anchor::{Shown, anchor_blockers};
use crate::kind::ReviewErrorKind;
use crate::model::ScriptedModel;
use crate::note::Note;
use crate::usage::Usage;

/// Most bytes of the child's stdout read; more fails the review.
pub const MAX_COMMAND_STDOUT: u64 = 1024 * 1024;
/// Most bytes of the child's stderr kept (the rest is drained and dropped).
pub const MAX_COMMAND_STDERR: u64 = 64 * 1024;

/// How the program wraps its answer on stdout.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Envelope {
    /// stdout is the answer itself.
    Plain,
    /// Claude Code's `--output-format json`: an object whose `result` is the
    /// answer, `is_error` a failure, and `usage` the tokens.
    ClaudeJson,
    /// Gemini CLI's `--output-format json`: an object whose `response` is the
    /// answer and `stats.models.*.tokens` the tokens.
    GeminiJson,
    /// The answer is written to this file (Codex's `--output-last-message`),
    /// stdout is ignored.
    LastMessageFile(PathBuf),
}

/// A reviewer that runs a program.
#[derive(Debug, Clone)]
pub struct CommandReviewer {
    argv: Vec<String>,
    cwd: Option<PathBuf>,
    untrusted: Option<PathBuf>,
    env: Vec<(String, String)>,
    envelope: Envelope,
    timeout: Duration,
    prompt: ModelReviewer,
}

impl CommandReviewer {
    /// Runs `argv` (program and arguments, never through a shell) with the
    /// answer read as [`Envelope::Plain`] and a 120 s timeout.
    pub fn new(argv: impl IntoIterator<Item = impl Into<String>>) -> CommandReviewer {
        CommandReviewer {
            argv: argv.into_iter().map(Into::into).collect(),
            cwd: None,
            untrusted: None,
            env: Vec::new(),
            envelope: Envelope::Plain,
            timeout: Duration::from_secs(120),
            prompt: ModelReviewer::new(ScriptedModel::texts(Vec::<String>::new())),
        }
    }

    /// Runs the program in `dir` (the workspace).
    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> CommandReviewer {
        self.cwd = Some(dir.into());
        self
    }

    /// A program given by bare name (`claude`) is looked up on `PATH` in
    /// absolute directories only, and never in one that resolves beneath
    /// `dir` (the workspace, whose host config may set the hook's `PATH`;
    /// `/proc/self/cwd/bin`, `..` and links are followed first): see
    /// [`io::find_program`](crate::io::find_program). Without it every
    /// absolute `PATH` directory counts.
    pub fn untrusted_dir(mut self, dir: impl Into<PathBuf>) -> CommandReviewer {
        self.untrusted = Some(dir.into());
        self
    }

    /// Adds `key=value` to the inherited environment.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> CommandReviewer {
        self.env.push((key.into(), value.into()));
        self
    }

    /// How the answer is wrapped.
    pub fn envelope(mut self, envelope: Envelope) -> CommandReviewer {
        self.envelope = envelope;
        self
    }

    /// Kills the program's process group after `timeout`.
    pub fn timeout(mut self, timeout: Duration) -> CommandReviewer {
        self.timeout = timeout;
        self
    }

    /// Says in the prompt that the program can read the workspace with these
    /// read-only tools of its own (`names` as the program calls them, e.g.
    /// `"Read, Grep, Glob"`): for checking the answer's claims, and notes
    /// cite what was read. Without it the prompt says the reviewer has no
    /// tools.
    pub fn read_only_tools(mut self, names: impl Into<String>) -> CommandReviewer {
        self.prompt = self.prompt.own_tools(names);
        self
    }

    /// Operator priorities shown to the reviewer.
    pub fn attention(mut self, text: impl Into<String>) -> CommandReviewer {
        self.prompt = self.prompt.attention(text);
        self
    }

    /// The text sent on stdin for `review`: the model reviewer's system
    /// prompt, then its fitted user prompt.
    pub fn prompt_for(&self, review: &Review) -> String {
        self.prompt_and_shown(review).0
    }

    /// The text sent on stdin and the evidence part of it, which a
    /// blocker's quote must come from (the program's own reads cannot
    /// anchor: advisor never sees them).
    pub(crate) fn prompt_and_shown(&self, review: &Review) -> (String, Shown) {
        let budget = review.max_prompt_tokens.unwrap_or(super::DEFAULT_MAX_PROMPT_TOKENS);
        let (request, fitted) = self.prompt.request_within(review, budget);
        let parts: Vec<&str> = request.messages.iter().map(|m| m.content.as_str()).collect();
        (parts.join("\n\n"), fitted.shown)
    }
}

impl CommandReviewer {
    /// What this reviewer makes of `answer` as the program's answer to
    /// `review` (the text inside its envelope): the notes, strictly parsed,
    /// every blocker anchored against the evidence part of the prompt
    /// [`prompt_for`](Self::prompt_for) gives — exactly what a run of the
    /// program answering `answer` would return. For answers recorded
    /// earlier (`advisor eval --answers`).
    pub fn notes_from_answer(&self, review: &Review, answer: &str) -> Result<Vec<Note>, ReviewError> {
        notes_from(answer, &self.prompt_and_shown(review).1)
    }
}

/// The notes of an answer, blockers anchored against `shown`.
fn notes_from(answer: &str, shown: &Shown) -> Result<Vec<Note>, ReviewError> {
    let mut notes = parse_notes(answer).map_err(|why| {
        ReviewError::with_kind(
            ReviewErrorKind::Unusable,
            format!("the reviewer command's answer was unusable: {why}"),
        )
    })?;
    anchor_blockers(&mut notes, shown);
    Ok(notes)
}

fn failed(message: impl Into<String>) -> ReviewError {
    ReviewError::new(message)
}

/// How often the child is looked at while it runs.
const POLL: Duration = Duration::from_millis(10);
/// How long, after the child exits, its stdout is read on for what is
/// still in the pipe: past it, whatever holds the pipe open (a process the
/// child detached from its group) is not waited for.
const DRAIN_AFTER_EXIT: Duration = Duration::from_millis(500);

/// The running child: its whole group killed — and the child reaped, on a
/// thread of its own when it has not exited yet — when dropped (a finished
/// review, a timeout, or the caller giving up on the review).
struct Running {
    child: Option<std::process::Child>,
    group: crate::io::ProcessGroup,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.group.kill();
        let Some(mut child) = self.child.take() else {
            return;
        };
        if !matches!(child.try_wait(), Ok(Some(_))) {
            let _ = child.kill();
            // killed: it is gone at once; nobody waits for the reaping
            let _ = std::thread::Builder::new()
                .name("advisor-reap".into())
                .spawn(move || child.wait());
        }
    }
}

/// The child's stdout, read on a thread of its own up to a cap: what was
/// read so far, and whether there was more than the cap.
#[derive(Default)]
struct Captured {
    bytes: Vec<u8>,
    over: bool,
}

/// Reads `r` into `into` until its end or past `cap` (then `over` is set);
/// `done` fires when it stops.
fn capture(mut r: impl Read, cap: u64, into: Arc<Mutex<Captured>>, done: tokio::sync::oneshot::Sender<()>) {
    let mut buf = [0u8; 16 * 1024];
    loop {
        match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let mut c = lock(&into);
                let room = usize::try_from(cap).unwrap_or(usize::MAX).saturating_sub(c.bytes.len());
                c.bytes.extend_from_slice(&buf[..n.min(room)]);
                if n > room {
                    c.over = true;
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = done.send(());
}

fn lock(c: &Mutex<Captured>) -> std::sync::MutexGuard<'_, Captured> {
    c.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Reads `r` to its end keeping at most `cap` bytes (the rest is drained
/// and dropped).
fn read_capped(mut r: impl Read, cap: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = (&mut r).take(cap).read_to_end(&mut out);
    let _ = std::io::copy(&mut r, &mut std::io::sink());
    out
}

/// What the child did.
struct Ran {
    status: Option<i32>,
    stdout: Vec<u8>,
    stdout_over: bool,
}

impl CommandReviewer {
    fn spawn(&self) -> Result<std::process::Child, ReviewError> {
        let (program, args) = self
            .argv
            .split_first()
            .ok_or_else(|| failed("the reviewer command is empty"))?;
        // a bare name is found where the workspace cannot plant it
        let resolved = if program.contains(['/', '\\']) {
            PathBuf::from(program)
        } else {
            crate::io::find_program(program, self.untrusted.as_deref()).ok_or_else(|| {
                failed(format!(
                    "the reviewer program {:?} is not on PATH (absolute directories outside the workspace)",
                    crate::text::clamp_chars(program, 80)
                ))
            })?
        };
        let mut cmd = Command::new(resolved);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd.spawn().map_err(|e| {
            failed(format!(
                "the reviewer command {:?} could not be started ({})",
                crate::text::clamp_chars(program, 80),
                e.kind()
            ))
        })
    }

    /// Runs the child until it exits, its stdout passes the cap, or the
    /// timeout. Nothing here blocks an async thread or the runtime's
    /// blocking pool: the pipes are served by plain threads, which are not
    /// waited for once the child is gone, and the child is looked at every
    /// [`POLL`]. Whatever happens to the future, [`Running`] kills the group.
    async fn run(&self, input: String) -> Result<Ran, ReviewError> {
        let deadline = tokio::time::Instant::now() + self.timeout;
        let mut child = self.spawn()?;
        let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let mut running = Running {
            group: crate::io::ProcessGroup::adopt(child.id()),
            child: Some(child),
        };
        if let Some(mut s) = stdin {
            // ends when the child reads it all, exits or is killed
            let _ = std::thread::Builder::new()
                .name("advisor-reviewer-stdin".into())
                .spawn(move || {
                    let _ = s.write_all(input.as_bytes());
                });
        }
        if let Some(e) = stderr {
            // drained and dropped, so a chatty child never stalls on a full pipe
            let _ = std::thread::Builder::new()
                .name("advisor-reviewer-stderr".into())
                .spawn(move || read_capped(e, MAX_COMMAND_STDERR));
        }
        let captured = Arc::new(Mutex::new(Captured::default()));
        let (done_tx, mut done) = tokio::sync::oneshot::channel();
        if let Some(o) = stdout {
            let into = Arc::clone(&captured);
            std::thread::Builder::new()
                .name("advisor-reviewer-stdout".into())
                .spawn(move || capture(o, MAX_COMMAND_STDOUT, into, done_tx))
                .map_err(|_| failed("the reviewer command's output could not be read"))?;
        }
        let status = loop {
            if lock(&captured).over {
                return Ok(Ran {
                    status: None,
                    stdout: Vec::new(),
                    stdout_over: true,
                });
            }
            let exited = match running.child.as_mut().map(std::process::Child::try_wait) {
                Some(Ok(Some(status))) => Some(status),
                Some(Ok(None)) => None,
                _ => return Err(failed("the reviewer command could not be waited for")),
            };
            if let Some(status) = exited {
                break status;
            }
            if tokio::time::Instant::now() >= deadline {
                drop(running);
                return Err(ReviewError::with_kind(
                    ReviewErrorKind::Timeout,
                    format!(
                        "the reviewer command did not answer within {} s; its process group was killed",
                        self.timeout.as_secs()
                    ),
                ));
            }
            tokio::time::sleep(POLL).await;
        };
        // anything the child left in its group would hold stdout open: end
        // it, then read what is still in the pipe, briefly; a process that
        // left the group may hold the pipe on, and is not waited for
        running.group.kill();
        let drain = DRAIN_AFTER_EXIT.min(deadline.saturating_duration_since(tokio::time::Instant::now()));
        let _ = tokio::time::timeout(drain, &mut done).await;
        drop(running);
        let c = std::mem::take(&mut *lock(&captured));
        Ok(Ran {
            status: status.code(),
            stdout: c.bytes,
            stdout_over: c.over,
        })
    }
}

/// The answer text inside `stdout` as `envelope` wraps it, and the tokens
/// it reports.
fn unwrap_envelope(envelope: &Envelope, stdout: &[u8]) -> Result<(String, Usage), ReviewError> {
    let unusable = |why: &str| ReviewError::with_kind(ReviewErrorKind::Unusable, why.to_owned());
    let json = || -> Result<Value, ReviewError> {
        serde_json::from_slice(stdout)
            .map_err(|_| unusable("the reviewer command's output is not the JSON its preset expects"))
    };
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    match envelope {
        Envelope::Plain => Ok((String::from_utf8_lossy(stdout).into_owned(), Usage::default())),
        Envelope::ClaudeJson => {
            let v = json()?;
            if v["is_error"] == Value::Bool(true) {
                return Err(failed(
                    "the reviewer CLI reported an error (is_error in its JSON result)",
                ));
            }
            let text = v["result"]
                .as_str()
                .ok_or_else(|| unusable("the reviewer CLI's JSON has no `result` text"))?;
            let u = &v["usage"];
            let input = n(&u["input_tokens"]) + n(&u["cache_creation_input_tokens"]) + n(&u["cache_read_input_tokens"]);
            Ok((text.to_owned(), Usage::new(input, n(&u["output_tokens"]))))
        }
        Envelope::GeminiJson => {
            let v = json()?;
            if v.get("error").is_some_and(|e| !e.is_null()) {
                return Err(failed("the reviewer CLI reported an error (error in its JSON output)"));
            }
            let text = v["response"]
                .as_str()
                .ok_or_else(|| unusable("the reviewer CLI's JSON has no `response` text"))?;
            let mut usage = Usage::default();
            if let Some(models) = v["stats"]["models"].as_object() {
                for m in models.values() {
                    usage += Usage::new(n(&m["tokens"]["prompt"]), n(&m["tokens"]["candidates"]));
                }
            }
            Ok((text.to_owned(), usage))
        }
        Envelope::LastMessageFile(path) => {
            let text = crate::io::read_file_to_string(path, MAX_COMMAND_STDOUT)
                .map_err(|_| unusable("the reviewer CLI wrote no readable last message"))?;
            Ok((text, Usage::default()))
        }
    }
}

#[async_trait]
impl Reviewer for CommandReviewer {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        if let Envelope::LastMessageFile(path) = &self.envelope {
            let _ = std::fs::remove_file(path);
        }
        let (prompt, shown) = self.prompt_and_shown(review);
        let ran = self.run(prompt).await?;
        if ran.stdout_over {
            return Err(failed(format!(
                "the reviewer command wrote more than {MAX_COMMAND_STDOUT} bytes; it was killed"
            )));
        }
        match ran.status {
            Some(0) => {}
            Some(code) => return Err(failed(format!("the reviewer command exited with status {code}"))),
            None => return Err(failed("the reviewer command was killed by a signal")),
        }
        let (text, usage) = unwrap_envelope(&self.envelope, &ran.stdout)?;
        review.usage.charge(usage);
        notes_from(&text, &shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_unwrap_the_answer_and_its_tokens() {
        let claude = br#"{"type":"result","is_error":false,"result":"{\"notes\":[]}","usage":{"input_tokens":3,"cache_read_input_tokens":4,"output_tokens":5}}"#;
        let (text, usage) = unwrap_envelope(&Envelope::ClaudeJson, claude).unwrap();
        assert_eq!(
            (text.as_str(), usage.input_tokens, usage.output_tokens),
            ("{\"notes\":[]}", 7, 5)
        );
        let gemini =
            br#"{"response":"{\"notes\":[]}","stats":{"models":{"g":{"tokens":{"prompt":9,"candidates":2}}}}}"#;
        let (_, usage) = unwrap_envelope(&Envelope::GeminiJson, gemini).unwrap();
        assert_eq!((usage.input_tokens, usage.output_tokens), (9, 2));
        assert!(unwrap_envelope(&Envelope::ClaudeJson, b"not json").is_err());
        assert!(unwrap_envelope(&Envelope::ClaudeJson, br#"{"is_error":true,"result":"x"}"#).is_err());
    }
}
