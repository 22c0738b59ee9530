//! `[reviewer] kind = "command"`: the reviewer as a program, or as an agent
//! CLI the user is logged into (a [`Preset`]).
//!
//! Owns [`NoncedCommand`], which gives every review a fresh recursion nonce
//! ([`ReviewNonce`]) in the child's environment, tells the prompt which
//! read-only tools the CLI has, and, for Gemini CLI, writes the review's tool
//! policy into the review's private scratch folder and (Gemini CLI has no flag
//! against recording a session) removes the session files of the review
//! afterwards (`gemini_session.rs`). The argv of each preset is `preset.rs`.
//! Must not run a shell, and must not take the program from anywhere but a
//! reviewer table the trust rules allowed (the caller checks the table).

use std::path::{Path, PathBuf};
use std::time::Duration;

use async_trait::async_trait;

use super::preset::Preset;
use super::recursion::{MARKER_VAR, ReviewNonce};
use advisor::note::Note;
use advisor::review::{CommandReviewer, Envelope, Review, ReviewError, Reviewer};

/// A command reviewer whose every review gets a fresh recursion nonce.
#[derive(Debug, Clone)]
pub(crate) struct NoncedCommand {
    argv: Vec<String>,
    envelope: Envelope,
    workspace: Option<PathBuf>,
    timeout: Duration,
    /// The preset this runs, if any.
    preset: Option<Preset>,
}

impl NoncedCommand {
    /// The agent CLI of `preset` (with `model`, when given) as the reviewer.
    pub(crate) fn preset(
        preset: Preset,
        model: Option<&str>,
        workspace: Option<&Path>,
        timeout: Duration,
    ) -> NoncedCommand {
        let last = std::env::temp_dir().join(format!("advisor-codex-last-{}.txt", std::process::id()));
        let (argv, envelope) = preset.argv(model, &last, workspace);
        NoncedCommand {
            argv,
            envelope,
            workspace: workspace.map(Path::to_path_buf),
            timeout,
            preset: Some(preset),
        }
    }

    /// A program and its arguments (never a shell string) as the reviewer,
    /// its answer read as it is; the caller checked that there is a program.
    pub(crate) fn program(argv: Vec<String>, workspace: Option<&Path>, timeout: Duration) -> NoncedCommand {
        NoncedCommand {
            argv,
            envelope: Envelope::Plain,
            workspace: workspace.map(Path::to_path_buf),
            timeout,
            preset: None,
        }
    }
}

#[async_trait]
impl Reviewer for NoncedCommand {
    async fn review(&self, review: &Review) -> Result<Vec<Note>, ReviewError> {
        let nonce = ReviewNonce::issue()
            .map_err(|e| ReviewError::new(format!("the recursion marker could not be recorded ({})", e.kind())))?;
        // Gemini CLI runs in an empty scratch folder instead of the workspace
        let scratch = (self.preset == Some(Preset::Gemini))
            .then(|| std::env::temp_dir().join(format!("advisor-review-{}", nonce.value())));
        let mut argv = self.argv.clone();
        let mut scratch_seen = None;
        let mut cwd = self.workspace.clone();
        if let (Some(dir), Some(p)) = (&scratch, self.preset) {
            let made = advisor::io::create_dir_private(dir, true).and_then(|()| {
                // the folder as the CLI sees it (its working directory, links resolved)
                scratch_seen = std::fs::canonicalize(dir).ok();
                argv = p.with_scratch(&self.argv, scratch_seen.as_deref().unwrap_or(dir))?;
                Ok(())
            });
            if let Err(e) = made {
                let _ = std::fs::remove_dir_all(dir);
                return Err(ReviewError::new(format!(
                    "a scratch folder for the reviewer could not be made ({})",
                    e.kind()
                )));
            }
            cwd = Some(dir.clone());
        }
        let mut reviewer = CommandReviewer::new(argv)
            .envelope(self.envelope.clone())
            .timeout(self.timeout)
            .env(MARKER_VAR, nonce.value());
        if let Some(p) = self.preset {
            reviewer = reviewer.read_only_tools(p.read_only_tools());
        }
        if let Some(dir) = &cwd {
            reviewer = reviewer.current_dir(dir);
        }
        if let Some(ws) = &self.workspace {
            reviewer = reviewer.untrusted_dir(ws);
        }
        let result = reviewer.review(review).await;
        if let Some(dir) = scratch {
            let _ = std::fs::remove_dir_all(dir);
        }
        if let Some(seen) = scratch_seen {
            // bounded file work (and a short wait for Gemini CLI's registry lock)
            let _ = tokio::task::spawn_blocking(move || super::gemini_session::forget_review(&seen)).await;
        }
        drop(nonce);
        result
    }
}
