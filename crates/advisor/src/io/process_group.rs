//! The process groups of the children this process started, so that nothing
//! a child leaves behind outlives the host's deadline.
//!
//! Owns [`ProcessGroup`] — the group a child leads (it was started with
//! `process_group(0)`), killed whole when the value is dropped or
//! [`ProcessGroup::kill`]ed — and the process-wide list of the groups still
//! held, which [`kill_process_groups`] kills at once: a host that must exit
//! by a deadline (the `advisor` hook) calls it before it exits, whatever
//! thread still waits for the child. A process that left its group
//! (`setsid`) is out of reach here. Must not start or wait for processes.

use std::sync::Mutex;

/// The leaders of the groups held by a live [`ProcessGroup`].
static HELD: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn held() -> std::sync::MutexGuard<'static, Vec<u32>> {
    HELD.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The process group a child leads, killed whole when dropped, and known to
/// [`kill_process_groups`] until then.
#[derive(Debug)]
pub struct ProcessGroup(u32);

impl ProcessGroup {
    /// The group of `pid`, a child started as the leader of a new process
    /// group (`std::os::unix::process::CommandExt::process_group(0)`).
    pub fn adopt(pid: u32) -> ProcessGroup {
        held().push(pid);
        ProcessGroup(pid)
    }

    /// The leader's process id (the group's number).
    pub fn id(&self) -> u32 {
        self.0
    }

    /// Sends `SIGKILL` to every process of the group (nothing on platforms
    /// without process groups).
    pub fn kill(&self) {
        kill_group(self.0);
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
        let mut held = held();
        if let Some(i) = held.iter().position(|&p| p == self.0) {
            held.swap_remove(i);
        }
    }
}

/// Kills every group a live [`ProcessGroup`] holds; how many there were.
/// For a host at its deadline: the groups stay listed until their values
/// are dropped.
pub fn kill_process_groups() -> usize {
    let groups = held().clone();
    for &pid in &groups {
        kill_group(pid);
    }
    groups.len()
}

#[cfg(unix)]
fn kill_group(pid: u32) {
    if let Some(pid) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::time::{Duration, Instant};

    fn sleeper() -> std::process::Child {
        std::process::Command::new("sh")
            .args(["-c", "sleep 30 & sleep 30"])
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"))
    }

    fn ends_within(child: &mut std::process::Child, limit: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            if matches!(child.try_wait(), Ok(Some(_))) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    #[test]
    fn a_held_group_is_killed_by_kill_process_groups_and_forgotten_when_dropped() {
        let mut child = sleeper();
        let group = ProcessGroup::adopt(child.id());
        assert!(held().contains(&group.id()));
        assert!(kill_process_groups() >= 1);
        assert!(
            ends_within(&mut child, Duration::from_secs(5)),
            "the group outlived the kill"
        );
        let id = group.id();
        drop(group);
        assert!(!held().contains(&id));
    }

    #[test]
    fn dropping_the_value_kills_the_group() {
        let mut child = sleeper();
        drop(ProcessGroup::adopt(child.id()));
        assert!(ends_within(&mut child, Duration::from_secs(5)));
    }
}
