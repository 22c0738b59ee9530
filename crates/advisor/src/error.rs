//! The crate's one error shape: an opaque [`Error`] with a `#[non_exhaustive]`
//! [`ErrorKind`] and the field at fault, into which every domain error
//! converts; and the one problem list ([`ValidationError`] of [`Problem`]s)
//! every strict parser returns.
//!
//! Owns how configuration, checkpoint, extension and validation failures are
//! reported: each names the field at fault and says what to do; a domain
//! failure (a model's, a review's, a consultation's…) is kept whole as the
//! error's `source()`. It must never echo secrets or a model's raw output.

use std::fmt;
use std::sync::Arc;

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
    /// A document (an `advisor-request.v1`, an `advisor-response.v1`, an
    /// advisor decision) broke its schema; the source is the
    /// [`ValidationError`] with every problem.
    Invalid,
    /// A review failed (the source is the [`ReviewError`](crate::review::ReviewError)).
    Review,
    /// A consultation was refused or failed (the source is the
    /// [`ConsultError`](crate::consult::ConsultError)).
    Consult,
    /// The rollout advisor failed (the source is the
    /// [`RolloutError`](crate::rollout::RolloutError)).
    Rollout,
    /// A file could not be read or written (the message names it).
    Io,
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
#[derive(Debug, Clone)]
pub struct Error {
    kind: ErrorKind,
    field: Option<String>,
    message: String,
    source: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

/// Two errors are equal when kind, field, message and the source's message
/// are.
impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        let source = |e: &Error| e.source.as_ref().map(ToString::to_string);
        self.kind == other.kind
            && self.field == other.field
            && self.message == other.message
            && source(self) == source(other)
    }
}

impl Eq for Error {}

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

    /// An error of `kind` saying `context` (what was being done), with the
    /// domain failure kept whole as the [`source`](std::error::Error::source)
    /// (its message is shown after the context).
    pub fn with_source(
        kind: ErrorKind,
        context: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Error {
        Error {
            source: Some(Arc::new(source)),
            ..Error::new(kind, context)
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
            ErrorKind::Invalid => "invalid document",
            ErrorKind::Review => "review failed",
            ErrorKind::Consult => "consultation failed",
            ErrorKind::Rollout => "rollout advisor failed",
            ErrorKind::Io => "file error",
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
        self.source.as_ref().map(|e| &**e as _)
    }
}

/// One problem a strict parser found: where and what, never the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where: a field path such as `executor_instructions[2]`, `$` for the
    /// whole document, or `<unknown field>`.
    pub field: String,
    /// What is wrong (never the offending value).
    pub problem: String,
}

/// A document that broke its schema: every problem found, in field order.
/// Carries no part of the document and no chained error.
///
/// Shown as `invalid <document>: field: problem` for one problem, else as
/// `invalid <document>:` and one indented `field: problem` line per problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    document: &'static str,
    /// Every problem found.
    pub problems: Vec<Problem>,
}

impl ValidationError {
    /// An error about `document` (`"advisor-response.v1"`, …) with `problems`.
    pub fn new(document: &'static str, problems: Vec<Problem>) -> ValidationError {
        ValidationError { document, problems }
    }

    /// An error with one problem.
    pub fn single(document: &'static str, field: impl Into<String>, problem: impl Into<String>) -> ValidationError {
        ValidationError::new(
            document,
            vec![Problem {
                field: field.into(),
                problem: problem.into(),
            }],
        )
    }

    /// The kind of document that broke its schema.
    pub fn document(&self) -> &'static str {
        self.document
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {}:", self.document)?;
        if let [p] = self.problems.as_slice() {
            return write!(f, " {}: {}", p.field, p.problem);
        }
        for p in &self.problems {
            write!(f, "\n  {}: {}", p.field, p.problem)?;
        }
        Ok(())
    }
}

/// Collects the problems of one document as a strict parser finds them.
#[derive(Debug, Default)]
pub(crate) struct Problems(Vec<Problem>);

impl Problems {
    /// Records a problem at `field`.
    pub(crate) fn add(&mut self, field: &str, problem: impl Into<String>) {
        self.0.push(Problem {
            field: field.to_owned(),
            problem: problem.into(),
        });
    }

    /// Whether no problem was found.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The error about `document` with every problem found.
    pub(crate) fn into_error(self, document: &'static str) -> ValidationError {
        ValidationError::new(document, self.0)
    }
}

/// Deliberately no `source()`: nothing of the document may travel with the error.
impl std::error::Error for ValidationError {}

impl From<ValidationError> for Error {
    fn from(e: ValidationError) -> Error {
        let field = e.problems.first().map(|p| p.field.clone());
        let mut error = Error::with_source(ErrorKind::Invalid, format!("{} broke its schema", e.document), e);
        error.field = field;
        error
    }
}
