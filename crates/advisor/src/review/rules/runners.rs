//! The runner table: which commands are test or build runs, one row per runner.
//!
//! Owns [`RUNNERS`] and matching a [`SimpleCommand`] against it. A row names
//! the program (its basename, so `./gradlew` and `vendor/bin/phpunit` match),
//! the subcommands that make it a run (none for programs that only run tests),
//! and the summary formats its output uses. Recognition is by the command that
//! ran — never by a tool's name, description or paths. Must not read output;
//! `outcome` does that.

use super::outcome::Format;
use super::shell::SimpleCommand;

/// Whether a run tests or builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunKind {
    /// A test run.
    Test,
    /// A build, type check or lint.
    Build,
}

/// One row of the runner table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Runner {
    /// Shown in notes and used to compare runs: `cargo test`, `pytest`, …
    pub(crate) name: &'static str,
    /// Test or build.
    pub(crate) kind: RunKind,
    /// Program basenames that start this runner.
    programs: &'static [&'static str],
    /// The first non-option argument must be one of these (empty: any, or none).
    subcommands: &'static [&'static str],
    /// Subcommands matched by suffix (Gradle's `:app:test`).
    suffix_subcommands: bool,
    /// The summary formats its output is read with.
    pub(crate) formats: &'static [Format],
}

use Format::*;
use RunKind::{Build, Test};

/// Every summary format: for runners that run other runners (`make test`, `npm test`, `tox`).
const ANY: &[Format] = &[
    Cargo, Nextest, Pytest, GoTest, Vitest, Jest, Mocha, ExUnit, RSpec, Minitest, PhpUnit, Maven, Gradle, Dotnet,
    CTest, Make, Tox, Nox, Bazel, Swift, Tsc, Deno, Bun,
];
const JS: &[Format] = &[Vitest, Jest, Mocha, Bun, Deno, Tsc];

const fn row(
    name: &'static str,
    kind: RunKind,
    programs: &'static [&'static str],
    subcommands: &'static [&'static str],
    formats: &'static [Format],
) -> Runner {
    Runner {
        name,
        kind,
        programs,
        subcommands,
        suffix_subcommands: false,
        formats,
    }
}

/// The runner table. Order matters only where two rows share a program: the
/// first match wins.
pub(crate) const RUNNERS: &[Runner] = &[
    row("cargo test", Test, &["cargo"], &["test", "t"], &[Cargo]),
    row("cargo nextest", Test, &["cargo"], &["nextest"], &[Nextest, Cargo]),
    row(
        "cargo build",
        Build,
        &["cargo"],
        &["build", "b", "check", "c", "clippy"],
        &[Cargo],
    ),
    row("pytest", Test, &["pytest", "py.test"], &[], &[Pytest]),
    row("go test", Test, &["go"], &["test"], &[GoTest]),
    row("go build", Build, &["go"], &["build", "vet"], &[GoTest]),
    row(
        "npm test",
        Test,
        &["npm", "pnpm", "yarn", "bun"],
        &["test", "t", "tst"],
        ANY,
    ),
    row("deno test", Test, &["deno"], &["test"], &[Deno]),
    row("vitest", Test, &["vitest"], &[], &[Vitest]),
    row("jest", Test, &["jest"], &[], &[Jest]),
    row("mocha", Test, &["mocha"], &[], &[Mocha]),
    row("mix test", Test, &["mix"], &["test"], &[ExUnit]),
    row("rspec", Test, &["rspec"], &[], &[RSpec]),
    row("minitest", Test, &["rake", "rails"], &["test"], &[Minitest]),
    row("phpunit", Test, &["phpunit", "pest"], &[], &[PhpUnit]),
    row(
        "mvn test",
        Test,
        &["mvn", "mvnw"],
        &["test", "verify", "install", "package"],
        &[Maven],
    ),
    Runner {
        suffix_subcommands: true,
        ..row(
            "gradle test",
            Test,
            &["gradle", "gradlew"],
            &["test", "check", "build"],
            &[Gradle],
        )
    },
    row("dotnet test", Test, &["dotnet"], &["test"], &[Dotnet]),
    row("dotnet build", Build, &["dotnet"], &["build"], &[Dotnet]),
    row("ctest", Test, &["ctest"], &[], &[CTest]),
    row("make test", Test, &["make", "gmake"], &["test", "tests", "check"], ANY),
    row("tox", Test, &["tox"], &[], ANY),
    row("nox", Test, &["nox"], &[], ANY),
    row("bazel test", Test, &["bazel", "bazelisk"], &["test"], &[Bazel]),
    row("bazel build", Build, &["bazel", "bazelisk"], &["build"], &[Bazel]),
    row("swift test", Test, &["swift"], &["test"], &[Swift]),
    row("swift build", Build, &["swift"], &["build"], &[Swift]),
    row("tsc", Build, &["tsc", "vue-tsc"], &[], &[Tsc]),
    row("npm run build", Build, &["npm", "pnpm", "yarn", "bun"], &["build"], JS),
    row("make", Build, &["make", "gmake"], &[], ANY),
];

