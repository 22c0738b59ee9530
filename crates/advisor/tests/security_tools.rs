//! Issue 48, the workspace tools against a repository an attacker controls:
//! `git_diff` runs nothing through a submodule or a nested repository
//! (finding 1); nothing inside a `.git` directory at any depth is read,
//! listed or grepped (finding 2); the deny-list ignores case (finding 6)
//! and covers the common credential files by default (finding 7); a user's
//! patterns only ever add to it. Each test here failed on the code before
//! the fix (see docs/security.md).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use advisor::host::ToolCall;
use advisor::review::tools::{ToolResult, WorkspaceTool, WorkspaceTools};

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("advisor-sec-tools-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(std::fs::canonicalize(&dir).unwrap())
}

fn call(tools: &WorkspaceTools, name: &str, arguments: &str) -> ToolResult {
    tools.call(&ToolCall {
        id: "c".into(),
        name: name.into(),
        arguments: arguments.into(),
    })
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn git(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "protocol.file.allow=always",
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
}

/// Makes `path`'s stat data stale (same content, another modification
/// time), so the next `git status` has to hash the file again, through its
/// clean filter.
fn make_stale(path: &Path, ago_secs: u64) {
    let when = std::time::SystemTime::now() - std::time::Duration::from_secs(ago_secs);
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(when).unwrap();
}

#[test]
fn git_diff_runs_nothing_through_a_submodule_and_leaves_nested_repositories_out() {
    let base = scratch("submodule");
    let ws = base.0.join("ws");
    let marks = base.0.join("marks");
    std::fs::create_dir_all(&marks).unwrap();
    let program = base.0.join("clean.sh");
    executable(
        &program,
        &format!("#!/bin/sh\ntouch '{}/clean-ran'\ncat\n", marks.display()),
    );

    // the workspace, with a tracked file that will later sit inside a nested clone
    std::fs::create_dir_all(&ws).unwrap();
    git(&ws, &["init", "-q"]);
    write(&ws.join("app.py"), "x = 1\n");
    write(&ws.join("vendor/lib/code.py"), "y = 1\n");
    git(&ws, &["add", "."]);
    git(&ws, &["commit", "-qm", "one"]);

    // a submodule checked out as a plain `sub/.git` folder, its config naming a
    // clean filter that its own .gitattributes routes every file to
    let sub = ws.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    git(&sub, &["init", "-q"]);
    write(&sub.join("f.txt"), "SUBMODULE_CONTENT\n");
    write(&sub.join(".gitattributes"), "* filter=evil\n");
    git(&sub, &["add", "."]);
    git(&sub, &["commit", "-qm", "sub"]);
    git(&ws, &["add", "sub"]);
    git(&ws, &["commit", "-qm", "gitlink"]);
    let mut config = std::fs::read_to_string(sub.join(".git/config")).unwrap();
    config.push_str(&format!("[filter \"evil\"]\n\tclean = {}\n", program.display()));
    std::fs::write(sub.join(".git/config"), config).unwrap();
    // a nested clone (not a submodule) over tracked files of the workspace
    git(&ws.join("vendor/lib"), &["init", "-q"]);
    write(&ws.join("vendor/lib/code.py"), "y = 2  # NESTED_CHANGE\n");
    write(&ws.join("app.py"), "x = 2  # WORKTREE_CHANGE\n");
    // stale stat data: the submodule's `git status` must hash f.txt again
    make_stale(&sub.join("f.txt"), 100);
    let ran = || std::fs::read_dir(&marks).unwrap().count();
    assert_eq!(ran(), 0);

    let tools = WorkspaceTools::new(&ws, [WorkspaceTool::GitDiff]);
    let all = call(&tools, "git_diff", "{}");
    assert_eq!(ran(), 0, "the submodule's clean filter ran");
    assert!(!all.error, "{}", all.content);
    assert!(all.content.contains("WORKTREE_CHANGE"), "{}", all.content);
    assert!(!all.content.contains("SUBMODULE"), "{}", all.content);
    assert!(!all.content.contains("NESTED_CHANGE"), "{}", all.content);
    let staged = call(&tools, "git_diff", r#"{"staged": true}"#);
    assert!(!staged.content.contains("SUBMODULE"), "{}", staged.content);
    for inside in ["sub", "sub/f.txt", "vendor/lib/code.py", "vendor/lib"] {
        let one = call(&tools, "git_diff", &format!(r#"{{"path": "{inside}"}}"#));
        assert!(
            !one.content.contains("SUBMODULE") && !one.content.contains("NESTED_CHANGE"),
            "{inside}: {}",
            one.content
        );
    }
    assert_eq!(ran(), 0, "the submodule's clean filter ran");

    // the same repository through plain `git diff` does run it: the test can fail
    make_stale(&sub.join("f.txt"), 200);
    let _ = std::process::Command::new("git")
        .args(["diff"])
        .current_dir(&ws)
        .output()
        .unwrap();
    assert!(ran() > 0, "the hostile submodule names a live program");
}

/// A workspace whose every `.git` directory, at any depth, holds a token.
fn nested_git_workspace(base: &Path) -> PathBuf {
    let ws = base.join("ws");
    let token = "[remote \"origin\"]\n\turl = https://user:GIT_TOKEN_MARKER@example.invalid/x\n";
    write(&ws.join("src/main.rs"), "fn main() {}\n");
    write(&ws.join(".git/config"), token);
    write(&ws.join(".git/modules/sub/config"), token);
    write(&ws.join(".git/modules/sub/FETCH_HEAD"), "GIT_TOKEN_MARKER\n");
    write(&ws.join("vendor/lib/.git/config"), token);
    write(&ws.join("vendor/lib/.git/logs/HEAD"), "GIT_TOKEN_MARKER\n");
    write(&ws.join("vendor/lib/code.rs"), "fn lib() {}\n");
    write(&ws.join("a/b/c/.git/packed-refs"), "GIT_TOKEN_MARKER\n");
    // a `.git` spelled in another case opens the same folder on macOS and Windows
    write(&ws.join("x/.GIT/config"), token);
    ws
}

#[test]
fn nothing_inside_a_git_directory_at_any_depth_is_read_listed_or_grepped() {
    let base = scratch("nested-git");
    let ws = nested_git_workspace(&base.0);
    let tools = WorkspaceTools::new(
        &ws,
        [WorkspaceTool::ReadFile, WorkspaceTool::ListFiles, WorkspaceTool::Grep],
    );
    for path in [
        ".git/config",
        ".git/modules/sub/config",
        ".git/modules/sub/FETCH_HEAD",
        "vendor/lib/.git/config",
        "vendor/lib/.git/logs/HEAD",
        "a/b/c/.git/packed-refs",
        "x/.GIT/config",
        "./vendor/lib/.git/config",
    ] {
        let r = call(&tools, "read_file", &format!(r#"{{"path": "{path}"}}"#));
        assert!(r.error, "{path}: {}", r.content);
        assert!(!r.content.contains("GIT_TOKEN_MARKER"), "{path}: {}", r.content);
        for tool in ["list_files", "grep"] {
            let args = if tool == "grep" {
                format!(r#"{{"pattern": "GIT_TOKEN", "path": "{path}"}}"#)
            } else {
                format!(r#"{{"path": "{path}"}}"#)
            };
            let r = call(&tools, tool, &args);
            assert!(!r.content.contains("GIT_TOKEN_MARKER"), "{tool} {path}: {}", r.content);
        }
    }
    for dir in [".git/modules", "vendor/lib/.git", "x/.GIT"] {
        let r = call(&tools, "list_files", &format!(r#"{{"path": "{dir}"}}"#));
        assert!(r.error, "{dir}: {}", r.content);
    }
    let grep = call(&tools, "grep", r#"{"pattern": "GIT_TOKEN"}"#);
    assert!(!grep.error, "{}", grep.content);
    assert!(grep.content.starts_with("0 matches"), "{}", grep.content);
    let listed = call(&tools, "list_files", "{}");
    assert!(listed.content.contains("vendor/lib/code.rs"), "{}", listed.content);
    assert!(!listed.content.to_lowercase().contains(".git/"), "{}", listed.content);
    let nested = call(&tools, "list_files", r#"{"path": "vendor/lib"}"#);
    assert!(nested.content.contains("vendor/lib/code.rs"), "{}", nested.content);
    assert!(!nested.content.contains(".git"), "{}", nested.content);
}

#[test]
fn the_deny_list_ignores_case() {
    let base = scratch("case");
    let ws = base.0.join("ws");
    for name in [
        "SERVER.KEY",
        "certs/CERT.PEM",
        "ID_RSA",
        "home/Id_Ed25519",
        ".ENV",
        ".Env.Local",
        ".NETRC",
        ".ADVISOR/config.toml",
    ] {
        write(&ws.join(name), "CASE_SECRET_MARKER\n");
    }
    write(&ws.join("src/lib.rs"), "fn ok() {}\n");
    let tools = WorkspaceTools::new(
        &ws,
        [WorkspaceTool::ReadFile, WorkspaceTool::ListFiles, WorkspaceTool::Grep],
    );
    // on a case-insensitive file system these open `.env` and `server.key` themselves
    for path in [
        "SERVER.KEY",
        "server.KEY",
        "certs/CERT.PEM",
        "ID_RSA",
        "home/Id_Ed25519",
        ".ENV",
        ".Env.Local",
        ".NETRC",
        ".ADVISOR/config.toml",
    ] {
        let r = call(&tools, "read_file", &format!(r#"{{"path": "{path}"}}"#));
        assert!(r.error, "{path}: {}", r.content);
        assert!(
            r.content.contains("denied") || r.content.contains("no such file"),
            "{path}: {}",
            r.content
        );
        assert!(!r.content.contains("CASE_SECRET_MARKER"), "{path}: {}", r.content);
    }
    let grep = call(&tools, "grep", r#"{"pattern": "CASE_SECRET"}"#);
    assert!(grep.content.starts_with("0 matches"), "{}", grep.content);
    let listed = call(&tools, "list_files", "{}");
    assert!(listed.content.starts_with("1 files"), "{}", listed.content);
}

/// The credential files of issue 48, finding 7, as found in a clone.
const CREDENTIAL_FILES: [&str; 16] = [
    ".npmrc",
    "web/.npmrc",
    ".pypirc",
    ".git-credentials",
    "_netrc",
    ".netrc",
    ".aws/credentials",
    "home/.aws/credentials",
    ".docker/config.json",
    "certs/client.p12",
    "certs/client.pfx",
    "keys/putty.ppk",
    "infra/terraform.tfstate",
    "infra/terraform.tfstate.backup",
    ".pgpass",
    "deploy/.pgpass",
];

#[test]
fn common_credential_files_are_denied_by_default() {
    let base = scratch("credentials");
    let ws = base.0.join("ws");
    for name in CREDENTIAL_FILES {
        write(&ws.join(name), "CREDENTIAL_MARKER\n");
    }
    // look-alikes that stay readable
    write(&ws.join(".aws/config"), "region = x\n");
    write(&ws.join(".docker/daemon.json"), "{}\n");
    write(&ws.join("docs/npmrc.md"), "about npmrc\n");
    let tools = WorkspaceTools::new(
        &ws,
        [WorkspaceTool::ReadFile, WorkspaceTool::ListFiles, WorkspaceTool::Grep],
    );
    for name in CREDENTIAL_FILES {
        let r = call(&tools, "read_file", &format!(r#"{{"path": "{name}"}}"#));
        assert!(r.error && r.content.contains("denied"), "{name}: {}", r.content);
        let r = call(
            &tools,
            "grep",
            &format!(r#"{{"pattern": "CREDENTIAL", "path": "{name}"}}"#),
        );
        assert!(!r.content.contains("CREDENTIAL_MARKER"), "{name}: {}", r.content);
    }
    let grep = call(&tools, "grep", r#"{"pattern": "CREDENTIAL"}"#);
    assert!(grep.content.starts_with("0 matches"), "{}", grep.content);
    let listed = call(&tools, "list_files", "{}");
    assert!(listed.content.starts_with("3 files"), "{}", listed.content);
    for allowed in [".aws/config", ".docker/daemon.json", "docs/npmrc.md"] {
        let r = call(&tools, "read_file", &format!(r#"{{"path": "{allowed}"}}"#));
        assert!(!r.error, "{allowed}: {}", r.content);
    }
}

#[test]
fn a_user_deny_list_extends_the_default_and_never_shrinks_it() {
    let base = scratch("extend");
    let ws = base.0.join("ws");
    write(&ws.join(".env"), "ENV_MARKER\n");
    write(&ws.join("dump/Prod.SQL"), "SQL_MARKER\n");
    write(&ws.join("src/lib.rs"), "fn ok() {}\n");
    // patterns that might read as exceptions or as nothing: none of them un-denies
    let tools = WorkspaceTools::new(&ws, [WorkspaceTool::ReadFile, WorkspaceTool::Grep])
        .deny(["*.sql", "", "!.env", "!*", "/"]);
    for (path, marker) in [(".env", "ENV_MARKER"), ("dump/Prod.SQL", "SQL_MARKER")] {
        let r = call(&tools, "read_file", &format!(r#"{{"path": "{path}"}}"#));
        assert!(r.error && !r.content.contains(marker), "{path}: {}", r.content);
    }
    let grep = call(&tools, "grep", r#"{"pattern": "MARKER|ok"}"#);
    assert!(grep.content.starts_with("1 matches"), "{}", grep.content);
}
