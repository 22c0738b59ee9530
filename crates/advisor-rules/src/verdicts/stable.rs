//! Stable note text: volatile parts of quoted evidence removed.
//!
//! Owns [`stable`]: durations (`in 0.03s`, `(12 ms)`, `[ 0.5s]`, `1m 2s`),
//! clock times and dates (`12:03:44`, `2026-12-01T08:00:00Z`), temporary
//! paths (under `/tmp`, `/var/folders`, `/dev/shm`, a Windows `AppData\Local\Temp`) and
//! process ids (`pid 4242`) become a fixed placeholder, so two runs of the
//! same failing suite with other timings quote the same words and the
//! guard's dedupe key is the same. Must not change anything else: counts,
//! names and messages stay as the runner printed them.

/// `text` with durations, times, dates, temporary paths and process ids replaced.
pub(crate) fn stable(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let lower = w.to_ascii_lowercase();
        if matches!(lower.as_str(), "pid" | "pid:" | "process") && words.get(i + 1).is_some_and(|n| is_number(n)) {
            out.push(w.to_owned());
            out.push("N".to_owned());
            i += 2;
            continue;
        }
        // "12 ms", "0.5 s", "3 seconds": a number, then a unit word
        if let Some(unit) = words.get(i + 1).filter(|u| is_number(w) && is_unit(u)) {
            let lead = &w[..w.len() - w.trim_start_matches(['(', '[']).len()];
            out.push(format!("{lead}{}", keep_punct(unit, "…s")));
            i += 2;
            continue;
        }
        out.push(if is_duration(w) {
            keep_punct(w, "…s")
        } else if is_clock_or_date(w) {
            keep_punct(w, "…")
        } else if is_temp_path(w) {
            "<tmp>".to_owned()
        } else {
            w.to_owned()
        });
        i += 1;
    }
    out.join(" ")
}

/// The placeholder with `w`'s leading and trailing punctuation kept (`(0.03s)` → `(…s)`).
fn keep_punct(w: &str, placeholder: &str) -> String {
    let core = w.trim_matches(|c: char| matches!(c, '(' | ')' | '[' | ']' | ',' | ';' | '.' | ':'));
    let start = w.find(core).unwrap_or(0);
    format!("{}{placeholder}{}", &w[..start], &w[start + core.len()..])
}

fn trimmed(w: &str) -> &str {
    w.trim_matches(|c: char| matches!(c, '(' | ')' | '[' | ']' | ',' | ';' | ':') || c == '.')
}

fn is_number(w: &str) -> bool {
    let t = trimmed(w);
    !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.') && t.chars().any(|c| c.is_ascii_digit())
}

const UNITS: &[&str] = &[
    "s", "ms", "µs", "us", "ns", "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes", "m", "h",
];

fn is_unit(w: &str) -> bool {
    UNITS.contains(&trimmed(w).to_ascii_lowercase().as_str())
}

/// `0.03s`, `12ms`, `1m2s`, `1.5sec`.
fn is_duration(w: &str) -> bool {
    let t = trimmed(w).to_ascii_lowercase();
    let digits = t.trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == 'µ');
    let unit = &t[digits.len()..];
    if digits.is_empty() || unit.is_empty() {
        return false;
    }
    // `1m2s`: a minutes part before the seconds
    let digits = digits.split_once('m').map_or(digits, |(m, s)| {
        if m.chars().all(|c| c.is_ascii_digit()) {
            s
        } else {
            digits
        }
    });
    digits.chars().all(|c| c.is_ascii_digit() || c == '.')
        && digits.chars().any(|c| c.is_ascii_digit())
        && UNITS.contains(&unit)
}

/// `12:03:44`, `12:03:44.123`, `2026-12-01`, `2026-12-01T08:00:00Z`.
fn is_clock_or_date(w: &str) -> bool {
    let t = trimmed(w);
    let clock = |s: &str| {
        let parts: Vec<&str> = s.split(':').collect();
        parts.len() >= 2
            && parts.len() <= 3
            && parts.iter().all(|p| {
                let p = p.split('.').next().unwrap_or(p);
                (1..=2).contains(&p.len()) && p.chars().all(|c| c.is_ascii_digit())
            })
    };
    let date = |s: &str| {
        let parts: Vec<&str> = s.split('-').collect();
        parts.len() == 3
            && parts[0].len() == 4
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
    };
    if let Some((d, rest)) = t.split_once('T') {
        return date(d) && clock(rest.trim_end_matches('Z').split(['+', 'Z']).next().unwrap_or(rest));
    }
    clock(t) || date(t)
}

fn is_temp_path(w: &str) -> bool {
    let t = w.trim_matches(|c: char| matches!(c, '(' | ')' | '[' | ']' | ',' | ';' | '\'' | '"' | '`'));
    [
        "/tmp/",
        "/var/folders/",
        "/private/var/folders/",
        "/private/tmp/",
        "/dev/shm/",
    ]
    .iter()
    .any(|p| t.starts_with(p))
        || t.to_ascii_lowercase().contains("\\appdata\\local\\temp\\")
}

#[cfg(test)]
mod tests {
    use super::stable;

    #[test]
    fn timings_times_paths_and_pids_are_replaced() {
        assert_eq!(stable("1 failed, 4 passed in 0.03s"), "1 failed, 4 passed in …s");
        assert_eq!(
            stable("1 failed, 4 passed in 0.05s"),
            stable("1 failed, 4 passed in 0.03s")
        );
        assert_eq!(stable("Tests: 1 failed (12 ms)"), "Tests: 1 failed (…s)");
        assert_eq!(stable("Summary [ 0.512s] 3 tests run"), "Summary [ …s] 3 tests run");
        assert_eq!(stable("finished in 1m2s at 12:03:44"), "finished in …s at …");
        assert_eq!(stable("at 2026-12-01T08:00:00Z"), "at …");
        assert_eq!(stable("error in /var/folders/xy/T/pytest-0/a.py"), "error in <tmp>");
        assert_eq!(
            stable(&format!("error in {}", ["", "tmp", "t0", "a.py"].join("/"))),
            "error in <tmp>"
        );
        assert_eq!(stable("killed pid 4242"), "killed pid N");
        // counts and names stay
        assert_eq!(stable("297 tests, 11 failures"), "297 tests, 11 failures");
        assert_eq!(stable("test_2s_timeout failed"), "test_2s_timeout failed");
    }
}
