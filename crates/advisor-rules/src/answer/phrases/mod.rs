//! Phrase knowledge: the words the answer readers match, one data module per
//! concept, one column per language.
//!
//! [`claims`] holds what claims a success, [`admissions`] what admits the work
//! is not done, [`disclosures`] what tells a failure, [`steps`] what claims a
//! step's result; each list is a [`Phrases`](lang::Phrases) value with a
//! column per language ([`lang`]). Must not hold logic: the readers of the
//! answer wing match an answer with them.

pub(crate) mod admissions;
pub(crate) mod claims;
pub(crate) mod disclosures;
pub(crate) mod lang;
pub(crate) mod steps;
