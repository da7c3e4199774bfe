//! A fake Nuvem Fiscal: the endpoints the client uses, answered from memory
//! the way the provider documents them, for demos (the product can run
//! against it without an account) and for tests over real HTTP.
//!
//! - `POST /oauth/token` checks the client credentials and issues bearer
//!   tokens; every API route answers 401 without a valid one.
//! - An emission is validated like the provider does (400 with the error body
//!   for a missing `emit`, `dest` or `det`), stored as `pendente`, and becomes
//!   `autorizado` (cStat 100, protocol, 44-digit key with its check digit) on
//!   the next consult or synchronisation, or `rejeitado` when a rule matches:
//!   an item with NCM `00000000` is rejected with cStat 778 (more rules with
//!   [`FakeHandle::reject_ncm`]); [`FakeHandle::pending_for`] keeps new
//!   documents pending for a number of consults.
//! - Cancel, correction letter, closing (MDF-e), XML, PDF, listing by
//!   `referencia`, companies with their settings, certificate and logo.
//! - Knobs for tests: [`FakeHandle::fail_next`] (503, 429 with
//!   `Retry-After`...), [`FakeHandle::fail_after_handling`] (the work is done
//!   but the answer is an error), [`FakeHandle::revoke_tokens`], and counters
//!   of token requests and of requests per route.
//!
//! Layout: here the router, the handle, authentication and the injected
//! failures; `state`: what is remembered; `documents`: the NF-e, CT-e and
//! MDF-e routes, with their `emission`, `events` and the fake `sefaz` that
//! answers a pending document;
//! `companies`: `/empresas`; `distribution`: the NF-e issued against a
//! company and the manifestation; `access_key`: the chave de acesso; `files`: XML
//! and PDF.

