//! A phrase list with one column per language.
//!
//! Owns [`Phrases`]: the phrases of one list, English first, then French,
//! German, Italian, Spanish, Portuguese, Russian, Chinese, Japanese and
//! Korean, each in a column of its own, so a language is read and extended in
//! one place. Matching does not depend on the columns: a reader looks for any
//! phrase of the list. Must not hold phrases: the data modules do.

/// The phrases of one list, a column per language (normalised form: lower
/// case, NFKC, typographic quotes folded; see
/// [`normalise`](crate::answer::claims::normalise)).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Phrases {
    /// English.
    pub(crate) en: &'static [&'static str],
    /// French.
    pub(crate) fr: &'static [&'static str],
    /// German.
    pub(crate) de: &'static [&'static str],
    /// Italian.
    pub(crate) it: &'static [&'static str],
    /// Spanish.
    pub(crate) es: &'static [&'static str],
    /// Portuguese.
    pub(crate) pt: &'static [&'static str],
    /// Russian (ё written as е).
    pub(crate) ru: &'static [&'static str],
    /// Chinese.
    pub(crate) zh: &'static [&'static str],
    /// Japanese.
    pub(crate) ja: &'static [&'static str],
    /// Korean.
    pub(crate) ko: &'static [&'static str],
}

impl Phrases {
    /// No phrase in any language: the rest of a list whose other columns are empty.
    pub(crate) const NONE: Phrases = Phrases {
        en: &[],
        fr: &[],
        de: &[],
        it: &[],
        es: &[],
        pt: &[],
        ru: &[],
        zh: &[],
        ja: &[],
        ko: &[],
    };

    /// Every phrase, column by column in the order above, each column in its
    /// own order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &'static str> {
        let columns = [
            self.en, self.fr, self.de, self.it, self.es, self.pt, self.ru, self.zh, self.ja, self.ko,
        ];
        columns.into_iter().flatten().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::Phrases;

    #[test]
    fn every_column_is_read_in_order() {
        const LIST: Phrases = Phrases {
            en: &["a", "b"],
            ru: &["в"],
            ko: &["가"],
            ..Phrases::NONE
        };
        assert_eq!(LIST.iter().collect::<Vec<_>>(), ["a", "b", "в", "가"]);
    }
}
