//! What one summary line says, and the count readers every runner unit shares.
//!
//! Owns [`Says`] and the counts read next to their word: `11 failures`
//! ([`count_before`]), `Failures: 1` ([`count_after`]), `12 tests`
//! ([`leading_number`]), with [`says`] and [`fail_if`] to turn them into a
//! verdict. Each reads one whole line it is given, never a word inside a
//! test's name. Must not know which runner printed the line — its unit does.

/// What a summary line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Says {
    /// The run passed.
    Pass,
    /// The run failed.
    Fail,
}

/// The number written right before `word` in `line` (`11 failures` → 11), searching every occurrence.
pub(crate) fn count_before(line: &str, word: &str) -> Option<u64> {
    let lower = line.to_ascii_lowercase();
    (lower.match_indices(word))
        .filter_map(|(i, _)| {
            let head = lower[..i].trim_end_matches([' ', '\t', ':']);
            head[head.trim_end_matches(|c: char| c.is_ascii_digit()).len()..]
                .parse::<u64>()
                .ok()
        })
        .reduce(|a, b| a + b)
}

/// The number written right after `label` (`Failures: 1` → 1).
pub(crate) fn count_after(line: &str, label: &str) -> Option<u64> {
    let i = line.find(label)? + label.len();
    let digits: String = line[i..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// `Pass` when `pass` holds, else `Fail` when `fail` holds, else nothing.
pub(crate) fn says(pass: bool, fail: bool) -> Option<Says> {
    if pass {
        Some(Says::Pass)
    } else {
        fail.then_some(Says::Fail)
    }
}

/// `Fail` for a count above zero, `Pass` for zero, nothing without a count.
pub(crate) fn fail_if(n: Option<u64>) -> Option<Says> {
    n.map(|n| if n > 0 { Says::Fail } else { Says::Pass })
}

/// The number at the start of `s` and the rest (`12 tests` → 12, ` tests`).
pub(crate) fn leading_number(s: &str) -> Option<(u64, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    Some((s[..end].parse().ok()?, &s[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_read_next_to_their_word() {
        assert_eq!(count_before("297 tests, 11 failures", "failure"), Some(11));
        assert_eq!(count_before("Tests  1 failed | 15 skipped (16)", "failed"), Some(1));
        assert_eq!(count_before("no numbers failed", "failed"), None);
        assert_eq!(
            count_after("Tests: 3, Assertions: 4, Failures: 1.", "Failures:"),
            Some(1)
        );
    }
}
