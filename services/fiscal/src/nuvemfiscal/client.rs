//! The HTTP side of the Nuvem Fiscal client: configuration, the bearer token,
//! and one `send` that every operation goes through, with its retry rules.
//!
//! Retries (at most `Retry::attempts` tries, exponential backoff from
//! `Retry::base_delay`, `Retry-After` honoured up to `Retry::max_delay`):
//! - 429 and connection failures (nothing reached the server) are retried
//!   for every request;
//! - 5xx and timeouts are retried only for requests that are safe to repeat
//!   (`Replay::Safe`: GET, PUT, DELETE, synchronisation);
//! - never a 4xx (other than 429): the request itself is wrong.
//!
//! An emission (and any POST that creates something: events, companies) is
//! `Replay::Once`: after a 5xx or a timeout the document may exist on the
//! provider's side, and a second POST would emit it twice. The error is
//! returned instead ([`Error::outcome_unknown`] says so), and the caller looks
//! the document up by its `referencia` (`listar_nfe` and friends) before
//! deciding to emit again.
//!
//! A 401 drops the cached token and the request is sent once more with a new
//! one; a second 401 is returned as an error.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderMap, ACCEPT, RETRY_AFTER};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::auth::TokenCache;
use super::error::{Error, Result};
use super::types::ErrorBody;

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

/// Whether a request may be sent again after it reached the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Replay {
    /// Repeating it changes nothing: retried on 429, 5xx, timeouts and
    /// connection failures.
    Safe,
    /// It creates something (an emission, an event): retried only when the
    /// server did not take it (429, connection failure).
    Once,
}

/// The body of a request, kept as bytes so that a retry can send it again.
pub(crate) enum Body {
    Empty,
    Json(Vec<u8>),
    /// One multipart part: field name, file name, MIME type, content.
    Part {
        field: &'static str,
        file_name: String,
        mime: &'static str,
        content: Vec<u8>,
    },
}

impl Body {
    pub(crate) fn json<T: Serialize>(value: &T) -> Result<Body> {
        serde_json::to_vec(value)
            .map(Body::Json)
            .map_err(|e| Error::Invalid(format!("Dados inválidos para a Nuvem Fiscal: {e}")))
    }
}

/// Client of the Nuvem Fiscal API. Cheap to clone; clones share the token.
#[derive(Clone)]
pub struct NuvemFiscal {
    inner: Arc<Inner>,
}

struct Inner {
    http: reqwest::Client,
    config: Config,
    token: TokenCache,
}

impl fmt::Debug for NuvemFiscal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NuvemFiscal")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

impl NuvemFiscal {
    pub fn new(mut config: Config) -> Result<NuvemFiscal> {
        config.base_url = config.base_url.trim_end_matches('/').to_string();
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout.min(Duration::from_secs(10)))
            .user_agent(concat!("erp-fiscal/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(NuvemFiscal { inner: Arc::new(Inner { http, config, token: TokenCache::default() }) })
    }

    /// From the environment ([`Config::from_env`]); `Ok(None)` without
    /// credentials.
    pub fn from_env() -> Result<Option<NuvemFiscal>> {
        Config::from_env().map(NuvemFiscal::new).transpose()
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// Sends `body` as JSON and reads the JSON answer.
    pub(crate) async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, &str)],
        body: Body,
        replay: Replay,
    ) -> Result<T> {
        let resp = self.send(method, path, query, &body, replay).await?;
        let bytes = resp.bytes().await?;
        serde_json::from_slice(&bytes).map_err(|e| {
            let start: String = String::from_utf8_lossy(&bytes).chars().take(200).collect();
            Error::Decode(format!("{path}: {e} (início da resposta: {start})"))
        })
    }

    /// For answers without a body (204) or whose body is not needed.
    pub(crate) async fn call_empty(
        &self,
        method: Method,
        path: &str,
        body: Body,
        replay: Replay,
    ) -> Result<()> {
        self.send(method, path, &[], &body, replay).await?;
        Ok(())
    }

    /// A file (XML, PDF).
    pub(crate) async fn download(&self, path: &str) -> Result<Vec<u8>> {
        let resp = self
            .send(Method::GET, path, &[], &Body::Empty, Replay::Safe)
            .await?;
        Ok(resp.bytes().await?.to_vec())
    }

    /// Sends until a success status, applying the module's retry rules.
    async fn send(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, &str)],
        body: &Body,
        replay: Replay,
    ) -> Result<reqwest::Response> {
        let config = &self.inner.config;
        let url = format!("{}{}", config.base_url, path);
        let mut attempt = 1;
        let mut refreshed = false;
        loop {
            let last = attempt >= config.retry.attempts;
            let token = self.inner.token.bearer(&self.inner.http, config).await?;
            let request = self.build(method.clone(), &url, query, body, &token)?;
            match request.send().await {
                Ok(resp) => {
                    let status = resp.status();
                    if status.is_success() {
                        return Ok(resp);
                    }
                    if status == StatusCode::UNAUTHORIZED && !refreshed {
                        // Revoked or expired early: one new token, same try.
                        refreshed = true;
                        self.inner.token.invalidate(&token).await;
                        continue;
                    }
                    let retryable = status == StatusCode::TOO_MANY_REQUESTS
                        || (status.is_server_error() && replay == Replay::Safe);
                    if retryable && !last {
                        let wait = retry_after(resp.headers(), &config.retry)
                            .unwrap_or_else(|| backoff(attempt, &config.retry));
                        tracing::warn!(%method, path, %status, attempt, ?wait, "nuvemfiscal: retrying");
                        tokio::time::sleep(wait).await;
                    } else {
                        return Err(api_error(resp).await);
                    }
                }
                Err(e) => {
                    let retryable = e.is_connect() || (replay == Replay::Safe && e.is_timeout());
                    if retryable && !last {
                        tracing::warn!(%method, path, error = %e, attempt, "nuvemfiscal: retrying");
                        tokio::time::sleep(backoff(attempt, &config.retry)).await;
                    } else {
                        return Err(Error::Transport(e));
                    }
                }
            }
            attempt += 1;
        }
    }

    fn build(
        &self,
        method: Method,
        url: &str,
        query: &[(&str, &str)],
        body: &Body,
        token: &str,
    ) -> Result<reqwest::RequestBuilder> {
        let mut request = self
            .inner
            .http
            .request(method, url)
            .bearer_auth(token)
            .header(ACCEPT, "application/json, */*");
        if !query.is_empty() {
            request = request.query(query);
        }
        Ok(match body {
            Body::Empty => request,
            Body::Json(bytes) => request
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(bytes.clone()),
            Body::Part { field, file_name, mime, content } => {
                let part = reqwest::multipart::Part::bytes(content.clone())
                    .file_name(file_name.clone())
                    .mime_str(mime)?;
                request.multipart(reqwest::multipart::Form::new().part(*field, part))
            }
        })
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

async fn api_error(resp: reqwest::Response) -> Error {
    let status = resp.status();
    let text = resp.text().await.unwrap_or_default();
    match serde_json::from_str::<ErrorBody>(&text) {
        Ok(body) => Error::Api {
            status: status.as_u16(),
            code: body.error.code,
            message: body.error.message,
            errors: body.error.errors,
        },
        Err(_) => {
            let start: String = text.chars().take(300).collect();
            Error::Api {
                status: status.as_u16(),
                code: String::new(),
                message: if start.trim().is_empty() {
                    status.canonical_reason().unwrap_or("erro").to_string()
                } else {
                    start
                },
                errors: Vec::new(),
            }
        }
    }
}
