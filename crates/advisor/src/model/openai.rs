//! `OpenAiCompatible`: a [`ChatModel`] over any OpenAI-compatible
//! `POST {base}/chat/completions` endpoint (OpenAI, vLLM, llama.cpp, Ollama).
//!
//! Owns the HTTP client (one shared connection pool per client and its clones),
//! the concurrency limit, per-request timeouts, bounded retries with backoff on
//! 429 / 5xx / connection errors (honouring `Retry-After`), and the structured
//! output fallback: when a server rejects `response_format` (a 4xx, or the 500
//! llama-cpp-python answers with), the next
//! dialect is tried and remembered. The API key is never logged, never put in
//! an error, and redacted from any server text an error quotes. Must not know
//! what the answer means.

mod context;

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::Semaphore;

use super::backoff::{Backoff, parse_retry_after};
use super::openai_wire::{BodySettings, parse_response, request_body};
use super::{ChatModel, ChatRequest, ChatResponse, ModelError, ModelErrorKind, StructuredOutput};
use crate::error::Error;

/// How long one call of the client may take (connecting to the end of the
/// body, retries and their waits included) unless the builder says otherwise.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// Largest response body read, in bytes.
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;
/// Longest server error text quoted in an error.
const MAX_ERROR_EXCERPT: usize = 300;
/// Longest call timeout a client accepts; longer ones are rejected at `build()`.
pub const MAX_CALL_TIMEOUT: Duration = Duration::from_secs(600);

/// An API key that never prints.
#[derive(Clone, Default)]
struct ApiKey(Option<String>);

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "[redacted]" } else { "none" })
    }
}

impl ApiKey {
    /// `text` with every occurrence of the key replaced, whatever its ASCII
    /// case (a server that echoes the key lowercased or uppercased).
    fn redact(&self, text: &str) -> String {
        match &self.0 {
            Some(k) if k.len() >= 4 => redact_ignoring_ascii_case(text, k),
            _ => text.to_owned(),
        }
    }
}

/// `text` with every ASCII-case-insensitive occurrence of `secret` replaced
/// by `[redacted]`.
fn redact_ignoring_ascii_case(text: &str, secret: &str) -> String {
    let (t, k) = (text.as_bytes(), secret.as_bytes());
    let mut out = String::with_capacity(text.len());
    let mut start = 0;
    let mut i = 0;
    while i + k.len() <= t.len() {
        if t[i..i + k.len()].eq_ignore_ascii_case(k) && text.is_char_boundary(i) && text.is_char_boundary(i + k.len()) {
            out.push_str(&text[start..i]);
            out.push_str("[redacted]");
            i += k.len();
            start = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&text[start..]);
    out
}

#[derive(Debug)]
struct Inner {
    http: reqwest::Client,
    endpoint: String,
    key: ApiKey,
    headers: reqwest::header::HeaderMap,
    body: BodySettings,
    mode: AtomicU8,
    timeout: Duration,
    max_retries: u32,
    backoff: Backoff,
    limiter: Semaphore,
}

/// An OpenAI-compatible chat model. Cheap to clone; clones share the
/// connection pool, the concurrency limit and the learned output mode.
///
/// ```no_run
/// use advisor::model::{OpenAiCompatible, StructuredOutput};
/// let model = OpenAiCompatible::builder("http://127.0.0.1:8080/v1", "my-model")
///     .api_key_from_env("OPENAI_API_KEY")
///     .structured_output(StructuredOutput::JsonObjectWithSchema)
///     .build()?;
/// # Ok::<(), advisor::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct OpenAiCompatible {
    inner: Arc<Inner>,
}

/// Builds an [`OpenAiCompatible`]; validated in [`build`](Self::build).
#[derive(Debug, Clone)]
pub struct OpenAiCompatibleBuilder {
    base_url: String,
    model: String,
    key: ApiKey,
    key_env: Option<String>,
    headers: Vec<(String, String)>,
    mode: StructuredOutput,
    timeout: Duration,
    max_retries: u32,
    backoff: Backoff,
    max_concurrency: usize,
    max_tokens: Option<u32>,
    temperature: Option<f32>,
}

