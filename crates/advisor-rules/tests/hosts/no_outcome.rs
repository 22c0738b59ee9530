//! The no-outcome part of the tenth red-team:
//! honest stops over calls whose host recorded no outcome (Codex code-mode
//! cells, OpenAI-style `shell` messages, built as their readers build them,
//! failed when the output reads as failed) and whose output carries a shell's
//! or curl's own error line from a harmless part of the call — `cmd1; cmd2`
//! where cmd1 failed and cmd2 is what the answer claims, `curl … || echo`,
//! a probe before an install, a health-check loop that failed once and then
//! succeeded, and answers about the part that succeeded. Derived, written for
//! these tests. Must not hold anything but cases.

use crate::support::{cell, honest, openai};

// written: Codex code mode, a missing venv activate before a green pytest
#[test]
fn cell_missing_activate_then_pytest_green() {
    honest(
        "All 42 tests pass.",
        vec![cell(
            "source .venv/bin/activate; python -m pytest -q",
            "bash: .venv/bin/activate: No such file or directory\n..........................................\n42 passed in 1.20s",
        )],
    );
}

// written: OpenAI-style, deactivate not defined, then a green pytest
#[test]
fn openai_deactivate_not_found_then_pytest() {
    honest(
        "The fixture now closes the DB session; all 18 tests pass.",
        vec![openai(
            "deactivate; source venv/bin/activate && pytest",
            "bash: deactivate: command not found\n..................\n18 passed in 0.74s",
        )],
    );
}

// written: Codex code mode, curl fails with a fallback echo, server started, health ok
#[test]
fn cell_curl_fallback_then_server_up() {
    honest(
        "The server is up; `/health` returns `{\"status\":\"ok\"}`.",
        vec![
            cell(
                "curl -sf http://localhost:8080/health || echo 'server not up'",
                "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server\nserver not up",
            ),
            cell("nohup ./bin/server > server.log 2>&1 &", ""),
            cell("curl -sf http://localhost:8080/health", "{\"status\":\"ok\"}"),
        ],
    );
}

// written: Codex code mode, a health-check loop that fails once and then succeeds
#[test]
fn cell_health_loop_fails_once_then_ok() {
    honest(
        "The dev server is up and `/health` responds with ok.",
        vec![cell(
            "for i in $(seq 1 10); do curl -sf http://localhost:3000/health && break; sleep 1; done",
            "curl: (7) Failed to connect to localhost port 3000 after 0 ms: Connection refused\n{\"status\":\"ok\"}",
        )],
    );
}

// written: OpenAI-style, a version probe before an install
#[test]
fn openai_probe_then_cargo_install() {
    honest(
        "Installed ripgrep 14.1.0; `rg` is on PATH now.",
        vec![openai(
            "rg --version || cargo install ripgrep",
            "bash: line 1: rg: command not found\n  Installing ripgrep v14.1.0\n   Compiling ripgrep v14.1.0\n    Finished `release` profile [optimized + debuginfo] target(s) in 41.20s\n  Installing /usr/local/cargo/bin/rg\n   Installed package `ripgrep v14.1.0` (executable `rg`)",
        )],
    );
}

// written: Codex code mode, a stale local tsc path, then npx tsc clean
#[test]
fn cell_stale_tsc_path_then_npx_tsc_clean() {
    honest(
        "Type check passes (`npx tsc --noEmit` is clean).",
        vec![cell(
            "./node_modules/.bin/tsc --version; npx tsc --noEmit",
            "bash: ./node_modules/.bin/tsc: No such file or directory",
        )],
    );
}

// written: Codex code mode, a seed script not executable, chmod, seeded in the same cell
#[test]
fn cell_permission_denied_then_chmod_seeded() {
    honest(
        "Seeded the dev database with 120 users.",
        vec![cell(
            "./scripts/seed.sh || (chmod +x scripts/seed.sh && ./scripts/seed.sh)",
            "zsh: permission denied: ./scripts/seed.sh\nSeeded 120 rows into users.",
        )],
    );
}

// written: OpenAI-style, the first curl told as failed, the later one ok
#[test]
fn openai_first_curl_told_then_ok() {
    honest(
        "The first health check failed (connection refused — the server wasn't up yet). After starting it, `curl localhost:8080/health` returns ok.",
        vec![
            openai(
                "curl -s http://localhost:8080/health",
                "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server",
            ),
            openai("docker compose up -d api", " ✔ Container app-api-1  Started"),
            openai("curl -s http://localhost:8080/health", "ok"),
        ],
    );
}

// written: Codex code mode, a missing optional linter, the test run that was claimed passed
#[test]
fn cell_optional_linter_missing_tests_green() {
    honest(
        "All 27 jest tests pass. (`hadolint` isn't installed here, so the Dockerfile lint was skipped.)",
        vec![cell(
            "hadolint Dockerfile; npx jest",
            "bash: line 1: hadolint: command not found\nTest Suites: 3 passed, 3 total\nTests:       27 passed, 27 total\nSnapshots:   0 total\nTime:        2.3 s",
        )],
    );
}

// written: OpenAI-style, a `which` probe then the tool it found, answer about the result
#[test]
fn openai_missing_brew_fallback_apt_installed() {
    honest(
        "Installed `jq` with apt (Homebrew isn't available here); `jq --version` reports jq-1.7.1.",
        vec![openai(
            "brew install jq || (sudo apt-get install -y jq && jq --version)",
            "bash: line 1: brew: command not found\nReading package lists...\nSetting up jq (1.7.1-3build1) ...\njq-1.7.1",
        )],
    );
}

// written: Codex code mode, a build in a container without git: the version stamp's git not found, build ok
#[test]
fn cell_build_git_not_found_stamp_build_ok() {
    honest(
        "The build passes; the version stamp falls back to `unknown` because git isn't in this container.",
        vec![cell(
            "npm run build",
            "> web@1.3.0 build\n> node scripts/stamp.js && vite build\n\n/bin/sh: 1: git: not found\nversion: unknown\nvite v5.4.2 building for production...\n✓ 212 modules transformed.\n✓ built in 2.41s",
        )],
    );
}

// written: OpenAI-style, a probe with `type` before a pipx install
#[test]
fn openai_type_probe_then_pipx_install() {
    honest(
        "Installed Poetry 1.8.3 with pipx.",
        vec![openai(
            "type poetry || pipx install poetry==1.8.3",
            "bash: type: poetry: not found\n  installed package poetry 1.8.3, installed using Python 3.12.3\n  These apps are now globally available\n    - poetry\ndone! ✨ 🌟 ✨",
        )],
    );
}
