//! The Claude Code plugin shipped in this repository (`.claude-plugin/marketplace.json`,
//! `plugins/claude-code/.claude-plugin/plugin.json`, `plugins/claude-code/hooks/hooks.json`)
//! checked against the documented schema, and the command its hooks run (the plugin's
//! `hooks/advisor-hook.sh` launcher) checked to run `advisor hook` from PATH and to fail open
//! in one line without it.
//!
//! The schema below is written from Claude Code's documentation (code.claude.com
//! docs, read from the `ericbuess/claude-code-docs` mirror at commit
//! `ec68a5b2d32cf44e913cb4a6ed35bb1cbc2cbdc9`):
//! - `docs/plugin-marketplaces.md`, "Marketplace schema" (required `name`,
//!   `owner`, `plugins`; optional `$schema`, `description`, `version`,
//!   `metadata.pluginRoot`, `allowCrossMarketplaceDependenciesOn`, `renames`),
//!   "Owner fields", "Plugin entries" and "Plugin sources" (a relative path must
//!   start with `./` and resolves against the marketplace root), and the list of
//!   reserved marketplace names;
//! - `docs/plugins-reference.md`, "Plugin manifest schema" (`name` is the only
//!   required field; metadata and component path fields with their types),
//!   "Hooks" (the file lives at `hooks/hooks.json` in the plugin root and wraps
//!   the settings shape in `{"hooks": …}`; the event list) and "Standard plugin
//!   layout" (only `plugin.json` inside `.claude-plugin/`);
//! - `docs/hooks.md`, "Hook handler fields" (common fields `type`, `if`,
//!   `timeout`, `statusMessage`, `once`; command fields `command`, `args`,
//!   `async`, `asyncRewake`, `shell`).
//!
//! Claude Code itself ignores unknown top-level manifest fields (`claude plugin
//! validate` warns, `--strict` fails); these structs deny them so a typo fails
//! here, as `--strict` would.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load<T: for<'de> Deserialize<'de>>(path: &Path) -> T {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} does not match the documented schema: {e}", path.display()))
}

