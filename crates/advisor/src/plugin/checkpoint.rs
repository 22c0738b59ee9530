//! The advisor's checkpoint: counters, delivered notes and dedupe history per
//! reviewer, as JSON, and the validation that guards restore.
//!
//! Owns the saved shape (`{"version":1,"reviewers":{"<name>":{…}}}`) and every
//! rule a restore enforces, each rejection naming its field. One set of bounds
//! serves both directions: save trims what it writes to them (over-long keys
//! and notes dropped, the oldest history forgotten first, the whole within
//! [`MAX_CHECKPOINT_BYTES`]), so restore accepts everything save writes.
//! Restoring never panics on any JSON and never half-applies: a state is
//! validated whole before anything changes. Must not decide scheduling.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::DELIVERED_CAPACITY;
use super::member::{Counters, Member};
use crate::error::Error;
use crate::guard::{DEDUPE_CAPACITY, MAX_NOTE_CHARS, SeenKey};
use crate::note::Note;

/// The checkpoint format version this crate writes and reads.
pub const CHECKPOINT_VERSION: u32 = 1;

/// Longest dedupe key a checkpoint may hold, in bytes (NFKC can expand a
/// 2 000-character note several times over).
const MAX_KEY_BYTES: usize = 16 * MAX_NOTE_CHARS;

/// Largest checkpoint, in bytes of compact JSON: save never writes more and
/// restore refuses more, so a state file of a known size always restores.
pub const MAX_CHECKPOINT_BYTES: usize = 1 << 20;

fn json_len<T: Serialize>(value: &T) -> usize {
    serde_json::to_string(value).map_or(usize::MAX, |s| s.len())
}

/// Trims a member's state to the bounds restore enforces, within `budget`
/// bytes: entries restore would refuse are dropped, then the oldest history
/// and delivered notes until it fits.
fn fit(mut s: MemberState, budget: usize) -> MemberState {
    s.seen.retain(|k| k.key.len() <= MAX_KEY_BYTES);
    s.delivered.retain(|n| n.text.chars().count() <= MAX_NOTE_CHARS);
    let extra = s.seen.len().saturating_sub(DEDUPE_CAPACITY);
    s.seen.drain(..extra);
    let extra = s.delivered.len().saturating_sub(DELIVERED_CAPACITY);
    s.delivered.drain(..extra);
    let mut total = json_len(&s);
    drop_oldest(&mut s.seen, &mut total, budget);
    drop_oldest(&mut s.delivered, &mut total, budget);
    s
}

