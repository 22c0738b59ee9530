//! Finding a program a host runs by name, where a workspace cannot plant it.
//!
//! Owns [`find_program`]: the first file called `name` in an absolute `PATH`
//! directory outside a directory the host does not control (the workspace),
//! so a repository that puts `./bin` or its own folder on the hook's `PATH`
//! (a host config can set it) cannot stand in for `git` or the user's agent
//! CLI. Must not run anything.

use std::path::{Path, PathBuf};

/// The first file `name` in a `PATH` directory that is absolute and not
/// beneath `outside` (none: every absolute directory counts). `name` must be
/// a bare program name; on Windows `name.exe`, `name.cmd` and `name.bat` are
/// tried too.
///
/// ```
/// # #[cfg(unix)] {
/// let sh = advisor::io::find_program("sh", None).expect("a POSIX system has sh");
/// assert!(sh.is_absolute() && sh.ends_with("sh"));
/// assert_eq!(advisor::io::find_program("sh", Some(std::path::Path::new("/"))), None);
/// # }
/// ```
pub fn find_program(name: &str, outside: Option<&Path>) -> Option<PathBuf> {
    if name.is_empty() || name.contains(['/', '\\']) {
        return None;
    }
    let path = std::env::var_os("PATH")?;
    let names: Vec<String> = if cfg!(windows) {
        ["", ".exe", ".cmd", ".bat"]
            .iter()
            .map(|e| format!("{name}{e}"))
            .collect()
    } else {
        vec![name.to_owned()]
    };
    std::env::split_paths(&path)
        .filter(|d| d.is_absolute() && outside.is_none_or(|o| !d.starts_with(o)))
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .find(|p| p.is_file())
}