/// `string|array|object` component fields.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
#[allow(dead_code)]
enum PathsOrInline {
    One(String),
    Many(Vec<Value>),
    Inline(serde_json::Map<String, Value>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Person {
    name: String,
    email: Option<String>,
    url: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MarketplaceMetadata {
    #[serde(rename = "pluginRoot")]
    plugin_root: Option<String>,
    description: Option<String>,
    version: Option<String>,
}

/// `docs/plugin-marketplaces.md` "Marketplace schema".
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Marketplace {
    #[serde(rename = "$schema")]
    schema: Option<String>,
    name: String,
    owner: Person,
    plugins: Vec<PluginEntry>,
    description: Option<String>,
    version: Option<String>,
    metadata: Option<MarketplaceMetadata>,
    #[serde(rename = "allowCrossMarketplaceDependenciesOn")]
    allow_cross_marketplace_dependencies_on: Option<Vec<String>>,
    renames: Option<BTreeMap<String, Option<String>>>,
}

/// `source`: a `./` path, or an object with a `source` kind.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
#[allow(dead_code)]
enum Source {
    Path(String),
    Object(serde_json::Map<String, Value>),
}

/// `docs/plugin-marketplaces.md` "Plugin entries": any manifest field plus
/// `source`, `category`, `tags`, `strict`, `relevance`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[allow(dead_code)]
struct PluginEntry {
    name: String,
    source: Source,
    display_name: Option<String>,
    description: Option<String>,
    version: Option<String>,
    author: Option<Person>,
    homepage: Option<String>,
    repository: Option<String>,
    license: Option<String>,
    keywords: Option<Vec<String>>,
    metadata: Option<serde_json::Map<String, Value>>,
    category: Option<String>,
    tags: Option<Vec<String>>,
    strict: Option<bool>,
    relevance: Option<serde_json::Map<String, Value>>,
    default_enabled: Option<bool>,
    skills: Option<PathsOrInline>,
    commands: Option<PathsOrInline>,
    agents: Option<PathsOrInline>,
    hooks: Option<PathsOrInline>,
    mcp_servers: Option<PathsOrInline>,
    lsp_servers: Option<PathsOrInline>,
}

/// `docs/plugins-reference.md` "Plugin manifest schema".
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[allow(dead_code)]
struct PluginManifest {
    #[serde(rename = "$schema")]
    schema: Option<String>,
    name: String,
    display_name: Option<String>,
    version: Option<String>,
    description: Option<String>,
    author: Option<Person>,
    homepage: Option<String>,
    repository: Option<String>,
    license: Option<String>,
    keywords: Option<Vec<String>>,
    metadata: Option<serde_json::Map<String, Value>>,
    default_enabled: Option<bool>,
    skills: Option<PathsOrInline>,
    commands: Option<PathsOrInline>,
    agents: Option<PathsOrInline>,
    workflows: Option<PathsOrInline>,
    hooks: Option<PathsOrInline>,
    mcp_servers: Option<PathsOrInline>,
    output_styles: Option<PathsOrInline>,
    lsp_servers: Option<PathsOrInline>,
    experimental: Option<serde_json::Map<String, Value>>,
    user_config: Option<serde_json::Map<String, Value>>,
    channels: Option<Vec<Value>>,
    dependencies: Option<Vec<Value>>,
}

/// The events `docs/plugins-reference.md` "Hooks" lists for plugin hooks.
#[derive(Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
enum HookEvent {
    SessionStart,
    Setup,
    UserPromptSubmit,
    UserPromptExpansion,
    PreToolUse,
    PermissionRequest,
    PermissionDenied,
    PostToolUse,
    PostToolUseFailure,
    PostToolBatch,
    Notification,
    MessageDisplay,
    SubagentStart,
    SubagentStop,
    TaskCreated,
    TaskCompleted,
    Stop,
    StopFailure,
    TeammateIdle,
    InstructionsLoaded,
    ConfigChange,
    CwdChanged,
    DirectoryAdded,
    FileChanged,
    WorktreeCreate,
    WorktreeRemove,
    PreCompact,
    PostCompact,
    Elicitation,
    ElicitationResult,
    SessionEnd,
}

/// `hooks/hooks.json`: the settings shape wrapped in `{"hooks": …}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HooksFile {
    hooks: BTreeMap<HookEvent, Vec<MatcherGroup>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct MatcherGroup {
    matcher: Option<String>,
    hooks: Vec<CommandHandler>,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum HandlerType {
    Command,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Shell {
    Bash,
    Powershell,
}

/// `docs/hooks.md` "Common fields" and "Command hook fields".
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct CommandHandler {
    #[serde(rename = "type")]
    kind: HandlerType,
    command: String,
    args: Option<Vec<String>>,
    #[serde(rename = "if")]
    if_rule: Option<String>,
    timeout: Option<u64>,
    #[serde(rename = "statusMessage")]
    status_message: Option<String>,
    once: Option<bool>,
    #[serde(rename = "async")]
    is_async: Option<bool>,
    #[serde(rename = "asyncRewake")]
    async_rewake: Option<bool>,
    shell: Option<Shell>,
}

/// Keys Codex's hooks.json handler accepts (`codex-rs/config/src/hook_config.rs`
/// `HookHandlerConfig::Command`), so the same file loads as a Codex plugin hook.
const CODEX_HANDLER_KEYS: [&str; 5] = ["type", "command", "timeout", "async", "statusMessage"];

const RESERVED_MARKETPLACE_NAMES: [&str; 16] = [
    "claude-code-marketplace",
    "claude-code-plugins",
    "claude-plugins-official",
    "claude-plugins-community",
    "claude-community",
    "anthropic-marketplace",
    "anthropic-plugins",
    "agent-skills",
    "anthropic-agent-skills",
    "knowledge-work-plugins",
    "life-sciences",
    "claude-for-legal",
    "claude-for-financial-services",
    "financial-services-plugins",
    "first-party-plugins",
    "healthcare",
];

fn is_kebab(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('-')
        && !name.ends_with('-')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The plugin directory the marketplace's single entry points at.
fn plugin_dir(market: &Marketplace) -> PathBuf {
    assert_eq!(market.plugins.len(), 1, "one plugin: advisor");
    let Source::Path(rel) = &market.plugins[0].source else {
        panic!("the plugin lives in this repository: a relative source");
    };
    assert!(rel.starts_with("./"), "a relative source must start with ./ ({rel})");
    assert!(!rel.contains(".."), "no ../ outside the marketplace root ({rel})");
    root().join(rel.trim_start_matches("./"))
}

#[test]
fn marketplace_matches_the_documented_schema() {
    let market: Marketplace = load(&root().join(".claude-plugin/marketplace.json"));
    assert!(is_kebab(&market.name), "marketplace name is kebab-case");
    assert!(!RESERVED_MARKETPLACE_NAMES.contains(&market.name.as_str()));
    assert!(!market.owner.name.trim().is_empty());
    for entry in &market.plugins {
        assert!(is_kebab(&entry.name), "plugin name is kebab-case");
    }
    let dir = plugin_dir(&market);
    assert!(dir.join(".claude-plugin/plugin.json").is_file());
}

#[test]
fn plugin_manifest_matches_the_documented_schema_and_the_marketplace_entry() {
    let market: Marketplace = load(&root().join(".claude-plugin/marketplace.json"));
    let dir = plugin_dir(&market);
    let manifest: PluginManifest = load(&dir.join(".claude-plugin/plugin.json"));
    assert!(is_kebab(&manifest.name));
    assert_eq!(
        manifest.name, market.plugins[0].name,
        "`/plugin install advisor@…` names both"
    );
    assert_eq!(manifest.name, "advisor");
    // Only plugin.json lives in .claude-plugin/; hooks/ sits at the plugin root.
    let inside: Vec<String> = std::fs::read_dir(dir.join(".claude-plugin"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(inside, ["plugin.json"]);
    assert!(manifest.hooks.is_none(), "the default hooks/hooks.json is used");
    assert!(dir.join("hooks/hooks.json").is_file());
}

fn hooks_file() -> (HooksFile, Value) {
    let market: Marketplace = load(&root().join(".claude-plugin/marketplace.json"));
    let path = plugin_dir(&market).join("hooks/hooks.json");
    let raw: Value = load(&path);
    (load(&path), raw)
}

#[test]
fn hooks_register_stop_and_subagent_stop_with_a_status_message_running_advisor_hook() {
    let (file, raw) = hooks_file();
    let events: Vec<&HookEvent> = file.hooks.keys().collect();
    assert_eq!(events, [&HookEvent::SubagentStop, &HookEvent::Stop]);
    for groups in file.hooks.values() {
        assert_eq!(groups.len(), 1);
        assert!(
            groups[0].matcher.is_none(),
            "matcher is ignored for Stop; all subagents for SubagentStop"
        );
        for h in &groups[0].hooks {
            assert_eq!(h.kind, HandlerType::Command);
            assert!(h.status_message.as_deref().is_some_and(|m| m.starts_with("advisor")));
            assert_eq!(h.command, LAUNCHER, "the hooks run the plugin's launcher");
            assert!(h.args.is_none());
        }
    }
    // Codex reads the same file for plugins: only keys its handler accepts.
    for groups in raw["hooks"].as_object().unwrap().values() {
        for group in groups.as_array().unwrap() {
            for h in group["hooks"].as_array().unwrap() {
                for key in h.as_object().unwrap().keys() {
                    assert!(
                        CODEX_HANDLER_KEYS.contains(&key.as_str()),
                        "{key} is not a Codex handler key"
                    );
                }
            }
        }
    }
}

/// What both hooks run: the plugin's POSIX sh launcher (`hooks/advisor-hook.sh`), which
/// finds the binary in `$ADVISOR_BIN`, on PATH or in the plugin's `node_modules`.
const LAUNCHER: &str = r#"sh "${CLAUDE_PLUGIN_ROOT}/hooks/advisor-hook.sh""#;

/// A directory standing in for PATH: `sh` always, and with `advisor` a stand-in that prints
/// the arguments it was given (so the test sees what the launcher ran).
#[cfg(unix)]
fn path_with_advisor(with: bool) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("plugin-path-{with}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(which("sh"), dir.join("sh")).unwrap();
    if with {
        let fake = dir.join("advisor");
        std::fs::write(&fake, "#!/bin/sh\necho \"advisor ran with: $*\"\n").unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir
}

/// `name` found on the test's own PATH (the child gets a PATH without it).
#[cfg(unix)]
fn which(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name} on PATH"))
}

#[cfg(unix)]
fn run_hook_command(command: &str, with_advisor: bool) -> std::process::Output {
    let market: Marketplace = load(&root().join(".claude-plugin/marketplace.json"));
    Command::new(which("bash"))
        .arg("-c")
        .arg(command)
        .env_clear()
        .env("PATH", path_with_advisor(with_advisor))
        .env("CLAUDE_PLUGIN_ROOT", plugin_dir(&market))
        .output()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn the_hook_command_runs_advisor_hook_from_path() {
    let (file, _) = hooks_file();
    for groups in file.hooks.values() {
        let out = run_hook_command(&groups[0].hooks[0].command, true);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "advisor ran with: hook\n");
    }
}

#[cfg(unix)]
#[test]
fn without_advisor_on_path_the_hook_says_so_in_one_line_and_does_not_block() {
    let (file, _) = hooks_file();
    let out = run_hook_command(&file.hooks[&HookEvent::Stop][0].hooks[0].command, false);
    // Exit 1 is a non-blocking error in Claude Code and Codex (exit 2 would block).
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no advisor binary"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn advisor_has_a_hook_subcommand() {
    let out = Command::new(env!("CARGO_BIN_EXE_advisor"))
        .args(["hook", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: advisor hook"));
}
