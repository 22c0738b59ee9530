//! The model reviewer's read-only workspace tools (issue 28, item 2), against
//! a scripted OpenAI-compatible server on loopback (wiremock) that issues tool
//! calls: a file inside the workspace reaches the next request; `../` and
//! absolute paths, a link out of the workspace, a denied secret, a binary
//! file, a huge file, an unknown tool, malformed arguments and calls past the
//! limit are error results — none of the refused content ever reaches a
//! request. And `git_diff` on a repository whose `.git/config` names a
//! program at every hook point runs none of them.
#![cfg(all(feature = "http", unix))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use advisor::host::{Message, ToolCall};
use advisor::kind::ReviewKind;
use advisor::model::OpenAiCompatible;
use advisor::review::tools::{MAX_RESULT_BYTES, WorkspaceTool, WorkspaceTools};
use advisor::review::{ModelReviewer, Review, Reviewer};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Content that must never reach a request.
const REFUSED: [&str; 6] = [
    "OUTSIDE_MARKER",
    "ENV_SECRET_MARKER",
    "BINARY_MARKER",
    "HUGE_MARKER",
    "BEYOND_LIMIT_MARKER",
    "PEM_MARKER",
];

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("advisor-tools-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A workspace with one honest file and every kind of file a tool must refuse.
fn workspace(base: &Path) -> PathBuf {
    let ws = base.join("ws");
    let outside = base.join("outside");
    std::fs::create_dir_all(ws.join("src")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(
        ws.join("src/auth.rs"),
        "fn check(token: &str) -> bool {\n    INSIDE_MARKER; token.len() > 8\n}\n",
    )
    .unwrap();
    std::fs::write(outside.join("secret.txt"), "OUTSIDE_MARKER\n").unwrap();
    std::os::unix::fs::symlink(&outside, ws.join("link")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), ws.join("src/alias.rs")).unwrap();
    std::fs::write(ws.join(".env"), "TOKEN=ENV_SECRET_MARKER\n").unwrap();
    std::fs::write(ws.join("server.pem"), "PEM_MARKER\n").unwrap();
    std::fs::write(ws.join("blob.dat"), b"BINARY_MARKER\0\x01\x02").unwrap();
    let mut huge = "HUGE_MARKER\n".to_owned();
    huge.push_str(&"x".repeat(2 * 1024 * 1024));
    std::fs::write(ws.join("huge.log"), huge).unwrap();
    std::fs::write(ws.join("beyond.txt"), "BEYOND_LIMIT_MARKER\n").unwrap();
    let long: String = (0..4000)
        .map(|i| format!("line {i} of a long but allowed file\n"))
        .collect();
    std::fs::write(ws.join("long.txt"), long).unwrap();
    ws
}

fn call(id: usize, name: &str, arguments: &str) -> Value {
    json!({"id": format!("call_{id}"), "type": "function", "function": {"name": name, "arguments": arguments}})
}

fn tool_answer(calls: Vec<Value>) -> Value {
    json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls}, "finish_reason": "tool_calls"}],
           "usage": {"prompt_tokens": 100, "completion_tokens": 10}})
}

fn notes_answer(text: &str) -> Value {
    let content = json!({"notes": [{"text": text, "severity": "blocker"}]}).to_string();
    json!({"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
           "usage": {"prompt_tokens": 200, "completion_tokens": 20}})
}

/// Plays `answers` in order, one per request.
struct Script {
    answers: Vec<Value>,
    next: AtomicUsize,
}

impl Respond for Script {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        let body = self
            .answers
            .get(i)
            .cloned()
            .unwrap_or_else(|| notes_answer("script ran out"));
        ResponseTemplate::new(200).set_body_json(body)
    }
}

async fn server(answers: Vec<Value>) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Script {
            answers,
            next: AtomicUsize::new(0),
        })
        .mount(&server)
        .await;
    server
}

fn review() -> Review {
    Review {
        kind: ReviewKind::Finish,
        reviewer: "advisor".into(),
        final_answer: Some("The handler now validates the token.".into()),
        messages: vec![Message::user("Validate the token in the handler.")].into(),
        max_prompt_tokens: Some(60_000),
        ..Review::default()
    }
}

async fn bodies(server: &MockServer) -> Vec<Value> {
    (server.received_requests().await.unwrap())
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect()
}

