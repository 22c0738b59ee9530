//! Shared by the benches: a deterministic realistic note corpus (the mix of
//! `gen_notes.py`: filler, repeats, escalations, long notes, several scripts),
//! or the TSV that `scripts/bench.sh` generated, and a median timer for the
//! ratios each bench prints.

use std::time::{Duration, Instant};

use advisor::{Note, Severity};

/// Reviews of notes: from `$ADVISOR_NOTES_TSV` when set, else generated here.
pub fn note_corpus(n: usize) -> Vec<Vec<Note>> {
    if let Ok(path) = std::env::var("ADVISOR_NOTES_TSV") {
        if let Ok(text) = std::fs::read_to_string(&path) {
            let mut reviews: Vec<Vec<Note>> = Vec::new();
            for line in text.lines() {
                let Some((sev, t)) = line.split_once('\t') else {
                    continue;
                };
                if sev == "BEGIN" {
                    reviews.push(Vec::new());
                } else if let Some(r) = reviews.last_mut() {
                    r.push(Note::new(t, Severity::parse(sev)));
                }
            }
            return reviews;
        }
    }
    generate(n)
}

fn generate(n: usize) -> Vec<Vec<Note>> {
    const FILLER: [&str; 10] = [
        "Stop.",
        "No issue; continue.",
        "Done.",
        "LGTM",
        "*all good*",
        "Nothing to add.",
        "OK",
        "Looks good!",
        "on track",
        "Task complete.",
    ];
    const SUBJECTS: [&str; 15] = [
        "the revenue query",
        "the join on orders",
        "the retry loop",
        "the cache key",
        "the migration script",
        "the date filter",
        "the totals row",
        "the auth check",
        "the pagination cursor",
        "the error path",
        "tổng doanh thu",
        "kiểm tra lại bộ lọc ngày",
        "注文テーブルの結合",
        "缓存键的计算",
        "Überprüfung der Summen",
    ];
    const CLAIMS: [&str; 9] = [
        "sums a filtered and an unfiltered CTE",
        "never handles an empty result set",
        "is claimed to pass but the last test run failed",
        "double-counts refunded orders",
        "ignores the time zone of the source rows",
        "was edited but never re-run",
        "uses a mock where the task asked for the real database",
        "drops rows with NULL region",
        "contradicts the tool output two turns earlier",
    ];
    const SEV: [&str; 6] = ["nit", "concern", "blocker", "Blocker", " concern ", "critical"];
    let mut state: u64 = 7;
    let mut next = move |m: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % m
    };
    let mut reviews = Vec::new();
    let mut i = 0;
    while i < n {
        let mut review = Vec::new();
        for _ in 0..1 + next(6) {
            let text = if next(100) < 45 {
                FILLER[next(FILLER.len())].to_owned()
            } else {
                let mut t = format!("{} {}", SUBJECTS[next(SUBJECTS.len())], CLAIMS[next(CLAIMS.len())]);
                if next(100) < 30 {
                    t += &format!(
                        " — see turn {}, where the tool printed {} rows but the answer reports {}.",
                        next(40),
                        next(999),
                        next(999)
                    );
                }
                if next(100) < 10 {
                    t = t.repeat(2 + next(7));
                }
                t
            };
            review.push(Note::new(text, Severity::parse(SEV[next(SEV.len())])));
            i += 1;
        }
        reviews.push(review);
    }
    reviews
}

/// The median wall time of `runs` runs of `f`.
pub fn median<F: FnMut()>(runs: usize, mut f: F) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Resident memory of this process, in KiB (Linux; 0 elsewhere).
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()))
        .map_or(0, |pages| pages * 4)
}

/// The two-worker Tokio runtime the async benches run on.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}
