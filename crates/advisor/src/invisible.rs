//! The one table of characters that render as nothing.
//!
//! Owns [`is_invisible`]: every `Default_Ignorable_Code_Point` (zero-width
//! characters, joiners, bidi controls, variation selectors, tag characters
//! U+E0000–U+E0FFF, the soft hyphen U+00AD) plus the interlinear annotation
//! controls U+FFF9–U+FFFB. The dedupe key, the delivered text and the strict
//! parsers all ask this one function, so what is invisible in one place is
//! invisible in all. Public because the guard's promise — no delivered note
//! or injection holds such a character — is stated in its terms, and a host
//! that shows notes (the CLI's terminal escaping) needs the same table. Must
//! not decide what to do with such characters.

/// Whether `c` renders as nothing: a `Default_Ignorable_Code_Point` or an
/// interlinear annotation control.
///
/// ```
/// use advisor::invisible::is_invisible;
/// assert!(is_invisible('\u{200B}'));  // zero-width space
/// assert!(is_invisible('\u{E0041}')); // tag latin capital A
/// assert!(is_invisible('\u{00AD}'));  // soft hyphen
/// assert!(is_invisible('\u{FFF9}'));  // interlinear annotation anchor
/// assert!(!is_invisible('a') && !is_invisible(' '));
/// ```
pub fn is_invisible(c: char) -> bool {
    let u = c as u32;
    if u < 0xAD {
        return false;
    }
    matches!(u,
        0x00AD | 0x034F | 0x061C | 0x115F..=0x1160 | 0x17B4..=0x17B5
        | 0x180B..=0x180F | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F
        | 0x3164 | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFFB
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0000..=0xE0FFF)
}
