//! The offline rules reviewer of `advisor` ([`RulesReviewer`]): an offline,
//! deterministic reviewer over the library's
//! [`Reviewer`](advisor::review::Reviewer) seam — the CLI's default.
//!
//! Each rule is a pure function of the [`Review`](advisor::review::Review).
//! What an answer claims decides what evidence counts:
//! - a claim about **tests, builds or type checks** ("all tests pass",
//!   "builds cleanly") is held against every failed run of that kind no later
//!   run cleared — this turn's or an earlier one's;
//! - a claim about **the task** ("Done", "PR created", "the feature is
//!   complete") only against the failures of the turn under review (since the
//!   last genuine prompt; continuations after a Stop hook's feedback are the
//!   same turn);
//! - an answer that claims neither, or that **discloses** the failure in any
//!   wording (names the failing test, "still red", "pre-existing", "unrelated",
//!   "fails on main too", asks whether to update a test), is never
//!   interrupted.
//!
//! The rules ([`Rule`]):
//! 1. **unverified completion** (blocker): a claim the evidence above
//!    contradicts, over a run whose outcome the rules could read (a runner's
//!    summary line, or the exit status of a runner they know);
//! 2. **unreported failure** (nit): an outstanding failure the answer neither
//!    claims against nor mentions, or a claim over a run that went through a
//!    wrapper whose output the rules cannot read (`just test` exiting 1 with
//!    no runner summary) — recorded, never an interruption;
//! 3. **stub markers** (nit): the answer itself says it left `TODO`, a
//!    placeholder or a stub — it is telling the user, so it is recorded and
//!    never sent back; markers inside a negation ("no TODOs left") are not
//!    markers;
//! 4. **tool failure** (nit): another call failed and no later call of the
//!    same tool succeeded. Rejected and cancelled calls never count;
//! 5. **claimed failed step** (blocker): one sentence of the answer claims
//!    the result of the turn's last step — a shell call that is not a run, or
//!    a file write — and names what it was about (or says a check was made
//!    and came out right without naming it), while the host recorded
//!    that step as failed and the answer says nothing failed; or says a
//!    command of the turn finished, passed or exited 0 while the host
//!    recorded it as still running or stopped at a timeout.
//!
//! # Wings
//!
//! The crate is built in three wings, each using only the ones below it:
//! - [`evidence`] — what ran, how it ended and what cleared it: runs are
//!   recognised by the command that ran (the runner table, one unit per
//!   runner), read from the host's recorded exit status and each runner's
//!   summary line, and cleared by a later run that covers them. Its entry
//!   point, [`evidence::RunReader::runs`], gives every run of a review with
//!   its kind, outcome, deciding line and what cleared it;
//! - `answer` — what the answer claims, discloses and admits, read from its
//!   normalised text (the phrase lists, one data module per concept, one
//!   column per language);
//! - `verdicts` — the rules above, holding the one against the other. Note
//!   text never quotes durations, timestamps, temporary paths or process ids,
//!   so the same failure gives the same note whatever the timing.
//!
//! Must not call models, read files or keep state; the caller hands in what
//! the workspace says (its `package.json` scripts, [`Scripts`]). It sees what
//! a model reviewer would see, and says nothing when nothing matches.
//!
//! # Two stages
//!
//! [`TwoStage`] puts the rules first and a judge (a model-backed reviewer)
//! second: [`contest_of`] finds every failure of the turn no later step
//! cleared, quoted, and a judge is asked only about a stop that has one (or
//! a rules note) — does the answer claim a success these contradict, without
//! disclosing them? The judge decides; when it cannot answer, the rules'
//! verdict stands.
//!
//! # Token effect
//!
//! None: no model is called (a [`TwoStage`] review calls its judge on
//! contested stops only).

mod answer;
mod contest;
pub mod evidence;
mod text;
mod two_stage;
mod verdicts;

pub use contest::contest_of;
pub use evidence::outcome::looks_failed;
pub use evidence::{RunKind, Scripts};
pub use two_stage::TwoStage;
pub use verdicts::{Rule, RuleNote, RulesReviewer};
