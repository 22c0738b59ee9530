//! Matching one simple command against the runner table.
//!
//! Owns [`Invocation`] (a command recognised as a run: its row, the
//! arguments that select what it runs, and whether it is opaque) and
//! [`recognise`]. Launchers are opened to the real program (`npx vitest`,
//! `python -m pytest`, `bundle exec rspec`, `uv run pytest`, `pnpm nx`, `pnpm
//! --filter web exec vitest`), options that take a value are skipped when
//! finding the subcommand (`mvn -q test`, `pnpm --filter web test`), and
//! options that only change how results are shown are left out of the
//! selection, with their counts (`-j 1`). Recognition is by the command that
//! ran — never by a tool's name, description or paths (`git add test/foo`,
//! `cat tests/x` and `grep FAILED` are not runs). Must not read output.

use super::kind::RunKind;
use super::runners::{RUNNERS, Runner};
use super::shell::SimpleCommand;

/// Options that take the next word as their value, per program family
/// (only where the subcommand may follow them).
fn option_takes_value(program: &str, opt: &str) -> bool {
    match program {
        "mvn" | "mvnw" => matches!(opt, "-f" | "-pl" | "-P" | "-s" | "-T" | "-D"),
        "make" | "gmake" => matches!(opt, "-C" | "-f" | "-j"),
        "gradle" | "gradlew" => matches!(opt, "-p" | "-b"),
        "pnpm" => matches!(opt, "--filter" | "-F" | "-C" | "--dir"),
        "yarn" => opt == "--cwd",
        "npm" => matches!(opt, "--prefix" | "-w" | "--workspace"),
        "cabal" | "stack" => matches!(opt, "--project-file" | "--stack-yaml" | "--resolver"),
        _ => false,
    }
}

/// Runners installed as a package's binary, which `pnpm NAME` / `yarn NAME` start.
pub(crate) const PACKAGE_BINARIES: &[&str] = &[
    "vitest",
    "jest",
    "mocha",
    "tsc",
    "vue-tsc",
    "nx",
    "turbo",
    "run-s",
    "run-p",
    "npm-run-all",
    "pyright",
    "bats",
];

