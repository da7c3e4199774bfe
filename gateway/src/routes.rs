//! The legacy REST route table: each route is a path with `{name}` parameters, a
//! method, a summary, who may call it ([`Access`]: a route is authenticated
//! before its handler runs unless declared public) and what it calls. Typed routes are added before the generic
//! register routes and win over a generic route of the same shape. The table also
//! describes itself (`Spec`) for openapi.json.

use std::collections::HashSet;
use std::future::Future;

use axum::extract::{RawPathParams, Request, State};
use axum::http::Method;
use axum::response::IntoResponse;
use axum::routing::{on, MethodFilter};
use axum::Router;
use erp_platform::{Error, Result};

use crate::auth::{authenticate, Auth};
use crate::reply::{ApiError, ApiResult};
use crate::state::AppState;

/// Path parameters by the names the route table gives them.
pub struct Params {
    names: std::sync::Arc<[String]>,
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

    /// The parameter when the route has it (the company of a register route).
    pub fn opt_i64(&self, name: &str) -> Result<Option<i64>> {
        match self.get(name) {
            Ok(_) => self.i64(name).map(Some),
            Err(_) => Ok(None),
        }
    }

    pub fn all(&self) -> &[String] {
        &self.values
    }

    /// Every parameter by name.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.names
            .iter()
            .map(String::as_str)
            .zip(self.values.iter().map(String::as_str))
    }
}

/// What a route serves, for openapi.json: a register operation (typed from the
/// register's descriptor) or another call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Serves {
    Other,
    /// `op` of register `register` (list, count, create, get, update, delete,
    /// search, or an action's name).
    Register {
        register: String,
        op: String,
    },
}

/// One documented route (for openapi.json).
#[derive(Clone, Debug)]
pub struct Spec {
    pub method: Method,
    pub path: String,
    pub summary: String,
    pub public: bool,
    pub serves: Serves,
}

pub struct Routes {
    router: Router<AppState>,
    seen: HashSet<(String, String)>,
    pub specs: Vec<Spec>,
}

impl Default for Routes {
    fn default() -> Self {
        Routes { router: Router::new(), seen: HashSet::new(), specs: Vec::new() }
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

/// Who may call a route. Every route of the table is authenticated before its
/// handler runs unless it is declared public: no route is public by omission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// No token (login).
    Public,
    /// A bearer token.
    Token,
    /// A bearer token or the session cookie (`<img>` requests for /uploads).
    TokenOrCookie,
}

impl Routes {
    /// Adds an authenticated route (bearer token): its handler gets the verified
    /// caller. Unless the same method and path shape is already taken.
    pub fn add<H, F>(&mut self, method: Method, path: &str, summary: &str, handler: H)
    where
        H: Fn(AppState, Auth, Params, Request) -> F + Clone + Send + Sync + 'static,
        F: Future<Output = ApiResult> + Send + 'static,
    {
        self.add_serving(method, path, summary, Access::Token, Serves::Other, handler)
    }

    /// Adds a route that also takes the session cookie.
    pub fn add_with_cookie<H, F>(&mut self, method: Method, path: &str, summary: &str, handler: H)
    where
        H: Fn(AppState, Auth, Params, Request) -> F + Clone + Send + Sync + 'static,
        F: Future<Output = ApiResult> + Send + 'static,
    {
        self.add_serving(
            method,
            path,
            summary,
            Access::TokenOrCookie,
            Serves::Other,
            handler,
        )
    }

    /// Adds a public route (no caller): the route says so in openapi.json.
    pub fn add_public<H, F>(&mut self, method: Method, path: &str, summary: &str, handler: H)
    where
        H: Fn(AppState, Params, Request) -> F + Clone + Send + Sync + 'static,
        F: Future<Output = ApiResult> + Send + 'static,
    {
        let Some((positional, names)) =
            self.claim(&method, path, summary, Access::Public, Serves::Other)
        else {
            return;
        };
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
        self.mount(&positional, route);
    }

    /// Adds an authenticated route that serves `serves` (for openapi.json).
    pub fn add_serving<H, F>(
        &mut self,
        method: Method,
        path: &str,
        summary: &str,
        access: Access,
        serves: Serves,
        handler: H,
    ) where
        H: Fn(AppState, Auth, Params, Request) -> F + Clone + Send + Sync + 'static,
        F: Future<Output = ApiResult> + Send + 'static,
    {
        let Some((positional, names)) = self.claim(&method, path, summary, access, serves) else {
            return;
        };
        let cookie = access == Access::TokenOrCookie;
        let route = on(
            filter_of(&method),
            move |State(st): State<AppState>, raw: RawPathParams, req: Request| {
                let params = Params {
                    names: names.clone(),
                    values: raw.iter().map(|(_, v)| v.to_string()).collect(),
                };
                let h = handler.clone();
                async move {
                    let auth = match authenticate(&st, req.headers(), cookie).await {
                        Ok(a) => a,
                        Err(e) => return ApiError(e).into_response(),
                    };
                    match h(st, auth, params, req).await {
                        Ok(r) => r,
                        Err(e) => e.into_response(),
                    }
                }
            },
        );
        self.mount(&positional, route);
    }

    /// Records a route's spec and answers its positional path and parameter names,
    /// unless the same method and path shape is already taken.
    fn claim(
        &mut self,
        method: &Method,
        path: &str,
        summary: &str,
        access: Access,
        serves: Serves,
    ) -> Option<(String, std::sync::Arc<[String]>)> {
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
            return None;
        }
        self.specs.push(Spec {
            method: method.clone(),
            path: path.to_string(),
            summary: summary.to_string(),
            public: access == Access::Public,
            serves,
        });
        Some((positional, names.into()))
    }

    fn mount(&mut self, positional: &str, route: axum::routing::MethodRouter<AppState>) {
        let r = std::mem::take(&mut self.router);
        self.router = r.route(positional, route);
    }

    pub fn into_router(self) -> (Router<AppState>, Vec<Spec>) {
        (self.router, self.specs)
    }
}
