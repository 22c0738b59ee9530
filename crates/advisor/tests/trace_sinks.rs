//! Issue 16, item 8: trace sinks never block the agent loop on the disk, and
//! lose nothing. A writer held shut (a disk that does not answer) must not
//! hold up a run or a rollout; once it opens, a flush (or the drop of the
//! trace) leaves every event recorded before it written, in order; a write
//! error is reported by `flush`, never panicked.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use advisor::model::ScriptedModel;
use advisor::rollout::{Arm, Outcome, RolloutEvent, RolloutTrace};
use advisor::trace::{JsonlTrace, TRACE_SCHEMA, TraceEvent, TraceEventKind, TraceSink};
use advisor::{AdvisorPlugin, Agent, Note, review};

/// A writer that holds every write until the test opens it. If it is still
/// shut after a minute it writes anyway and says so: a write made on the
/// caller's thread would have held the caller that long.
#[derive(Clone, Default)]
struct ShutDisk {
    open: Arc<(Mutex<bool>, Condvar)>,
    bytes: Arc<Mutex<Vec<u8>>>,
    held_a_caller: Arc<AtomicBool>,
}

impl ShutDisk {
    fn open(&self) {
        *self.open.0.lock().unwrap() = true;
        self.open.1.notify_all();
    }

    fn lines(&self) -> Vec<String> {
        String::from_utf8(self.bytes.lock().unwrap().clone())
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

impl Write for ShutDisk {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let (lock, cv) = &*self.open;
        let (open, waited) = cv
            .wait_timeout_while(lock.lock().unwrap(), Duration::from_secs(60), |open| !*open)
            .unwrap();
        if !*open && waited.timed_out() {
            self.held_a_caller.store(true, Ordering::SeqCst);
        }
        self.bytes.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A disk that is full.
struct FullDisk;

impl Write for FullDisk {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::StorageFull, "no space left on device"))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn a_run_finishes_while_the_trace_disk_is_shut_and_its_events_are_written_once_flushed() {
    let disk = ShutDisk::default();
    let trace = Arc::new(JsonlTrace::new(disk.clone()));
    let plugin = AdvisorPlugin::builder()
        .reviewer(review::from_sync_fn(|r: &review::Review| {
            Ok(if r.round == 0 {
                vec![Note::concern("the total double-counts refunded orders")]
            } else {
                vec![]
            })
        }))
        .trace(Arc::clone(&trace))
        .build()
        .unwrap();
    let model = ScriptedModel::texts(["revenue was 4.2M", "revenue was 3.1M (refunds excluded)"]);
    let outcome = Agent::new(model)
        .extension(plugin)
        .run("what was revenue?")
        .await
        .unwrap();
    assert!(outcome.final_answer.contains("3.1M"));
    assert!(disk.lines().is_empty(), "nothing is written while the disk is shut");

    disk.open();
    tokio::task::spawn_blocking(move || trace.flush())
        .await
        .unwrap()
        .unwrap();
    assert!(!disk.held_a_caller.load(Ordering::SeqCst), "a write held up the run");
    let events: Vec<serde_json::Value> = disk.lines().iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let reviews = events.iter().filter(|e| e["event"] == "review").count();
    assert_eq!(reviews, 2, "both reviews of the run: {events:?}");
    assert!(events.iter().all(|e| e["schema"] == TRACE_SCHEMA));
}

#[test]
fn a_rollout_trace_records_without_waiting_and_end_leaves_the_attempt_written_in_order() {
    let disk = ShutDisk::default();
    let r1 = RolloutTrace::start(disk.clone(), "r1", "t1", Arm::Advised);
    let r2 = RolloutTrace::start(disk.clone(), "r2", "t2", Arm::Unadvised);
    assert!(disk.lines().is_empty(), "both starts were handed over, not written");
    disk.open();
    r1.end(Outcome::Passed);
    assert_eq!(disk.lines().len(), 3, "`end` returns once the attempt is written");
    drop(r2);
    assert!(!disk.held_a_caller.load(Ordering::SeqCst));
    let events: Vec<RolloutEvent> = disk.lines().iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let ids: Vec<(&str, u64)> = events.iter().map(|e| (e.rollout_id.as_str(), e.seq)).collect();
    assert_eq!(ids, [("r1", 1), ("r2", 1), ("r1", 2), ("r2", 2)]);
}

#[test]
fn a_write_error_is_returned_by_every_flush_and_never_panics() {
    let trace = JsonlTrace::new(FullDisk);
    trace.record(&TraceEvent::new(TraceEventKind::FreshRequest, "advisor"));
    let err = trace.flush().unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::StorageFull);
    assert!(trace.flush().is_err(), "a trace that lost an event stays incomplete");

    let rollout = RolloutTrace::start(FullDisk, "r", "t", Arm::Advised);
    rollout.end(Outcome::Failed);
    assert_eq!(rollout.flush().unwrap_err().kind(), io::ErrorKind::StorageFull);
}

#[test]
fn dropping_a_jsonl_trace_leaves_every_event_on_disk() {
    let dir = std::env::temp_dir().join(format!("advisor-trace-drop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trace.jsonl");
    let trace = JsonlTrace::append(&path).unwrap();
    for i in 0..200 {
        trace.record(&TraceEvent::new(TraceEventKind::Rebase, format!("reviewer-{i}")));
    }
    drop(trace);
    let text = advisor::io::read_file_to_string(&path, 1 << 20).unwrap();
    let names: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<TraceEvent>(l).unwrap().reviewer)
        .collect();
    assert_eq!(names, (0..200).map(|i| format!("reviewer-{i}")).collect::<Vec<_>>());
    let _ = std::fs::remove_dir_all(&dir);
}
