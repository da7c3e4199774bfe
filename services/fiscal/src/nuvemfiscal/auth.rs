//! OAuth2 client credentials for the Nuvem Fiscal: the token is asked for
//! once, kept until shortly before `expires_in` runs out, and dropped when the
//! API answers 401 so that the next call asks for a new one.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

use super::config::{backoff, retry_after, Config};
use super::error::{Error, Result};

/// The token endpoint's answer (RFC 6749 §5.1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccessToken {
    pub access_token: String,
    #[serde(default)]
    pub token_type: String,
    /// Lifetime in seconds.
    pub expires_in: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
}

/// The token endpoint's error answer (RFC 6749 §5.2).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TokenError {
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_description: Option<String>,
}

/// Longest a token is kept, whatever `expires_in` says.
const MAX_LIFETIME: Duration = Duration::from_secs(90 * 24 * 3600);

struct Cached {
    access_token: String,
    refresh_at: Instant,
}

/// The current token. The lock is held while a token is fetched, so callers
/// that find none wait for that one request instead of each sending theirs.
#[derive(Default)]
pub(crate) struct TokenCache {
    current: Mutex<Option<Cached>>,
}

impl TokenCache {
    pub(crate) async fn bearer(&self, http: &reqwest::Client, config: &Config) -> Result<String> {
        let mut current = self.current.lock().await;
        if let Some(c) = current.as_ref() {
            if Instant::now() < c.refresh_at {
                return Ok(c.access_token.clone());
            }
        }
        let token = fetch(http, config).await?;
        // An absurd `expires_in` must not overflow the clock arithmetic.
        let lifetime = Duration::from_secs(token.expires_in).min(MAX_LIFETIME);
        // Renew a minute early (or at half the lifetime of a short token), so
        // a request never leaves with a token that expires on the way.
        let margin = Duration::from_secs(60).min(lifetime / 2);
        *current = Some(Cached {
            access_token: token.access_token.clone(),
            refresh_at: Instant::now() + lifetime - margin,
        });
        Ok(token.access_token)
    }

    /// Forgets `used` after the API refused it; a token fetched meanwhile by
    /// another call is kept.
    pub(crate) async fn invalidate(&self, used: &str) {
        let mut current = self.current.lock().await;
        if current.as_ref().is_some_and(|c| c.access_token == used) {
            *current = None;
        }
    }
}

/// Asks for a token. Asking again is harmless, so 429, 5xx and connection
/// failures are retried like any safe request.
async fn fetch(http: &reqwest::Client, config: &Config) -> Result<AccessToken> {
    let form = [
        ("grant_type", "client_credentials"),
        ("client_id", config.client_id.as_str()),
        ("client_secret", config.client_secret.as_str()),
        ("scope", config.scope.as_str()),
    ];
    let mut attempt = 1;
    loop {
        let last = attempt >= config.retry.attempts;
        let answer = http.post(&config.auth_url).form(&form).send().await;
        match answer {
            Ok(resp) if resp.status().is_success() => {
                let bytes = resp.bytes().await?;
                return serde_json::from_slice(&bytes)
                    .map_err(|e| Error::Decode(format!("token: {e}")));
            }
            Ok(resp) => {
                let status = resp.status();
                if !last && (status.as_u16() == 429 || status.is_server_error()) {
                    let wait = retry_after(resp.headers(), &config.retry)
                        .unwrap_or_else(|| backoff(attempt, &config.retry));
                    tracing::warn!(%status, attempt, "nuvemfiscal: token endpoint failed, retrying");
                    tokio::time::sleep(wait).await;
                } else {
                    let text = resp.text().await.unwrap_or_default();
                    let message = match serde_json::from_str::<TokenError>(&text) {
                        Ok(e) => e.error_description.unwrap_or(e.error),
                        Err(_) => text.chars().take(300).collect(),
                    };
                    return Err(Error::Auth { status: status.as_u16(), message });
                }
            }
            Err(e) if !last && (e.is_connect() || e.is_timeout()) => {
                tracing::warn!(error = %e, attempt, "nuvemfiscal: token endpoint unreachable, retrying");
                tokio::time::sleep(backoff(attempt, &config.retry)).await;
            }
            Err(e) => return Err(Error::Transport(e)),
        }
        attempt += 1;
    }
}
