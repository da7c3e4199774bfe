//! Configuration from the environment and the retry timings.

use std::collections::HashMap;
use std::time::Duration;

use reqwest::header::{HeaderMap, HeaderValue, RETRY_AFTER};

use crate::nuvemfiscal::config::{backoff, retry_after};
use crate::nuvemfiscal::{
    Config, NuvemFiscal, Retry, AUTH_URL, DEFAULT_SCOPE, MISSING_CREDENTIALS, PRODUCTION_URL,
    SANDBOX_URL,
};

fn from(vars: &[(&str, &str)]) -> Option<Config> {
    let vars: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Config::from_vars(|name| vars.get(name).cloned())
}

#[test]
fn no_credentials_no_client() {
    assert!(from(&[]).is_none());
    assert!(from(&[("NUVEMFISCAL_CLIENT_ID", "id")]).is_none());
    assert!(from(&[
        ("NUVEMFISCAL_CLIENT_ID", "id"),
        ("NUVEMFISCAL_CLIENT_SECRET", "  ")
    ])
    .is_none());
    assert_eq!(
        MISSING_CREDENTIALS,
        "Configure as credenciais da Nuvem Fiscal em Empresas › Serviços fiscais."
    );
}

#[test]
fn defaults_are_production_and_the_spec_s_token_url() {
    let c = from(&[
        ("NUVEMFISCAL_CLIENT_ID", "id"),
        ("NUVEMFISCAL_CLIENT_SECRET", "s"),
    ])
    .expect("config");
    assert_eq!(c.base_url, PRODUCTION_URL);
    assert_eq!(c.auth_url, AUTH_URL);
    assert_eq!(c.scope, DEFAULT_SCOPE);
    assert_eq!(c.timeout, Duration::from_secs(30));
    assert_eq!(c.retry, Retry::default());
    assert!(
        !format!("{c:?}").contains("\"s\""),
        "the secret is not printed"
    );
}

#[test]
fn the_environment_overrides_urls_scope_and_timeout() {
    let c = from(&[
        ("NUVEMFISCAL_CLIENT_ID", "id"),
        ("NUVEMFISCAL_CLIENT_SECRET", "s"),
        (
            "NUVEMFISCAL_BASE_URL",
            "https://api.sandbox.nuvemfiscal.com.br/",
        ),
        ("NUVEMFISCAL_AUTH_URL", "http://127.0.0.1:9/oauth/token"),
        ("NUVEMFISCAL_SCOPE", "empresa nfe"),
        ("NUVEMFISCAL_TIMEOUT_SECS", "5"),
    ])
    .expect("config");
    assert_eq!(c.auth_url, "http://127.0.0.1:9/oauth/token");
    assert_eq!(c.scope, "empresa nfe");
    assert_eq!(c.timeout, Duration::from_secs(5));
    let nf = NuvemFiscal::new(c).expect("client");
    assert_eq!(nf.config().base_url, SANDBOX_URL);
}

#[test]
fn backoff_doubles_up_to_the_cap() {
    let r = Retry::default();
    assert_eq!(backoff(1, &r), Duration::from_millis(200));
    assert_eq!(backoff(2, &r), Duration::from_millis(400));
    assert_eq!(backoff(3, &r), Duration::from_millis(800));
    assert_eq!(backoff(30, &r), r.max_delay);
}

#[test]
fn retry_after_reads_seconds_and_http_dates() {
    let r = Retry::default();
    let mut h = HeaderMap::new();
    assert_eq!(retry_after(&h, &r), None);
    h.insert(RETRY_AFTER, HeaderValue::from_static("3"));
    assert_eq!(retry_after(&h, &r), Some(Duration::from_secs(3)));
    h.insert(RETRY_AFTER, HeaderValue::from_static("3600"));
    assert_eq!(retry_after(&h, &r), Some(r.max_delay), "capped");
    let at = (chrono::Utc::now() + chrono::Duration::seconds(5)).to_rfc2822();
    h.insert(RETRY_AFTER, HeaderValue::from_str(&at).expect("header"));
    let wait = retry_after(&h, &r).expect("date");
    assert!(
        wait > Duration::from_secs(3) && wait <= Duration::from_secs(5),
        "{wait:?}"
    );
    h.insert(
        RETRY_AFTER,
        HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT"),
    );
    assert_eq!(
        retry_after(&h, &r),
        Some(Duration::ZERO),
        "a past date: no wait"
    );
    h.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
    assert_eq!(retry_after(&h, &r), None);
}
