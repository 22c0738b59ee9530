//! The model flags shared by `review`, `eval` and `consult ask`, as the
//! [`ReviewerTable`] they describe (API key from `ADVISOR_API_KEY`); the
//! client is built where every config's is ([`crate::config::build_model`]).

use std::time::Duration;

use advisor::model::{OpenAiCompatible, StructuredOutput};
use clap::Args;

use crate::config::{ReviewerKind, ReviewerTable, build_model};

/// The variable the model flags' API key is read from.
const API_KEY_ENV: &str = "ADVISOR_API_KEY";

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
    #[arg(long, default_value_t = advisor::model::DEFAULT_CALL_TIMEOUT.as_secs(), value_parser = clap::value_parser!(u64).range(1..=600))]
    pub(crate) timeout_secs: u64,
}

impl ModelArgs {
    /// The reviewer settings these flags describe, `None` without `--model`.
    pub(crate) fn settings(&self) -> Option<ReviewerTable> {
        let model = self.model.clone()?;
        let key_set = std::env::var_os(API_KEY_ENV).is_some_and(|k| !k.is_empty());
        Some(ReviewerTable {
            kind: ReviewerKind::Model,
            model: Some(model),
            base_url: Some(self.base_url.clone().unwrap_or_default()),
            api_key_env: key_set.then(|| API_KEY_ENV.to_owned()),
            structured_output: self.structured_output,
            ..ReviewerTable::default()
        })
    }

    /// How long one model request may take.
    pub(crate) fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs)
    }

    /// The client these flags describe, `Ok(None)` without `--model`.
    pub(crate) fn client(&self) -> Result<Option<OpenAiCompatible>, String> {
        self.settings()
            .map(|s| build_model(&s, self.timeout()))
            .transpose()
            .map_err(|e| e.to_string())
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
