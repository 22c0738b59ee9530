//! The model flags shared by `review` and `consult ask`, and the one place
//! they become an [`OpenAiCompatible`] client (API key from `ADVISOR_API_KEY`).

use std::time::Duration;

use advisor::model::{OpenAiCompatible, StructuredOutput};
use clap::Args;

/// `--model`, `--base-url`, `--structured-output`, `--timeout-secs`.
#[derive(Debug, Args)]
pub(crate) struct ModelArgs {
    /// The model to ask (an OpenAI-compatible endpoint).
    #[arg(long, requires = "base_url")]
    pub(crate) model: Option<String>,
    /// OpenAI-compatible base URL (e.g. http://127.0.0.1:8080/v1); needs --model.
    #[arg(long, requires = "model")]
    pub(crate) base_url: Option<String>,
    /// Structured output: json_schema, json_object (llama.cpp) or none.
    #[arg(long, default_value = "json_schema", value_parser = structured_output())]
    pub(crate) structured_output: StructuredOutput,
    /// Seconds one model request may take (1 to 600).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub(crate) timeout_secs: u64,
}

impl ModelArgs {
    /// The client these flags describe, `Ok(None)` without `--model`.
    pub(crate) fn client(&self) -> Result<Option<OpenAiCompatible>, String> {
        let Some(model) = &self.model else { return Ok(None) };
        let mut b = OpenAiCompatible::builder(self.base_url.clone().unwrap_or_default(), model.clone())
            .structured_output(self.structured_output)
            .timeout(Duration::from_secs(self.timeout_secs));
        if let Some(key) = std::env::var("ADVISOR_API_KEY").ok().filter(|k| !k.is_empty()) {
            b = b.api_key(key);
        }
        b.build().map(Some).map_err(|e| e.to_string())
    }
}

/// `--structured-output`'s parser: the wire names of [`StructuredOutput`],
/// each with the line its documentation gives (the library's enum knows
/// nothing of clap).
fn structured_output() -> impl clap::builder::TypedValueParser<Value = StructuredOutput> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("json_schema")
            .help("`json_schema`: OpenAI / vLLM, `{\"type\":\"json_schema\",\"json_schema\":{\"name\",\"schema\"}}`"),
        PossibleValue::new("json_object")
            .help("`json_object`: the llama.cpp server dialect, `{\"type\":\"json_object\",\"schema\":…}`"),
        PossibleValue::new("none").help("`none`: no `response_format`; the prompt alone asks for JSON"),
    ])
    .map(|s| match s.as_str() {
        "json_object" => StructuredOutput::JsonObjectWithSchema,
        "none" => StructuredOutput::None,
        _ => StructuredOutput::JsonSchema,
    })
}
