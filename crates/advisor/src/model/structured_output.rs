//! [`StructuredOutput`]: how a request asks a model for JSON — the one name
//! for it in the client, the workspace config (`structured_output = …`) and
//! the CLI (`--structured-output`).
//!
//! Owns the mode's names (`json_schema`, `json_object`, `none`), strict in
//! serde (the CLI's flag parser accepts the same names). Must not build request bodies (the HTTP client's wire
//! format does).

use serde::{Deserialize, Serialize};

/// How a request asks for structured output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StructuredOutput {
    /// `json_schema`: OpenAI / vLLM,
    /// `{"type":"json_schema","json_schema":{"name","schema"}}`.
    #[default]
    JsonSchema,
    /// `json_object`: the llama.cpp server dialect, `{"type":"json_object","schema":…}`.
    #[serde(rename = "json_object")]
    JsonObjectWithSchema,
    /// `none`: no `response_format`; the prompt alone asks for JSON.
    None,
}
