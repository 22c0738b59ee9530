//! Lines written off the caller's thread, so a slow disk never blocks an
//! agent loop.
//!
//! Owns [`WriteBehind`], the stream both trace writers
//! ([`JsonlTrace`](crate::trace::JsonlTrace) and
//! [`RolloutTrace`](crate::rollout::RolloutTrace)) write through. A line is
//! handed to one process-wide writer thread (started on first use; if it
//! cannot be started, lines are written on the caller's thread) and written
//! in order, the writer flushed after each (a slow stream delays the others'
//! lines, never a caller). [`WriteBehind::flush`] waits until every line
//! handed over before it is written and reports the stream's first write
//! error (a stream that lost a line stays incomplete); dropping the stream
//! waits the same way, so a line handed over is never lost to an early exit.
//! A write error is logged when it happens and never panics. The queue is
//! unbounded: a disk that never answers keeps the lines in memory, it never
//! drops one. Must not know what the lines mean.

use std::io::{self, Write};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

type Job = Box<dyn FnOnce() + Send>;

/// Runs `job` on the writer thread, in the order handed over, or here when
/// there is no writer thread.
fn run(job: Job) {
    static QUEUE: OnceLock<Option<Sender<Job>>> = OnceLock::new();
    let queue = QUEUE.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("advisor-trace-writer".into())
            .spawn(move || {
                for job in rx {
                    // a writer that panics must not stop the other streams
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                }
            })
            .ok()
            .map(|_| tx)
    });
    match queue {
        Some(tx) => {
            if let Err(mpsc::SendError(job)) = tx.send(job) {
                job();
            }
        }
        None => job(),
    }
}

struct Stream {
    out: Box<dyn Write + Send>,
    /// The first write error, kept for every later flush.
    error: Option<(io::ErrorKind, String)>,
}

fn lock(stream: &Mutex<Stream>) -> MutexGuard<'_, Stream> {
    stream.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A stream of lines written by the writer thread; see the module docs.
pub(crate) struct WriteBehind {
    stream: Arc<Mutex<Stream>>,
    /// What a line is, for the log (`"an advisor trace event"`).
    what: &'static str,
}

impl WriteBehind {
    /// A stream over `out`; `what` names a line in the log.
    pub(crate) fn new(out: impl Write + Send + 'static, what: &'static str) -> WriteBehind {
        WriteBehind {
            stream: Arc::new(Mutex::new(Stream {
                out: Box::new(out),
                error: None,
            })),
            what,
        }
    }

    /// Hands `line` (without its newline) to the writer; never waits for I/O.
    pub(crate) fn write_line(&self, mut line: Vec<u8>) {
        line.push(b'\n');
        let (stream, what) = (Arc::clone(&self.stream), self.what);
        run(Box::new(move || {
            let mut s = lock(&stream);
            if let Err(e) = s.out.write_all(&line).and_then(|()| s.out.flush()) {
                tracing::warn!(error = %e, "could not write {what}");
                s.error.get_or_insert((e.kind(), e.to_string()));
            }
        }));
    }

    /// Waits until every line handed over before is written and flushed;
    /// the stream's first write error, if any.
    pub(crate) fn flush(&self) -> io::Result<()> {
        let (tx, rx) = mpsc::sync_channel(1);
        let stream = Arc::clone(&self.stream);
        run(Box::new(move || {
            let _ = tx.send(lock(&stream).error.clone());
        }));
        match rx.recv() {
            Ok(None) => Ok(()),
            Ok(Some((kind, message))) => Err(io::Error::new(kind, message)),
            Err(_) => Err(io::Error::other("the trace writer stopped before the flush")),
        }
    }
}

impl Drop for WriteBehind {
    /// Waits for the lines handed over (their errors were logged as they happened).
    fn drop(&mut self) {
        let _ = self.flush();
    }
}
