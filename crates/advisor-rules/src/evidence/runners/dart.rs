//! Dart: `dart test`, `flutter test`.
//!
//! One unit of the runner table: the readers of these runners' closing lines — package:test's
//! closing line ([`dart_line`]) — beside their samples: written ones for the rows built with `row`,
//! recorded runs (`tests/fixtures/runner-output/`) for the others. Each reader takes one whole
//! trimmed line, so a test *named* `test_upload_failed` is no summary. The rows themselves are
//! lines of the runner table ([`table`](super::table)). Must not look at more than one line, nor
//! decide what a run is.

use super::says::{Says, says};

/// package:test's closing line (`dart test`, `flutter test`): `MM:SS +N ~N -N: message`.
pub(crate) fn dart_line(l: &str) -> Option<Says> {
    let (time, rest) = l.split_once(" +")?;
    if time.len() < 5 || !time.chars().all(|c| c.is_ascii_digit() || c == ':') {
        return None;
    }
    let (_, message) = rest.split_once(": ")?;
    says(message == "All tests passed!", message == "Some tests failed.")
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::format::Format;
    use super::super::samples::{Fixture, fail, pass};
    use super::super::says::Says;

    /// The recorded runs of this unit's rows (`tests/fixtures/runner-output/`).
    pub(in crate::evidence::runners) const FIXTURES: &[Fixture] = &[
        pass("dart test", "dart-test-pass.txt", "dart test", true),
        fail("dart test", "dart-test-fail.txt", "dart test", 1, "Some tests failed."),
        pass("flutter test", "flutter-test-pass.txt", "flutter test", true),
        fail(
            "flutter test",
            "flutter-test-fail.txt",
            "flutter test",
            1,
            "Some tests failed.",
        ),
    ];

    #[test]
    fn dart_lines_are_read_and_test_names_are_not() {
        use Says::Fail;
        assert_eq!(Format::Dart.read("00:02 +2 -1: Some tests failed."), Some(Fail));
        assert_eq!(
            Format::Dart.read("00:01 +1: test/a_test.dart: Some tests failed."),
            None
        );
    }
}
