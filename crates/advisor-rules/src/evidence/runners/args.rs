//! The words after a program that are its operands, not its options.
//!
//! Owns [`operands`], which the row matchers of the units read a command
//! with (`zig build test`, `gh run view 12`, `just --set k v test`). Must not
//! say what the words mean.

/// The words of `args` that are not options, skipping the values of the options in `valued`
/// and stopping at `--`.
pub(super) fn operands<'a>(args: &'a [String], valued: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(w) = it.next() {
        if w == "--" {
            break;
        }
        if w.starts_with('-') {
            if !w.contains('=') && valued.contains(&w.as_str()) {
                it.next();
            }
            continue;
        }
        out.push(w.as_str());
    }
    out
}
