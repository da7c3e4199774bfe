//! The HTTP application.

use std::sync::Arc;
use std::time::Instant;

use async_graphql::http::{GraphiQLSource, ALL_WEBSOCKET_PROTOCOLS};
use async_graphql_axum::{GraphQLProtocol, GraphQLRequest, GraphQLResponse, GraphQLWebSocket};
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State, WebSocketUpgrade};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use tower_http::services::{ServeDir, ServeFile};

use crate::graphql::{ErpSchema, Gql};
use crate::routes::Routes;
use crate::state::AppState;

/// The legacy REST route table: uploads, then identity's, the jobs' and every
/// register's routes.
fn routes(registry: &erp_platform::resource::Registry) -> Routes {
    let mut routes = Routes::default();
    routes.add_with_cookie(
        Method::GET,
        "/uploads/{emp}/{file}",
        "Arquivo enviado (token ou cookie de sessão)",
        crate::uploads::serve,
    );
    crate::legacy::add_all(&mut routes, registry);
    routes
}

/// openapi.json as the router serves it, without a running server (`erp openapi`).
pub fn openapi(registry: &erp_platform::resource::Registry) -> serde_json::Value {
    let (_, specs) = routes(registry).into_router();
    crate::openapi::build(&specs, registry)
}

/// The largest body a route takes: an upload, or a form call's files, with 1 MB
/// for the form around them.
fn body_limit(registry: &erp_platform::resource::Registry) -> usize {
    let forms = registry
        .all()
        .iter()
        .flat_map(|r| r.actions.iter())
        .filter_map(|a| a.form)
        .max()
        .unwrap_or(0);
    crate::uploads::MAX_UPLOAD.max(forms) + 1024 * 1024
}

pub fn router(st: AppState) -> Router {
    let (legacy, specs) = routes(&st.registry).into_router();
    let openapi = Arc::new(crate::openapi::build(&specs, &st.registry));
    let schema = crate::graphql::schema(st.cfg.graphql_introspection);

    let index = st.cfg.web_dir.join("index.html");
    let web = ServeDir::new(&st.cfg.web_dir).fallback(ServeFile::new(&index));

    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route(
            "/metrics",
            get(|| async { erp_platform::telemetry::render_metrics() }),
        )
        .route(
            "/openapi.json",
            get(move || {
                let o = openapi.clone();
                async move { Json((*o).clone()) }
            }),
        )
        .route("/graphql", get(graphiql).post(graphql))
        .route("/graphql/ws", get(graphql_ws))
        .merge(legacy)
        .fallback_service(web)
        .layer(middleware::from_fn_with_state(st.clone(), spa_navigation))
        .layer(middleware::from_fn(track))
        .layer(middleware::from_fn_with_state(st.clone(), draining))
        .layer(DefaultBodyLimit::max(body_limit(&st.registry)))
        .layer(axum::Extension(schema))
        .with_state(st)
}

/// A request that reaches the gateway after its shutdown began (on a connection
/// opened before it): 503 and the connection closes, so the client goes to
/// another replica.
async fn draining(State(st): State<AppState>, req: Request, next: Next) -> Response {
    if !st.shutdown.is_draining() {
        return next.run(req).await;
    }
    let mut resp = crate::reply::ApiError(erp_platform::Error::Unavailable(
        "Servidor reiniciando; tente novamente.".into(),
    ))
    .into_response();
    resp.headers_mut().insert(
        header::CONNECTION,
        header::HeaderValue::from_static("close"),
    );
    resp
}

async fn readyz(State(st): State<AppState>) -> impl IntoResponse {
    let checks = async {
        if st.shutdown.is_draining() {
            return Err("shutting down".to_string());
        }
        st.db.ping().await.map_err(|e| format!("database: {e}"))?;
        st.bus.ping().await.map_err(|e| format!("bus: {e}"))?;
        st.cache.ping().await.map_err(|e| format!("cache: {e}"))?;
        Ok::<_, String>(())
    };
    match checks.await {
        Ok(()) => (StatusCode::OK, "ready"),
        Err(e) => {
            tracing::warn!(error = %e, "not ready");
            (StatusCode::SERVICE_UNAVAILABLE, "not ready")
        }
    }
}

async fn graphiql() -> Html<String> {
    Html(
        GraphiQLSource::build()
            .endpoint("/graphql")
            .subscription_endpoint("/graphql/ws")
            .finish(),
    )
}

async fn graphql(
    State(st): State<AppState>,
    axum::Extension(schema): axum::Extension<ErpSchema>,
    headers: HeaderMap,
    req: GraphQLRequest,
) -> GraphQLResponse {
    let ctx = Gql::new(st, headers);
    schema.execute(req.into_inner().data(ctx)).await.into()
}

async fn graphql_ws(
    State(st): State<AppState>,
    axum::Extension(schema): axum::Extension<ErpSchema>,
    protocol: GraphQLProtocol,
    upgrade: WebSocketUpgrade,
) -> Response {
    upgrade
        .protocols(ALL_WEBSOCKET_PROTOCOLS)
        .on_upgrade(move |socket| {
            GraphQLWebSocket::new(socket, schema, protocol)
                .on_connection_init(move |payload| crate::graphql::ws_init(st.clone(), payload))
                .serve()
        })
}

/// A browser navigating to a screen route (`/clientes`, `/clientes/alterar`) gets
/// the web client even where the same path is also a legacy REST call: browser
/// navigations ask for text/html, API clients for JSON.
async fn spa_navigation(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    let html = req.method() == Method::GET
        && req
            .headers()
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.contains("text/html"))
        && ![
            "/graphql",
            "/uploads/",
            "/healthz",
            "/readyz",
            "/metrics",
            "/openapi.json",
            "/assets/",
        ]
        .iter()
        .any(|p| path.starts_with(p));
    if !html {
        return next.run(req).await;
    }
    let index = st.cfg.web_dir.join("index.html");
    match tokio::fs::read(&index).await {
        Ok(bytes) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        Err(_) => (StatusCode::NOT_FOUND, "web client not built (make web)").into_response(),
    }
}

/// `http_requests_total` and `http_request_duration_seconds` per route and status.
async fn track(req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_string())
        .unwrap_or_else(|| "other".into());
    let method = req.method().to_string();
    let start = Instant::now();
    let resp = next.run(req).await;
    let status = resp.status().as_u16().to_string();
    metrics::counter!("http_requests_total", "route" => route.clone(), "method" => method.clone(), "status" => status.clone()).increment(1);
    metrics::histogram!("http_request_duration_seconds", "route" => route, "method" => method, "status" => status)
        .record(start.elapsed().as_secs_f64());
    resp
}
