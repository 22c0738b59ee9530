//! Token spend budgets: how many tokens a reviewer, a rollout advisor or a
//! consultant may spend before it stops being asked.
//!
//! Owns [`TokenBudget`] (a limit and what was charged against it),
//! [`BudgetScope`] (what the limit is counted over) and [`BudgetStop`] (why a
//! review or consultation did not run). Every seam charges the usage of every
//! model attempt — failed ones included, estimated from text length and
//! marked estimated when the server reports none (see
//! [`Usage::or_estimate`](crate::usage::Usage::or_estimate)). A budget is
//! checked *before* a call: the call that crosses the limit completes, the
//! next one does not start. Must not call models or decide anything else.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::usage::Usage;

wire_enum! {
    /// What a token budget is counted over.
    #[non_exhaustive]
    BudgetScope {
        /// One user request (the plugin and the hook; reset by a fresh request).
        Request => "request",
        /// A session: the plugin's checkpointed lifetime, or one host session for
        /// the hook.
        Session => "session",
        /// One rollout attempt (the rollout advisor).
        Attempt => "attempt",
        /// One run of a consultant (every consultation it answers).
        Run => "run",
    }
}

/// Why a review or a consultation did not run: its token budget was spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetStop {
    /// Which budget was spent.
    pub scope: BudgetScope,
    /// Tokens charged against it.
    pub spent: u64,
    /// Its limit.
    pub limit: u64,
}

impl fmt::Display for BudgetStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the advisor's token budget for this {} is spent ({} of {} tokens); no further reviews run",
            self.scope, self.spent, self.limit
        )
    }
}

/// A token limit and what was charged against it. `limit == None` counts
/// without ever stopping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TokenBudget {
    scope: Option<BudgetScope>,
    limit: Option<u64>,
    spent: u64,
}

impl TokenBudget {
    /// A budget of `limit` tokens (none: unlimited) counted over `scope`.
    pub fn new(scope: BudgetScope, limit: Option<u64>) -> TokenBudget {
        TokenBudget {
            scope: Some(scope),
            limit,
            spent: 0,
        }
    }

    /// Charges `usage` (input and output tokens).
    pub fn charge(&mut self, usage: Usage) {
        self.spent = self.spent.saturating_add(usage.total());
    }

    getters! {
        /// Tokens charged so far.
        spent: u64;

        /// The limit, if any.
        limit: Option<u64>;
    }

    /// Sets the tokens charged (a restored checkpoint).
    pub fn set_spent(&mut self, spent: u64) {
        self.spent = spent;
    }

    /// Starts counting again from zero.
    pub fn reset(&mut self) {
        self.spent = 0;
    }

    /// `Some(stop)` when the budget is spent (charged at least its limit), so
    /// the next call must not start.
    pub fn exhausted(&self) -> Option<BudgetStop> {
        let limit = self.limit?;
        (self.spent >= limit).then_some(BudgetStop {
            scope: self.scope.unwrap_or(BudgetScope::Run),
            spent: self.spent,
            limit,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_stops_once_charged_its_limit_and_never_without_one() {
        let mut b = TokenBudget::new(BudgetScope::Request, Some(100));
        assert!(b.exhausted().is_none());
        b.charge(Usage::new(60, 39));
        assert!(b.exhausted().is_none());
        b.charge(Usage::new(1, 0));
        let stop = b.exhausted().unwrap();
        assert_eq!((stop.scope, stop.spent, stop.limit), (BudgetScope::Request, 100, 100));
        assert!(stop.to_string().contains("100 of 100 tokens"));
        b.reset();
        assert!(b.exhausted().is_none());
        let mut unlimited = TokenBudget::new(BudgetScope::Run, None);
        unlimited.charge(Usage::new(u64::MAX, u64::MAX));
        assert_eq!(unlimited.spent(), u64::MAX);
        assert!(unlimited.exhausted().is_none());
    }

    #[test]
    fn a_zero_budget_is_spent_from_the_start() {
        assert!(TokenBudget::new(BudgetScope::Attempt, Some(0)).exhausted().is_some());
    }
}
