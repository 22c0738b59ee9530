//! A lookup that found nothing, claimed as found.
//!
//! Owns [`claimed_found`]: the turn's last call is a search or a listing
//! (`rg`, `grep`, `ag`, `ack`, `pgrep`, `fd`, `find`, `ls`, `stat`, or any
//! command piped into `grep`) that exited 1 or 2 and printed nothing but the
//! host's header or a "no such file" line, and a clause of the answer names
//! what it looked for — its pattern, glob, name or path, whole — together
//! with a word that says it is there ("`AGENTS.md` est bien à la racine",
//! "openwhisper is running again", "已安装到 `.dazi/…`"), while no sentence
//! naming it says it is not ("legacy_logger is gone", "n'existe plus", "but
//! this venv lacks it"). A
//! target that an earlier successful call of the turn used or printed does
//! not count (that call may have found it). Such an exit is an answer
//! ([`answers_by_exit`](crate::evidence::step_programs::answers_by_exit)), so
//! [`failed_step`](super::failed_step) stands back from it; this file reads
//! what that answer was. Lookups whose "no" means something else — `which`
//! (not on PATH), `test -f`, `git show-ref`, `rm`, `pkill` — are
//! never read. Must not look at earlier turns, read files or keep state.

use super::rule::{COMMAND_BYTES, Rule, RuleNote, quote};
use crate::answer::sentences::sentences;
use crate::evidence::outcome::printed;
use crate::evidence::shell::simple_commands;
use crate::evidence::tool_calls::{command_line, host_exit_of};
use advisor::host::ToolTrace;
use advisor::note::Note;

/// Words of a clause that say a thing is where it was looked for
/// (normalised form).
const FOUND_WORDS: &[&str] = &[
    "found it",
    "found the",
    "found in",
    "found at",
    "is at ",
    "is installed",
    "are installed",
    "is running",
    "are running",
    "is present",
    "are present",
    "exists",
    "lives in",
    "located in",
    "located at",
    // French: "found", "is indeed (at)", "exists"
    "trouvé",
    "est bien",
    "existe",
    // Chinese, Japanese, Russian: "found", "installed (in)"
    "找到了",
    "已找到",
    "已安装",
    "安装到",
    "見つかりました",
    "найден",
    "нашел",
];

/// Words of a clause that say the thing is not there (normalised, matched as
/// whole words; a word beginning `n'` too, French's "n'existe plus").
const ABSENCE_WORDS: &[&str] = &[
    "no",
    "not",
    "none",
    "nothing",
    "never",
    "without",
    "neither",
    "nor",
    "zero",
    "gone",
    "absent",
    "lacks",
    "missing",
    "off",
    "removed",
    "deleted",
    "replaced",
    "renamed",
    "stopped",
    "exited",
    "isn't",
    "aren't",
    "doesn't",
    "don't",
    "wasn't",
    "weren't",
    "aucun",
    "aucune",
    "rien",
    "pas",
    "plus",
    "нет",
    "не",
    "ни",
    "没有",
    "未找到",
    "ない",
];

/// Programs that look for something and answer "not there" with exit 1.
const SEARCHES: &[&str] = &["rg", "grep", "egrep", "fgrep", "ag", "ack", "pgrep", "fd", "find"];

/// Options of a search that take a value that is not what it looks for.
fn takes_value(program: &str, opt: &str) -> bool {
    match program {
        "rg" => matches!(
            opt,
            "-t" | "--type" | "-T" | "-m" | "--max-count" | "-A" | "-B" | "-C" | "-j" | "-M"
        ),
        "grep" | "egrep" | "fgrep" => matches!(opt, "-m" | "-A" | "-B" | "-C" | "--include" | "--exclude"),
        "find" => matches!(opt, "-maxdepth" | "-mindepth" | "-type" | "-newer" | "-mtime" | "-size"),
        "fd" => matches!(opt, "-t" | "--type" | "-e" | "--extension" | "-d" | "--max-depth"),
        _ => false,
    }
}

