//! The `Extensions` dispatcher: the kernel rules every host loop follows.
//!
//! Owns the per-run set of extensions and the kernel rules: registration
//! order; for stops, the first interceptor that re-opens with something to
//! inject wins and the rest are not consulted; a re-open with nothing to
//! inject is accept; [`StopDecision::End`] ends the walk; `attempt` is counted
//! per extension; a panicking hook is contained and counts as no opinion; a
//! rejected checkpoint is reported, never fatal. Every host — the reference
//! loop, the rig adapter, the CLI — drives its extensions through it, so these
//! rules live in one place. It must not decide *when* a stop is consulted —
//! the loop calls [`Extensions::turn_stopping`] only for stops the run chose.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::contain::{contain, contain_async};
use super::{
    Extension, ExtensionFactory, Message, ObservePhase, RunEnd, StepInfo, StopDecision, StopInfo, StopInterceptor,
};
use crate::error::{Error, ErrorKind};

struct Entry {
    ext: Box<dyn Extension>,
    attempts: u32,
}

/// Consults `stop` (named `name`) with `info`, its `attempt` set to
/// `attempts`. A panic, or a re-open with nothing to inject, is
/// [`StopDecision::Accept`]; a re-open counts an attempt.
async fn consult(name: &str, stop: &mut dyn StopInterceptor, attempts: &mut u32, info: &mut StopInfo) -> StopDecision {
    info.attempt = *attempts;
    match contain_async(stop.turn_stopping(info)).await {
        None => {
            tracing::warn!(extension = %name, "stop interceptor panicked; counted as no opinion");
            StopDecision::Accept
        }
        Some(decision) if decision.reopens() => {
            *attempts += 1;
            decision
        }
        Some(StopDecision::Reopen { .. }) => StopDecision::Accept,
        Some(decision) => decision,
    }
}

/// The extensions of one run, in registration order.
#[derive(Default)]
pub struct Extensions {
    entries: Vec<Entry>,
}

impl std::fmt::Debug for Extensions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl Extensions {
    /// Asks each factory, in order, to begin the run. Declines are skipped; a
    /// factory error (or panic) aborts with an error naming the factory; two
    /// extensions with the same name are an error.
    pub fn begin_run(factories: &[Arc<dyn ExtensionFactory>]) -> Result<Extensions, Error> {
        let mut exts = Vec::new();
        for factory in factories {
            let name = factory.name().to_owned();
            let why = match contain(|| factory.begin_run()) {
                Some(Ok(Some(ext))) => {
                    exts.push(ext);
                    continue;
                }
                Some(Ok(None)) => continue,
                Some(Err(e)) => format!("could not begin the run: {e}"),
                None => "panicked while beginning the run".to_owned(),
            };
            return Err(Error::new(ErrorKind::Extension, format!("{name}: {why}")));
        }
        Extensions::from_extensions(exts)
    }

    /// A set of already-begun extensions, in this order. Names must be unique.
    pub fn from_extensions(exts: Vec<Box<dyn Extension>>) -> Result<Extensions, Error> {
        let mut entries: Vec<Entry> = Vec::with_capacity(exts.len());
        for ext in exts {
            if entries.iter().any(|e| e.ext.name() == ext.name()) {
                return Err(Error::new(
                    ErrorKind::Extension,
                    format!("two extensions are named {:?}; give each a unique name", ext.name()),
                ));
            }
            entries.push(Entry { ext, attempts: 0 });
        }
        Ok(Extensions { entries })
    }

