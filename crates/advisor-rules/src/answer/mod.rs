//! The answer wing: what the final answer claims, discloses and admits.
//!
//! Reads the answer's text, normalised first ([`claims::normalise`]): its
//! sentences ([`sentences`]), its success claims ([`claims`]) and how it
//! names a run as passing ([`naming`], [`run_names`]), what it admits
//! ([`admissions`]) and discloses ([`disclosures`]), how it claims a step's
//! result ([`step_claims`], [`actions`]), and the stub markers it says it
//! left ([`stubs`]). The phrases they match are data ([`phrases`]): one
//! module per concept, one column per language. Of the evidence it reads only what a run or a command is
//! called. Must not decide a verdict: the verdict wing holds each claim
//! against the evidence.

pub(crate) mod actions;
pub(crate) mod admissions;
pub(crate) mod claims;
pub(crate) mod disclosures;
pub(crate) mod naming;
pub(crate) mod phrases;
pub(crate) mod run_names;
pub(crate) mod sentences;
pub(crate) mod step_claims;
pub(crate) mod stubs;
