//! The workspace files a command reviewer's `command` names, so that trusting
//! the table trusts their content, not their names.
//!
//! Owns [`named_in`] and [`fingerprint_in`]. Every argument of `command` —
//! and the value of an `--option=value` argument — is taken as a path the
//! way the child would (it runs in the workspace: relative to it; absolute;
//! `/proc/self/cwd/…` is the workspace; `..` and links followed) and kept
//! when it lies in the workspace as written or once resolved. A regular file
//! is read (regular files only, at most [`MAX_NAMED_FILE_BYTES`]) and its
//! SHA-256 goes into the trust fingerprint; a directory is reported (what a
//! program loads from it is not fingerprinted, and `advisor trust` says so).
//! A named path that cannot be fingerprinted — too large, a FIFO or device,
//! unreadable — is an error: such a table cannot be trusted. The program
//! itself, given by bare name, is looked up on `PATH` outside the workspace
//! (`advisor::io::find_program`) and is not a workspace file. Must not run
//! anything, and must not decide trust (`resolve.rs` does).

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{ReviewerKind, ReviewerTable};

/// Largest workspace file a command may name and still be trusted (bytes).
pub(crate) const MAX_NAMED_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// A workspace path an argument of `command` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Named {
    /// A regular file, fingerprinted by its content.
    File {
        /// The argument's index in `command`.
        arg: usize,
        /// The path as the argument writes it.
        written: String,
        /// `sha256:` and 64 hex digits of the content.
        digest: String,
        /// The content's size in bytes.
        bytes: u64,
    },
    /// A directory: what a program loads from it is not fingerprinted.
    Directory {
        /// The argument's index in `command`.
        arg: usize,
        /// The path as the argument writes it.
        written: String,
    },
}

/// The paths `arg` may name: itself, and the value of `--option=value`.
fn candidates(index: usize, arg: &str) -> Vec<&str> {
    // a program given by bare name is looked up on PATH, never in the workspace
    if arg.is_empty() || (index == 0 && !arg.contains('/')) {
        return Vec::new();
    }
    let mut out = vec![arg];
    if let Some((_, value)) = arg.split_once('=').filter(|_| arg.starts_with('-')) {
        if !value.is_empty() {
            out.push(value);
        }
    }
    out
}

/// `p` with `.` and `..` applied as text.
fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Where `written` points for a child running in `workspace`.
fn as_the_child_sees_it(written: &str, workspace: &Path) -> PathBuf {
    let p = Path::new(written);
    for own in ["/proc/self/cwd", "/proc/thread-self/cwd"] {
        if let Ok(rest) = p.strip_prefix(own) {
            return workspace.join(rest);
        }
    }
    workspace.join(p) // an absolute `p` replaces the workspace
}

/// `sha256:` of the regular file at `path`, and its size.
fn digest(path: &Path, written: &str) -> Result<(String, u64), String> {
    let name = crate::terminal::line(written).into_owned();
    let file = advisor::io::open_regular(path).map_err(|e| match e.kind() {
        advisor::io::BoundedReadErrorKind::NotRegular => {
            format!("{name} is not a regular file, so its content cannot be fingerprinted")
        }
        _ => format!("{name} cannot be read to fingerprint it"),
    })?;
    let mut hasher = Sha256::new();
    let mut limited = file.take(MAX_NAMED_FILE_BYTES + 1);
    let mut buf = vec![0u8; 64 * 1024];
    let mut bytes = 0u64;
    loop {
        match limited.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                hasher.update(&buf[..n]);
                bytes += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(format!("{name} cannot be read to fingerprint it")),
        }
    }
    if bytes > MAX_NAMED_FILE_BYTES {
        return Err(format!(
            "{name} is larger than {} MiB, too large to fingerprint",
            MAX_NAMED_FILE_BYTES / (1024 * 1024)
        ));
    }
    let hex: String = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok((format!("sha256:{hex}"), bytes))
}