/// The tool results of a request body, by call id.
fn results(body: &Value) -> Vec<(String, String)> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| {
            (
                m["tool_call_id"].as_str().unwrap().to_owned(),
                m["content"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn tool_calls_read_inside_the_workspace_and_refused_content_never_reaches_a_request() {
    let base = scratch("loop");
    let ws = workspace(&base.0);
    let abs = base.0.join("outside/secret.txt").display().to_string();
    let round1 = vec![
        call(0, "read_file", r#"{"path": "src/auth.rs"}"#),
        call(1, "read_file", r#"{"path": "../outside/secret.txt"}"#),
        call(2, "read_file", &json!({"path": abs}).to_string()),
        call(3, "read_file", r#"{"path": "link/secret.txt"}"#),
        call(4, "read_file", r#"{"path": "src/alias.rs"}"#),
        call(5, "read_file", r#"{"path": ".env"}"#),
        call(6, "read_file", r#"{"path": "blob.dat"}"#),
        call(7, "read_file", r#"{"path": "huge.log"}"#),
        call(8, "shell", r#"{"command": "cat .env"}"#),
        call(9, "read_file", r#"{"path": "src/auth.rs", "#),
        call(10, "read_file", r#"{"file": "src/auth.rs"}"#),
        call(11, "read_file", r#"{"path": "long.txt"}"#),
        call(12, "list_files", r#"{}"#),
        call(
            13,
            "grep",
            r#"{"pattern": "(INSIDE|OUTSIDE|ENV_SECRET|BINARY|HUGE|PEM)_MARKER"}"#,
        ),
    ];
    let round2 = vec![call(14, "read_file", r#"{"path": "beyond.txt"}"#)];
    let server = server(vec![
        tool_answer(round1),
        tool_answer(round2.clone()),
        tool_answer(round2),
        notes_answer("src/auth.rs:2 only checks the token's length, not its signature."),
    ])
    .await;
    let model = OpenAiCompatible::builder(format!("{}/v1", server.uri()), "m")
        .build()
        .unwrap();
    let tools = WorkspaceTools::new(&ws, WorkspaceTool::ALL).max_tool_calls(14);
    let reviewer = ModelReviewer::new(model).tools(tools);
    let review = review();
    let notes = reviewer.review(&review).await.unwrap();
    assert_eq!(notes.len(), 1);
    assert!(notes[0].text.contains("src/auth.rs:2"));
    assert_eq!(review.usage.tool_calls(), 14, "calls past the limit are never run");
    assert_eq!(review.usage.total().input_tokens, 100 * 3 + 200);

    let bodies = bodies(&server).await;
    assert_eq!(bodies.len(), 4);
    // the tools and the notes schema go together in every request
    for b in &bodies {
        let names: Vec<&str> = b["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["read_file", "list_files", "grep", "git_diff"]);
        assert!(b["response_format"].is_object(), "{b}");
    }
    assert_eq!(
        bodies[0]["tools"][0]["function"]["parameters"]["required"],
        json!(["path"])
    );
    let system = bodies[0]["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("read-only") && system.contains("cites it"), "{system}");
    assert!(!system.contains("you have no tools"));

    let r = results(&bodies[1]);
    assert_eq!(r.len(), 14);
    let by = |id: usize| r.iter().find(|(i, _)| *i == format!("call_{id}")).unwrap().1.clone();
    assert!(
        by(0).contains("INSIDE_MARKER"),
        "the inside file reaches the next request"
    );
    assert!(by(0).contains("2\t    INSIDE_MARKER"), "lines are numbered for citing");
    for (id, want) in [
        (1, "`..` is refused"),
        (2, "absolute paths are refused"),
        (3, "symbolic link"),
        (4, "symbolic link"),
        (5, "denied"),
        (6, "binary"),
        (7, "larger than"),
        (8, "no tool named \"shell\""),
        (9, "not JSON"),
        (10, "invalid arguments"),
    ] {
        assert!(
            by(id).starts_with("error: ") && by(id).contains(want),
            "call {id}: {}",
            by(id)
        );
    }
    assert!(
        by(11).len() <= MAX_RESULT_BYTES && by(11).ends_with("[output cut at 16 KiB]"),
        "a long result is cut and marked"
    );
    let listing = by(12);
    assert!(
        listing.contains("src/auth.rs") && listing.contains("link (symbolic link, not followed)"),
        "{listing}"
    );
    assert!(
        !listing.contains(".env") && !listing.contains("server.pem"),
        "denied names are not listed: {listing}"
    );
    let grep = by(13);
    assert!(grep.contains("src/auth.rs:2:"), "{grep}");
    let r2 = results(&bodies[2]);
    assert!(
        r2.last().unwrap().1.contains("at most 14 tool calls"),
        "{:?}",
        r2.last()
    );

    for b in &bodies {
        let text = b.to_string();
        for marker in REFUSED {
            assert!(!text.contains(marker), "{marker} reached a request");
        }
    }
}

#[tokio::test]
async fn a_model_that_keeps_calling_past_the_limit_is_an_unusable_answer_not_a_hang() {
    let base = scratch("limit");
    let ws = workspace(&base.0);
    let again = || tool_answer(vec![call(0, "read_file", r#"{"path": "beyond.txt"}"#)]);
    let server = server((0..10).map(|_| again()).collect()).await;
    let model = OpenAiCompatible::builder(format!("{}/v1", server.uri()), "m")
        .build()
        .unwrap();
    let reviewer =
        ModelReviewer::new(model).tools(WorkspaceTools::new(&ws, [WorkspaceTool::ReadFile]).max_tool_calls(1));
    let review = review();
    let e = reviewer.review(&review).await.unwrap_err();
    assert!(e.to_string().contains("past its limit of 1"), "{e}");
    assert_eq!(review.usage.tool_calls(), 1);
    assert_eq!(
        bodies(&server).await.len(),
        4,
        "one run call, then three refused rounds"
    );
}

#[tokio::test]
async fn without_tools_configured_no_tools_are_offered() {
    let server = server(vec![notes_answer("x")]).await;
    let model = OpenAiCompatible::builder(format!("{}/v1", server.uri()), "m")
        .build()
        .unwrap();
    ModelReviewer::new(model).review(&review()).await.unwrap();
    let b = &bodies(&server).await[0];
    assert!(b.get("tools").is_none(), "{b}");
    assert!(
        b["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("you have no tools")
    );
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
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every point where a repository's configuration or attributes name a
/// program `git diff` could run.
const HOOK_POINTS: [&str; 10] = [
    "core.pager",
    "pager.diff",
    "diff.external",
    "diff.evil.textconv",
    "diff.evil.command",
    "filter.evil.clean",
    "filter.evil.smudge",
    "filter.evil.process",
    "core.fsmonitor",
    "core.sshCommand",
];

#[tokio::test]
async fn git_diff_runs_no_program_the_repository_names() {
    let base = scratch("git");
    let ws = base.0.join("repo");
    let marks = base.0.join("marks");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::create_dir_all(&marks).unwrap();
    git(&ws, &["init", "-q"]);
    std::fs::write(ws.join("app.py"), "def check(token):\n    return True\n").unwrap();
    std::fs::write(ws.join("staged.py"), "x = 1\n").unwrap();
    std::fs::write(ws.join(".env"), "A=1\n").unwrap();
    git(&ws, &["add", "."]);
    git(&ws, &["commit", "-qm", "one"]);
    std::fs::write(ws.join("staged.py"), "x = 2  # STAGED_CHANGE\n").unwrap();
    git(&ws, &["add", "staged.py"]);
    std::fs::write(
        ws.join("app.py"),
        "def check(token):\n    return verify(token)  # WORKTREE_CHANGE\n",
    )
    .unwrap();
    std::fs::write(ws.join(".env"), "A=ENV_SECRET_MARKER\n").unwrap();

    // now the hostile configuration: every hook point writes a marker
    let program = |name: &str| {
        let script = base.0.join(format!("prog-{}", name.replace('.', "-")));
        std::fs::write(&script, format!("#!/bin/sh\ntouch '{}/{name}'\ncat\n", marks.display())).unwrap();
        std::os::unix::fs::PermissionsExt::set_mode(&mut std::fs::metadata(&script).unwrap().permissions(), 0o755);
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        script.display().to_string()
    };
    let mut config = std::fs::read_to_string(ws.join(".git/config")).unwrap();
    let hooks = base.0.join("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    for point in HOOK_POINTS {
        let (section, key) = point.rsplit_once('.').unwrap();
        let section = match section.split_once('.') {
            Some((s, sub)) => format!("[{s} \"{sub}\"]"),
            None => format!("[{section}]"),
        };
        config.push_str(&format!("{section}\n\t{key} = {}\n", program(point)));
    }
    config.push_str("[filter \"evil\"]\n\trequired = false\n");
    config.push_str(&format!("[core]\n\thooksPath = {}\n", hooks.display()));
    std::fs::write(ws.join(".git/config"), config).unwrap();
    for hook in [
        "pre-commit",
        "post-checkout",
        "post-index-change",
        "fsmonitor-watchman",
        "reference-transaction",
    ] {
        for dir in [hooks.clone(), ws.join(".git/hooks")] {
            std::fs::create_dir_all(&dir).unwrap();
            let script = dir.join(hook);
            std::fs::write(&script, format!("#!/bin/sh\ntouch '{}/hook-{hook}'\n", marks.display())).unwrap();
            std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        }
    }
    std::fs::write(ws.join(".gitattributes"), "* filter=evil diff=evil\n").unwrap();
    std::fs::create_dir_all(ws.join(".git/info")).unwrap();
    std::fs::write(ws.join(".git/info/attributes"), "* filter=evil diff=evil\n").unwrap();
    let count = || std::fs::read_dir(&marks).unwrap().count();

    let tools = WorkspaceTools::new(&ws, [WorkspaceTool::GitDiff]);
    let call = |args: &str| {
        tools.call(&ToolCall {
            id: "c".into(),
            name: "git_diff".into(),
            arguments: args.into(),
        })
    };
    let unstaged = call("{}");
    assert!(!unstaged.error, "{}", unstaged.content);
    assert!(
        unstaged
            .content
            .contains("+    return verify(token)  # WORKTREE_CHANGE"),
        "{}",
        unstaged.content
    );
    assert!(!unstaged.content.contains("STAGED_CHANGE"));
    assert!(
        !unstaged.content.contains("ENV_SECRET_MARKER"),
        "a denied file's diff is left out"
    );
    assert!(
        unstaged.content.contains("1 changed denied files left out"),
        "{}",
        unstaged.content
    );
    let staged = call(r#"{"staged": true}"#);
    assert!(staged.content.contains("+x = 2  # STAGED_CHANGE"), "{}", staged.content);
    let one = call(r#"{"path": "app.py"}"#);
    assert!(one.content.contains("WORKTREE_CHANGE"), "{}", one.content);
    assert!(call(r#"{"path": "../x"}"#).error);
    assert!(call(r#"{"path": ".env"}"#).content.contains("denied"));
    assert_eq!(
        count(),
        0,
        "a program the repository names ran: {:?}",
        std::fs::read_dir(&marks).unwrap().collect::<Vec<_>>()
    );

    // the same repository through plain `git diff` does run them: the test can fail
    let _ = std::process::Command::new("git")
        .args(["diff"])
        .current_dir(&ws)
        .output()
        .unwrap();
    assert!(count() > 0, "the hostile configuration names live programs");
}

#[tokio::test]
async fn git_diff_refuses_a_repository_that_borrows_objects_from_outside() {
    let base = scratch("git-alternates");
    let outside = base.0.join("outside");
    let ws = base.0.join("ws");
    std::fs::create_dir_all(&outside).unwrap();
    git(&outside, &["init", "-q"]);
    std::fs::write(outside.join("app.py"), "OUTSIDE_OBJECT_SECRET = 1\n").unwrap();
    git(&outside, &["add", "."]);
    git(&outside, &["commit", "-qm", "one"]);
    // `--shared` writes .git/objects/info/alternates: the clone's objects live outside it
    git(
        &base.0,
        &[
            "clone",
            "-q",
            "--shared",
            outside.to_str().unwrap(),
            ws.to_str().unwrap(),
        ],
    );
    assert!(ws.join(".git/objects/info/alternates").is_file());
    std::fs::write(ws.join("app.py"), "changed = 2\n").unwrap();
    let tools = WorkspaceTools::new(&ws, [WorkspaceTool::GitDiff]);
    let result = tools.call(&ToolCall {
        id: "c".into(),
        name: "git_diff".into(),
        arguments: "{}".into(),
    });
    assert!(result.error, "{}", result.content);
    assert!(result.content.contains("alternates"), "{}", result.content);
    assert!(!result.content.contains("OUTSIDE_OBJECT_SECRET"), "{}", result.content);
}
