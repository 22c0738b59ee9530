//! How an answer tells a failure so that a claim beside it hides nothing: asides and offers said of
//! the failure, a table cell, a failing path's name, a program named as needing something first,
//! words the lists miss. Must not hold shared support: `support` does.

mod asides;
mod offers_and_tables;
mod other_words;
mod wording;