/// The workspace paths `command` names, in argument order; an error names
/// a path that cannot be fingerprinted.
pub(crate) fn named_in(command: &[String], workspace: &Path) -> Result<Vec<Named>, String> {
    let root = std::fs::canonicalize(workspace).unwrap_or_else(|_| workspace.to_path_buf());
    let within = |p: &Path| p.starts_with(&root) || p.starts_with(workspace);
    let mut out = Vec::new();
    for (arg, text) in command.iter().enumerate() {
        for written in candidates(arg, text) {
            let path = as_the_child_sees_it(written, &root);
            let resolved = match std::fs::canonicalize(&path) {
                Ok(r) => Some(r),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(_) if within(&lexical(&path)) => {
                    let name = crate::terminal::line(written).into_owned();
                    return Err(format!("{name} cannot be resolved to fingerprint it"));
                }
                Err(_) => None,
            };
            let Some(resolved) = resolved else { continue };
            if !within(&lexical(&path)) && !within(&resolved) {
                continue;
            }
            let written = written.to_owned();
            if resolved.is_dir() {
                out.push(Named::Directory { arg, written });
            } else {
                let (digest, bytes) = digest(&resolved, &written)?;
                out.push(Named::File {
                    arg,
                    written,
                    digest,
                    bytes,
                });
            }
        }
    }
    Ok(out)
}

