//! Splitting a shell command line into the simple commands it runs.
//!
//! Owns a small, bounded, quote-aware reading of a command string: `&&`, `||`,
//! `;`, `|`, `|&`, `&`, newlines and subshell parentheses separate commands;
//! redirections (`2>&1`, `> out.log`) are dropped; leading environment
//! assignments (`CI=1`), `env`, `time`, `nice`, `timeout N`, `wsl -e`, `command` and the
//! shell keywords that open a compound command's body (`if`, `then`, `do`, `!`,
//! `{`, …) are stripped; `sh -c '…'` / `bash -lc "…"` / `bash -o pipefail -c
//! "…"` are read recursively; a `cd dir` is its own command; what a command
//! pipes into (`| tail -n 20`, `| tee log`) is its own command, and the one
//! before the pipe is marked [`piped`](SimpleCommand::piped), one that sends
//! its output to a file [`writes`](SimpleCommand::writes); the bodies of
//! here-documents (`cat <<'EOF' > notes.md` … `EOF`) are data, not commands,
//! and are skipped. Must not decide
//! what a command is — the runner table does that — and must not run anything.

/// Characters of a command line read at most.
const MAX_COMMAND_CHARS: usize = 16 * 1024;
/// How deep `sh -c '…'` nesting is followed.
const MAX_DEPTH: usize = 3;

/// One simple command: its words, quotes removed, and whether its output was
/// piped into another command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SimpleCommand {
    /// The words, program first.
    pub(crate) words: Vec<String>,
    /// Whether `|` followed it (its exit status is then usually hidden).
    pub(crate) piped: bool,
    /// Whether it sends its output to a file (`> notes.md`, `>> log`; not
    /// `2>&1` or `> /dev/null`): `cat > notes.md` writes, it does not look.
    pub(crate) writes: bool,
}

impl SimpleCommand {
    /// The command as one line, for quoting in notes.
    pub(crate) fn display(&self) -> String {
        self.words.join(" ")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    None,
    Pipe,
    Other,
}

/// Tokens of one command line: words and separators.
fn tokenize(line: &str) -> Vec<(String, Sep)> {
    let mut out: Vec<(String, Sep)> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().take(MAX_COMMAND_CHARS).peekable();
    let push_word = |out: &mut Vec<(String, Sep)>, word: &mut String, in_word: &mut bool| {
        if *in_word {
            out.push((std::mem::take(word), Sep::None));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                word.extend(chars.by_ref().take_while(|q| *q != '\''));
            }
            '"' => {
                in_word = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        _ => word.push(q),
                    }
                }
            }
            '\\' => {
                if let Some(n) = chars.next().filter(|n| *n != '\n') {
                    in_word = true;
                    word.push(n);
                }
            }
            // `$(pwd)`, `$((1 + 2))`: a command substitution stays inside its word
            '$' if chars.peek() == Some(&'(') => {
                in_word = true;
                word.push('$');
                let mut depth = 0usize;
                for q in chars.by_ref() {
                    word.push(q);
                    match q {
                        '(' => depth += 1,
                        ')' if depth <= 1 => break,
                        ')' => depth -= 1,
                        _ => {}
                    }
                }
            }
            '|' | '&' | ';' | '\n' | '(' | ')' => {
                push_word(&mut out, &mut word, &mut in_word);
                let doubled = c != '(' && c != ')' && chars.peek() == Some(&c);
                if doubled {
                    chars.next();
                }
                // `>&2` / `2>&1` are redirections, handled below: `&` right after `>`
                if c == '&' && out.last().is_some_and(|(w, s)| *s == Sep::None && w.ends_with('>')) {
                    in_word = true;
                    if let Some((w, _)) = out.pop() {
                        word = w;
                    }
                    word.push('&');
                    continue;
                }
                let sep = if c == '|' && !doubled { Sep::Pipe } else { Sep::Other };
                out.push((String::new(), sep));
            }
            c if c.is_whitespace() => push_word(&mut out, &mut word, &mut in_word),
            '#' if !in_word => {
                // a comment runs to the end of the line
                if chars.by_ref().any(|q| q == '\n') {
                    out.push((String::new(), Sep::Other));
                }
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    push_word(&mut out, &mut word, &mut in_word);
    out
}

/// Whether a word is a redirection; `Some(true)` when it takes the next word as its target.
fn redirection(w: &str) -> Option<bool> {
    let rest = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '&');
    if !(rest.starts_with('>') || rest.starts_with('<')) {
        return None;
    }
    let op_end = rest
        .find(|c: char| c != '>' && c != '<' && c != '&')
        .unwrap_or(rest.len());
    let target = &rest[op_end..];
    Some(target.is_empty() && !rest.ends_with('&'))
}