impl OpenAiCompatible {
    /// A builder for `model` at `base_url` (e.g. `https://api.openai.com/v1`).
    pub fn builder(base_url: impl Into<String>, model: impl Into<String>) -> OpenAiCompatibleBuilder {
        OpenAiCompatibleBuilder {
            base_url: base_url.into(),
            model: model.into(),
            key: ApiKey::default(),
            key_env: None,
            headers: Vec::new(),
            mode: StructuredOutput::default(),
            timeout: DEFAULT_CALL_TIMEOUT,
            max_retries: 3,
            backoff: Backoff::default(),
            max_concurrency: 16,
            max_tokens: Some(1024),
            temperature: Some(0.0),
        }
    }

    /// The structured-output mode requests currently use (after any fallback).
    pub fn structured_output(&self) -> StructuredOutput {
        StructuredOutput::from_u8(self.inner.mode.load(Ordering::Relaxed))
    }

    /// The model name sent with each request.
    pub fn model(&self) -> &str {
        &self.inner.body.model
    }
}

impl OpenAiCompatibleBuilder {
    setters! {
        /// The API key (sent as a bearer token). Never logged.
        api_key(key: impl Into<String>) => key = ApiKey(Some(key.into()));

        /// Reads the API key from this environment variable at `build()`; a
        /// missing variable is an error. An explicit [`api_key`](Self::api_key) wins.
        api_key_from_env(var: impl Into<String>) => key_env = Some(var.into());
    }

    /// An extra header sent with every request (its value is treated like a
    /// secret: never logged, never put in an error).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    setters! {
        /// How to ask for JSON answers (default [`StructuredOutput::JsonSchema`]).
        structured_output(mode: StructuredOutput) => mode = mode;

        /// Time allowed for one call, from connecting to the end of the body,
        /// retries and their waits included (default 60 s, at most
        /// [`MAX_CALL_TIMEOUT`]): a `Retry-After` longer than what remains ends the
        /// call with the server's error instead of waiting. A request that times
        /// out is not retried.
        timeout(timeout: Duration) => timeout = timeout;

        /// Retries after a 429, a 5xx or a connection error (default 3).
        max_retries(n: u32) => max_retries = n;

        /// Spacing of retries (default 500 ms doubling, at most 20 s).
        backoff(backoff: Backoff) => backoff = backoff;

        /// Requests in flight at once across all clones (default 16).
        max_concurrency(n: usize) => max_concurrency = n;

        /// `max_tokens` sent with each request (default 1024; `None` to omit).
        max_tokens(n: Option<u32>) => max_tokens = n;

