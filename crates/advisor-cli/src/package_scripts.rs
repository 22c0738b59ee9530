//! The workspace's `package.json` scripts, for the rules reviewer.
//!
//! Owns [`read`]: the `scripts` table of `<workspace>/package.json` (a
//! regular file of at most 256 KiB, read once), so that
//! `npm|pnpm|yarn|bun run <script>` is judged as the command the script runs. Anything unreadable —
//! no file, a link to a device, not JSON, no `scripts` — is an empty table:
//! the rules then leave such coverage undecided, which never blocks. Must not
//! run anything or read any other file.

use std::path::Path;

use advisor_rules::Scripts;

/// The largest `package.json` read.
const MAX_PACKAGE_JSON_BYTES: u64 = 256 * 1024;
/// Scripts kept at most, and the longest command line kept of each.
const MAX_SCRIPTS: usize = 512;
const MAX_SCRIPT_CHARS: usize = 4096;

/// The scripts of `workspace`'s `package.json`, empty when there are none to read.
pub(crate) fn read(workspace: &Path) -> Scripts {
    let path = workspace.join("package.json");
    let Ok(text) = advisor::io::read_file_to_string(&path, MAX_PACKAGE_JSON_BYTES) else {
        return Scripts::new();
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Scripts::new();
    };
    let Some(scripts) = value.get("scripts").and_then(serde_json::Value::as_object) else {
        return Scripts::new();
    };
    scripts
        .iter()
        .filter_map(|(name, cmd)| Some((name.clone(), cmd.as_str()?.to_owned())))
        .filter(|(_, cmd)| cmd.chars().count() <= MAX_SCRIPT_CHARS)
        .take(MAX_SCRIPTS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_are_read_and_anything_else_is_an_empty_table() {
        let dir = std::env::temp_dir().join(format!("advisor-pkg-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(read(&dir).is_empty(), "no file");
        std::fs::write(dir.join("package.json"), "not json").unwrap();
        assert!(read(&dir).is_empty(), "not JSON");
        std::fs::write(
            dir.join("package.json"),
            r#"{"scripts": {"test": "jest --ci", "n": 3}}"#,
        )
        .unwrap();
        let scripts = read(&dir);
        assert_eq!(scripts.get("test").map(String::as_str), Some("jest --ci"));
        assert_eq!(scripts.len(), 1, "non-string entries are left out");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
