//! Length bounds on untrusted text: clamp by characters, truncate by bytes.
//!
//! Owns the three cutting primitives every bounded view in the crate uses. None
//! of them ever splits a UTF-8 code point. This module must not know what the
//! text means; callers decide the limits.

/// Keeps at most `max_chars` Unicode scalar values, cutting at a char boundary
/// and adding no marker.
pub(crate) fn clamp_chars(s: &str, max_chars: usize) -> &str {
    if s.len() <= max_chars {
        // no more bytes than the cap, so no more chars either
        return s;
    }
    s.char_indices().nth(max_chars).map_or(s, |(idx, _)| &s[..idx])
}

/// The largest index `<= idx` that is a char boundary of `s`.
fn floor_boundary(s: &str, idx: usize) -> usize {
    (0..=idx.min(s.len()))
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0)
}

/// The smallest index `>= idx` that is a char boundary of `s`.
fn ceil_boundary(s: &str, idx: usize) -> usize {
    (idx.min(s.len())..=s.len())
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(s.len())
}

/// Marker appended by [`truncate_bytes`].
pub(crate) const TRUNCATED_MARKER: &str = "\n…[truncated]";

/// Keeps the head of `s` within `max_bytes` (marker included) and appends
/// [`TRUNCATED_MARKER`] when anything was cut. `max_bytes == 0` means no limit.
pub(crate) fn truncate_bytes(s: &str, max_bytes: usize) -> String {
    if max_bytes == 0 || s.len() <= max_bytes {
        return s.to_owned();
    }
    let budget = max_bytes.saturating_sub(TRUNCATED_MARKER.len());
    if budget == 0 {
        return s[..floor_boundary(s, max_bytes)].to_owned();
    }
    format!("{}{TRUNCATED_MARKER}", &s[..floor_boundary(s, budget)])
}

/// Bytes reserved for the marker of [`truncate_middle`].
const MIDDLE_MARKER_RESERVE: usize = 64;

/// Keeps the head (two thirds) and the tail (one third) of `s` within
/// `max_bytes`, joined by `\n…[N bytes truncated]…\n`. `max_bytes == 0` means no
/// limit. Only the kept parts are copied, so the cost is bounded by `max_bytes`
/// however long `s` is.
pub(crate) fn truncate_middle(s: &str, max_bytes: usize) -> String {
    cut_middle(s, max_bytes, 2)
}

/// Like [`truncate_middle`], but keeps one third head and two thirds tail:
/// for tool output, whose verdict (a test runner's summary, an exit status)
/// comes last.
pub(crate) fn truncate_middle_tail(s: &str, max_bytes: usize) -> String {
    cut_middle(s, max_bytes, 1)
}

/// What every middle cut's marker starts with: the text on either side of it
/// was shown, the marker itself is advisor's.
pub(crate) const TRUNCATION_SPLIT: &str = "\n…[";

/// Cuts the middle of `s` to fit `max_bytes`, keeping `head_thirds` thirds of
/// the room for the head and the rest for the tail.
fn cut_middle(s: &str, max_bytes: usize, head_thirds: usize) -> String {
    if max_bytes == 0 || s.len() <= max_bytes {
        return s.to_owned();
    }
    let budget = max_bytes.saturating_sub(MIDDLE_MARKER_RESERVE);
    if budget < 2 {
        return truncate_bytes(s, max_bytes);
    }
    let head_end = floor_boundary(s, budget * head_thirds / 3);
    let tail_start = ceil_boundary(s, s.len() - (budget - head_end));
    let removed = tail_start - head_end;
    format!(
        "{}\n…[{removed} bytes truncated]…\n{}",
        &s[..head_end],
        &s[tail_start..]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn clamp_keeps_whole_chars() {
        let s = "ê".repeat(2500);
        let c = clamp_chars(&s, 2000);
        assert_eq!(c.chars().count(), 2000);
        assert!(c.ends_with('ê'));
    }

    #[test]
    fn middle_truncation_reports_removed_bytes() {
        let s = format!("{}{}", "h".repeat(500), "t".repeat(500));
        let cut = truncate_middle(&s, 164);
        assert!(cut.starts_with("hhh"));
        assert!(cut.ends_with("ttt"));
        assert!(cut.contains("[900 bytes truncated]"));
        let log = format!("{}\nTests  1 failed (1)\n", "x".repeat(3000));
        assert!(
            truncate_middle_tail(&log, 300).contains("1 failed"),
            "the tail verdict stays"
        );
    }

    proptest! {
        #[test]
        fn cuts_never_split_a_char(s in "\\PC{0,300}", n in 0usize..400) {
            let c = clamp_chars(&s, n);
            prop_assert!(c.chars().count() <= n);
            prop_assert!(s.starts_with(c));
            let b = truncate_bytes(&s, n);
            prop_assert!(n == 0 || b.len() <= n);
            let m = truncate_middle(&s, n);
            prop_assert!(n == 0 || m.len() <= n);
        }
    }
}