/// The trust fingerprint of `r` as the workspace `workspace` holds it: the
/// table, and for a command table the content of every workspace file its
/// command names.
pub(crate) fn fingerprint_in(r: &ReviewerTable, workspace: &Path) -> Result<String, String> {
    let named = match r.kind {
        ReviewerKind::Command => named_in(&r.command, workspace)?,
        _ => Vec::new(),
    };
    Ok(super::fingerprint::fingerprint(r, &named))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    struct Scratch(PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// `<scratch>/ws/tools/review.sh`, `<scratch>/ws/tools/`, `<scratch>/outside.sh`,
    /// a link `<scratch>/ws/run -> ../outside.sh` and `<scratch>/link-in -> ws/tools`.
    fn scratch(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("advisor-cmdfiles-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("ws/tools")).unwrap_or_else(|e| panic!("{e}"));
        let dir = std::fs::canonicalize(&dir).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.join("ws/tools/review.sh"), "echo one\n").unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(dir.join("outside.sh"), "echo outside\n").unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink("../outside.sh", dir.join("ws/run")).unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink("ws/tools", dir.join("link-in")).unwrap_or_else(|e| panic!("{e}"));
        Scratch(dir)
    }

    fn argv(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| (*s).to_owned()).collect()
    }

    fn files(named: &[Named]) -> Vec<(usize, String)> {
        named
            .iter()
            .filter_map(|n| match n {
                Named::File { arg, written, .. } => Some((*arg, written.clone())),
                Named::Directory { .. } => None,
            })
            .collect()
    }

    #[test]
    fn every_way_of_naming_a_workspace_file_is_found() {
        let s = scratch("ways");
        let ws = s.0.join("ws");
        let abs = ws.join("tools/review.sh").display().to_string();
        let via_link = s.0.join("link-in/review.sh").display().to_string();
        for (command, index) in [
            (argv(&["./tools/review.sh"]), 0),
            (argv(&["sh", "tools/review.sh"]), 1),
            (argv(&["sh", "./tools/../tools/review.sh"]), 1),
            (argv(&["sh", "../ws/tools/review.sh"]), 1),
            (argv(&["sh", &abs]), 1),
            (argv(&["sh", &via_link]), 1),
            (argv(&["sh", "/proc/self/cwd/tools/review.sh"]), 1),
            (argv(&["runner", "--script=tools/review.sh"]), 1),
        ] {
            let named = named_in(&command, &ws).unwrap_or_else(|e| panic!("{command:?}: {e}"));
            let found = files(&named);
            assert_eq!(found.len(), 1, "{command:?}: {named:?}");
            assert_eq!(found[0].0, index, "{command:?}");
        }
        // a link in the workspace to a file outside: its target's content counts
        let named = named_in(&argv(&["sh", "run"]), &ws).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(files(&named), vec![(1, "run".to_owned())]);
    }

    #[test]
    fn names_outside_the_workspace_and_bare_programs_are_not_workspace_files() {
        let s = scratch("outside");
        let ws = s.0.join("ws");
        std::fs::write(ws.join("claude"), "x").unwrap_or_else(|e| panic!("{e}"));
        let outside = s.0.join("outside.sh").display().to_string();
        for command in [
            argv(&["claude", "-p"]),
            argv(&["sh", &outside]),
            argv(&["sh", "../outside.sh"]),
            argv(&["sh", "missing.sh", "--fast", "--level=3"]),
        ] {
            let named = named_in(&command, &ws).unwrap_or_else(|e| panic!("{e}"));
            assert!(named.is_empty(), "{command:?}: {named:?}");
        }
        let named = named_in(&argv(&["node", "tools", "."]), &ws).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            named.iter().all(|n| matches!(n, Named::Directory { .. })) && named.len() == 2,
            "{named:?}"
        );
    }

    #[test]
    fn a_named_path_that_cannot_be_fingerprinted_is_an_error() {
        let s = scratch("refused");
        let ws = s.0.join("ws");
        let fifo = std::process::Command::new("mkfifo")
            .arg(ws.join("pipe"))
            .status()
            .is_ok_and(|st| st.success());
        if fifo {
            let e = named_in(&argv(&["sh", "pipe"]), &ws).err().unwrap_or_default();
            assert!(e.contains("not a regular file"), "{e}");
        }
        let big = std::fs::File::create(ws.join("big.bin")).unwrap_or_else(|e| panic!("{e}"));
        big.set_len(MAX_NAMED_FILE_BYTES + 1).unwrap_or_else(|e| panic!("{e}"));
        let e = named_in(&argv(&["sh", "big.bin"]), &ws).err().unwrap_or_default();
        assert!(e.contains("too large"), "{e}");
    }

    #[test]
    fn the_fingerprint_follows_the_files_content_and_keeps_tables_without_files() {
        let s = scratch("fp");
        let ws = s.0.join("ws");
        let table = |command: &[&str]| ReviewerTable {
            kind: ReviewerKind::Command,
            command: argv(command),
            ..ReviewerTable::default()
        };
        let r = table(&["sh", "tools/review.sh"]);
        let before = fingerprint_in(&r, &ws).unwrap_or_default();
        std::fs::write(ws.join("tools/review.sh"), "echo two\n").unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(fingerprint_in(&r, &ws).unwrap_or_default(), before);
        // a table naming no workspace file keeps the fingerprint it always had
        let plain = table(&["review-cli", "--fast"]);
        assert_eq!(
            fingerprint_in(&plain, &ws).unwrap_or_default(),
            super::super::fingerprint::fingerprint(&plain, &[])
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// However the path to the script is written — detours through
        /// `.`, `..` and real folders, the link, an absolute or
        /// `/proc/self/cwd` prefix, an `--option=` — it is one workspace
        /// file, and a change to its content changes the fingerprint.
        #[test]
        fn a_workspace_file_is_found_however_its_path_is_written(
            detours in proptest::collection::vec(0u8..3, 0..5),
            prefix in 0u8..4,
            option in any::<bool>(),
        ) {
            let s = scratch("prop");
            let ws = s.0.join("ws");
            let mut rel = String::new();
            for d in &detours {
                rel.push_str(match d { 0 => "./", 1 => "tools/../", _ => "../ws/" });
            }
            rel.push_str("tools/review.sh");
            let path = match prefix {
                0 => rel,
                1 => format!("{}/{rel}", ws.display()),
                2 => format!("/proc/self/cwd/{rel}"),
                _ => format!("{}/{rel}", s.0.join("link-in/..").display()),
            };
            let arg = if option { format!("--file={path}") } else { path };
            let r = ReviewerTable {
                kind: ReviewerKind::Command,
                command: vec!["sh".to_owned(), arg.clone()],
                ..ReviewerTable::default()
            };
            let named = named_in(&r.command, &ws).map_err(TestCaseError::fail)?;
            prop_assert_eq!(files(&named).len(), 1, "{}: {:?}", arg, named);
            let before = fingerprint_in(&r, &ws).map_err(TestCaseError::fail)?;
            std::fs::write(ws.join("tools/review.sh"), "echo changed\n").map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_ne!(fingerprint_in(&r, &ws).map_err(TestCaseError::fail)?, before);
        }
    }
}
