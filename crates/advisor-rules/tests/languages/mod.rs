//! Answers in other languages: Korean, Russian, French, and the "verified" words of Chinese,
//! Japanese and Korean. Must not hold shared support: `support` does.

mod french;
mod korean;
mod russian;
mod russian_and_french;
mod verified_words;
