//! Length bounds on the text a note quotes: clamp by characters, cut the middle by bytes.
//!
//! Owns [`clamp_chars`] and [`truncate_middle`], the two cutting primitives
//! the rules quote with — the same cuts as the library's own (private) ones,
//! so a note reads as it did inside the library. Neither ever splits a UTF-8
//! code point. Must not know what the text means; callers decide the limits.

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
const TRUNCATED_MARKER: &str = "\n…[truncated]";

/// Keeps the head of `s` within `max_bytes` (marker included) and appends
/// [`TRUNCATED_MARKER`] when anything was cut. `max_bytes == 0` means no limit.
fn truncate_bytes(s: &str, max_bytes: usize) -> String {
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
    if max_bytes == 0 || s.len() <= max_bytes {
        return s.to_owned();
    }
    let budget = max_bytes.saturating_sub(MIDDLE_MARKER_RESERVE);
    if budget < 2 {
        return truncate_bytes(s, max_bytes);
    }
    let head_end = floor_boundary(s, budget * 2 / 3);
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

    #[test]
    fn cuts_match_the_library_s() {
        let s = "ê".repeat(2500);
        assert_eq!(clamp_chars(&s, 2000).chars().count(), 2000);
        let s = format!("{}{}", "h".repeat(500), "t".repeat(500));
        let cut = truncate_middle(&s, 164);
        assert!(cut.starts_with("hhh") && cut.ends_with("ttt"));
        assert!(cut.contains("[900 bytes truncated]"));
    }
}