/// Options that take the next word as their value, per program family
/// (only where the subcommand may follow them).
fn option_takes_value(program: &str, opt: &str) -> bool {
    match program {
        "mvn" | "mvnw" => matches!(opt, "-f" | "-pl" | "-P" | "-s" | "-T" | "-D"),
        "make" | "gmake" => matches!(opt, "-C" | "-f" | "-j"),
        "gradle" | "gradlew" => matches!(opt, "-p" | "-b"),
        _ => false,
    }
}

/// Launchers whose argument is the real program: `npx vitest`, `python -m pytest`,
/// `bundle exec rspec`, `uv run pytest`, `poetry run pytest`.
fn unwrap_launcher(words: &[String]) -> &[String] {
    let base = |w: &str| w.rsplit('/').next().unwrap_or("").to_owned();
    let Some(first) = words.first() else { return words };
    let first = base(first);
    let rest = &words[1..];
    let skip_opts = |r: &'_ [String]| -> usize { r.iter().take_while(|w| w.starts_with('-')).count() };
    match first.as_str() {
        "npx" | "bunx" | "pnpx" => {
            let n = skip_opts(rest);
            unwrap_launcher(&rest[n..])
        }
        "python" | "python3" | "py" if rest.first().is_some_and(|w| w == "-m") => &rest[1..],
        "bundle" | "pnpm" | "yarn" | "uv" | "poetry" | "pipenv" | "pdm" | "hatch"
            if rest
                .first()
                .is_some_and(|w| matches!(w.as_str(), "exec" | "run" | "dlx")) =>
        {
            // `pnpm run test` / `yarn run test` stay as they are: `run test` is the test script
            if matches!(first.as_str(), "pnpm" | "yarn") && rest.get(1).is_some_and(|w| w.starts_with("test")) {
                return words;
            }
            let n = skip_opts(&rest[1..]);
            unwrap_launcher(&rest[1 + n..])
        }
        _ => words,
    }
}

/// A command recognised as a run: the row and the arguments that select what it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Invocation {
    /// The row's index in [`RUNNERS`].
    pub(crate) row: usize,
    /// The arguments after the subcommand: test names, paths, packages and options.
    pub(crate) selection: Vec<String>,
    /// The command as written, for notes.
    pub(crate) display: String,
}

impl Invocation {
    /// The row.
    pub(crate) fn runner(&self) -> &'static Runner {
        &RUNNERS[self.row]
    }
}

/// Options that change how results are shown, not which tests run.
fn is_presentation_option(o: &str) -> bool {
    matches!(
        o,
        "-q" | "--quiet"
            | "-v"
            | "-vv"
            | "--verbose"
            | "--run"
            | "--no-fail-fast"
            | "--color"
            | "--colors"
            | "--no-color"
            | "--ci"
            | "--silent"
            | "-s"
            | "--trace"
            | "--"
            | "--release"
            | "--all-targets"
            | "--workspace"
            | "--all-features"
            | "--locked"
            | "--offline"
            | "--frozen"
    ) || o.starts_with("--color=")
        || o.starts_with("--reporter")
        || o.starts_with("--format")
        || o.starts_with("-j")
        || o.starts_with("--jobs")
        || o.starts_with("--tb")
        || o.starts_with("--timeout")
        || o.starts_with("--durations")
        || o.starts_with("--max-warnings")
}