pub mod access_key;
mod companies;
pub mod distribution;
mod documents;
mod emission;
mod events;
pub mod files;
mod sefaz;
pub mod state;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::{Form, Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::auth::{AccessToken, TokenError};
use super::config::{Config, Retry};
use super::types::{ErrorBody, ErrorDetail, ErrorInfo};
use state::{Injected, NcmRejection};

/// Credentials the fake accepts unless told otherwise.
pub const CLIENT_ID: &str = "erp-demo";
pub const CLIENT_SECRET: &str = "erp-demo-secret";
/// Where the fake answers the token requests.
pub const TOKEN_PATH: &str = "/oauth/token";

/// Control and inspection of a running fake. Clones share the server's state.
#[derive(Clone, Debug)]
pub struct FakeHandle {
    state: Arc<Mutex<state::State>>,
}

impl FakeHandle {
    fn new() -> FakeHandle {
        FakeHandle { state: Arc::new(Mutex::new(state::State::new(CLIENT_ID, CLIENT_SECRET))) }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, state::State> {
        // Nothing panics while holding the lock; a poisoned state is still
        // consistent enough for a fake.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A client configuration for the fake listening on `addr`, with its
    /// credentials.
    pub fn config(&self, addr: SocketAddr) -> Config {
        let s = self.lock();
        let mut config = Config::new(s.client_id.clone(), s.client_secret.clone());
        config.base_url = format!("http://{addr}");
        config.auth_url = format!("http://{addr}{TOKEN_PATH}");
        config.timeout = Duration::from_secs(10);
        config.retry = Retry::default();
        config
    }

    pub fn set_credentials(&self, client_id: &str, client_secret: &str) {
        let mut s = self.lock();
        s.client_id = client_id.to_string();
        s.client_secret = client_secret.to_string();
    }

    /// `expires_in` of the tokens issued from now on.
    pub fn set_token_ttl(&self, ttl: Duration) {
        self.lock().token_ttl = ttl;
    }

    /// Invalidates every token issued so far (the next API call gets 401).
    pub fn revoke_tokens(&self) {
        self.lock().tokens.clear();
    }

    /// Answers the next `n` API requests with `status` (and the error body)
    /// before they reach their handler; a 429 carries `Retry-After: 1`.
    pub fn fail_next(&self, n: usize, status: u16) {
        let retry_after = (status == 429).then(|| Duration::from_secs(1));
        self.inject(Injected { before: n, after: 0, status, retry_after });
    }

    /// Answers the next `n` API requests with 429 and this `Retry-After`.
    pub fn rate_limit_next(&self, n: usize, retry_after: Duration) {
        self.inject(Injected { before: n, after: 0, status: 429, retry_after: Some(retry_after) });
    }

    /// Handles the next `n` API requests, then answers `status` instead of
    /// their result: an emission creates its document and the client sees
    /// an error.
    pub fn fail_after_handling(&self, n: usize, status: u16) {
        self.inject(Injected { before: 0, after: n, status, retry_after: None });
    }

    fn inject(&self, injected: Injected) {
        self.lock().injected = injected;
    }

    /// NF-e with an item of this NCM are rejected with `c_stat`/`x_motivo`.
    pub fn reject_ncm(&self, ncm: &str, c_stat: i32, x_motivo: &str) {
        self.lock().ncm_rejections.push(NcmRejection {
            ncm: ncm.to_string(),
            c_stat,
            x_motivo: x_motivo.to_string(),
        });
    }

    /// Documents emitted from now on answer `pendente` to their first `looks`
    /// consults (or synchronisations) before the SEFAZ's answer.
    pub fn pending_for(&self, looks: u32) {
        self.lock().pending_looks = looks;
    }

    /// Token requests received (accepted or not).
    pub fn token_requests(&self) -> usize {
        self.lock().token_requests
    }

    /// API requests received with this method and exact path (failed ones
    /// included).
    pub fn requests(&self, method: &str, path: &str) -> usize {
        self.lock()
            .requests
            .iter()
            .filter(|(m, p)| m.as_str() == method && p == path)
            .count()
    }

    /// Emission requests received: `POST /nfe`, `/cte` and `/mdfe`, whatever
    /// their answer.
    pub fn emissions(&self) -> usize {
        ["/nfe", "/cte", "/mdfe"]
            .iter()
            .map(|p| self.requests("POST", p))
            .sum()
    }

    /// Documents stored.
    pub fn documents(&self) -> usize {
        self.lock().docs.len()
    }
}

/// The fake's routes and the handle that controls them.
pub fn router() -> (Router, FakeHandle) {
    let handle = FakeHandle::new();
    let api = documents::routes()
        .merge(companies::routes())
        .merge(distribution::routes())
        .layer(middleware::from_fn_with_state(handle.clone(), bearer))
        .layer(middleware::from_fn_with_state(handle.clone(), injected))
        .layer(middleware::from_fn_with_state(handle.clone(), record));
    let app = Router::new()
        .route(TOKEN_PATH, axum::routing::post(token))
        .merge(api)
        .with_state(handle.clone());
    (app, handle)
}

/// Serves the fake on `listener` until the task is dropped.
pub async fn serve(listener: tokio::net::TcpListener) -> std::io::Result<()> {
    let (app, _handle) = router();
    axum::serve(listener, app).await
}

/// Starts the fake on a free port of 127.0.0.1 in a background task.
pub async fn start() -> std::io::Result<(SocketAddr, FakeHandle)> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
    let addr = listener.local_addr()?;
    let (app, handle) = router();
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "fake Nuvem Fiscal stopped");
        }
    });
    Ok((addr, handle))
}

#[derive(Deserialize)]
struct TokenRequest {
    grant_type: String,
    client_id: String,
    client_secret: String,
    scope: Option<String>,
}

async fn token(State(h): State<FakeHandle>, Form(req): Form<TokenRequest>) -> Response {
    let mut s = h.lock();
    s.token_requests += 1;
    if req.grant_type != "client_credentials" {
        return token_error(StatusCode::BAD_REQUEST, "unsupported_grant_type", "");
    }
    if req.client_id != s.client_id || req.client_secret != s.client_secret {
        return token_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "Client ID ou Client Secret inválidos.",
        );
    }
    let access_token = format!("fake_{}", uuid::Uuid::new_v4().simple());
    let ttl = s.token_ttl;
    s.tokens.insert(access_token.clone(), Instant::now() + ttl);
    Json(AccessToken {
        access_token,
        token_type: "bearer".into(),
        expires_in: ttl.as_secs(),
        scope: req.scope,
    })
    .into_response()
}

