//! The workspace tools' deny-list and their glob matching.
//!
//! Owns [`DEFAULT_DENY`], [`DenyList`] (the default patterns plus the
//! user's, compiled once) and the two wildcard matchers the tools share:
//! [`glob_component`] (`*`, `?` within one name) and [`glob_path`] (`**`
//! across names). A deny pattern is matched against every run of
//! components of a path, at any depth, and denies everything beneath what
//! it matches: `.git` refuses `vendor/lib/.git/config`, `.aws/credentials`
//! refuses `home/.aws/credentials`. Names are compared folded
//! ([`fold_component`]): in any case, without characters that render as
//! nothing, trailing dots and spaces or an NTFS stream suffix — the
//! spellings a case-insensitive or Windows file system opens as the same
//! file — so `.ENV` is refused as `.env` is. Both matchers run in time
//! proportional to the pattern's length times the name's (one backtrack
//! point, never a recursion per star), so neither a model's glob nor a
//! workspace's names can make them slow. The list only grows: patterns can
//! be added, never removed, and a pattern with no name in it is ignored.
//! Must not open or read anything.

use std::path::{Component, Path};

/// Names no tool reads or lists: secrets, every `.git` directory (remote
/// URLs with tokens, a submodule's config) and the advisor's own state and
/// configuration. A pattern with a `/` matches a run of components at any
/// depth; one without matches any component. `*` and `?` match within a
/// component, `**` any number of them. Matching ignores case.
pub const DEFAULT_DENY: [&str; 19] = [
    ".env*",
    "*.pem",
    "*.key",
    "id_*",
    ".netrc",
    "_netrc",
    ".git",
    ".advisor",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    ".aws/credentials",
    ".docker/config.json",
    "*.p12",
    "*.pfx",
    "*.ppk",
    "*.tfstate",
    "*.tfstate.backup",
    ".pgpass",
];

/// One path component as the deny-list compares it: lowercased, without
/// characters that render as nothing ([`crate::invisible::is_invisible`],
/// which a macOS file system ignores in names), cut at an NTFS stream
/// separator (`name:stream` opens `name` on Windows) and without trailing
/// dots and spaces (which Windows drops).
pub(crate) fn fold_component(name: &str) -> String {
    let name = name.split(':').next().unwrap_or_default();
    let folded: String = name
        .chars()
        .filter(|c| !crate::invisible::is_invisible(*c))
        .flat_map(char::to_lowercase)
        .collect();
    folded.trim_end_matches(['.', ' ']).to_owned()
}

/// The deny-list: patterns as folded components, each between an implicit
/// `**` on both sides (at any depth, and everything beneath).
#[derive(Debug, Clone)]
pub(crate) struct DenyList {
    patterns: Vec<Vec<String>>,
}

impl DenyList {
    /// [`DEFAULT_DENY`] alone.
    pub(crate) fn new() -> DenyList {
        let mut list = DenyList { patterns: Vec::new() };
        list.extend(DEFAULT_DENY.iter().copied());
        list
    }

    /// Adds `patterns`; one with no name in it (`""`, `/`) is ignored.
    pub(crate) fn extend<S: AsRef<str>>(&mut self, patterns: impl IntoIterator<Item = S>) {
        for pattern in patterns {
            let parts: Vec<String> = pattern
                .as_ref()
                .split(['/', '\\'])
                .filter(|p| !p.is_empty() && *p != ".")
                .map(|p| if p == "**" { p.to_owned() } else { fold_component(p) })
                .collect();
            if parts.is_empty() || parts.iter().all(String::is_empty) {
                continue;
            }
            let mut compiled = Vec::with_capacity(parts.len() + 2);
            compiled.push("**".to_owned());
            compiled.extend(parts);
            compiled.push("**".to_owned());
            self.patterns.push(compiled);
        }
    }

    /// Whether the relative path `rel` is denied: some pattern matches a
    /// run of its (folded) components.
    pub(crate) fn denies(&self, rel: &Path) -> bool {
        let parts: Vec<String> = rel
            .components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(fold_component(&n.to_string_lossy())),
                _ => None,
            })
            .collect();
        if parts.is_empty() {
            return false;
        }
        self.patterns
            .iter()
            .any(|p| wildcard(p, &parts, |x| x == "**", |pat, name| glob_component(pat, name)))
    }
}