/// What the line's lookup looked for, lower case: a search's pattern or
/// glob (`-g 'AGENTS.md'`, `-name x`), a listing's path, a pipe's `grep`
/// pattern — each alternative of `a|b` apart. A target with a wildcard, or
/// with fewer than four letters or digits, names too much to count.
fn targets(line: &str) -> Vec<String> {
    let commands = simple_commands(line);
    let Some(last) = commands.last() else { return Vec::new() };
    let program = |c: &crate::evidence::shell::SimpleCommand| {
        c.words
            .first()
            .map(|p| p.rsplit('/').next().unwrap_or(p).to_owned())
            .unwrap_or_default()
    };
    let last_program = program(last);
    let mut raw: Vec<String> = Vec::new();
    if SEARCHES.contains(&last_program.as_str()) {
        let words = &last.words[1..];
        let mut i = 0;
        let mut operand = None;
        while let Some(w) = words.get(i) {
            if matches!(w.as_str(), "-g" | "--glob" | "-name" | "-iname" | "-e" | "--regexp") {
                raw.extend(words.get(i + 1).cloned());
                i += 2;
            } else if w.starts_with('-') {
                i += 1 + usize::from(takes_value(&last_program, w));
            } else {
                operand.get_or_insert_with(|| w.clone());
                i += 1;
            }
        }
        // `find DIR -name X` looks for X; `rg PATTERN DIR` for PATTERN
        if raw.is_empty() && last_program != "find" {
            raw.extend(operand);
        }
    } else if matches!(last_program.as_str(), "ls" | "stat") && commands.len() == 1 {
        raw.extend(last.words[1..].iter().filter(|w| !w.starts_with('-')).cloned());
    }
    // a listed path is named by its tails of two parts or more too
    // (`OpenWispr.app/Contents/Resources` of `/opt/…/OpenWispr.app/Contents/Resources/`)
    if !SEARCHES.contains(&last_program.as_str()) {
        let tails: Vec<String> = raw
            .iter()
            .flat_map(|p| {
                let parts: Vec<&str> = p.trim_matches('/').split('/').collect();
                (1..parts.len().saturating_sub(1))
                    .map(move |i| parts[i..].join("/"))
                    .collect::<Vec<_>>()
            })
            // a short tail (`api/v2`) names other things too
            .filter(|t| t.chars().filter(|c| c.is_alphanumeric()).count() >= 10)
            .collect();
        raw.extend(tails);
    }
    raw.iter()
        .flat_map(|t| t.split('|').map(str::to_owned).collect::<Vec<_>>())
        .map(|t| {
            t.trim_matches(|c: char| matches!(c, '^' | '$' | '/' | '\'' | '"'))
                .replace("\\.", ".")
                .replace("\\b", "")
                .to_lowercase()
        })
        .filter(|t| {
            !t.contains(['*', '?', '[', '(', '{', '+'])
                && t.chars().filter(|c| c.is_alphanumeric()).count() >= 4
                && !t.contains(char::is_whitespace)
        })
        .collect()
}

/// Whether the output says the lookup found nothing: no line at all, or only
/// "no such file" lines.
fn found_nothing(step: &ToolTrace) -> bool {
    let text = step
        .error
        .as_deref()
        .filter(|e| !e.trim().is_empty())
        .unwrap_or(&step.output);
    printed(text).lines().map(str::trim).all(|l| {
        let l = l.to_lowercase();
        l.is_empty() || l == "(empty)" || l.contains("no such file or directory") || l.contains("cannot access")
    })
}

