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

use reqwest::header::ACCEPT;
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::auth::TokenCache;
use super::config::{backoff, retry_after, Config};
use super::error::{Error, Result};
use super::types::ErrorBody;

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