    /// The extensions' names, in registration order.
    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.ext.name()).collect()
    }

    /// How many extensions take part in the run.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no extension takes part in the run.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Shows `messages` to every observer, in order. Panics are contained.
    pub fn observe(&mut self, phase: ObservePhase, turn: u32, messages: &[Message]) {
        for entry in &mut self.entries {
            if let Some(obs) = entry.ext.observer() {
                if contain(|| obs.observe_messages(phase, turn, messages)).is_none() {
                    tracing::warn!(extension = entry.ext.name(), %phase, "observer panicked; ignored");
                }
            }
        }
    }

    /// Calls every step interceptor, in order, and concatenates their additions.
    pub async fn before_step(&mut self, info: &StepInfo) -> Vec<Message> {
        let mut added = Vec::new();
        for entry in &mut self.entries {
            let name = entry.ext.name().to_owned();
            if let Some(step) = entry.ext.step_interceptor() {
                match contain_async(step.before_step(info)).await {
                    Some(msgs) => added.extend(msgs),
                    None => tracing::warn!(extension = %name, "step interceptor panicked; ignored"),
                }
            }
        }
        added
    }

    /// Consults the stop interceptors for a finish the run chose.
    ///
    /// In registration order, each is told how many times it re-opened this
    /// run. The first that re-opens wins: its count goes up and no later
    /// interceptor is consulted. [`StopDecision::End`] ends the walk with its
    /// reason. A panic is no opinion. At the end of the list the finish is
    /// accepted.
    pub async fn turn_stopping(&mut self, info: &StopInfo) -> StopDecision {
        // one copy for the whole walk (each interceptor sees its own attempt count)
        let mut info = info.clone();
        for entry in &mut self.entries {
            let Entry { ext, attempts } = entry;
            let name = ext.name().to_owned();
            let Some(stop) = ext.stop_interceptor() else {
                continue;
            };
            match consult(&name, stop, attempts, &mut info).await {
                StopDecision::Accept => {}
                decision => return decision,
            }
        }
        StopDecision::Accept
    }

    /// Tells every finalizer, in reverse registration order, how the run
    /// ended. Call before [`save`](Self::save). Panics are contained.
    pub fn finalize(&mut self, end: &RunEnd) {
        for entry in self.entries.iter_mut().rev() {
            let name = entry.ext.name().to_owned();
            if let Some(f) = entry.ext.finalizer() {
                if contain(|| f.finalize_run(end)).is_none() {
                    tracing::warn!(extension = %name, "finalizer panicked; ignored");
                }
            }
        }
    }

    /// How many times the extension named `name` re-opened this run.
    pub fn attempts(&self, name: &str) -> u32 {
        self.entries
            .iter()
            .find(|e| e.ext.name() == name)
            .map_or(0, |e| e.attempts)
    }

    /// Saves every checkpointing extension's state, keyed by name.
    pub fn save(&mut self) -> Result<Map<String, Value>, Error> {
        let mut out = Map::new();
        for entry in &mut self.entries {
            let name = entry.ext.name().to_owned();
            if let Some(cp) = entry.ext.checkpoint() {
                let state = contain(|| cp.save())
                    .unwrap_or_else(|| Err(Error::checkpoint(name.clone(), "panicked while saving")))?;
                out.insert(name, state);
            }
        }
        Ok(out)
    }

    /// Restores each checkpointing extension whose name is in `states`.
    /// Extensions missing from `states` start fresh; unknown names are ignored.
    /// A rejected state (or a panic) does not stop the run: it is logged and
    /// returned, named by extension and field, and the extension keeps
    /// whatever safe state its `restore` left.
    pub fn restore(&mut self, states: &Map<String, Value>) -> Vec<Error> {
        let mut rejected = Vec::new();
        for entry in &mut self.entries {
            let name = entry.ext.name().to_owned();
            let Some(state) = states.get(&name) else { continue };
            if let Some(cp) = entry.ext.checkpoint() {
                let result = contain(|| cp.restore(state.clone()))
                    .unwrap_or_else(|| Err(Error::checkpoint(name.clone(), "panicked while restoring")));
                if let Err(e) = result {
                    let field = e.field().map_or_else(|| name.clone(), |f| format!("{name}.{f}"));
                    let e = Error::checkpoint(field, e.message().to_owned());
                    tracing::warn!(extension = %name, error = %e, "a checkpoint was rejected; the run goes on");
                    rejected.push(e);
                }
            }
        }
        rejected
    }
}