/// The clauses of `n` (normalised): its sentences cut at `;`, `,`, brackets,
/// dashes and " and ".
fn clauses(n: &str) -> Vec<String> {
    // a period ends a sentence only before a space or at the end: `agents.md` is one name
    let n = n.replace(". ", " \u{1} ");
    let n = n.strip_suffix('.').unwrap_or(&n);
    n.split(['\u{1}', ';', ',', '!', '?', '(', ')', '。', '，', '；'])
        .flat_map(|s| {
            s.split(" - ")
                .flat_map(|s| s.split(" and "))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Whether `clause` names `target` whole: not inside a longer word or name
/// ("agents.md" in "docs/agents.md" counts, "logger" in "legacy_logger" not).
fn names(clause: &str, target: &str) -> bool {
    clause.match_indices(target).any(|(i, _)| {
        let before = clause[..i].chars().next_back();
        let after = clause[i + target.len()..].chars().next();
        let inside = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !inside(before) && !inside(after)
    })
}

fn says_absent(clause: &str) -> bool {
    clause
        .split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '`'))
        .any(|w| ABSENCE_WORDS.contains(&w) || w.starts_with("n'"))
        || ABSENCE_WORDS.iter().any(|w| !w.is_ascii() && clause.contains(w))
        || clause.contains("n't")
}

/// The note for the turn's last call when it was a lookup that found nothing
/// and the answer says it found what the lookup looked for. `tools` are the
/// turn's calls; `last_is_run` says the last one is a test or build run
/// (judged by the runs, never here).
pub(crate) fn claimed_found(tools: &[ToolTrace], last_is_run: bool, normalised: &str) -> Option<RuleNote> {
    let (last, earlier) = tools.split_last()?;
    if last_is_run {
        return None;
    }
    let line = command_line(last)?;
    let code = host_exit_of(last)?;
    if !matches!(code, 1 | 2) || !found_nothing(last) {
        return None;
    }
    let seen: Vec<String> = earlier
        .iter()
        .filter(|t| t.ok())
        .map(|t| format!("{}\n{}", t.args, t.output).to_lowercase())
        .collect();
    let targets: Vec<String> = targets(&line)
        .into_iter()
        .filter(|t| !seen.iter().any(|s| s.contains(t.as_str())))
        .collect();
    let clauses = clauses(normalised);
    let claimed = targets.iter().any(|t| {
        // the absence anywhere in a sentence naming it ("Torch is installed for the system
        // Python, but this venv lacks it"); the found word in the clause naming it
        let absent = sentences(normalised).any(|s| names(s, t) && says_absent(s));
        !absent
            && clauses
                .iter()
                .any(|c| names(c, t) && FOUND_WORDS.iter().any(|w| c.contains(w)))
    });
    claimed.then(|| {
        RuleNote::new(
            Rule::ClaimedFailedStep,
            Note::blocker(format!(
                "The answer says it found what the last step looked for, but `{}` found nothing (exit code {code}). \
Look again, or say plainly that it is not there.",
                quote(&line, COMMAND_BYTES)
            )),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lookup_names_what_it_looked_for() {
        assert_eq!(targets("rg --files -g 'AGENTS.md'"), ["agents.md"]);
        assert_eq!(targets("pgrep -la -i openwhisper"), ["openwhisper"]);
        assert_eq!(targets("rg -n \"redis|memcached\" config/"), ["redis", "memcached"]);
        assert_eq!(
            targets("find /Applications -maxdepth 1 -iname '*super*'"),
            Vec::<String>::new()
        );
        assert_eq!(targets("ls -la .dazi"), [".dazi"]);
        assert_eq!(targets("ls docs/api/v2"), ["docs/api/v2"]);
        assert_eq!(
            targets("ls /opt/a/App.app/Contents/"),
            ["opt/a/app.app/contents", "a/app.app/contents", "app.app/contents"]
        );
        assert!(names("'agents.md' est bien à la racine", "agents.md"));
        assert!(!names("the new logger lives in", "legacy_logger"));
        assert!(!names("superwhisper is installed", "whisper"));
        assert!(targets("rg -n \"class RateLimiter\" src/").is_empty());
        assert_eq!(
            clauses("oui, 'agents.md' est là. fin."),
            ["oui", " 'agents.md' est là ", " fin"]
        );
    }
}
