//! The legacy REST surface: a route table mapping the paths of the spec's call
//! catalogue to gRPC calls. Registers get their routes from their descriptors;
//! typed calls (login, menu, permissions, uploads) are listed in their modules.
//!
//! Conventions kept from the legacy API: errors are `{code, msg}` with the HTTP
//! status in `code`; an empty list answers 204 with no body; counts answer
//! `[{"TOT_REGISTROS": n}]`; rows carry `ORDEM`, `id` and `text`.
//!
//! Layout:
//! - `mod`: the route table type, body and error helpers.
//! - `registers`: the generic routes of every register.
//! - `identity`: login, logout, companies, menus, permissions, users.
//! - `support`: support operators' calls (run a scheduled job now).

pub mod identity;
pub mod registers;
pub mod support;

use std::collections::HashSet;
use std::future::Future;

use axum::body::{to_bytes, Body};
use axum::extract::{RawPathParams, Request, State};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{on, MethodFilter};
use axum::{Json, Router};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use crate::state::AppState;

pub const MAX_JSON_BODY: usize = 10 * 1024 * 1024;

/// An error as the legacy API answers it.
pub struct ApiError(pub Error);

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        ApiError(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.0.http_status();
        if status >= 500 {
            tracing::error!(error = %self.0, "request failed");
        }
        let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (
            code,
            Json(json!({"code": status, "msg": self.0.public_message()})),
        )
            .into_response()
    }
}

pub type ApiResult = std::result::Result<Response, ApiError>;

/// Path parameters by the names the route table gives them.
pub struct Params {
    names: Vec<String>,
    values: Vec<String>,
}

impl Params {
    pub fn get(&self, name: &str) -> Result<&str> {
        self.names
            .iter()
            .position(|n| n == name)
            .and_then(|i| self.values.get(i))
            .map(String::as_str)
            .ok_or_else(|| Error::internal(format!("route parameter {name} missing")))
    }

    pub fn i64(&self, name: &str) -> Result<i64> {
        self.get(name)?
            .trim()
            .parse()
            .map_err(|_| Error::validation(format!("Parâmetro {name} inválido.")))
    }

    pub fn all(&self) -> &[String] {
        &self.values
    }
}

/// One documented route (for openapi.json).
#[derive(Clone, Debug)]
pub struct Spec {
    pub method: Method,
    pub path: String,
    pub summary: String,
    pub public: bool,
}

pub struct Routes {
    router: Router<AppState>,
    seen: HashSet<(String, String)>,
    pub specs: Vec<Spec>,
}

impl Default for Routes {
    fn default() -> Self {
        Routes {
            router: Router::new(),
            seen: HashSet::new(),
            specs: Vec::new(),
        }
    }
}

fn filter_of(m: &Method) -> MethodFilter {
    match *m {
        Method::GET => MethodFilter::GET,
        Method::POST => MethodFilter::POST,
        Method::PUT => MethodFilter::PUT,
        Method::DELETE => MethodFilter::DELETE,
        Method::PATCH => MethodFilter::PATCH,
        _ => MethodFilter::GET,
    }
}

impl Routes {
    /// Adds a route unless the same method and path shape is already taken (typed
    /// routes are added before the generic register routes and win).
    pub fn add<H, F>(&mut self, method: Method, path: &str, summary: &str, public: bool, handler: H)
    where
        H: Fn(AppState, Params, Request) -> F + Clone + Send + Sync + 'static,
        F: Future<Output = ApiResult> + Send + 'static,
    {
        let mut names = Vec::new();
        let positional: Vec<String> = path
            .split('/')
            .map(
                |seg| match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                    Some(name) => {
                        names.push(name.to_string());
                        format!("{{p{}}}", names.len() - 1)
                    }
                    None => seg.to_string(),
                },
            )
            .collect();
        let positional = positional.join("/");
        if !self.seen.insert((method.to_string(), positional.clone())) {
            return;
        }
        self.specs.push(Spec {
            method: method.clone(),
            path: path.to_string(),
            summary: summary.to_string(),
            public,
        });
        let route = on(
            filter_of(&method),
            move |State(st): State<AppState>, raw: RawPathParams, req: Request| {
                let params = Params {
                    names: names.clone(),
                    values: raw.iter().map(|(_, v)| v.to_string()).collect(),
                };
                let h = handler.clone();
                async move {
                    match h(st, params, req).await {
                        Ok(r) => r,
                        Err(e) => e.into_response(),
                    }
                }
            },
        );
        let r = std::mem::take(&mut self.router);
        self.router = r.route(&positional, route);
    }

    pub fn into_router(self) -> (Router<AppState>, Vec<Spec>) {
        (self.router, self.specs)
    }
}

/// The JSON object of a request body (`{}` when empty).
pub async fn json_body(req: Request) -> Result<Map<String, Value>> {
    let bytes = to_bytes(req.into_body(), MAX_JSON_BODY)
        .await
        .map_err(|_| Error::validation("Corpo da requisição muito grande ou inválido."))?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match serde_json::from_slice::<Value>(&bytes)? {
        Value::Object(m) => Ok(m),
        _ => Err(Error::validation(
            "O corpo da requisição deve ser um objeto JSON.",
        )),
    }
}

pub fn ok_json(v: impl serde::Serialize) -> ApiResult {
    Ok(Json(v).into_response())
}

/// A list as the legacy API answers it: 204 with no body when empty.
pub fn list_response(rows: Vec<Value>) -> ApiResult {
    if rows.is_empty() {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        ok_json(rows)
    }
}

pub fn count_response(total: i64) -> ApiResult {
    ok_json(json!([{ "TOT_REGISTROS": total }]))
}

pub fn empty_body() -> Body {
    Body::empty()
}
