//! What a running service holds (`ServiceCtx`) and the plumbing every service role
//! shares: the gRPC server builder with tracing and metrics, and the admin HTTP
//! endpoints (`/healthz`, `/readyz`, `/metrics`) of `erp serve <service>`.

use std::sync::Arc;

use axum::{extract::State, http::StatusCode, response::IntoResponse, routing::get, Router};

use crate::bus::Bus;
use crate::cache::Cache;
use crate::config::Config;
use crate::db::Db;
use crate::transport::GrpcLink;

#[derive(Clone)]
pub struct ServiceCtx {
    pub cfg: Arc<Config>,
    pub db: Db,
    pub bus: Arc<dyn Bus>,
    pub cache: Arc<dyn Cache>,
    /// The other services this one may ask over gRPC.
    pub peers: Peers,
    /// The process's shutdown: a service drains its gRPC and stops its
    /// background work with it.
    pub shutdown: crate::shutdown::Shutdown,
}

/// gRPC links to the other services, by name: straight to their routes in
/// `erp run` (set once every service started), `ERP_<SERVICE>_URL` (connected
/// lazily) in `erp serve`.
#[derive(Clone, Default)]
pub struct Peers(Arc<std::sync::OnceLock<std::collections::HashMap<String, GrpcLink>>>);

impl Peers {
    pub fn new(map: std::collections::HashMap<String, GrpcLink>) -> Peers {
        let peers = Peers::default();
        peers.fill(map);
        peers
    }

    /// Sets the links once (later calls are ignored): `erp run` builds the
    /// services' contexts before the services hand over their routes.
    pub fn fill(&self, map: std::collections::HashMap<String, GrpcLink>) {
        let _ = self.0.set(map);
    }

    /// Links to `names` from `ERP_<SERVICE>_URL`; a name without a URL is left out
    /// (asking it answers 503).
    pub fn from_env(names: &[&str]) -> Peers {
        let mut map = std::collections::HashMap::new();
        for name in names {
            let Some(url) = Config::service_url(name) else {
                continue;
            };
            match tonic::transport::Endpoint::from_shared(url) {
                Ok(e) => {
                    let ch = e
                        .connect_timeout(std::time::Duration::from_secs(5))
                        .tcp_nodelay(true)
                        .connect_lazy();
                    map.insert(name.to_string(), crate::transport::link_channel(ch));
                }
                Err(e) => tracing::warn!(service = name, error = %e, "invalid service URL"),
            }
        }
        Peers::new(map)
    }

    /// The link to `service` (`FinanceServiceClient::new(peers.channel("finance")?)`),
    /// or 503 'Serviço … indisponível.'.
    pub fn channel(&self, service: &str) -> crate::Result<GrpcLink> {
        self.0
            .get()
            .and_then(|m| m.get(service))
            .cloned()
            .ok_or_else(|| crate::Error::Unavailable(format!("Serviço {service} indisponível.")))
    }
}