        /// `temperature` sent with each request (default 0; `None` to omit).
        temperature(t: Option<f32>) => temperature = t;
    }

    /// Validates the settings and builds the client.
    pub fn build(self) -> Result<OpenAiCompatible, Error> {
        let base = self.base_url.trim().trim_end_matches('/');
        // Errors about the URL never quote it: it may carry a key.
        let parsed = reqwest::Url::parse(base).map_err(|e| {
            Error::config(
                "base_url",
                format!("is not a URL ({e}); use e.g. http://127.0.0.1:8080/v1"),
            )
        })?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(Error::config("base_url", "must start with http:// or https://"));
        }
        if base.contains(['?', '#']) || parsed.query().is_some() || parsed.fragment().is_some() {
            return Err(Error::config(
                "base_url",
                "must not have a query (?…) or a fragment (#…): the path /chat/completions is appended to it; \
                 pass a key with the API key setting, not in the URL",
            ));
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(Error::config(
                "base_url",
                "must not carry credentials (user:password@); pass a key with the API key setting",
            ));
        }
        if self.model.trim().is_empty() {
            return Err(Error::config("model", "must not be empty"));
        }
        if self.timeout.is_zero() || self.timeout > MAX_CALL_TIMEOUT {
            return Err(Error::config(
                "timeout",
                format!("must be more than zero and at most {} s", MAX_CALL_TIMEOUT.as_secs()),
            ));
        }
        let mut headers = reqwest::header::HeaderMap::new();
        for (name, value) in &self.headers {
            let name = reqwest::header::HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| Error::config("headers", "a header name is not a valid HTTP header name"))?;
            let mut value = reqwest::header::HeaderValue::from_str(value)
                .map_err(|_| Error::config("headers", "a header value is not a valid HTTP header value"))?;
            value.set_sensitive(true);
            headers.insert(name, value);
        }
        if self.max_concurrency == 0 {
            return Err(Error::config("max_concurrency", "must be at least 1"));
        }
        let key = match (self.key.0, self.key_env) {
            (None, Some(var)) => match std::env::var(&var) {
                Ok(k) if !k.is_empty() => ApiKey(Some(k)),
                _ => {
                    return Err(Error::config(
                        "api_key",
                        format!("the environment variable {var} is not set"),
                    ));
                }
            },
            (key, _) => ApiKey(key),
        };
        let http = reqwest::Client::builder()
            .user_agent(concat!("advisor/", env!("CARGO_PKG_VERSION")))
            // a redirect would carry the review prompt and every configured
            // header (`x-api-key`, `api-key`) to another origin: never followed
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| Error::config("http", format!("could not build the HTTP client: {e}")))?;
        Ok(OpenAiCompatible {
            inner: Arc::new(Inner {
                http,
                endpoint: format!("{base}/chat/completions"),
                key,
                headers,
                body: BodySettings {
                    model: self.model,
                    max_tokens: self.max_tokens,
                    temperature: self.temperature,
                },
                mode: AtomicU8::new(self.mode.as_u8()),
                timeout: self.timeout,
                max_retries: self.max_retries,
                backoff: self.backoff,
                limiter: Semaphore::new(self.max_concurrency),
            }),
        })
    }
}

/// One attempt's outcome.
enum Attempt {
    Done(ChatResponse),
    Retry(ModelError, Option<Duration>),
    FallBack,
    Fail(ModelError),
}

impl Inner {
    fn excerpt(&self, body: &[u8]) -> String {
        let text = String::from_utf8_lossy(&body[..body.len().min(MAX_ERROR_EXCERPT * 4)]);
        let text = self.key.redact(&text);
        text.chars()
            .filter(|c| !c.is_control())
            .take(MAX_ERROR_EXCERPT)
            .collect()
    }

    fn timed_out(&self) -> ModelError {
        ModelError::new(
            ModelErrorKind::Timeout,
            format!("the model server did not answer within {:?}", self.timeout),
        )
    }

    /// A transport failure: final when the call timed out, else worth a retry.
    fn transport_failure(&self, e: &reqwest::Error) -> Attempt {
        if e.is_timeout() {
            Attempt::Fail(self.transport_error(e))
        } else {
            Attempt::Retry(self.transport_error(e), None)
        }
    }

    async fn read_body(&self, mut resp: reqwest::Response) -> Result<Vec<u8>, reqwest::Error> {
        let mut body = Vec::new();
        while let Some(chunk) = resp.chunk().await? {
            body.extend_from_slice(&chunk);
            if body.len() > MAX_BODY_BYTES {
                break;
            }
        }
        Ok(body)
    }

    fn transport_error(&self, e: &reqwest::Error) -> ModelError {
        if e.is_timeout() {
            return self.timed_out();
        }
        let what = if e.is_connect() {
            "could not connect to the model server"
        } else {
            "the request to the model server failed"
        };
        // reqwest errors carry the URL, never headers; the key cannot appear.
        ModelError::new(ModelErrorKind::Transport, self.key.redact(&format!("{what}: {e}")))
    }

