//! What a host needs to touch files it does not control: bounded reads and
//! atomic writes.
//!
//! Owns the crate's one way to read untrusted input — regular files only,
//! every read capped ([`read_file`], [`read_file_to_string`], [`read_stream`],
//! [`BoundedLines`]) — its one way to open a path someone else named beneath
//! a directory it trusts, race-free, never through a link or `..`
//! ([`Beneath`]), its one way to replace a file so readers see the old
//! content or the new, never a mix ([`write_atomic`], [`stage`]), and the
//! description of a JSON parse failure that never quotes the input
//! ([`describe_json_error`]), the lookup of a program by name on `PATH`
//! where a workspace cannot plant it ([`find_program`]), and the process
//! groups of the children it starts, which a host can kill at once at its
//! deadline ([`ProcessGroup`], [`kill_process_groups`]). Used by the library (consultation store, rollout
//! summaries) and by hosts such as the `advisor` command (transcripts, configs,
//! session state). Must not interpret the bytes it reads or writes.

mod atomic_file;
mod beneath;
mod bounded_read;
mod process_group;
mod program;

pub use atomic_file::{Staged, create_dir_private, stage, stage_private, write_atomic};
pub use beneath::{Beneath, BeneathError, BeneathErrorKind, Entry, EntryKind};
pub use bounded_read::{
    BoundedLine, BoundedLines, BoundedReadError, BoundedReadErrorKind, open_regular, read_file, read_file_to_string,
    read_stream,
};
pub use process_group::{ProcessGroup, kill_process_groups};
pub use program::find_program;

/// Describes a JSON parse failure of `subject` (`"the hook input"`, `"the
/// line"`…) by category and position only: serde's own messages can quote
/// values, which would echo untrusted input.
///
/// ```
/// let e = serde_json::from_str::<serde_json::Value>("{\"a\": 1,").unwrap_err();
/// assert_eq!(advisor::io::describe_json_error("the input", &e), "the input ends before the JSON is complete (line 1, column 8)");
/// ```
pub fn describe_json_error(subject: &str, e: &serde_json::Error) -> String {
    crate::json::describe_serde_error_of(subject, e)
}
