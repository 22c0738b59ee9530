//! Asking an OpenAI-compatible server how large its model's context is.
//!
//! Owns the two probes: `GET {base}/models` (vLLM reports `max_model_len` per
//! model; an `n_ctx` in a model's `meta` is taken too — `n_ctx_train`, the
//! training length, is not the served context and is ignored) and llama.cpp's
//! `GET /props` at the server root (`default_generation_settings.n_ctx`, or a
//! top-level `n_ctx`). Each probe is bounded (5 s, 64 KiB) and any failure is
//! "unknown". Must not be needed for a request to succeed.

use std::time::Duration;

use serde_json::Value;

use super::Inner;

/// Longest probe answer read.
const MAX_PROBE_BYTES: usize = 64 * 1024;
/// Longest a probe may take.
const PROBE_TIMEOUT: Duration = Duration::from_secs(5);
/// Largest context believed (a bigger number is a broken server).
const MAX_BELIEVED_CONTEXT: u64 = 100_000_000;

fn positive(v: Option<&Value>) -> Option<u64> {
    v.and_then(Value::as_u64)
        .filter(|n| (1..=MAX_BELIEVED_CONTEXT).contains(n))
}

/// The context a `/models` answer states for `model` (or its only model).
pub(super) fn from_models(body: &Value, model: &str) -> Option<u64> {
    let data = body.get("data")?.as_array()?;
    let entry = data
        .iter()
        .find(|m| m.get("id").and_then(Value::as_str) == Some(model))
        .or_else(|| (data.len() == 1).then(|| &data[0]))?;
    positive(entry.get("max_model_len")).or_else(|| positive(entry.get("meta").and_then(|m| m.get("n_ctx"))))
}

/// The context a llama.cpp `/props` answer states.
pub(super) fn from_props(body: &Value) -> Option<u64> {
    positive(body.get("default_generation_settings").and_then(|s| s.get("n_ctx")))
        .or_else(|| positive(body.get("n_ctx")))
}

impl Inner {
    async fn probe(&self, url: &str) -> Option<Value> {
        let mut builder = self.http.get(url).timeout(PROBE_TIMEOUT.min(self.timeout));
        if let Some(key) = &self.key.0 {
            builder = builder.bearer_auth(key);
        }
        let resp = builder.send().await.ok()?;
        if !resp.status().is_success() {
            return None;
        }
        let body = self.read_body(resp).await.ok()?;
        if body.len() > MAX_PROBE_BYTES {
            return None;
        }
        serde_json::from_slice(&body).ok()
    }

    /// The served context in tokens, when the server reports it.
    pub(super) async fn context_tokens(&self) -> Option<u64> {
        let base = self.endpoint.strip_suffix("/chat/completions")?;
        if let Some(n) = self
            .probe(&format!("{base}/models"))
            .await
            .and_then(|b| from_models(&b, &self.body.model))
        {
            return Some(n);
        }
        let root = base.strip_suffix("/v1").unwrap_or(base);
        self.probe(&format!("{root}/props")).await.as_ref().and_then(from_props)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn models_and_props_answers_are_read_and_training_lengths_ignored() {
        let vllm = json!({"data": [{"id": "m", "max_model_len": 32768}]});
        assert_eq!(from_models(&vllm, "m"), Some(32768));
        let llama_cpp = json!({"data": [{"id": "x", "meta": {"n_ctx_train": 8192}}]});
        assert_eq!(from_models(&llama_cpp, "m"), None);
        let props = json!({"default_generation_settings": {"n_ctx": 4096}});
        assert_eq!(from_props(&props), Some(4096));
        assert_eq!(from_props(&json!({"n_ctx": 0})), None);
        assert_eq!(from_props(&json!({"n_ctx": u64::MAX})), None);
        assert_eq!(from_props(&json!("nonsense")), None);
    }
}
