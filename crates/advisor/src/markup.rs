//! The crate's one markup escaper.
//!
//! Owns [`push_escaped_markup`], used by the `<advisory>` element
//! ([`crate::render`]) and the reviewer prompt's `<attention>` element. It must
//! not know what the text means or where it goes.

/// Bytes scanned at a time for a character to escape.
const BLOCK: usize = 16;

/// Appends `s` with `&`, `<` and `>` escaped — and with `QUOTES`, `"` and
/// `'` too (`&amp; &lt; &gt; &quot; &#x27;`) — copying the runs between
/// them whole. Element text needs the first three; attribute values and note
/// text inside an `<advisory>` get all five.
pub(crate) fn push_escaped_markup<const QUOTES: bool>(out: &mut String, s: &str) {
    // bitwise, not short-circuit: the same steps for every byte
    let special = |b: u8| (b == b'&') | (b == b'<') | (b == b'>') | (QUOTES & ((b == b'"') | (b == b'\'')));
    let bytes = s.as_bytes();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        // a block without a special byte is skipped whole (the fold has no
        // early exit, so the compiler checks it in a few vector steps); one
        // with some is walked byte by byte, then scanning goes on after it
        let end = match bytes.get(i..i + BLOCK).and_then(|b| <&[u8; BLOCK]>::try_from(b).ok()) {
            Some(block) if !block.iter().fold(false, |any, &b| any | special(b)) => {
                i += BLOCK;
                continue;
            }
            Some(_) => i + BLOCK,
            None => bytes.len(),
        };
        for (at, b) in bytes.iter().enumerate().take(end).skip(i) {
            let entity = match b {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' if QUOTES => "&quot;",
                b'\'' if QUOTES => "&#x27;",
                _ => continue,
            };
            // `at` is at an ASCII byte, so both cuts are on character boundaries
            out.push_str(s.get(start..at).unwrap_or_default());
            out.push_str(entity);
            start = at + 1;
        }
        i = end;
    }
    out.push_str(s.get(start..).unwrap_or_default());
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain definition: each special character replaced by its entity.
    fn plain(s: &str, quotes: bool) -> String {
        s.chars()
            .map(|c| match c {
                '&' => "&amp;".to_owned(),
                '<' => "&lt;".to_owned(),
                '>' => "&gt;".to_owned(),
                '"' if quotes => "&quot;".to_owned(),
                '\'' if quotes => "&#x27;".to_owned(),
                c => c.to_string(),
            })
            .collect()
    }

    fn escaped<const QUOTES: bool>(s: &str) -> String {
        let mut out = String::new();
        push_escaped_markup::<QUOTES>(&mut out, s);
        out
    }

    #[test]
    fn specials_in_and_across_blocks_are_escaped() {
        let s = "0123456789abcde<f&\"'>x — é 0123456789abcdef<";
        assert_eq!(escaped::<true>(s), plain(s, true));
        assert_eq!(escaped::<false>(s), plain(s, false));
    }

    proptest! {
        #[test]
        fn escaping_matches_the_plain_definition(s in "(?s)[&<>\"'a-z\\PC\n]{0,80}") {
            prop_assert_eq!(escaped::<true>(&s), plain(&s, true));
            prop_assert_eq!(escaped::<false>(&s), plain(&s, false));
        }
    }
}