    async fn attempt(&self, request: &ChatRequest, mode: StructuredOutput, timeout: Duration) -> Attempt {
        let body = request_body(&self.body, request, mode);
        let mut builder = self
            .http
            .post(&self.endpoint)
            .timeout(timeout)
            .headers(self.headers.clone())
            .json(&body);
        if let Some(key) = &self.key.0 {
            builder = builder.bearer_auth(key);
        }
        let Ok(_permit) = self.limiter.acquire().await else {
            return Attempt::Fail(ModelError::new(ModelErrorKind::Transport, "the client is shut down"));
        };
        let resp = match builder.send().await {
            Ok(r) => r,
            Err(e) => return self.transport_failure(&e),
        };
        let status = resp.status();
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let body = match self.read_body(resp).await {
            Ok(b) => b,
            Err(e) => return self.transport_failure(&e),
        };
        if status.is_success() {
            if body.len() > MAX_BODY_BYTES {
                return Attempt::Fail(ModelError::new(
                    ModelErrorKind::InvalidResponse,
                    "the server's answer is too large",
                ));
            }
            return parse_response(&body).map_or_else(Attempt::Fail, Attempt::Done);
        }
        let code = status.as_u16();
        if status.is_redirection() {
            // the target (and whatever its query carries) is never quoted
            return Attempt::Fail(
                ModelError::new(
                    ModelErrorKind::Status,
                    format!(
                        "the model server answered {status}, a redirect, which is not followed (the prompt and the \
headers would go to another origin); set base_url to the server that answers"
                    ),
                )
                .with_status(code),
            );
        }
        let excerpt = self.excerpt(&body);
        let error = ModelError::new(
            ModelErrorKind::Status,
            format!("the model server answered {status}: {excerpt}"),
        )
        .with_status(code);
        // A complaint about `response_format` is not transient: llama.cpp's
        // server answers it with 400 or, in llama-cpp-python 0.3.x, with 500.
        if (status.is_client_error() || status.is_server_error())
            && code != 429
            && request.response_schema.is_some()
            && mode.fallback().is_some()
            && String::from_utf8_lossy(&body).contains("response_format")
        {
            return Attempt::FallBack;
        }
        if code == 429 || status.is_server_error() {
            return Attempt::Retry(error, retry_after);
        }
        Attempt::Fail(error)
    }
}

#[async_trait]
impl ChatModel for OpenAiCompatible {
    async fn context_tokens(&self) -> Option<u64> {
        self.inner.context_tokens().await
    }

    async fn complete(&self, request: ChatRequest) -> Result<ChatResponse, ModelError> {
        let inner = &self.inner;
        let mut retries = 0u32;
        let deadline = tokio::time::Instant::now() + inner.timeout;
        loop {
            let mode = StructuredOutput::from_u8(inner.mode.load(Ordering::Relaxed));
            let remaining = deadline.saturating_duration_since(tokio::time::Instant::now());
            if remaining.is_zero() {
                return Err(inner.timed_out());
            }
            match inner.attempt(&request, mode, remaining).await {
                Attempt::Done(r) => return Ok(r),
                Attempt::Fail(e) => return Err(e),
                Attempt::FallBack => {
                    let next = mode.fallback().unwrap_or(StructuredOutput::None);
                    tracing::info!(from = ?mode, to = ?next, "the model server rejected response_format; falling back");
                    inner.mode.store(next.as_u8(), Ordering::Relaxed);
                }
                Attempt::Retry(e, retry_after) => {
                    if retries >= inner.max_retries {
                        return Err(e);
                    }
                    let delay = inner.backoff.delay(retries, retry_after);
                    // A wait may not outlive the call's deadline (a server's
                    // `Retry-After: 999999` included): give up with its error.
                    if tokio::time::Instant::now() + delay >= deadline {
                        return Err(e);
                    }
                    tracing::debug!(error = %e, retry = retries + 1, ?delay, "retrying the model request");
                    retries += 1;
                    tokio::time::sleep(delay).await;
                }
            }
        }
    }
}
