//! Optional similarity dedupe: catches paraphrase floods that exact keys miss.
//!
//! Owns the content-word view of a key and the overlap test (docs/design.md §5): two
//! notes are the same concern when their content-word sets overlap by at least
//! 0.8 of the smaller set and both have at least 3 content words. Catches
//! "Eighth repeat: verify the deployment" / "Ninth repeat: verify the
//! deployment" without merging "check the join on orders" / "… on refunds".
//! Must not decide admission on its own; the guard asks it.

/// Function words that carry no concern of their own.
const STOPWORDS: &[&str] = &[
    "a", "about", "after", "again", "all", "also", "an", "and", "any", "are", "as", "at", "be", "before", "but", "by",
    "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "here", "if", "in", "into", "is", "it",
    "its", "just", "may", "might", "more", "must", "no", "not", "of", "on", "once", "or", "our", "please", "should",
    "so", "still", "that", "the", "their", "them", "then", "there", "these", "this", "those", "to", "too", "up",
    "very", "was", "we", "were", "what", "when", "which", "while", "will", "with", "would", "you", "your",
];

/// The sorted, distinct content words of a normalized key: stopwords and bare
/// numbers (counters) dropped.
pub(crate) fn content_words(key: &str) -> Vec<String> {
    let mut words: Vec<String> = key
        .split(' ')
        .filter(|w| !w.is_empty() && !STOPWORDS.contains(w) && !w.chars().all(|c| c.is_numeric()))
        .map(str::to_owned)
        .collect();
    words.sort();
    words.dedup();
    words
}

/// Minimum content words on each side before similarity is considered.
const MIN_WORDS: usize = 3;

/// Whether two content-word sets name the same concern.
pub(crate) fn similar(a: &[String], b: &[String]) -> bool {
    let smaller = a.len().min(b.len());
    if smaller < MIN_WORDS {
        return false;
    }
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    // shared / smaller >= 0.8, in integers
    shared * 5 >= smaller * 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::normalize_note;

    fn sim(a: &str, b: &str) -> bool {
        similar(&content_words(&normalize_note(a)), &content_words(&normalize_note(b)))
    }

    #[test]
    fn counter_floods_collapse_and_distinct_concerns_stay() {
        assert!(sim(
            "Eighth repeat: verify the deployment result before advancing.",
            "Ninth repeat: verify the deployment result before advancing."
        ));
        assert!(sim(
            "Repeat 8: check the migration rollback",
            "Repeat 9: check the migration rollback"
        ));
        assert!(!sim("check the join on orders", "check the join on refunds"));
        assert!(!sim("check it", "check it now"), "too few content words to judge");
    }
}