fn token_error(status: StatusCode, error: &str, description: &str) -> Response {
    let body = TokenError {
        error: error.to_string(),
        error_description: (!description.is_empty()).then(|| description.to_string()),
    };
    (status, Json(body)).into_response()
}

/// Counts every API request, whatever happens to it next.
async fn record(State(h): State<FakeHandle>, req: Request, next: Next) -> Response {
    h.lock()
        .requests
        .push((req.method().clone(), req.uri().path().to_string()));
    next.run(req).await
}

/// Applies [`FakeHandle::fail_next`] and [`FakeHandle::fail_after_handling`].
async fn injected(State(h): State<FakeHandle>, req: Request, next: Next) -> Response {
    let before = {
        let mut s = h.lock();
        let i = &mut s.injected;
        if i.before > 0 {
            i.before -= 1;
            Some(*i)
        } else {
            None
        }
    };
    if let Some(i) = before {
        return injected_response(i);
    }
    let resp = next.run(req).await;
    let after = {
        let mut s = h.lock();
        let i = &mut s.injected;
        if i.after > 0 {
            i.after -= 1;
            Some(*i)
        } else {
            None
        }
    };
    match after {
        Some(i) => injected_response(i),
        None => resp,
    }
}

fn injected_response(i: Injected) -> Response {
    let status = StatusCode::from_u16(i.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
    let message = if status == StatusCode::TOO_MANY_REQUESTS {
        "Limite de requisições excedido."
    } else {
        "Serviço temporariamente indisponível."
    };
    let mut resp = error(status, "Injected", message);
    if let Some(wait) = i.retry_after {
        if let Ok(v) = HeaderValue::from_str(&wait.as_secs().to_string()) {
            resp.headers_mut().insert(header::RETRY_AFTER, v);
        }
    }
    resp
}

/// 401 without a bearer token the fake issued and that has not expired.
async fn bearer(State(h): State<FakeHandle>, req: Request, next: Next) -> Response {
    let token = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_string);
    let valid = token.is_some_and(|t| {
        h.lock()
            .tokens
            .get(&t)
            .is_some_and(|exp| Instant::now() < *exp)
    });
    if !valid {
        return error(
            StatusCode::UNAUTHORIZED,
            "Unauthorized",
            "Token de acesso ausente, inválido ou expirado.",
        );
    }
    next.run(req).await
}

/// The provider's error answer.
pub(crate) fn error(status: StatusCode, code: &str, message: &str) -> Response {
    errors(status, code, message, Vec::new())
}

pub(crate) fn errors(
    status: StatusCode,
    code: &str,
    message: &str,
    errors: Vec<ErrorDetail>,
) -> Response {
    let body = ErrorBody {
        error: ErrorInfo { code: code.to_string(), message: message.to_string(), errors },
    };
    (status, Json(body)).into_response()
}

pub(crate) fn not_found(message: &str) -> Response {
    error(StatusCode::NOT_FOUND, "NotFound", message)
}

/// A 400 with the provider's error body saying `message`.
pub(crate) fn invalid(message: &str) -> Response {
    Invalid(message.to_string()).into_response()
}

/// A request refused with a 400 and the provider's error body.
#[derive(Debug)]
pub(crate) struct Invalid(pub String);

impl IntoResponse for Invalid {
    fn into_response(self) -> Response {
        error(StatusCode::BAD_REQUEST, "ValidationFailed", &self.0)
    }
}

/// A JSON body read with the spec's types; a body that does not fit them is
/// answered with 400 and the provider's error body.
pub(crate) struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(IntoResponse::into_response)?;
        parse(&bytes).map(Body).map_err(IntoResponse::into_response)
    }
}

pub(crate) fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Invalid> {
    serde_json::from_slice(bytes)
        .map_err(|e| Invalid(format!("O corpo da requisição não segue o esquema: {e}")))
}