impl ServiceCtx {
    /// Database, bus and cache both answer.
    pub async fn ready(&self) -> Result<(), String> {
        if self.shutdown.is_draining() {
            return Err("shutting down".into());
        }
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

/// A durable consumer a service runs beside its gRPC server. It takes events in
/// batches of up to `ERP_EVENT_BATCH` and applies each once (the schema's inbox).
pub struct ConsumerDef {
    pub durable: &'static str,
    pub filter: &'static str,
    pub effect: Arc<dyn crate::bus::Effect>,
}

/// What a service runs besides answering calls: the outbox relay of its schema,
/// its event consumers, and its scheduled jobs (the platform's and its own).
pub async fn start_background(
    ctx: &ServiceCtx,
    schema: &'static str,
    consumers: Vec<ConsumerDef>,
    jobs: Vec<crate::bus::jobs::JobDef>,
) -> crate::Result<Background> {
    let relay = crate::bus::run_relay_until(
        ctx.db.clone(),
        ctx.bus.clone(),
        schema,
        ctx.shutdown.clone(),
    );
    let mut tasks = Vec::new();
    for c in consumers {
        tasks.push(
            crate::bus::consume_until(
                &ctx.bus,
                ctx.db.clone(),
                schema,
                c.durable,
                c.filter,
                c.effect,
                ctx.cfg.event_batch,
                ctx.shutdown.clone(),
            )
            .await?,
        );
    }
    let mut all_jobs = crate::bus::jobs::platform_jobs();
    all_jobs.extend(jobs);
    tasks.extend(
        crate::bus::jobs::start(ctx.db.clone(), ctx.bus.clone(), schema, schema, all_jobs).await?,
    );
    Ok(Background { relay, tasks, shutdown: ctx.shutdown.clone() })
}

/// A service's background work: its outbox relay, its consumers and its jobs.
pub struct Background {
    relay: tokio::task::JoinHandle<()>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    shutdown: crate::shutdown::Shutdown,
}

impl Background {
    /// Stops it (step 2 of the shutdown): the consumers finish the batch in
    /// progress, the relay publishes what is left in the outbox, within the grace.
    pub async fn finish(self) {
        let grace = crate::shutdown::grace();
        let stop = async {
            self.shutdown.stop_batches().await;
            let _ = self.relay.await;
        };
        if tokio::time::timeout(grace, stop).await.is_err() {
            tracing::warn!("background work cut at the end of the shutdown's grace");
        }
        for t in self.tasks {
            t.abort();
        }
    }
}

/// Serves `routes` on `listener` until the shutdown drains it, then stops the
/// service's background work: what every service's `serve` ends with.
pub async fn serve_then_stop(
    ctx: &ServiceCtx,
    listener: crate::transport::Listener,
    routes: tonic::service::Routes,
    background: Background,
) -> crate::Result<()> {
    let result = serve_grpc_until(listener, routes, &ctx.shutdown).await;
    // In one process the gateway drained first; a service alone drained its gRPC.
    ctx.shutdown.stop();
    background.finish().await;
    result
}

/// Serves a service whose gRPC surface is its registers (the resource engine), with
/// its background work (`start_background`).
pub async fn serve_registers(
    ctx: ServiceCtx,
    listener: crate::transport::Listener,
    schema: &'static str,
    registry: std::sync::Arc<crate::resource::Registry>,
) -> crate::Result<()> {
    serve_with_consumers(ctx, listener, schema, registry, Vec::new()).await
}

/// `serve_registers` plus the service's event consumers.
pub async fn serve_with_consumers(
    ctx: ServiceCtx,
    listener: crate::transport::Listener,
    schema: &'static str,
    registry: std::sync::Arc<crate::resource::Registry>,
    consumers: Vec<ConsumerDef>,
) -> crate::Result<()> {
    let background = start_background(&ctx, schema, consumers, Vec::new()).await?;
    let routes = tonic::service::Routes::new(
        crate::resource::grpc::ResourceGrpc::new(ctx.db.clone(), registry).server(),
    );
    serve_then_stop(&ctx, listener, routes, background).await
}

/// Serves `routes` on `listener`: a tonic server with the trace span and metrics
/// layer for TCP and in-memory connections; for [`Listener::Direct`], hands the
/// routes (with the same layers) to the caller in this process and then waits as
/// a server would.
pub async fn serve_grpc(
    listener: crate::transport::Listener,
    routes: tonic::service::Routes,
) -> crate::Result<()> {
    serve_grpc_until(listener, routes, &crate::shutdown::Shutdown::new()).await
}

/// `serve_grpc` until `shutdown` drains: a TCP or in-memory server stops taking
/// connections and answers the calls it has; routes handed to the same process are
/// used by the gateway until it drained, so they are kept until the stop.
pub async fn serve_grpc_until(
    listener: crate::transport::Listener,
    routes: tonic::service::Routes,
    shutdown: &crate::shutdown::Shutdown,
) -> crate::Result<()> {
    match listener {
        crate::transport::Listener::Direct(slot) => {
            if slot.send(crate::transport::link_routes(routes)).is_err() {
                return Err(crate::Error::internal(
                    "no caller took the service's routes",
                ));
            }
            shutdown.stopping().await;
            Ok(())
        }
        listener => grpc_server()
            .add_routes(routes)
            .serve_with_incoming_shutdown(incoming(listener), shutdown.draining())
            .await
            .map_err(crate::Error::internal),
    }
}

pub use crate::transport::incoming;

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