fn is_assignment(w: &str) -> bool {
    w.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Drops the prefixes that only change how a command runs.
fn strip_prefixes(mut words: Vec<String>) -> Vec<String> {
    loop {
        let Some(first) = words.first() else { return words };
        let drop = if is_assignment(first) {
            1
        } else {
            match first.as_str() {
                "env" => {
                    let mut n = 1;
                    while let Some(w) = words.get(n) {
                        if w == "-u" || w == "--unset" || w == "-C" || w == "--chdir" {
                            n += 2;
                        } else if is_assignment(w) || w.starts_with('-') {
                            n += 1;
                        } else {
                            break;
                        }
                    }
                    n
                }
                "time" | "command" | "exec" | "nohup" | "sudo" | "xvfb-run" => 1,
                // the words that open a compound command's body: `if cargo test; then …`
                "if" | "then" | "else" | "elif" | "do" | "while" | "until" | "!" | "{" | "}" => 1,
                "nice" => 1 + usize::from(words.get(1).is_some_and(|w| w.starts_with('-'))),
                // `wsl -d Ubuntu -e sh -c '…'`, `wsl.exe -- go test`: the command runs in WSL
                "wsl" | "wsl.exe" => {
                    let mut n = 1;
                    while let Some(w) = words.get(n) {
                        match w.as_str() {
                            "-d" | "--distribution" | "-u" | "--user" | "--cd" => n += 2,
                            "-e" | "--exec" | "--" => {
                                n += 1;
                                break;
                            }
                            w if w.starts_with('-') => n += 1,
                            _ => break,
                        }
                    }
                    n
                }
                "timeout" => 1 + words[1..].iter().take_while(|w| w.starts_with('-')).count() + 1,
                // rtk (Rust Token Killer), the output-compressing proxy agents' hooks put
                // before commands (`rtk swift test`, `rtk proxy cargo test`; global flags
                // `-v`, `-u`/`--ultra-compact`): it runs the command and keeps its exit status
                "rtk" => {
                    let flags = words[1..].iter().take_while(|w| w.starts_with('-')).count();
                    1 + flags + usize::from(words.get(1 + flags).is_some_and(|w| w == "proxy"))
                }
                _ => 0,
            }
        };
        if drop == 0 {
            return words;
        }
        words.drain(..drop.min(words.len()));
    }
}

/// The index of the `-c` option (alone or grouped, as in `-lc`) of a shell's
/// words, looked for among the options before the first operand (a script
/// file's own `-c` is not the shell's); `-o NAME` / `+o NAME` take a value.
fn script_option(words: &[String]) -> Option<usize> {
    let mut i = 1;
    while let Some(a) = words.get(i) {
        if a == "-o" || a == "+o" || a == "-O" || a == "+O" {
            i += 2;
            continue;
        }
        if !(a.starts_with('-') || a.starts_with('+')) || a == "--" || a == "-" {
            return None;
        }
        if a.starts_with('-') && !a.starts_with("--") && a.contains('c') {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The simple commands of `line`, in order.
pub(crate) fn simple_commands(line: &str) -> Vec<SimpleCommand> {
    let mut out = Vec::new();
    collect(&without_heredoc_bodies(line), 0, &mut out);
    out
}

/// `line` without the bodies of its here-documents: after a line with
/// `<<WORD` (`<<-WORD`, `<<'WORD'`, `<<"WORD"`; not the here-string `<<<`), the
/// lines up to the one that is `WORD` are dropped. What follows `WORD` on its
/// line (the quote closing a `bash -c '…'`) is kept.
fn without_heredoc_bodies(line: &str) -> String {
    let mut out = String::with_capacity(line.len().min(MAX_COMMAND_CHARS));
    let mut delimiter: Option<String> = None;
    for l in line.split_inclusive('\n') {
        if let Some(d) = &delimiter {
            if let Some(rest) = l.trim_start().strip_prefix(d.as_str()) {
                if rest
                    .trim_start()
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_alphanumeric() && c != '_')
                {
                    out.push_str(rest);
                    delimiter = None;
                }
            }
            continue;
        }
        out.push_str(l);
        delimiter = heredoc_delimiter(l);
    }
    out
}

/// The delimiter of the here-document a line opens, if it opens one.
fn heredoc_delimiter(l: &str) -> Option<String> {
    let (i, _) = l
        .match_indices("<<")
        .find(|(i, _)| !l[i + 2..].starts_with('<') && !l[..*i].ends_with('<'))?;
    let rest = l[i + 2..].trim_start_matches('-').trim_start();
    let rest = rest.trim_start_matches(['\'', '"', '\\']);
    let word: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    (!word.is_empty()).then_some(word)
}

fn collect(line: &str, depth: usize, out: &mut Vec<SimpleCommand>) {
    let mut words: Vec<String> = Vec::new();
    let mut skip_next = false;
    let mut target_is_output = false;
    let mut writes = false;
    let finish = |words: &mut Vec<String>, writes: &mut bool, piped: bool, out: &mut Vec<SimpleCommand>| {
        let writes = std::mem::take(writes);
        let w = strip_prefixes(std::mem::take(words));
        if w.is_empty() {
            // `(cd web && npm test) | tail`: the subshell's last command is what is piped
            if piped {
                if let Some(last) = out.last_mut() {
                    last.piped = true;
                }
            }
            return;
        }
        let shell = matches!(
            w[0].rsplit('/').next().unwrap_or(""),
            "sh" | "bash" | "zsh" | "dash" | "fish"
        );
        if shell && depth < MAX_DEPTH {
            if let Some(pos) = script_option(&w) {
                if let Some(script) = w.get(pos + 1) {
                    let before = out.len();
                    collect(script, depth + 1, out);
                    if piped {
                        if let Some(last) = out.get_mut(before..).and_then(|s| s.last_mut()) {
                            last.piped = true;
                        }
                    }
                    return;
                }
            }
        }
        out.push(SimpleCommand {
            words: w,
            piped,
            writes,
        });
    };
    for (tok, sep) in tokenize(line) {
        match sep {
            Sep::None => {
                if std::mem::take(&mut skip_next) {
                    writes |= std::mem::take(&mut target_is_output) && tok != "/dev/null";
                    continue;
                }
                match redirection(&tok) {
                    Some(takes_target) => {
                        let output = tok.contains('>') && !tok.contains(">&");
                        if takes_target {
                            (skip_next, target_is_output) = (true, output);
                        } else {
                            writes |= output && !tok.ends_with("/dev/null");
                        }
                    }
                    None => words.push(tok),
                }
            }
            Sep::Pipe => finish(&mut words, &mut writes, true, out),
            Sep::Other => finish(&mut words, &mut writes, false, out),
        }
    }
    finish(&mut words, &mut writes, false, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Vec<String>> {
        simple_commands(line).into_iter().map(|c| c.words).collect()
    }

    #[test]
    fn a_here_documents_body_is_data_and_an_output_redirection_writes() {
        let cmds = simple_commands("cat <<'EOF' > notes.md\n- test the parser\nrm -rf /\nEOF\necho done");
        assert_eq!(
            cmds.iter().map(|c| c.words.clone()).collect::<Vec<_>>(),
            vec![vec!["cat"], vec!["echo", "done"]]
        );
        assert!(cmds[0].writes && !cmds[1].writes);
        let nested = simple_commands("sudo bash -c 'cat <<\"EOF\" > /srv/a.md\nbody (x\nEOF'");
        assert_eq!(nested.len(), 1);
        assert!(nested[0].writes);
        assert!(!simple_commands("pytest -q > /dev/null 2>&1")[0].writes);
        assert!(simple_commands("pytest -q >> log.txt")[0].writes);
        assert_eq!(words("cat <<< 'x' | wc -l"), vec![vec!["cat"], vec!["wc", "-l"]]);
    }

    #[test]
    fn a_command_run_in_wsl_is_read_as_that_command() {
        let cmds = simple_commands("wsl -e sh -c 'cd ~/e2e && go test -v ./... 2>&1' 2>&1 | tail -20");
        assert!(
            cmds.iter().any(|c| c.words == ["go", "test", "-v", "./..."]),
            "{cmds:?}"
        );
        assert_eq!(
            simple_commands("wsl.exe -d Ubuntu -- cargo test")[0].words,
            vec!["cargo", "test"]
        );
    }

    #[test]
    fn a_command_substitution_stays_inside_its_word() {
        let cmds = simple_commands("GOCACHE=$(pwd)/.cache/go-build go test ./...");
        assert_eq!(cmds.len(), 1, "{cmds:?}");
        assert_eq!(cmds[0].words, vec!["go", "test", "./..."]);
        assert_eq!(simple_commands("echo $((1 + (2 * 3))); pytest").len(), 2);
    }

    #[test]
    fn chains_pipes_env_and_cd_are_split() {
        assert_eq!(
            words("cd web && CI=1 FOO=\"a b\" npx vitest run 2>&1 | tail -30"),
            vec![vec!["cd", "web"], vec!["npx", "vitest", "run"], vec!["tail", "-30"]]
        );
        let cmds = simple_commands("mix test 2>&1 | tail -5");
        assert!(cmds[0].piped && !cmds[1].piped);
        assert_eq!(
            words("timeout 60 cargo test; echo done"),
            vec![vec!["cargo", "test"], vec!["echo", "done"]]
        );
        assert_eq!(words("bash -lc 'pytest -q > log.txt'"), vec![vec!["pytest", "-q"]]);
        assert_eq!(
            words("env -u X RUST_LOG=debug cargo test foo"),
            vec![vec!["cargo", "test", "foo"]]
        );
        assert_eq!(words("make test >&2 # run it"), vec![vec!["make", "test"]]);
        assert_eq!(words("a || b & c"), vec![vec!["a"], vec!["b"], vec!["c"]]);
    }

    #[test]
    fn shells_subshells_and_compound_commands_are_opened() {
        assert_eq!(
            words("bash -o pipefail -c 'cd web && npm test 2>&1 | tee log'"),
            vec![vec!["cd", "web"], vec!["npm", "test"], vec!["tee", "log"]]
        );
        assert_eq!(words("sh -c \"just test\""), vec![vec!["just", "test"]]);
        // a script's own `-c` is not the shell's
        assert_eq!(
            words("bash run.sh -c 'cargo test'"),
            vec![vec!["bash", "run.sh", "-c", "cargo test"]]
        );
        assert_eq!(
            words("(cd api && python -m unittest) |& tail -n 20"),
            vec![
                vec!["cd", "api"],
                vec!["python", "-m", "unittest"],
                vec!["tail", "-n", "20"]
            ]
        );
        assert!(simple_commands("(pytest -q) | tail -n 20").iter().any(|c| c.piped));
        assert_eq!(
            words("if cargo test; then echo ok; fi"),
            vec![vec!["cargo", "test"], vec!["echo", "ok"], vec!["fi"]]
        );
        assert_eq!(
            words("for d in a b; do (cd $d && bats test); done"),
            vec![
                vec!["for", "d", "in", "a", "b"],
                vec!["cd", "$d"],
                vec!["bats", "test"],
                vec!["done"]
            ]
        );
        let piped = simple_commands("bash -lc 'zig build test 2>&1 | tail -n 20'");
        assert!(piped[0].piped && piped[0].words == ["zig", "build", "test"]);
    }
}
