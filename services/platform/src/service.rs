//! What a running service holds (`ServiceCtx`) and the plumbing every service role
//! shares: the gRPC server builder with tracing and metrics, and the admin HTTP
//! endpoints (`/healthz`, `/readyz`, `/metrics`) of `erp serve <service>`.

use std::sync::Arc;

use axum::{extract::State, http::StatusCode, response::IntoResponse, routing::get, Router};

use crate::bus::Bus;
use crate::cache::Cache;
use crate::config::Config;
use crate::db::Db;

#[derive(Clone)]
pub struct ServiceCtx {
    pub cfg: Arc<Config>,
    pub db: Db,
    pub bus: Arc<dyn Bus>,
    pub cache: Arc<dyn Cache>,
}

impl ServiceCtx {
    /// Database, bus and cache both answer.
    pub async fn ready(&self) -> Result<(), String> {
        self.db.ping().await.map_err(|e| format!("database: {e}"))?;
        self.bus.ping().await.map_err(|e| format!("bus: {e}"))?;
        self.cache.ping().await.map_err(|e| format!("cache: {e}"))?;
        Ok(())
    }
}

/// A tonic server with the trace-context span and the gRPC metrics layer.
pub fn grpc_server() -> tonic::transport::server::Server<
    tower::layer::util::Stack<crate::grpc::MetricsLayer, tower::layer::util::Identity>,
> {
    tonic::transport::Server::builder()
        .trace_fn(crate::telemetry::grpc_server_span)
        .layer(crate::grpc::MetricsLayer)
}

/// Serves a service whose gRPC surface is its registers (the resource engine) plus
/// optional typed services added by `extra`, and runs its outbox relay.
pub async fn serve_registers(
    ctx: ServiceCtx,
    listener: tokio::net::TcpListener,
    schema: &'static str,
    registry: std::sync::Arc<crate::resource::Registry>,
) -> crate::Result<()> {
    let relay = crate::bus::run_relay(ctx.db.clone(), ctx.bus.clone(), schema);
    let result = grpc_server()
        .add_service(crate::resource::grpc::ResourceGrpc::new(ctx.db.clone(), registry).server())
        .serve_with_incoming(incoming(listener))
        .await
        .map_err(crate::Error::internal);
    relay.abort();
    result
}

/// A durable consumer a service runs beside its gRPC server.
pub struct ConsumerDef {
    pub durable: &'static str,
    pub filter: &'static str,
    pub effect: Arc<dyn crate::bus::Effect>,
    /// Events applied at once: 1 keeps their order; more for effects whose order
    /// does not matter (ledger exits under row locks).
    pub in_flight: usize,
}

/// `serve_registers` plus the service's event consumers (each applies an event once,
/// through the service schema's inbox).
pub async fn serve_with_consumers(
    ctx: ServiceCtx,
    listener: tokio::net::TcpListener,
    schema: &'static str,
    registry: std::sync::Arc<crate::resource::Registry>,
    consumers: Vec<ConsumerDef>,
) -> crate::Result<()> {
    let mut tasks = Vec::new();
    for c in consumers {
        tasks.push(
            crate::bus::consume(
                &ctx.bus,
                ctx.db.clone(),
                schema,
                c.durable,
                c.filter,
                c.effect,
            )
            .await?,
        );
    }
    let result = serve_registers(ctx, listener, schema, registry).await;
    for t in tasks {
        t.abort();
    }
    result
}

/// Accepted gRPC connections with TCP_NODELAY: small request/response frames must not
/// wait for delayed ACKs (40 ms per call otherwise).
pub fn incoming(listener: tokio::net::TcpListener) -> tonic::transport::server::TcpIncoming {
    tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true))
}

pub fn admin_router(ctx: ServiceCtx) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route(
            "/metrics",
            get(|| async { crate::telemetry::render_metrics() }),
        )
        .with_state(ctx)
}

async fn readyz(State(ctx): State<ServiceCtx>) -> impl IntoResponse {
    match ctx.ready().await {
        Ok(()) => (StatusCode::OK, "ready".to_string()),
        Err(e) => {
            tracing::warn!(error = %e, "not ready");
            (StatusCode::SERVICE_UNAVAILABLE, "not ready".to_string())
        }
    }
}
