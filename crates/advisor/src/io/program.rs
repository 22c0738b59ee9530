//! Finding a program a host runs by name, where a workspace cannot plant it.
//!
//! Owns [`find_program`]: the first file called `name` in an absolute `PATH`
//! directory that lies outside a directory the host does not control (the
//! workspace), judged by where the directory and the file *resolve* — links,
//! `..` and `/proc/self/cwd` followed — not by how the entry is written. So a
//! repository whose host config puts `./bin`, `/proc/self/cwd/bin`,
//! `<elsewhere>/../<workspace>/bin` or a link to its own folder on the hook's
//! `PATH` cannot stand in for `git` or the user's agent CLI. The path returned
//! is the resolved directory joined with the name, so it means the same file
//! in a child that runs somewhere else (`/proc/self/cwd` is the child's own).
//! Must not run anything.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The first file `name` in a `PATH` directory that is absolute and whose
/// canonical form — and the canonical form of the file itself — is not
/// beneath `outside` (none: every absolute directory counts). A directory
/// that cannot be resolved (missing, unreadable) is skipped. `name` must be a
/// bare program name; on Windows `name.exe`, `name.cmd` and `name.bat` are
/// tried too. The result is the resolved directory joined with the name.
///
/// ```
/// # #[cfg(unix)] {
/// let sh = advisor::io::find_program("sh", None).expect("a POSIX system has sh");
/// assert!(sh.is_absolute() && sh.ends_with("sh"));
/// assert_eq!(advisor::io::find_program("sh", Some(std::path::Path::new("/"))), None);
/// # }
/// ```
pub fn find_program(name: &str, outside: Option<&Path>) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    find_program_in(name, &path, outside)
}

/// [`find_program`] over the `PATH` value `path`.
pub(crate) fn find_program_in(name: &str, path: &OsStr, outside: Option<&Path>) -> Option<PathBuf> {
    if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
        return None;
    }
    let names: Vec<String> = if cfg!(windows) {
        ["", ".exe", ".cmd", ".bat"]
            .iter()
            .map(|e| format!("{name}{e}"))
            .collect()
    } else {
        vec![name.to_owned()]
    };
    // the workspace as written and as it resolves: a path beneath either is its own
    let outside: Vec<PathBuf> = outside
        .map(|o| {
            let mut forms = vec![o.to_path_buf()];
            forms.extend(std::fs::canonicalize(o).ok().filter(|c| c != o));
            forms
        })
        .unwrap_or_default();
    let inside = |p: &Path| outside.iter().any(|o| p.starts_with(o));
    std::env::split_paths(path)
        .filter(|d| d.is_absolute() && !inside(d))
        .filter_map(|d| std::fs::canonicalize(d).ok())
        .filter(|d| !inside(d))
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .find(|p| p.is_file() && std::fs::canonicalize(p).is_ok_and(|file| !inside(&file)))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::os::unix::fs::PermissionsExt;

    struct Scratch(PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// `<scratch>/ws/bin/prog` (planted), `<scratch>/other/bin/prog`, a
    /// link `<scratch>/to-ws -> ws/bin` and a link `<scratch>/other/bin/alias
    /// -> ../../ws/bin/prog`; the scratch directory is canonical.
    fn scratch(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("advisor-program-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["ws/bin", "other/bin", "elsewhere/deeper"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap_or_else(|e| panic!("{e}"));
        }
        let dir = std::fs::canonicalize(&dir).unwrap_or_else(|e| panic!("{e}"));
        for p in [dir.join("ws/bin/prog"), dir.join("other/bin/prog")] {
            std::fs::write(&p, "#!/bin/sh\n").unwrap_or_else(|e| panic!("{e}"));
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap_or_else(|e| panic!("{e}"));
        }
        let link = |target: &str, at: PathBuf| std::os::unix::fs::symlink(target, at).unwrap_or_else(|e| panic!("{e}"));
        link("ws/bin", dir.join("to-ws"));
        link("../../ws/bin/prog", dir.join("other/bin/alias"));
        Scratch(dir)
    }

    fn lookup(s: &Scratch, name: &str, entries: &[PathBuf]) -> Option<PathBuf> {
        let path = std::env::join_paths(entries).unwrap_or_else(|e| panic!("{e}"));
        find_program_in(name, &path, Some(&s.0.join("ws")))
    }

    #[test]
    fn an_entry_that_resolves_into_the_workspace_is_skipped_however_it_is_written() {
        let s = scratch("forms");
        let ws = s.0.join("ws");
        let other = s.0.join("other/bin");
        for planted in [
            ws.join("bin"),
            s.0.join("elsewhere/../ws/bin"),
            s.0.join("elsewhere/deeper/../../ws/./bin"),
            s.0.join("to-ws"),
            s.0.join("to-ws/."),
        ] {
            assert_eq!(lookup(&s, "prog", std::slice::from_ref(&planted)), None, "{planted:?}");
            assert_eq!(
                lookup(&s, "prog", &[planted.clone(), other.clone()]),
                Some(other.join("prog")),
                "{planted:?}"
            );
        }
        // a file outside that is a link into the workspace
        assert_eq!(lookup(&s, "alias", std::slice::from_ref(&other)), None);
        // relative entries never count
        assert_eq!(lookup(&s, "prog", &[PathBuf::from("other/bin")]), None);
        // the result is the resolved directory
        assert_eq!(
            lookup(&s, "prog", &[s.0.join("elsewhere/../other/bin")]),
            Some(other.join("prog"))
        );
    }

    #[test]
    fn proc_self_cwd_is_judged_where_it_resolves() {
        // this process's working directory stands for the workspace
        let Ok(cwd) = std::env::current_dir().and_then(std::fs::canonicalize) else {
            return;
        };
        if !Path::new("/proc/self/cwd").exists() {
            return;
        }
        let path = std::env::join_paths([Path::new("/proc/self/cwd"), Path::new("/proc/self/cwd/.")])
            .unwrap_or_else(|e| panic!("{e}"));
        // any file of the working directory: refused when it is the workspace
        let Some(name) = std::fs::read_dir(&cwd)
            .ok()
            .into_iter()
            .flatten()
            .flatten()
            .find(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .and_then(|e| e.file_name().into_string().ok())
        else {
            return;
        };
        assert_eq!(find_program_in(&name, &path, Some(&cwd)), None);
        assert_eq!(find_program_in(&name, &path, None), Some(cwd.join(&name)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Whatever detours an entry takes (`.`, `..` through real folders,
        /// doubled separators, the link), it is judged where it ends up: an
        /// entry into the workspace never yields its program, one elsewhere
        /// yields the program there.
        #[test]
        fn an_entry_is_judged_by_where_it_resolves(
            detours in proptest::collection::vec(0u8..4, 0..6),
            into_ws in any::<bool>(),
        ) {
            let s = scratch("prop");
            let mut entry = s.0.clone();
            for d in &detours {
                match d {
                    0 => entry.push("."),
                    1 => entry.push("elsewhere/deeper/../.."),
                    2 => entry.push("other/.."),
                    _ => entry = PathBuf::from(format!("{}//.", entry.display())),
                }
            }
            entry.push(if into_ws { "to-ws" } else { "other/bin" });
            let found = lookup(&s, "prog", &[entry]);
            if into_ws {
                prop_assert_eq!(found, None);
            } else {
                prop_assert_eq!(found, Some(s.0.join("other/bin/prog")));
            }
        }
    }
}
