//! Retry timing: exponential backoff with jitter, honouring `Retry-After`.
//!
//! Owns only the arithmetic and a tiny jitter source; must not perform I/O.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How retries are spaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// Delay before the first retry (before jitter).
    pub base: Duration,
    /// Longest delay between attempts, `Retry-After` included.
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff {
            base: Duration::from_millis(500),
            max: Duration::from_secs(20),
        }
    }
}

static SEED: AtomicU64 = AtomicU64::new(0);

/// A number in `0..1000`, different on every call (xorshift over the clock
/// and a counter). Jitter only; not for anything that needs randomness.
fn jitter_permille() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let mut x = SEED.fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed) ^ u64::from(nanos) ^ 0xD1B5_4A32_D192_ED03;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x % 1000
}

impl Backoff {
    /// The delay before retry number `retry` (0-based): `base · 2^retry`, capped
    /// at `max`, then jittered into its upper half. A server's `Retry-After`
    /// wins when it asks for longer, up to `max`.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        let exp = self
            .base
            .saturating_mul(1u32.checked_shl(retry.min(20)).unwrap_or(u32::MAX))
            .min(self.max);
        let jittered = exp / 2 + exp / 2 * u32::try_from(jitter_permille()).unwrap_or(0) / 1000;
        match retry_after {
            Some(ra) if ra > jittered => ra.min(self.max),
            _ => jittered,
        }
    }
}

/// Parses a `Retry-After` header given in seconds (HTTP dates are ignored).
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    value.trim().parse::<u64>().ok().map(Duration::from_secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_are_capped_and_honour_retry_after() {
        let b = Backoff {
            base: Duration::from_millis(100),
            max: Duration::from_secs(1),
        };
        let d0 = b.delay(0, None);
        assert!(d0 >= Duration::from_millis(50) && d0 <= Duration::from_millis(100));
        let d3 = b.delay(3, None);
        assert!(d3 >= Duration::from_millis(400) && d3 <= Duration::from_millis(800));
        assert!(b.delay(30, None) <= Duration::from_secs(1));
        assert_eq!(b.delay(0, Some(Duration::from_secs(5))), Duration::from_secs(1));
        assert_eq!(b.delay(0, Some(Duration::from_millis(700))), Duration::from_millis(700));
        assert_eq!(parse_retry_after(" 3 "), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
    }
}
