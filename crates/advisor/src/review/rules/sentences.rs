//! The sentences of a normalised answer, where a claim and what it names
//! must meet.
//!
//! Owns [`sentences`]: `!`, `?`, `;` and line breaks end one; a `.` only before
//! a space or the end, so `shots/l2-layout.png` and `0.41.0` stay whole. Must
//! not read anything but the text it is given.

/// The sentences of `n`: a `.` ends one only before a space or the end, so
/// `shots/l2-layout.png` stays whole.
pub(crate) fn sentences(n: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    let mut out = Vec::new();
    let mut chars = n.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let ends = match c {
            '!' | '?' | ';' | '\n' => true,
            '.' => chars.peek().is_none_or(|(_, next)| next.is_whitespace()),
            _ => false,
        };
        if ends {
            out.push(&n[start..i]);
            start = i + c.len_utf8();
        }
    }
    out.push(&n[start..]);
    out.into_iter()
}
