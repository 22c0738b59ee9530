//! What `advisor trust` says about the host a `base_url` names, before a
//! person agrees to send transcripts and a key there.
//!
//! Owns [`HostView`]: the host as the HTTP client will look it up (the URL
//! parser the client uses, so IDNA's ASCII form — `api.xn--openi-7ve.com`,
//! never a look-alike rendering), the host as written, and the warnings:
//! a host written with non-ASCII characters or in punycode, a label that
//! mixes scripts, plain `http` off the machine, and a host that is neither
//! loopback nor the one the key variable is for ([`WELL_KNOWN`]). Must not
//! decide whether to record anything (the command asks the person).

use std::borrow::Cow;

use unicode_security::MixedScript;

/// Key variables whose provider is known, and the one host each key is for.
/// Small on purpose: a key variable not listed here, or no key, makes any
/// host off the machine a warning. Each host is the one the provider's own
/// documentation gives as its OpenAI-compatible base URL (the sources are
/// listed in `docs/security.md`).
pub(crate) const WELL_KNOWN: &[(&str, &str)] = &[
    ("OPENAI_API_KEY", "api.openai.com"),
    ("ANTHROPIC_API_KEY", "api.anthropic.com"),
    ("GROQ_API_KEY", "api.groq.com"),
    ("DEEPSEEK_API_KEY", "api.deepseek.com"),
    ("OPENROUTER_API_KEY", "openrouter.ai"),
];

/// The host of a `base_url`, as it will be resolved, and what is odd about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HostView {
    /// The host the client looks up (IDNA ASCII form, IPs as parsed);
    /// `None` when the URL cannot be parsed (the client refuses it too).
    pub(crate) resolved: Option<String>,
    /// The URL as the client will use it (parsed and re-serialised).
    pub(crate) url: Option<String>,
    /// The host as written in the file.
    pub(crate) written: String,
    /// One sentence per thing a person should check.
    pub(crate) warnings: Vec<String>,
}

/// The host part of `base_url` as written: after `scheme://`, before the
/// path, without credentials or port.
fn written_host(base_url: &str) -> &str {
    let rest = base_url.split_once("://").map_or(base_url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    if host.starts_with('[') {
        return host.split_once(']').map_or(host, |(h, _)| &host[..=h.len()]);
    }
    host.rsplit_once(':').map_or(host, |(h, _)| h)
}

fn is_loopback(host: &url::Host<&str>) -> bool {
    match host {
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
        url::Host::Domain(d) => {
            let d = d.trim_end_matches('.');
            d == "localhost" || d.ends_with(".localhost")
        }
    }
}

/// The host `key_env` is for, when it is a [`WELL_KNOWN`] variable.
pub(crate) fn expected_host(key_env: Option<&str>) -> Option<&'static str> {
    let var = key_env?;
    WELL_KNOWN.iter().find(|(v, _)| *v == var).map(|(_, h)| *h)
}

