//! Tools for the reference loop.
//!
//! Owns the [`Tool`] trait and its closure adapter; must not know about
//! extensions.

use async_trait::async_trait;

/// A tool the reference loop can execute.
#[async_trait]
pub trait Tool: Send + Sync {
    /// Runs the tool with the model's arguments; `Err` marks the call failed.
    async fn call(&self, arguments: &str) -> Result<String, String>;
}

/// A [`Tool`] made from a closure; see [`tool_fn`].
#[derive(Clone)]
pub struct FnTool<F>(F);

/// Adapts a plain closure into a [`Tool`].
pub fn tool_fn<F>(f: F) -> FnTool<F>
where
    F: Fn(&str) -> Result<String, String> + Send + Sync,
{
    FnTool(f)
}

#[async_trait]
impl<F> Tool for FnTool<F>
where
    F: Fn(&str) -> Result<String, String> + Send + Sync,
{
    async fn call(&self, arguments: &str) -> Result<String, String> {
        (self.0)(arguments)
    }
}
