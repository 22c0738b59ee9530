//! `FinishRule`: a rule-based stop interceptor — the same seam as the advisor,
//! with a rule instead of a reviewer.
//!
//! Owns a small, free, deterministic gate a host registers *before* the
//! advisor (a goal gate requiring `STATUS: DONE`, a check that tests ran…), so
//! that what a rule can catch is never rediscovered by a paid review. It must
//! not call models.
//!
//! # What the model sees
//!
//! When the rule objects: its message, as one user message, and the run goes
//! on; at most `max_nudges` times per run. Otherwise nothing.

use std::sync::Arc;

use async_trait::async_trait;

use crate::error::Error;
use crate::host::{Extension, ExtensionFactory, Message, StopDecision, StopInfo, StopInterceptor};

type Rule = Arc<dyn Fn(&StopInfo) -> Option<String> + Send + Sync>;

/// A named rule consulted at each finish; `Some(message)` re-opens the run.
#[derive(Clone)]
pub struct FinishRule {
    name: String,
    rule: Rule,
    max_nudges: u32,
    note: Option<String>,
}

impl std::fmt::Debug for FinishRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FinishRule")
            .field("name", &self.name)
            .field("max_nudges", &self.max_nudges)
            .finish_non_exhaustive()
    }
}

impl FinishRule {
    /// A guard named `name` (unique within a run) applying `rule`; at most 2
    /// nudges per run by default.
    pub fn new(name: impl Into<String>, rule: impl Fn(&StopInfo) -> Option<String> + Send + Sync + 'static) -> Self {
        FinishRule {
            name: name.into(),
            rule: Arc::new(rule),
            max_nudges: 2,
            note: None,
        }
    }

    setters! {
        /// Nudges per run before the guard gives up and accepts.
        max_nudges(n: u32) => max_nudges = n;

        /// The progress line shown to the user when the guard re-opens the run.
        note(note: impl Into<String>) => note = Some(note.into());
    }
}

impl ExtensionFactory for FinishRule {
    fn name(&self) -> &str {
        &self.name
    }

    fn begin_run(&self) -> Result<Option<Box<dyn Extension>>, Error> {
        Ok(Some(Box::new(self.clone())))
    }
}

#[async_trait]
impl StopInterceptor for FinishRule {
    async fn turn_stopping(&mut self, info: &StopInfo) -> StopDecision {
        if info.attempt >= self.max_nudges {
            return StopDecision::Accept;
        }
        (self.rule)(info)
            .filter(|message| !message.is_empty())
            .map_or(StopDecision::Accept, |message| {
                StopDecision::reopen(vec![Message::user(message)], self.note.clone())
            })
    }
}

impl Extension for FinishRule {
    fn name(&self) -> &str {
        &self.name
    }

    fn stop_interceptor(&mut self) -> Option<&mut dyn StopInterceptor> {
        Some(self)
    }
}
