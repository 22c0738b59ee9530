//! What a shell command was about, as an answer would name it: the file
//! names it uses, its names joined with `-` or `_`, and its distinctive words
//! (split at punctuation and camel case, five letters or more, none of the
//! common ones), never the URL or address it went to.
//!
//! Owns [`shell_subjects`] and [`basename`], for
//! [`failed_step`](crate::verdicts::failed_step). Must not read the answer nor decide
//! whether a step failed.

/// Words too common to say what a command was about.
const COMMON_WORDS: &[&str] = &[
    "users",
    "source",
    "projects",
    "documents",
    "private",
    "local",
    "their",
    "there",
    "these",
    "which",
    "where",
    "while",
    "after",
    "before",
    "about",
    "other",
    "value",
    "false",
    "true",
    "print",
    "output",
    "result",
    "results",
    "error",
    "errors",
    "const",
    "await",
    "return",
    "async",
    "function",
    "import",
    "export",
    "module",
    "class",
    "sleep",
    "python",
    "python3",
    "bash",
    "echo",
    "tests",
    "build",
    "files",
    "should",
    "would",
    "could",
    "first",
    "every",
    "check",
    "checks",
    "claude",
    "codex",
    "gemini",
    "agent",
    "tasks",
    "command",
    "script",
    "scripts",
    "version",
    "update",
    "changes",
    "change",
    "default",
    "config",
    "settings",
    "working",
    "works",
    "passed",
    "verify",
    "verified",
    "server",
    "running",
    "project",
    "repository",
    "directory",
    "folder",
    "string",
    "number",
    "length",
    "count",
    "total",
    "status",
    "message",
    "process",
    "still",
    "ready",
    "clean",
    "cargo",
    "npm",
    "node",
];

/// The last path component of `path`, lower case, when it is long enough to
/// name a file.
pub(crate) fn basename(path: &str) -> Option<String> {
    let name = path.rsplit(['/', '\\']).next()?.to_lowercase();
    (name.chars().count() >= 4).then_some(name)
}

/// What a command line was about: the file names it uses and its distinctive
/// words (split at punctuation and at camel case, lower case, five letters or
/// more, none of the common ones).
pub(crate) fn shell_subjects(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // a URL or `host:port` names where the command went, not what it was about
    let kept: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '=' | ',' | ';'))
        .filter(|w| !is_address(w))
        .collect();
    for word in &kept {
        if word.contains('.') && (word.contains('/') || word.rsplit('.').next().is_some_and(|e| e.len() <= 4)) {
            out.extend(basename(word.trim_end_matches(['.', ':'])));
        }
        // a name joined with `-` or `_` (`bump-opus-4-8`) names the thing whole
        let joined = word.trim_matches(|c: char| !c.is_alphanumeric());
        if !word.starts_with('-')
            && !joined.contains(['/', '.', ':', '@'])
            && joined.contains(['-', '_'])
            && joined.chars().count() >= 6
            && joined.chars().any(|c| c.is_alphabetic())
        {
            out.push(joined.to_lowercase());
        }
    }
    let line = kept.join(" ");
    let mut current = String::new();
    let flush = |w: &mut String, out: &mut Vec<String>| {
        let lower = w.to_lowercase();
        if lower.chars().count() >= 5
            && !COMMON_WORDS.contains(&lower.as_str())
            && !lower.chars().all(|c| c.is_ascii_digit())
        {
            out.push(lower);
        }
        w.clear();
    };
    let mut prev_lower = false;
    for c in line.chars().take(16 * 1024) {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower {
                flush(&mut current, &mut out);
            }
            prev_lower = c.is_lowercase();
            current.push(c);
        } else {
            prev_lower = false;
            flush(&mut current, &mut out);
        }
    }
    flush(&mut current, &mut out);
    out.sort();
    out.dedup();
    out.truncate(512);
    out
}

/// Whether `word` is a URL or a network address (`http://…`, `localhost:8000/api`,
/// `127.0.0.1:5173`).
fn is_address(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    lower.contains("://")
        || lower.starts_with("localhost")
        || lower.split(['/', ':']).next().is_some_and(|host| {
            host.split('.').count() == 4
                && host
                    .split('.')
                    .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        })
}
