//! How the client reaches the provider: the configuration (credentials, URLs,
//! timeout, scopes) and the retry policy with its waits.

use std::fmt;
use std::time::Duration;

use reqwest::header::{HeaderMap, RETRY_AFTER};

/// The spec's server.
pub const PRODUCTION_URL: &str = "https://api.nuvemfiscal.com.br";
/// The provider's sandbox (homologação accounts).
pub const SANDBOX_URL: &str = "https://api.sandbox.nuvemfiscal.com.br";
/// The spec's `tokenUrl` (OAuth2 client credentials).
pub const AUTH_URL: &str = "https://auth.nuvemfiscal.com.br/oauth/token";
/// The scopes the client uses, among those the spec declares (`conta`,
/// `empresa`, `cep`, `cnpj`, `mdfe`, `cte`, `nfse`, `nfe`).
pub const DEFAULT_SCOPE: &str = "empresa nfe cte mdfe";
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How the client reaches the Nuvem Fiscal.
#[derive(Clone)]
pub struct Config {
    pub client_id: String,
    pub client_secret: String,
    /// API root, without the trailing `/`.
    pub base_url: String,
    /// OAuth2 token endpoint.
    pub auth_url: String,
    /// Per request (connection, sending and reading the answer).
    pub timeout: Duration,
    /// Space-separated OAuth2 scopes.
    pub scope: String,
    pub retry: Retry,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("client_id", &self.client_id)
            .field("client_secret", &"***")
            .field("base_url", &self.base_url)
            .field("auth_url", &self.auth_url)
            .field("timeout", &self.timeout)
            .field("scope", &self.scope)
            .field("retry", &self.retry)
            .finish()
    }
}

impl Config {
    /// Production defaults for these credentials.
    pub fn new(client_id: impl Into<String>, client_secret: impl Into<String>) -> Config {
        Config {
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            base_url: PRODUCTION_URL.to_string(),
            auth_url: AUTH_URL.to_string(),
            timeout: DEFAULT_TIMEOUT,
            scope: DEFAULT_SCOPE.to_string(),
            retry: Retry::default(),
        }
    }

    /// From `NUVEMFISCAL_CLIENT_ID` and `NUVEMFISCAL_CLIENT_SECRET` (both
    /// needed), `NUVEMFISCAL_BASE_URL`, `NUVEMFISCAL_AUTH_URL`,
    /// `NUVEMFISCAL_SCOPE` and `NUVEMFISCAL_TIMEOUT_SECS` (optional). `None`
    /// without credentials: callers then answer [`super::MISSING_CREDENTIALS`].
    pub fn from_env() -> Option<Config> {
        Config::from_vars(|name| std::env::var(name).ok())
    }

    /// [`Config::from_env`] over any source of variables.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Option<Config> {
        let get = |name: &str| {
            var(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let mut config = Config::new(
            get("NUVEMFISCAL_CLIENT_ID")?,
            get("NUVEMFISCAL_CLIENT_SECRET")?,
        );
        if let Some(url) = get("NUVEMFISCAL_BASE_URL") {
            config.base_url = url;
        }
        if let Some(url) = get("NUVEMFISCAL_AUTH_URL") {
            config.auth_url = url;
        }
        if let Some(scope) = get("NUVEMFISCAL_SCOPE") {
            config.scope = scope;
        }
        if let Some(secs) = get("NUVEMFISCAL_TIMEOUT_SECS").and_then(|s| s.parse::<u64>().ok()) {
            config.timeout = Duration::from_secs(secs.max(1));
        }
        Some(config)
    }
}

/// Retry policy; see the module doc for what is retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retry {
    /// Tries in all, the first included.
    pub attempts: u32,
    /// Wait before the second try; doubled for each further one.
    pub base_delay: Duration,
    /// Longest wait, for the backoff and for a `Retry-After`.
    pub max_delay: Duration,
}

impl Default for Retry {
    fn default() -> Self {
        Retry {
            attempts: 3,
            base_delay: Duration::from_millis(200),
            max_delay: Duration::from_secs(10),
        }
    }
}

/// The wait before try `attempt + 1`: `base_delay * 2^(attempt-1)`, at most
/// `max_delay`.
pub(crate) fn backoff(attempt: u32, retry: &Retry) -> Duration {
    let factor = 2u32.saturating_pow(attempt.saturating_sub(1));
    retry.base_delay.saturating_mul(factor).min(retry.max_delay)
}

/// `Retry-After` as seconds or as an HTTP date, at most `max_delay`.
pub(crate) fn retry_after(headers: &HeaderMap, retry: &Retry) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    let wait = match value.parse::<u64>() {
        Ok(secs) => Duration::from_secs(secs),
        Err(_) => {
            let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
            (at.with_timezone(&chrono::Utc) - chrono::Utc::now())
                .to_std()
                .unwrap_or(Duration::ZERO)
        }
    };
    Some(wait.min(retry.max_delay))
}