/// The runner `cmd` invokes, if any.
pub(crate) fn recognise(cmd: &SimpleCommand) -> Option<Invocation> {
    let words = unwrap_launcher(&cmd.words);
    let program = words.first()?.rsplit('/').next()?.to_owned();
    let program = program.strip_suffix(".exe").unwrap_or(&program).to_owned();
    let mut i = 1;
    // the subcommand: the first argument that is not an option (`cargo +nightly test`, `mvn -q test`)
    while let Some(w) = words.get(i).filter(|w| w.starts_with('-') || w.starts_with('+')) {
        i += 1 + usize::from(option_takes_value(&program, w));
    }
    let sub = words.get(i).map(String::as_str);
    for (row, r) in RUNNERS.iter().enumerate() {
        if !r.programs.contains(&program.as_str()) {
            continue;
        }
        let (matched, rest_from) = if r.subcommands.is_empty() {
            (true, 1)
        } else {
            match sub {
                Some(s) if r.subcommands.contains(&s) => (true, i + 1),
                Some(s) if r.suffix_subcommands && r.subcommands.iter().any(|c| s.ends_with(&format!(":{c}"))) => {
                    (true, i + 1)
                }
                // `npm run test`, `npm run test:unit`, `yarn test:ci`
                Some("run" | "run-script")
                    if r.name == "npm test"
                        && words.get(i + 1).is_some_and(|s| s == "test" || s.starts_with("test:")) =>
                {
                    (true, i + 2)
                }
                Some("run" | "run-script")
                    if r.name == "npm run build"
                        && words
                            .get(i + 1)
                            .is_some_and(|s| s == "build" || s.starts_with("build:") || s == "typecheck") =>
                {
                    (true, i + 2)
                }
                Some(s) if r.name == "npm test" && s.starts_with("test:") => (true, i + 1),
                _ => (false, 0),
            }
        };
        // bare `make` (or `make all`, `make build`) is a build; `make test` was matched above
        if r.name == "make" && sub.is_some_and(|s| !matches!(s, "all" | "build" | "compile" | "install")) {
            continue;
        }
        if matched {
            let selection = words
                .get(rest_from.min(words.len())..)
                .unwrap_or_default()
                .iter()
                .filter(|w| !is_presentation_option(w))
                .cloned()
                .collect();
            return Some(Invocation {
                row,
                selection,
                display: cmd.display(),
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::rules::shell::simple_commands;

    fn name(line: &str) -> Option<&'static str> {
        simple_commands(line)
            .iter()
            .find_map(recognise)
            .map(|i| i.runner().name)
    }

    #[test]
    fn commands_are_recognised_by_what_ran() {
        assert_eq!(name("cargo test"), Some("cargo test"));
        assert_eq!(name("cargo +nightly test -p foo"), Some("cargo test"));
        assert_eq!(name("cargo clippy --all-targets -- -D warnings"), Some("cargo build"));
        assert_eq!(name("python -m pytest -q tests/"), Some("pytest"));
        assert_eq!(name("uv run pytest"), Some("pytest"));
        assert_eq!(name("npx vitest run"), Some("vitest"));
        assert_eq!(name("pnpm run test:unit"), Some("npm test"));
        assert_eq!(name("bundle exec rspec"), Some("rspec"));
        assert_eq!(name("./gradlew :app:test"), Some("gradle test"));
        assert_eq!(name("mvn -q test"), Some("mvn test"));
        assert_eq!(name("make -C build check"), Some("make test"));
        assert_eq!(name("make"), Some("make"));
        assert_eq!(name("git add test/foo_test.exs"), None);
        assert_eq!(name("git status"), None);
        assert_eq!(name("cat test/build/check.txt"), None);
        assert_eq!(name("make clean"), None);
        assert_eq!(name("grep -rn FAILED logs/"), None);
    }

    #[test]
    fn the_selection_is_what_narrows_the_run() {
        let inv = |l: &str| simple_commands(l).iter().find_map(recognise).map(|i| i.selection);
        assert_eq!(inv("cargo test"), Some(vec![]));
        assert_eq!(inv("cargo test --workspace -q"), Some(vec![]));
        assert_eq!(inv("cargo test foo"), Some(vec!["foo".to_owned()]));
        assert_eq!(
            inv("mix test test/a_test.exs:42 2>&1 | tail"),
            Some(vec!["test/a_test.exs:42".to_owned()])
        );
    }
}
