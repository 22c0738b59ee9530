//! What Gemini CLI keeps of a review, removed after it: the `gemini` preset
//! keeps no session of its review.
//!
//! Gemini CLI 0.61.0 has no flag or setting that stops it recording a
//! session (its package's `ChatRecordingService` always writes one), and it
//! files everything under the folder it ran in: the chat as
//! `~/.gemini/tmp/<slug>/chats/session-*.jsonl`, a `history/<slug>` folder,
//! each with a `.project_root` file naming the folder, and the folder's
//! entry in `~/.gemini/projects.json` (`ProjectRegistry`, written under a
//! `projects.json.lock` directory lock). The preset runs in a fresh scratch
//! folder per review, so [`forget_review`] removes exactly that folder's
//! files: a `tmp/` or `history/` entry only when it is a real directory
//! whose `.project_root` names the scratch folder, and the registry entry
//! only while holding Gemini CLI's own lock. `~/.gemini` is
//! `$GEMINI_CLI_HOME/.gemini` when that is set, else `$HOME/.gemini`, as
//! the CLI's `homedir()` says. Best effort and bounded: a failure leaves a
//! file behind, never fails the review. Must not touch any other project's
//! files.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Most entries of `tmp/` or `history/` looked at.
const MAX_ENTRIES: usize = 100_000;
/// Largest `projects.json` rewritten.
const MAX_REGISTRY_BYTES: u64 = 4 * 1024 * 1024;
/// How long to wait for Gemini CLI's registry lock.
const LOCK_WAIT: Duration = Duration::from_millis(500);

/// `~/.gemini` for this process's environment.
fn gemini_dir() -> Option<PathBuf> {
    let home = std::env::var_os("GEMINI_CLI_HOME")
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var_os("HOME"))
        .map(PathBuf::from)
        .filter(|h| h.is_absolute())?;
    Some(home.join(".gemini"))
}

/// Removes what Gemini CLI kept of a review run in `project` (the scratch
/// folder, as the CLI saw it: canonical).
pub(crate) fn forget_review(project: &Path) {
    if let Some(dir) = gemini_dir() {
        forget_review_in(&dir, project);
    }
}

/// [`forget_review`] with `~/.gemini` given.
pub(crate) fn forget_review_in(gemini: &Path, project: &Path) {
    let Some(name) = project.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    for base in ["tmp", "history"] {
        let Ok(entries) = std::fs::read_dir(gemini.join(base)) else {
            continue;
        };
        for entry in entries.take(MAX_ENTRIES).flatten() {
            // the slug is the folder's name (a suffix when taken)
            if !entry.file_name().to_str().is_some_and(|n| n.starts_with(name)) {
                continue;
            }
            let dir = entry.path();
            let real_dir = std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir());
            if real_dir && names(&dir.join(".project_root"), project) {
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
    }
    forget_registry_entry(&gemini.join("projects.json"), project);
}

/// Whether the `.project_root` file `marker` (a regular file, no link)
/// names `project`.
fn names(marker: &Path, project: &Path) -> bool {
    let regular = std::fs::symlink_metadata(marker).is_ok_and(|m| m.is_file());
    regular && advisor::io::read_file_to_string(marker, 64 * 1024).is_ok_and(|text| Path::new(text.trim()) == project)
}

/// Removes `project`'s entry from Gemini CLI's registry while holding its
/// lock (the `<registry>.lock` directory its lockfile library makes).
fn forget_registry_entry(registry: &Path, project: &Path) {
    let Some(key) = project.to_str() else { return };
    if !std::fs::symlink_metadata(registry).is_ok_and(|m| m.is_file()) {
        return;
    }
    let lock = registry.with_extension("json.lock");
    let start = std::time::Instant::now();
    while std::fs::create_dir(&lock).is_err() {
        if start.elapsed() > LOCK_WAIT {
            return; // another Gemini CLI holds it: the entry stays
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let edited = advisor::io::read_file(registry, MAX_REGISTRY_BYTES)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .and_then(|mut v| {
            let removed = v.get_mut("projects")?.as_object_mut()?.remove(key)?;
            drop(removed);
            serde_json::to_vec_pretty(&v).ok()
        });
    if let Some(bytes) = edited {
        let _ = advisor::io::write_atomic(registry, &bytes);
    }
    let _ = std::fs::remove_dir(&lock);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(gemini: &Path, base: &str, slug: &str, root: &Path) {
        let dir = gemini.join(base).join(slug);
        std::fs::create_dir_all(dir.join("chats")).unwrap();
        std::fs::write(dir.join(".project_root"), root.display().to_string()).unwrap();
        std::fs::write(dir.join("chats/session-1.jsonl"), "{}\n").unwrap();
    }

    #[test]
    fn removes_exactly_the_reviews_files() {
        let base = std::env::temp_dir().join(format!("advisor-gemini-forget-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let gemini = base.join(".gemini");
        let review = base.join("advisor-review-0123");
        let other = base.join("ws");
        for b in ["tmp", "history"] {
            project(&gemini, b, "advisor-review-0123", &review);
            project(&gemini, b, "ws", &other);
            // same prefix, another folder's marker: kept
            project(&gemini, b, "advisor-review-0123-1", &base.join("elsewhere"));
        }
        let registry = serde_json::json!({"projects": {
            review.display().to_string(): "advisor-review-0123",
            other.display().to_string(): "ws"}});
        std::fs::write(gemini.join("projects.json"), registry.to_string()).unwrap();

        forget_review_in(&gemini, &review);

        for b in ["tmp", "history"] {
            assert!(!gemini.join(b).join("advisor-review-0123").exists(), "{b}");
            assert!(gemini.join(b).join("ws/chats/session-1.jsonl").exists(), "{b}");
            assert!(gemini.join(b).join("advisor-review-0123-1").exists(), "{b}");
        }
        let left: serde_json::Value =
            serde_json::from_slice(&std::fs::read(gemini.join("projects.json")).unwrap()).unwrap();
        assert_eq!(
            left,
            serde_json::json!({"projects": {other.display().to_string(): "ws"}})
        );
        assert!(!gemini.join("projects.json.lock").exists());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_held_registry_lock_leaves_the_registry_alone() {
        let base = std::env::temp_dir().join(format!("advisor-gemini-locked-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let gemini = base.join(".gemini");
        std::fs::create_dir_all(gemini.join("projects.json.lock")).unwrap();
        let text = r#"{"projects":{"/r/advisor-review-9":"advisor-review-9"}}"#;
        std::fs::write(gemini.join("projects.json"), text).unwrap();
        forget_review_in(&gemini, Path::new("/r/advisor-review-9"));
        assert_eq!(std::fs::read_to_string(gemini.join("projects.json")).unwrap(), text);
        assert!(
            gemini.join("projects.json.lock").is_dir(),
            "another process's lock is not removed"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }
}
