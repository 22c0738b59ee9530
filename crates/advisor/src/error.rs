//! The crate's configuration and contract error: an opaque [`Error`] with a
//! `#[non_exhaustive]` [`ErrorKind`].
//!
//! Owns how configuration, checkpoint and extension failures are reported: each
//! names the field at fault and says what to do; a model's failure is kept
//! whole as the error's `source()`. It must never echo secrets or a model's
//! raw output.

use std::fmt;

use crate::model::ModelError;

/// What kind of failure an [`Error`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A builder rejected its configuration in `build()`.
    Config,
    /// A checkpoint could not be restored (or saved).
    Checkpoint,
    /// An extension factory failed to begin a run, or extensions clash.
    Extension,
    /// The model behind a run failed.
    Model,
    /// A workspace's configuration asks to send data somewhere (a model
    /// reviewer, a URL, a key variable, a header) that the user has not
    /// trusted; nothing was sent. The message names `advisor trust <path>`.
    Untrusted,
}

/// An error from configuring or running the advisor's contract.
///
/// ```
/// use advisor::{AdvisorPlugin, review};
/// let err = AdvisorPlugin::builder()
///     .reviewer(review::from_sync_fn(|_r: &review::Review| Ok(vec![])))
///     .max_rounds(0)
///     .build()
///     .unwrap_err();
/// assert_eq!(err.kind(), advisor::ErrorKind::Config);
/// assert_eq!(err.field(), Some("max_rounds"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    field: Option<String>,
    message: String,
    source: Option<ModelError>,
}

impl Error {
    /// An error of `kind` with an actionable `message`.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            field: None,
            message: message.into(),
            source: None,
        }
    }

    /// An [`ErrorKind::Model`] error: `context` (what the model was asked
    /// for) and the model's failure as the [`source`](std::error::Error::source).
    pub fn model(context: impl Into<String>, source: ModelError) -> Error {
        Error {
            source: Some(source),
            ..Error::new(ErrorKind::Model, context)
        }
    }

    /// A configuration error about `field`.
    pub fn config(field: impl Into<String>, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Config, message).with_field(field)
    }

    /// A checkpoint error about `field`.
    pub fn checkpoint(field: impl Into<String>, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Checkpoint, message).with_field(field)
    }

    /// Names the field (configuration key, checkpoint path) at fault.
    pub fn with_field(mut self, field: impl Into<String>) -> Error {
        self.field = Some(field.into());
        self
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The field at fault, when there is one.
    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    /// The message, without the field prefix.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ErrorKind::Config => "invalid advisor configuration",
            ErrorKind::Checkpoint => "invalid advisor checkpoint",
            ErrorKind::Extension => "extension error",
            ErrorKind::Model => "model error",
            ErrorKind::Untrusted => "untrusted advisor configuration",
        };
        match &self.field {
            Some(field) => write!(f, "{what}: {field}: {}", self.message)?,
            None => write!(f, "{what}: {}", self.message)?,
        }
        self.source.as_ref().map_or(Ok(()), |e| write!(f, ": {e}"))
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_ref().map(|e| e as _)
    }
}
