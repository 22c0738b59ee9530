//! The two moments a review happens: at a finish, or periodically mid-run.
//!
//! Owns only the [`ReviewKind`] tag; it must not carry behaviour.

wire_enum! {
    /// When a review happens.
    #[derive(Default)]
    ReviewKind {
        /// The agent is about to finish; the reviewer sees its final answer.
        #[default]
        Finish => "finish",
        /// A turn boundary mid-run; there is no answer yet.
        Periodic => "periodic",
    }
}