/// Looks at `base_url` as the client will, with `key_env` the variable the
/// key is read from.
pub(crate) fn view(base_url: &str, key_env: Option<&str>) -> HostView {
    let written = written_host(base_url).to_owned();
    let mut warnings = Vec::new();
    let Some(parsed) = url::Url::parse(base_url).ok().filter(|u| u.host().is_some()) else {
        warnings.push("the base URL cannot be parsed, so the client will refuse it".to_owned());
        return HostView {
            resolved: None,
            url: None,
            written,
            warnings,
        };
    };
    let host = parsed.host_str().unwrap_or_default().to_owned();
    if !written.is_ascii() {
        warnings.push(format!(
            "the host is written with non-ASCII characters; the name looked up is {host}"
        ));
    }
    if let Some(url::Host::Domain(d)) = parsed.host() {
        let (unicode, _) = idna::domain_to_unicode(d);
        if written.is_ascii() && d.split('.').any(|l| l.starts_with("xn--")) {
            warnings.push(format!(
                "the host is written in punycode; it displays as {}",
                crate::terminal::line(&unicode)
            ));
        }
        if unicode.split('.').any(|label| !label.is_single_script()) {
            warnings.push("a label of the host mixes scripts (a look-alike of another name)".to_owned());
        }
    }
    let loopback = parsed.host().is_some_and(|h| is_loopback(&h));
    let expected = expected_host(key_env);
    if !loopback && parsed.scheme() == "http" {
        warnings.push("the URL is plain http: the transcript and the key cross the network unencrypted".to_owned());
    }
    match (loopback, expected, key_env) {
        (true, _, _) => {}
        (false, Some(e), Some(var)) if e != host => {
            warnings.push(format!("${var} is a key for {e}, but the requests go to {host}"))
        }
        (false, Some(_), _) => {}
        (false, None, Some(var)) => warnings.push(format!(
            "{host} is not this machine, and ${var} is not a key variable whose host advisor knows: \
             the transcript and the key go to {host}"
        )),
        (false, None, None) => warnings.push(format!("{host} is not this machine: the transcript goes to {host}")),
    }
    HostView {
        resolved: Some(host),
        url: Some(parsed.to_string()),
        written,
        warnings,
    }
}

impl HostView {
    /// The host line of the display: the resolved name, and the written one
    /// (escaped) when it differs.
    pub(crate) fn host_line(&self) -> String {
        let written: Cow<'_, str> = crate::terminal::line(&self.written);
        match &self.resolved {
            Some(h) if *h == self.written.to_ascii_lowercase() => h.clone(),
            Some(h) => format!("{h} (written {written})"),
            None => format!("cannot be parsed (written {written})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_look_alike_host_is_shown_as_it_resolves_and_flagged() {
        let v = view("https://api.open\u{430}i.com/v1", Some("OPENAI_API_KEY"));
        assert_eq!(v.resolved.as_deref(), Some("api.xn--openi-7ve.com"));
        assert_eq!(v.warnings.len(), 3, "{:?}", v.warnings);
        assert!(v.warnings[0].contains("non-ASCII"));
        assert!(v.warnings[1].contains("mixes scripts"));
        assert!(v.warnings[2].contains("$OPENAI_API_KEY is a key for api.openai.com"));
        assert!(v.host_line().starts_with("api.xn--openi-7ve.com (written api.open"));
    }

    #[test]
    fn punycode_written_as_ascii_is_decoded_and_flagged() {
        let v = view("https://api.xn--openi-7ve.com/v1", None);
        assert!(v.warnings.iter().any(|w| w.contains("punycode")), "{:?}", v.warnings);
        assert!(
            v.warnings.iter().any(|w| w.contains("mixes scripts")),
            "{:?}",
            v.warnings
        );
    }

    #[test]
    fn the_expected_host_and_loopback_are_not_flagged() {
        assert!(
            view("https://api.openai.com/v1", Some("OPENAI_API_KEY"))
                .warnings
                .is_empty()
        );
        assert!(
            view("https://API.OpenAI.com:443/v1", Some("OPENAI_API_KEY"))
                .warnings
                .is_empty()
        );
        for local in [
            "http://127.0.0.1:8080/v1",
            "http://[::1]:1/v1",
            "http://localhost:11434/v1",
        ] {
            assert!(view(local, Some("ANY")).warnings.is_empty(), "{local}");
        }
        let v = view("https://models.example.com/v1", Some("MY_KEY"));
        assert_eq!(v.warnings.len(), 1, "{:?}", v.warnings);
        let v = view("http://10.0.0.2/v1", None);
        assert_eq!(v.warnings.len(), 2, "{:?}", v.warnings);
        assert!(!view("not a url", None).warnings.is_empty());
    }

    #[test]
    fn the_written_host_drops_credentials_port_and_path() {
        assert_eq!(written_host("https://u:p@h.example:8443/v1?x#y"), "h.example");
        assert_eq!(written_host("http://[::1]:8080/v1"), "[::1]");
        assert_eq!(written_host("h.example"), "h.example");
    }
}
