//! The sentences of a normalised answer, where a claim and what it names
//! must meet.
//!
//! Owns [`sentences`]: `!`, `?`, `;` and line breaks end one; a `.` only before
//! a space or the end, so `shots/l2-layout.png` and `0.41.0` stay whole; and
//! [`fragments`], a sentence cut at its list markers and colons (a normalised
//! list is one sentence). Must not read anything but the text it is given.

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

/// Sentence `s` cut before each list marker, colon, heading's end or table
/// cell (` - `, ` * `, ` • `, `: `, `** `, ` | `); the pieces cover `s` whole.
pub(crate) fn fragments(s: &str) -> impl Iterator<Item = &str> {
    let cuts: Vec<usize> = s
        .char_indices()
        .filter(|(i, _)| {
            [" - ", " * ", " • ", ": ", "** ", " | "]
                .iter()
                .any(|b| s[*i..].starts_with(b))
        })
        .map(|(i, _)| i)
        .collect();
    let mut starts = vec![0];
    starts.extend(cuts.into_iter().filter(|i| *i > 0));
    let ends: Vec<usize> = starts.iter().skip(1).copied().chain([s.len()]).collect();
    starts.into_iter().zip(ends).map(move |(a, b)| &s[a..b])
}
