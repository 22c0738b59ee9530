//! The fingerprint `advisor trust` records: a SHA-256 of a workspace's
//! network settings (its `[reviewer]` table) in a canonical serialisation.
//!
//! Owns [`fingerprint`] and its format. The canonical form is the line
//! `advisor-trust.v1` followed by the table as compact JSON with a fixed key
//! order (`kind`, `model`, `base_url`, `api_key_env`, `headers` sorted by
//! name, `structured_output`), absent values as `null`, then — only when set,
//! so tables without them keep their fingerprint — `tools`, `max_tool_calls`,
//! `tools_deny`, `command` and `preset`, and `workspace_files`: for each
//! workspace file the command names (`command_files.rs` reads them), its
//! argument's index and the SHA-256 of its content. Any change to one of
//! those values — the content of such a file included — changes the
//! fingerprint; caps, rounds, cadence and shadow mode are not part of it.
//! Must not read files or the environment.

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::command_files::Named;
use super::{ReviewerKind, ReviewerTable};
use advisor::model::StructuredOutput;

/// The prefix of every fingerprint.
pub(crate) const FINGERPRINT_PREFIX: &str = "sha256:";

#[derive(Serialize)]
struct Canonical<'a> {
    kind: ReviewerKind,
    model: Option<&'a str>,
    base_url: Option<&'a str>,
    api_key_env: Option<&'a str>,
    headers: &'a std::collections::BTreeMap<String, String>,
    structured_output: StructuredOutput,
    // issue 28: left out when unset, so a table that sets none of them keeps
    // the fingerprint it had
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    tools: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tool_calls: Option<usize>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    tools_deny: &'a [String],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    command: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    preset: Option<crate::reviewer::preset::Preset>,
    // issue 48: left out when the command names no workspace file
    #[serde(skip_serializing_if = "Vec::is_empty")]
    workspace_files: Vec<(usize, &'a str)>,
}

/// The canonical serialisation of `r`, whose command names the workspace
/// paths `named`, the fingerprint is taken over.
pub(crate) fn canonical(r: &ReviewerTable, named: &[Named]) -> String {
    let c = Canonical {
        kind: r.kind,
        model: r.model.as_deref(),
        base_url: r.base_url.as_deref(),
        api_key_env: r.api_key_env.as_deref(),
        headers: &r.headers,
        structured_output: r.structured_output,
        tools: &r.tools,
        max_tool_calls: r.max_tool_calls,
        tools_deny: &r.tools_deny,
        command: &r.command,
        preset: r.preset,
        workspace_files: named
            .iter()
            .filter_map(|n| match n {
                Named::File { arg, digest, .. } => Some((*arg, digest.as_str())),
                Named::Directory { .. } => None,
            })
            .collect(),
    };
    // Serialising plain strings, enums and a string map cannot fail.
    format!("advisor-trust.v1\n{}", serde_json::to_string(&c).unwrap_or_default())
}

/// `sha256:<64 hex digits>` of [`canonical`]`(r, named)`.
pub(crate) fn fingerprint(r: &ReviewerTable, named: &[Named]) -> String {
    let digest = Sha256::digest(canonical(r, named).as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("{FINGERPRINT_PREFIX}{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> ReviewerTable {
        ReviewerTable {
            kind: ReviewerKind::Model,
            model: Some("m".into()),
            base_url: Some("http://127.0.0.1:1/v1".into()),
            api_key_env: Some("K".into()),
            ..ReviewerTable::default()
        }
    }

    #[test]
    fn a_fingerprint_is_sha256_and_changes_with_the_base_url() {
        let mut r = ReviewerTable {
            kind: ReviewerKind::Model,
            ..Default::default()
        };
        r.base_url = Some("http://127.0.0.1:8080/v1".into());
        let a = fingerprint(&r, &[]);
        r.base_url = Some("http://127.0.0.1:8081/v1".into());
        assert_ne!(a, fingerprint(&r, &[]));
        assert!(a.starts_with("sha256:") && a.len() == 7 + 64);
    }

    #[test]
    fn every_network_setting_is_in_the_fingerprint() {
        let base = fingerprint(&model(), &[]);
        let mut r = model();
        r.model = Some("n".into());
        assert_ne!(fingerprint(&r, &[]), base);
        let mut r = model();
        r.api_key_env = Some("OTHER".into());
        assert_ne!(fingerprint(&r, &[]), base);
        let mut r = model();
        r.headers.insert("x-a".into(), "1".into());
        assert_ne!(fingerprint(&r, &[]), base);
        let mut r = model();
        r.structured_output = StructuredOutput::None;
        assert_ne!(fingerprint(&r, &[]), base);
        let mut r = model();
        r.kind = ReviewerKind::Rules;
        assert_ne!(fingerprint(&r, &[]), base);
        let mut r = model();
        r.tools = vec!["read_file".into()];
        assert_ne!(fingerprint(&r, &[]), base);
        let mut t = r.clone();
        t.max_tool_calls = Some(3);
        assert_ne!(fingerprint(&t, &[]), fingerprint(&r, &[]));
        let mut t = r.clone();
        t.tools_deny = vec!["*.sql".into()];
        assert_ne!(fingerprint(&t, &[]), fingerprint(&r, &[]));
        let mut c = model();
        c.kind = ReviewerKind::Command;
        c.command = vec!["review-cli".into()];
        let mut d = c.clone();
        d.command.push("--fast".into());
        assert_ne!(fingerprint(&c, &[]), fingerprint(&d, &[]));
        let mut e = c.clone();
        e.command.clear();
        e.preset = Some(crate::reviewer::preset::Preset::Claude);
        assert_ne!(fingerprint(&c, &[]), fingerprint(&e, &[]));
        // a value cannot be shifted between fields to forge the same text
        let mut a = model();
        a.model = Some("a\",\"base_url\":\"b".into());
        assert_ne!(fingerprint(&a, &[]), base);
        assert_eq!(fingerprint(&model(), &[]), base, "deterministic");
        // a workspace file's content
        let file = |digest: &str| Named::File {
            arg: 1,
            written: "tools/review.sh".into(),
            digest: digest.into(),
            bytes: 1,
        };
        let dir = Named::Directory {
            arg: 2,
            written: "tools".into(),
        };
        assert_ne!(
            fingerprint(&c, &[file("sha256:a")]),
            fingerprint(&c, &[file("sha256:b")])
        );
        assert_ne!(fingerprint(&c, &[file("sha256:a")]), fingerprint(&c, &[]));
        assert_eq!(
            fingerprint(&c, &[dir]),
            fingerprint(&c, &[]),
            "a directory is not fingerprinted"
        );
    }
}