/// Launchers whose argument is the real program: `npx vitest`, `python -m pytest`,
/// `bundle exec rspec`, `uv run pytest`, `poetry run pytest`.
fn unwrap_launcher(words: &[String]) -> &[String] {
    let base = |w: &str| w.rsplit('/').next().unwrap_or("").to_owned();
    let Some(first) = words.first() else { return words };
    let first = base(first);
    let rest = &words[1..];
    let skip_opts = |r: &'_ [String]| -> usize { r.iter().take_while(|w| w.starts_with('-')).count() };
    match first.as_str() {
        // `corepack pnpm run check`: corepack starts the package manager it names
        "npx" | "bunx" | "pnpx" | "corepack" => {
            let n = skip_opts(rest);
            unwrap_launcher(&rest[n..])
        }
        "python" | "python3" | "py" if rest.first().is_some_and(|w| w == "-m") => &rest[1..],
        // `python manage.py test`, `python3 -u ./manage.py test`: the script is the program
        "python" | "python3" | "py" => {
            let n = skip_opts(rest);
            match rest.get(n) {
                Some(script) if script.ends_with(".py") => &rest[n..],
                _ => words,
            }
        }
        // `pnpm --filter @app/web exec vitest run`, `pnpm -C web exec tsc`: the
        // workspace options come first (what they select is the package, as `cd` would)
        "pnpm" | "yarn" if rest.first().is_some_and(|w| w.starts_with('-')) => {
            let mut i = 0;
            while let Some(w) = rest.get(i).filter(|w| w.starts_with('-')) {
                i += 1 + usize::from(option_takes_value(&first, w));
            }
            match rest.get(i).map(String::as_str) {
                Some("exec" | "dlx") => {
                    let n = skip_opts(&rest[i + 1..]);
                    unwrap_launcher(&rest[i + 1 + n..])
                }
                Some(w) if PACKAGE_BINARIES.contains(&w) => unwrap_launcher(&rest[i..]),
                _ => words,
            }
        }
        // `pnpm nx test app`, `yarn vitest run`: a package's binary, not a script
        "pnpm" | "yarn" | "bun" if rest.first().is_some_and(|w| PACKAGE_BINARIES.contains(&w.as_str())) => {
            unwrap_launcher(rest)
        }
        "bundle" | "pnpm" | "yarn" | "uv" | "poetry" | "pipenv" | "pdm" | "hatch"
            if rest
                .first()
                .is_some_and(|w| matches!(w.as_str(), "exec" | "run" | "dlx")) =>
        {
            // `pnpm run test` / `yarn run check` stay as they are: `run <script>` runs a
            // package script, unless it names a package's binary (`yarn run vitest`)
            if matches!(first.as_str(), "pnpm" | "yarn")
                && rest.first().is_some_and(|w| w == "run")
                && rest
                    .get(1)
                    .is_some_and(|w| !w.starts_with('-') && !PACKAGE_BINARIES.contains(&w.as_str()))
            {
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
    /// Whether the run goes through a task runner or package script (`just`,
    /// `task`, `mise run`, `nx`, `turbo`, `npm-run-all`, `npm run <script>`
    /// other than a known runner) whose own output format the rules do not
    /// know: its outcome is read from any runner's summary line it prints,
    /// else from its exit status alone, which says less about what failed.
    pub(crate) opaque: bool,
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
        || o.starts_with("--test-reporter")
}

/// The index in `args` just past its first `named` non-option words.
fn named_end(args: &[String], named: usize) -> usize {
    if named == 0 {
        return 0;
    }
    let mut seen = 0;
    for (i, w) in args.iter().enumerate() {
        if !w.starts_with('-') {
            seen += 1;
            if seen == named {
                return i + 1;
            }
        }
    }
    args.len()
}

/// `node --run <script> …` (Node.js 22) runs a `package.json` script as
/// `npm run <script> …` does: the same words with npm's spelling.
fn node_run(words: &[String]) -> Option<Vec<String>> {
    let program = words.first()?.rsplit('/').next()?;
    (matches!(program, "node" | "node.exe") && words.get(1).is_some_and(|w| w == "--run")).then(|| {
        ["npm", "run"]
            .iter()
            .map(|w| (*w).to_owned())
            .chain(words[2..].iter().cloned())
            .collect()
    })
}

/// The runner `cmd` invokes, if any: the first row that matches it, every
/// row before the fallbacks ([`Runner::fallback`]).
pub(crate) fn recognise(cmd: &SimpleCommand) -> Option<Invocation> {
    let respelled = node_run(&cmd.words);
    let words = unwrap_launcher(respelled.as_deref().unwrap_or(&cmd.words));
    let program = words.first()?.rsplit('/').next()?.to_owned();
    let program = program.strip_suffix(".exe").unwrap_or(&program).to_owned();
    let mut i = 1;
    // the subcommand: the first argument that is not an option (`cargo +nightly test`, `mvn -q test`)
    while let Some(w) = words.get(i).filter(|w| w.starts_with('-') || w.starts_with('+')) {
        i += 1 + usize::from(option_takes_value(&program, w));
    }
    let first = RUNNERS.iter().enumerate().filter(|(_, r)| !r.fallback);
    let rows = first.chain(RUNNERS.iter().enumerate().filter(|(_, r)| r.fallback));
    let (row, r, rest_from) = rows
        .filter(|(_, r)| r.programs.contains(&program.as_str()))
        .find_map(|(row, r)| matches_row(r, words, i).map(|rest_from| (row, r, rest_from)))?;
    let rest = words.get(rest_from.min(words.len())..).unwrap_or_default();
    Some(Invocation {
        row,
        selection: selection(r, rest),
        display: cmd.display(),
        opaque: r.opaque,
    })
}

/// Whether row `r` matches `words` (its program first), whose subcommand is
/// at `i`: where the selection starts, if it does.
fn matches_row(r: &Runner, words: &[String], i: usize) -> Option<usize> {
    let sub = words.get(i).map(String::as_str);
    let rest_from = if let Some(m) = r.matcher {
        match m(&words[1..]) {
            Some((kind, named)) if kind == r.kind => 1 + named_end(&words[1..], named),
            _ => return None,
        }
    } else if r.subcommands.is_empty() {
        1
    } else {
        subcommand_match(r, words, i)?
    };
    // bare `make` (or `make all`, `make build`) is a build; `make test` is its own row,
    // and so is a target named for a build, type check or lint (`make types`, `make lint`)
    let build_target = |s: &str| {
        matches!(s, "all" | "build" | "compile" | "install") || super::runners::task_kind(s) == Some(RunKind::Build)
    };
    if r.name == "make" && sub.is_some_and(|s| !build_target(s)) {
        return None;
    }
    Some(rest_from)
}

/// Whether the subcommand at `i` of `words` is one of row `r`'s: where the
/// selection starts, if it is.
fn subcommand_match(r: &Runner, words: &[String], i: usize) -> Option<usize> {
    match words.get(i).map(String::as_str)? {
        s if r.subcommands.contains(&s) => Some(i + 1),
        s if r.suffix_subcommands && r.subcommands.iter().any(|c| s.ends_with(&format!(":{c}"))) => Some(i + 1),
        // `npm run test`, `npm run test:unit`, `yarn test:ci`
        "run" | "run-script"
            if r.name == "npm test" && words.get(i + 1).is_some_and(|s| s == "test" || s.starts_with("test:")) =>
        {
            Some(i + 2)
        }
        "run" | "run-script"
            if r.name == "npm run build"
                && words
                    .get(i + 1)
                    .is_some_and(|s| s == "build" || s.starts_with("build:") || s == "typecheck") =>
        {
            Some(i + 2)
        }
        s if r.name == "npm test" && s.starts_with("test:") => Some(i + 1),
        // a make target named for tests or the whole gate (`make verify`, `make test-unit`)
        s if r.name == "make test" && super::runners::task_kind(s) == Some(RunKind::Test) => Some(i + 1),
        _ => None,
    }
}

/// The arguments after the command's name that select what runs: without the
/// options that only change how results are shown, the counts of `-j 1`, and
/// the row's implied word (`vitest run`).
fn selection(r: &Runner, rest: &[String]) -> Vec<String> {
    let mut selection: Vec<String> = rest
        .iter()
        .enumerate()
        .filter(|(k, w)| {
            // `-j 1`, `--jobs 4`, `--timeout 60`: the count is the option's, not a test name
            let a_count = (w.parse::<u64>().is_ok() || w.as_str() == "auto")
                && k.checked_sub(1)
                    .and_then(|j| rest.get(j))
                    .is_some_and(|o| matches!(o.as_str(), "-j" | "--jobs" | "--timeout" | "-n" | "--numprocesses"));
            !is_presentation_option(w) && !a_count
        })
        .map(|(_, w)| w.clone())
        .collect();
    if selection.first().is_some_and(|w| r.implied.contains(&w.as_str())) {
        selection.remove(0);
    }
    selection
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::shell::simple_commands;

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
        assert_eq!(name("node --run test"), Some("npm test"));
        assert_eq!(name("corepack pnpm run test:unit"), Some("npm test"));
        assert_eq!(name("pnpm run test:unit"), Some("npm test"));
        assert_eq!(name("corepack pnpm run check"), Some("npm run test script"));
        assert_eq!(name("yarn run lint"), Some("npm run build script"));
        assert_eq!(name("yarn run vitest"), Some("vitest"));
        assert_eq!(name("bundle exec rspec"), Some("rspec"));
        assert_eq!(name("./gradlew :app:test"), Some("gradle test"));
        assert_eq!(name("mvn -q test"), Some("mvn test"));
        assert_eq!(name("make -C build check"), Some("make test"));
        assert_eq!(name("make"), Some("make"));
        assert_eq!(name("make verify PY=.venv/bin/python"), Some("make test"));
        assert_eq!(name("make types"), Some("make"));
        assert_eq!(name("make deploy"), None);
        assert_eq!(name("git add test/foo_test.exs"), None);
        assert_eq!(name("git status"), None);
        assert_eq!(name("cat test/build/check.txt"), None);
        assert_eq!(name("make clean"), None);
        assert_eq!(name("grep -rn FAILED logs/"), None);
    }

    fn opaque(line: &str) -> Option<(&'static str, bool)> {
        simple_commands(line)
            .iter()
            .find_map(recognise)
            .map(|i| (i.runner().name, i.opaque))
    }

    #[test]
    fn new_runners_are_recognised_by_what_ran() {
        assert_eq!(name("python -m unittest"), Some("unittest"));
        assert_eq!(name("python3 -m unittest discover -s tests"), Some("unittest"));
        assert_eq!(name("uv run python -m unittest -v"), Some("unittest"));
        assert_eq!(name("python manage.py test polls"), Some("manage.py test"));
        assert_eq!(name("./manage.py test"), Some("manage.py test"));
        assert_eq!(name("python manage.py migrate"), None);
        assert_eq!(name("node --test"), Some("node --test"));
        assert_eq!(name("node --test-reporter=spec --test test/"), Some("node --test"));
        assert_eq!(name("node server.js --test"), None);
        assert_eq!(name("bats test/"), Some("bats"));
        assert_eq!(name("npx bats test/cli.bats"), Some("bats"));
        assert_eq!(name("hatch test"), Some("hatch test"));
        assert_eq!(name("zig build test --summary all"), Some("zig test"));
        assert_eq!(name("zig build -Doptimize=ReleaseFast install"), Some("zig build"));
        assert_eq!(name("zig build test"), Some("zig test"));
        assert_eq!(name("python -m ziglang build test"), Some("zig test"));
        assert_eq!(name("zig test src/main.zig"), Some("zig test"));
        assert_eq!(name("zig build"), Some("zig build"));
        assert_eq!(name("zig fmt src"), None);
        assert_eq!(name("sbt test"), Some("sbt test"));
        assert_eq!(name("sbt clean \"testOnly a.B\""), Some("sbt test"));
        assert_eq!(name("sbt core/test"), Some("sbt test"));
        assert_eq!(name("sbt compile"), Some("sbt compile"));
        assert_eq!(name("sbt run"), None);
        assert_eq!(name("lein test"), Some("lein test"));
        assert_eq!(name("cabal test"), Some("cabal test"));
        assert_eq!(name("stack test --fast"), Some("stack test"));
        assert_eq!(name("flutter test"), Some("flutter test"));
        assert_eq!(name("dart test test/a_test.dart"), Some("dart test"));
        assert_eq!(name("bun test"), Some("npm test"));
        assert_eq!(name("mypy src"), Some("mypy"));
        assert_eq!(name("python -m mypy ."), Some("mypy"));
        assert_eq!(name("pyright"), Some("pyright"));
        assert_eq!(name("npx vue-tsc --noEmit"), Some("tsc"));
        assert_eq!(name("gh run view 123"), Some("gh run view"));
        assert_eq!(name("gh run watch 123 --exit-status"), Some("gh run view"));
        assert_eq!(name("gh pr checks 12"), Some("gh pr checks"));
        assert_eq!(name("gh run view 123 --log-failed"), Some("gh run log"));
        assert_eq!(name("gh run view 123 --log --json jobs"), None);
        assert_eq!(name("gh pr checks --json name,state"), None);
        assert_eq!(name("gh pr view 12"), None);
        assert_eq!(name("gh run list"), None);
    }

    #[test]
    fn task_runners_are_runs_by_their_task_name_and_opaque() {
        assert_eq!(opaque("just test"), Some(("just test", true)));
        assert_eq!(opaque("just -f ci.just test-unit"), Some(("just test", true)));
        assert_eq!(opaque("just lint"), Some(("just build", true)));
        assert_eq!(opaque("just deploy test-env"), None);
        assert_eq!(opaque("just latest"), None);
        assert_eq!(opaque("task test"), Some(("task test", true)));
        assert_eq!(opaque("task lint ci:test"), Some(("task test", true)));
        assert_eq!(opaque("task build"), Some(("task build", true)));
        assert_eq!(opaque("task deploy"), None);
        assert_eq!(opaque("mise run test"), Some(("mise run test", true)));
        assert_eq!(opaque("mise r typecheck"), Some(("mise run build", true)));
        assert_eq!(opaque("mise install"), None);
        assert_eq!(opaque("nx test web"), Some(("nx test", true)));
        assert_eq!(opaque("npx nx run web:test:ci"), Some(("nx test", true)));
        assert_eq!(opaque("pnpm nx affected -t lint test"), Some(("nx test", true)));
        assert_eq!(opaque("nx run-many --target=build"), Some(("nx build", true)));
        assert_eq!(opaque("nx affected:test"), Some(("nx test", true)));
        assert_eq!(opaque("nx format:check"), None);
        assert_eq!(opaque("nx graph"), None);
        assert_eq!(opaque("turbo run test --filter=web"), Some(("turbo test", true)));
        assert_eq!(opaque("turbo test"), Some(("turbo test", true)));
        assert_eq!(opaque("turbo build --filter test-utils"), Some(("turbo build", true)));
        assert_eq!(opaque("turbo prune web"), None);
        assert_eq!(opaque("run-s lint test:*"), Some(("npm-run-all test", true)));
        assert_eq!(opaque("npm-run-all -p build:*"), Some(("npm-run-all build", true)));
        assert_eq!(opaque("npm run lint"), Some(("npm run build script", true)));
        // a type check by its name
        assert_eq!(opaque("pnpm check:types"), Some(("npm run build script", true)));
        assert_eq!(opaque("yarn check"), None);
        assert_eq!(opaque("npm run dev"), None);
        // known runners stay as they were
        assert_eq!(opaque("npm test"), Some(("npm test", false)));
        assert_eq!(opaque("npm run test:unit"), Some(("npm test", false)));
        assert_eq!(opaque("npm run typecheck"), Some(("npm run build", false)));
        assert_eq!(opaque("pnpm --filter web test"), Some(("npm test", false)));
        assert_eq!(opaque("make test"), Some(("make test", false)));
    }

    #[test]
    fn shells_and_pipes_are_opened_and_paths_are_not_commands() {
        assert_eq!(
            name("bash -lc 'cd api && python -m unittest discover'"),
            Some("unittest")
        );
        assert_eq!(name("sh -c \"just test 2>&1 | tail -n 20\""), Some("just test"));
        assert_eq!(name("zig build test 2>&1 | tee build.log"), Some("zig test"));
        assert_eq!(name("git add test/foo.bats tests/test_x.py"), None);
        assert_eq!(name("cat tests/fixtures/pytest.txt"), None);
        assert_eq!(name("grep -rn 'FAILED (failures' logs/"), None);
        assert_eq!(name("ls test/ spec/ build/"), None);
        assert_eq!(name("vim justfile"), None);
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
        // `discover` runs what a bare `python -m unittest` runs
        assert_eq!(inv("python -m unittest discover"), inv("python -m unittest"));
        assert_eq!(inv("gh run view 123"), Some(vec!["123".to_owned()]));
        assert_eq!(inv("gh pr checks"), Some(vec![]));
        assert_eq!(inv("just test"), Some(vec!["test".to_owned()]));
        assert_eq!(inv("node --test --test-reporter=spec"), inv("node --test"));
        // workspace options before `exec` select the package, not the tests
        assert_eq!(
            inv("pnpm --filter @ship/web exec vitest run src/a.test.tsx"),
            inv("vitest run src/a.test.tsx")
        );
        assert!(inv("vitest run src/a.test.tsx").is_some());
        assert_eq!(inv("pnpm -C web exec vitest run"), inv("vitest run"));
        // a job count is the option's value, not a test filter
        assert_eq!(inv("cargo test -j 1"), Some(vec![]));
        assert_eq!(inv("cargo test --jobs 4 foo"), Some(vec!["foo".to_owned()]));
        assert_eq!(inv("cargo test 1"), Some(vec!["1".to_owned()]));
    }
}
