//! Token usage: what one or more model calls cost, in input and output
//! tokens.
//!
//! Owns [`Usage`] and its arithmetic. On the library's ground floor, so
//! budgets, traces, reports and every asker count tokens without reaching up
//! to the model seam (which adds the estimate from text,
//! [`Usage::estimate`]). Must not call models or decide anything.

use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

/// Token usage of one or more model calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// Whether any part of this count was estimated from text length because
    /// the server reported no usage (see [`estimate_tokens`](crate::model::estimate_tokens)).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub estimated: bool,
}

impl Usage {
    /// Usage as reported by a server.
    pub fn new(input_tokens: u64, output_tokens: u64) -> Usage {
        Usage {
            input_tokens,
            output_tokens,
            estimated: false,
        }
    }

    /// Input and output tokens together.
    pub fn total(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }

    /// Whether no tokens are counted.
    pub fn is_zero(&self) -> bool {
        self.total() == 0
    }
}

impl Add for Usage {
    type Output = Usage;
    fn add(self, rhs: Usage) -> Usage {
        Usage {
            input_tokens: self.input_tokens.saturating_add(rhs.input_tokens),
            output_tokens: self.output_tokens.saturating_add(rhs.output_tokens),
            estimated: self.estimated || rhs.estimated,
        }
    }
}

impl AddAssign for Usage {
    fn add_assign(&mut self, rhs: Usage) {
        *self = *self + rhs;
    }
}