/// Whether `name` matches `pattern`, where an element for which `star`
/// holds matches any run of elements (none included) and any other matches
/// one element when `one` says so. Greedy with one backtrack point (the
/// last star): at most `pattern.len() × name.len()` steps.
fn wildcard<P, N>(pattern: &[P], name: &[N], star: impl Fn(&P) -> bool, one: impl Fn(&P, &N) -> bool) -> bool {
    let (mut p, mut n) = (0usize, 0usize);
    // after the last star: where the pattern resumes, and the name index it took
    let mut back: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(x) if star(x) => {
                p += 1;
                back = Some((p, n));
            }
            Some(x) if one(x, &name[n]) => {
                p += 1;
                n += 1;
            }
            _ => match back {
                Some((bp, bn)) => {
                    p = bp;
                    n = bn + 1;
                    back = Some((bp, bn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(star)
}

/// Whether `name` (one component) matches `pattern`: `*` any run of
/// characters, `?` one character, anything else itself.
pub(crate) fn glob_component(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    wildcard(&p, &n, |c| *c == '*', |a, b| *a == '?' || a == b)
}

/// Whether the `/`-separated `path` matches `pattern`, where `**` matches any
/// number of components and other components match with
/// [`glob_component`]. A pattern without `/` matches the last component.
pub(crate) fn glob_path(pattern: &str, path: &str) -> bool {
    if !pattern.contains('/') {
        return path
            .rsplit('/')
            .next()
            .is_some_and(|last| glob_component(pattern, last));
    }
    let p: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
    let n: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    wildcard(&p, &n, |x| *x == "**", |a, b| glob_component(a, b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The matcher as the tools had it: one recursion per star (exponential
    /// at worst), kept here as the reference the fast one must agree with.
    fn reference(p: &[char], n: &[char]) -> bool {
        match (p.first(), n.first()) {
            (None, None) => true,
            (Some('*'), _) => reference(&p[1..], n) || (!n.is_empty() && reference(p, &n[1..])),
            (Some('?'), Some(_)) => reference(&p[1..], &n[1..]),
            (Some(a), Some(b)) if a == b => reference(&p[1..], &n[1..]),
            _ => false,
        }
    }

    fn denies(list: &DenyList, path: &str) -> bool {
        list.denies(Path::new(path))
    }

    #[test]
    fn patterns_match_every_run_of_components_in_any_case() {
        let mut list = DenyList::new();
        list.extend(["secrets/*.txt", "", "/", "./"]);
        for denied in [
            ".git",
            ".git/config",
            "vendor/lib/.git/config",
            ".git/modules/sub/config",
            "x/.GIT/HEAD",
            ".git./config",
            ".git:$INDEX_ALLOCATION/config",
            ".g\u{200c}it/config",
            ".ENV",
            "SERVER.KEY",
            "certs/CERT.PEM",
            "ID_RSA",
            ".aws/credentials",
            "home/.AWS/Credentials",
            ".docker/config.json",
            "infra/prod.tfstate.backup",
            "secrets/a.txt",
            "x/secrets/a.txt",
            "secrets/a.txt/b",
        ] {
            assert!(denies(&list, denied), "{denied}");
        }
        for allowed in [
            "src/main.rs",
            ".gitignore",
            ".github/workflows/ci.yml",
            ".gitattributes",
            "environment.md",
            "keys.rs",
            ".aws/config",
            ".docker/daemon.json",
            "secrets/a/b.txt",
            "my.git.rs",
            ".",
            "",
        ] {
            assert!(!denies(&list, allowed), "{allowed}");
        }
    }

    #[test]
    fn globs_match_within_components_and_across_with_double_star() {
        assert!(glob_path("src/**/*.rs", "src/a/b/c.rs"));
        assert!(glob_path("src/**/*.rs", "src/c.rs"));
        assert!(!glob_path("src/*.rs", "src/a/c.rs"));
        assert!(glob_path("*.md", "docs/x.md"));
        assert!(!glob_component("a?c", "ac"));
        assert!(glob_component("?", "é"));
    }

    #[test]
    fn many_stars_against_a_long_name_stay_fast() {
        let name = "a".repeat(4000);
        let pattern = format!("{}b", "*a".repeat(40));
        let started = std::time::Instant::now();
        assert!(!glob_component(&pattern, &name));
        let path = vec!["a"; 2000].join("/");
        let deep = format!("{}/b", vec!["**/a"; 20].join("/"));
        assert!(!glob_path(&deep, &path));
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }

    proptest! {
        #[test]
        fn a_star_pattern_matches_every_name(name in "[a-z.]{0,12}") {
            prop_assert!(glob_component("*", &name));
            prop_assert!(glob_component(&name, &name));
        }

        #[test]
        fn the_fast_matcher_agrees_with_the_reference(p in "[ab?*]{0,8}", n in "[ab]{0,10}") {
            let (pc, nc): (Vec<char>, Vec<char>) = (p.chars().collect(), n.chars().collect());
            prop_assert_eq!(glob_component(&p, &n), reference(&pc, &nc));
        }

        #[test]
        fn a_denied_path_stays_denied_at_any_depth_in_any_case_and_beneath(
            prefix in proptest::collection::vec("[a-z]{1,6}", 0..4),
            name in prop::sample::select(vec![".env", ".git", "id_rsa", "server.key", ".npmrc", ".pgpass", "a.p12"]),
            rest in proptest::collection::vec("[a-z]{1,6}", 0..3),
            upper in proptest::collection::vec(any::<bool>(), 16),
        ) {
            let cased: String = name.chars().zip(upper.iter().cycle())
                .map(|(c, u)| if *u { c.to_ascii_uppercase() } else { c }).collect();
            let mut parts = prefix.clone();
            parts.push(cased);
            parts.extend(rest);
            let mut list = DenyList::new();
            prop_assert!(list.denies(Path::new(&parts.join("/"))));
            // whatever a user adds, nothing is un-denied
            list.extend(prefix.iter().map(|p| format!("!{p}")));
            prop_assert!(list.denies(Path::new(&parts.join("/"))));
        }

        #[test]
        fn a_path_of_plain_names_is_never_denied(parts in proptest::collection::vec("[a-z]{1,8}(\\.rs)?", 1..5)) {
            prop_assert!(!DenyList::new().denies(Path::new(&parts.join("/"))));
        }
    }
}