/// Drops the oldest `items` while `total` (bytes, each item and its comma
/// counted) is over `budget`.
fn drop_oldest<T: Serialize>(items: &mut Vec<T>, total: &mut usize, budget: usize) {
    let mut drop = 0;
    while *total > budget && drop < items.len() {
        *total = total.saturating_sub(json_len(&items[drop]) + 1);
        drop += 1;
    }
    items.drain(..drop);
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MemberState {
    finished: i64,
    periodic: i64,
    ticks: i64,
    last_review: i64,
    cooldown_until: i64,
    #[serde(default)]
    delivered: Vec<Note>,
    #[serde(default)]
    seen: Vec<SeenKey>,
}

/// Review tokens spent, carried across checkpoints so a token budget holds
/// over a session. Written only when something was spent, so a checkpoint of
/// an advisor that never spent tokens reads as before.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Spent {
    /// For the current user request.
    pub(crate) request: u64,
    /// Over the checkpointed lifetime.
    pub(crate) session: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PluginState {
    version: u32,
    reviewers: BTreeMap<String, MemberState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    review_tokens: Option<Spent>,
}

fn save_member(m: &Member) -> MemberState {
    let c = m.counters();
    MemberState {
        finished: c.finished.into(),
        periodic: c.periodic.into(),
        ticks: c.ticks.into(),
        last_review: c.last_review.into(),
        cooldown_until: c.cooldown_until.into(),
        delivered: m.delivered().cloned().collect(),
        seen: m.history(),
    }
}

/// Saves every member's state, trimmed to the bounds restore enforces, and
/// the review tokens spent.
pub(crate) fn save(members: &[Member], spent: Spent) -> Value {
    let names: usize = members.iter().map(|m| json_len(&m.cfg.name) + 2).sum();
    // room for the version, the map's punctuation and the spent tokens
    let budget = MAX_CHECKPOINT_BYTES.saturating_sub(256 + names) / members.len().max(1);
    let state = PluginState {
        version: CHECKPOINT_VERSION,
        reviewers: members
            .iter()
            .map(|m| (m.cfg.name.clone(), fit(save_member(m), budget)))
            .collect(),
        review_tokens: (spent != Spent::default()).then_some(spent),
    };
    serde_json::to_value(state).unwrap_or(Value::Null)
}

fn counter(at: &str, field: &str, v: i64) -> Result<u32, Error> {
    let why = if v < 0 { "must not be negative" } else { "is too large" };
    u32::try_from(v).map_err(|_| Error::checkpoint(format!("{at}.{field}"), format!("{why}, got {v}")))
}

/// A validated member state, ready to apply.
struct Valid {
    counters: Counters,
    delivered: Vec<Note>,
    seen: Vec<SeenKey>,
}

fn validate(at: &str, s: MemberState) -> Result<Valid, Error> {
    let counters = Counters {
        finished: counter(at, "finished", s.finished)?,
        periodic: counter(at, "periodic", s.periodic)?,
        ticks: counter(at, "ticks", s.ticks)?,
        last_turn: 0,
        last_review: counter(at, "last_review", s.last_review)?,
        cooldown_until: counter(at, "cooldown_until", s.cooldown_until)?,
    };
    if counters.last_review > counters.ticks {
        return Err(Error::checkpoint(
            format!("{at}.last_review"),
            format!(
                "is {} but ticks is {}: a review cannot lie in the future",
                counters.last_review, counters.ticks
            ),
        ));
    }
    if s.delivered.len() > DELIVERED_CAPACITY {
        return Err(Error::checkpoint(
            format!("{at}.delivered"),
            format!(
                "holds {} notes; at most {DELIVERED_CAPACITY} are kept",
                s.delivered.len()
            ),
        ));
    }
    if let Some(i) = s.delivered.iter().position(|n| n.text.chars().count() > MAX_NOTE_CHARS) {
        return Err(Error::checkpoint(
            format!("{at}.delivered[{i}].text"),
            format!("is longer than {MAX_NOTE_CHARS} characters"),
        ));
    }
    if s.seen.len() > DEDUPE_CAPACITY {
        return Err(Error::checkpoint(
            format!("{at}.seen"),
            format!("holds {} keys; at most {DEDUPE_CAPACITY} are kept", s.seen.len()),
        ));
    }
    if let Some(i) = s.seen.iter().position(|k| k.key.len() > MAX_KEY_BYTES) {
        return Err(Error::checkpoint(
            format!("{at}.seen[{i}].key"),
            format!("is longer than {MAX_KEY_BYTES} bytes"),
        ));
    }
    Ok(Valid {
        counters,
        delivered: s.delivered,
        seen: s.seen,
    })
}

/// Validates `state` whole, then applies it, returning the review tokens it
/// records as spent. Members missing from the state start fresh; a reviewer
/// name the plugin does not have is an error.
pub(crate) fn restore(members: &mut [Member], state: Value) -> Result<Spent, Error> {
    let size = json_len(&state);
    if size > MAX_CHECKPOINT_BYTES {
        return Err(Error::checkpoint(
            "state",
            format!("is {size} bytes; a checkpoint holds at most {MAX_CHECKPOINT_BYTES}"),
        ));
    }
    let state: PluginState = serde_json::from_value(state)
        .map_err(|e| Error::checkpoint("state", format!("is not an advisor checkpoint: {e}")))?;
    if state.version != CHECKPOINT_VERSION {
        return Err(Error::checkpoint(
            "version",
            format!("is {}; this advisor reads version {CHECKPOINT_VERSION}", state.version),
        ));
    }
    let spent = state.review_tokens.unwrap_or_default();
    if spent.request > spent.session {
        return Err(Error::checkpoint(
            "review_tokens.request",
            format!(
                "is {} but the session total is {}: a request cannot spend more than its session",
                spent.request, spent.session
            ),
        ));
    }
    let mut valid = Vec::with_capacity(state.reviewers.len());
    for (name, s) in state.reviewers {
        let at = format!("reviewers.{name}");
        let Some(idx) = members.iter().position(|m| m.cfg.name == name) else {
            return Err(Error::checkpoint(at, "names a reviewer this advisor does not have"));
        };
        valid.push((idx, validate(&at, s)?));
    }
    for (idx, v) in valid {
        members[idx].restore(v.counters, v.delivered, v.seen);
    }
    Ok(spent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::note::Severity;

    fn member_state(keys: Vec<SeenKey>) -> MemberState {
        MemberState {
            finished: 1,
            periodic: 0,
            ticks: 1,
            last_review: 1,
            cooldown_until: 0,
            delivered: Vec::new(),
            seen: keys,
        }
    }

    #[test]
    fn save_trims_to_what_restore_accepts() {
        let long = SeenKey {
            key: "k".repeat(MAX_KEY_BYTES + 1),
            severity: Severity::Blocker,
        };
        let many: Vec<SeenKey> = (0..DEDUPE_CAPACITY + 10)
            .map(|i| SeenKey {
                key: format!("{i}-{}", "x".repeat(600)),
                severity: Severity::Concern,
            })
            .chain(std::iter::once(long))
            .collect();
        let fitted = fit(member_state(many), MAX_CHECKPOINT_BYTES);
        assert!(json_len(&fitted) <= MAX_CHECKPOINT_BYTES);
        assert!(fitted.seen.iter().all(|k| k.key.len() <= MAX_KEY_BYTES));
        assert!(fitted.seen.len() <= DEDUPE_CAPACITY);
        let newest = format!("{}-", DEDUPE_CAPACITY + 9);
        assert!(
            fitted.seen.last().unwrap().key.starts_with(&newest),
            "the newest keys are kept"
        );
        let state = PluginState {
            version: CHECKPOINT_VERSION,
            reviewers: [("advisor".to_owned(), fitted)].into_iter().collect(),
            review_tokens: None,
        };
        let value = serde_json::to_value(state).unwrap();
        assert!(json_len(&value) <= MAX_CHECKPOINT_BYTES);
        let parsed: PluginState = serde_json::from_value(value).unwrap();
        for (name, s) in parsed.reviewers {
            validate(&name, s).unwrap();
        }
    }
}
