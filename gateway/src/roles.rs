//! The roles of the `erp` binary: everything in one process, the gateway alone, one
//! service alone, migrations, jobs.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use erp_platform::bus::{self, Bus};
use erp_platform::config::Config;
use erp_platform::db::{self, Db};
use erp_platform::service::{Peers, ServiceCtx};
use erp_platform::shutdown::Shutdown;
use erp_platform::{cache, Error, Result};
use prost::Message;
use tokio::net::TcpListener;
use tokio::sync::broadcast;

use crate::composition::{registry, services};
use crate::state::{AppState, FiguresChanged, Notice, QueueMoved, Shared};
use crate::token::Jwt;
use crate::upstream::{Target, Upstreams};
use erp_platform::transport::{self, Listener};

pub async fn migrate(cfg: Arc<Config>) -> Result<()> {
    db::bootstrap(&cfg).await?;
    for s in services() {
        (s.migrate)(cfg.clone()).await?;
        let registry = (s.registry)().map_err(Error::internal)?;
        erp_platform::resource::ensure_order_indexes(&cfg, &registry).await?;
        tracing::info!(service = s.name, "migrated");
    }
    Ok(())
}

/// `erp jobs`: every service's jobs with their next and last run.
pub async fn print_jobs(cfg: Arc<Config>) -> Result<()> {
    let db = Db::connect(&cfg).await?;
    let when = |t: Option<chrono::DateTime<chrono::Utc>>| {
        t.map(|t| {
            t.with_timezone(&chrono_tz::America::Sao_Paulo)
                .format("%d/%m/%Y %H:%M:%S")
                .to_string()
        })
        .unwrap_or_else(|| "-".into())
    };
    println!(
        "{:<10} {:<14} {:<16} {:<19} {:<19} {:>6} {:>6}  último resultado",
        "serviço", "tarefa", "agenda", "próxima execução", "última execução", "runs", "falhas"
    );
    for s in services() {
        for j in erp_platform::bus::jobs::list(&db, s.name).await? {
            let outcome = match (j.last_ok, &j.last_outcome) {
                (Some(true), Some(o)) => {
                    format!("ok ({} ms): {o}", j.last_duration_ms.unwrap_or(0))
                }
                (Some(false), Some(o)) => o.clone(),
                _ => "nunca executada".into(),
            };
            println!(
                "{:<10} {:<14} {:<16} {:<19} {:<19} {:>6} {:>6}  {}",
                s.name,
                j.name,
                j.schedule,
                when(j.next_run),
                when(j.last_finished.or(j.last_started)),
                j.runs,
                j.failures,
                outcome
            );
        }
    }
    Ok(())
}

/// `erp jobs run <service> <job>`: one run now, through the bus the services use.
pub async fn run_job(cfg: Arc<Config>, service: &str, job: &str) -> Result<()> {
    if cfg.nats_url.is_none() {
        return Err(Error::validation(
            "NATS_URL é obrigatório: sem ele os serviços não veem a tarefa (use POST /jobs/{serviço}/{tarefa} no modo erp run).",
        ));
    }
    if !services().iter().any(|s| s.name == service) {
        return Err(Error::validation(format!(
            "serviço desconhecido: {service}"
        )));
    }
    let bus = bus::from_config(&cfg).await?;
    let id = erp_platform::bus::jobs::trigger(bus.as_ref(), service, job).await?;
    println!("{id}");
    Ok(())
}

async fn service_ctx(
    cfg: Arc<Config>,
    bus: Arc<dyn Bus>,
    cache: Arc<dyn cache::Cache>,
    peers: Peers,
    shutdown: Shutdown,
) -> Result<ServiceCtx> {
    let db = Db::connect(&cfg).await?;
    Ok(ServiceCtx { cfg, db, bus, cache, peers, shutdown })
}

/// `erp serve <service>`: one service's gRPC plus its admin HTTP port, until
/// `shutdown` (its gRPC drained, then its background work stopped).
pub async fn serve_one(cfg: Arc<Config>, name: &str, shutdown: Shutdown) -> Result<()> {
    let def = services()
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| Error::validation(format!("serviço desconhecido: {name}")))?;
    if cfg.nats_url.is_none() {
        return Err(Error::validation(
            "NATS_URL é obrigatório no modo de microsserviços.",
        ));
    }
    let ctx = service_ctx(
        cfg.clone(),
        bus::from_config(&cfg).await?,
        cache::from_config(&cfg).await?,
        Peers::from_env(&services().iter().map(|s| s.name).collect::<Vec<_>>()),
        shutdown.clone(),
    )
    .await?;
    let admin = TcpListener::bind(&cfg.admin_addr)
        .await
        .map_err(Error::internal)?;
    erp_platform::telemetry::metrics_handle();
    let admin_app = erp_platform::service::admin_router(ctx.clone());
    let admin_stop = shutdown.clone();
    tokio::spawn(async move {
        // The admin port answers readiness (503 once draining) until the stop.
        let served = axum::serve(admin, admin_app.into_make_service())
            .with_graceful_shutdown(async move { admin_stop.stopping().await });
        if let Err(e) = served.await {
            tracing::error!(error = %e, "admin server stopped");
        }
    });
    let grpc = TcpListener::bind(&cfg.grpc_addr)
        .await
        .map_err(Error::internal)?;
    tracing::info!(service = name, addr = %cfg.grpc_addr, "serving gRPC");
    (def.serve)(ctx, Listener::Tcp(grpc)).await
}

/// Starts the gateway with the given upstream URLs; returns its address and task.
pub async fn start_gateway(
    cfg: Arc<Config>,
    urls: HashMap<String, Target>,
    bus: Arc<dyn Bus>,
    cache: Arc<dyn cache::Cache>,
    listener: TcpListener,
    shutdown: Shutdown,
) -> Result<(SocketAddr, AppState, tokio::task::JoinHandle<()>)> {
    erp_platform::telemetry::metrics_handle();
    let st = state(cfg, urls, bus, cache, shutdown.clone()).await?;
    consume_identity_events(&st).await?;
    consume_notifications(&st).await?;
    consume_dashboard_changes(&st).await?;
    consume_queue_changes(&st).await?;
    let addr = listener.local_addr().map_err(Error::internal)?;
    let app = crate::app::router(st.clone());
    let task = tokio::spawn(async move {
        use axum::serve::ListenerExt;
        // Small JSON answers must not wait for the client's delayed ACK.
        let listener = listener.tap_io(|tcp| {
            if let Err(e) = tcp.set_nodelay(true) {
                tracing::debug!(error = %e, "TCP_NODELAY not set");
            }
        });
        // The finished router served as a service whose per-connection clone is an
        // `Arc` clone (`axum::serve` of a bare `Router` builds its routes again for
        // every connection); at the shutdown the listener closes and the requests
        // received are answered.
        let served = axum::serve(listener, app.into_make_service())
            .with_graceful_shutdown(async move { shutdown.draining().await });
        if let Err(e) = served.await {
            tracing::error!(error = %e, "gateway stopped");
        }
    });
    Ok((addr, st, task))
}

pub async fn state(
    cfg: Arc<Config>,
    urls: HashMap<String, Target>,
    bus: Arc<dyn Bus>,
    cache: Arc<dyn cache::Cache>,
    shutdown: Shutdown,
) -> Result<AppState> {
    let secret = cfg.resolve_jwt_secret().map_err(Error::internal)?;
    let db = Db::connect(&Config { db_max_connections: 2, ..(*cfg).clone() }).await?;
    let (notices, _) = broadcast::channel(1024);
    let (figures, _) = broadcast::channel(1024);
    let (queues, _) = broadcast::channel(1024);
    Ok(AppState::new(Shared {
        jwt: Arc::new(Jwt::new(&secret, cfg.jwt_ttl_minutes)),
        up: Arc::new(Upstreams::new(&urls)?),
        registry: Arc::new(registry()?),
        uploads: cfg.data_dir.join("uploads").into(),
        cfg,
        cache,
        bus,
        db,
        notices,
        figures,
        queues,
        principals: Default::default(),
        shutdown,
    }))
}

/// Identity's changes evict cached principals.
async fn consume_identity_events(st: &AppState) -> Result<()> {
    let s = st.clone();
    st.bus
        .subscribe(
            "gateway-principals",
            "erp.identity.>",
            Arc::new(move |m| {
                let s = s.clone();
                Box::pin(async move {
                    let target = if m.subject == erp_identity::events::USER_CHANGED {
                        erp_proto::identity::v1::UserChanged::decode(m.payload.as_ref())
                            .ok()
                            .map(|e| (e.client_id, e.user_id))
                    } else if m.subject.starts_with("erp.identity.usuario.") {
                        erp_proto::erp::v1::RecordChanged::decode(m.payload.as_ref())
                            .ok()
                            .and_then(|e| Some((e.client_id, e.key.first()?.parse().ok()?)))
                    } else {
                        None
                    };
                    if let Some((cid, uid)) = target {
                        crate::auth::evict(&s, cid, uid).await?;
                    }
                    Ok(())
                })
            }),
        )
        .await?;
    Ok(())
}

/// Notifications published by any service reach the open WebSockets; each
/// subscription keeps those for its user (`Notice::reaches`).
async fn consume_notifications(st: &AppState) -> Result<()> {
    let s = st.clone();
    let durable = format!("gateway-notices-{}", hostname());
    st.bus
        .subscribe(
            &durable,
            "erp.*.notificacao.criada",
            Arc::new(move |m| {
                let s = s.clone();
                Box::pin(async move {
                    if let Ok(n) = erp_proto::erp::v1::Notification::decode(m.payload.as_ref()) {
                        let _ = s.notices.send(Notice {
                            client_id: n.client_id,
                            user_id: n.user_id,
                            emp_id: n.emp_id,
                            id: n.id,
                            message: n.message,
                            created_at: n.created_at,
                            kind: n.kind,
                            link: n.link,
                        });
                    }
                    Ok(())
                })
            }),
        )
        .await?;
    Ok(())
}

/// The reports service's dashboard changes reach the open dashboards.
async fn consume_dashboard_changes(st: &AppState) -> Result<()> {
    let s = st.clone();
    let durable = format!("gateway-painel-{}", hostname());
    st.bus
        .subscribe(
            &durable,
            erp_proto::subjects::PAINEL_ALTERADO,
            Arc::new(move |m| {
                let s = s.clone();
                Box::pin(async move {
                    if let Ok(c) = erp_proto::erp::v1::DashboardChanged::decode(m.payload.as_ref())
                    {
                        let _ = s.figures.send(FiguresChanged {
                            client_id: c.client_id,
                            emp_id: c.emp_id,
                            widgets: c.widgets,
                        });
                    }
                    Ok(())
                })
            }),
        )
        .await?;
    Ok(())
}

/// Messaging's queue changes reach the open Mensagens screens.
async fn consume_queue_changes(st: &AppState) -> Result<()> {
    let s = st.clone();
    let durable = format!("gateway-fila-{}", hostname());
    st.bus
        .subscribe(
            &durable,
            erp_proto::subjects::FILA_ALTERADA,
            Arc::new(move |m| {
                let s = s.clone();
                Box::pin(async move {
                    if let Ok(c) =
                        erp_proto::messaging::v1::QueueChanged::decode(m.payload.as_ref())
                    {
                        let _ = s
                            .queues
                            .send(QueueMoved { client_id: c.client_id, emp_id: c.emp_id });
                    }
                    Ok(())
                })
            }),
        )
        .await?;
    Ok(())
}

fn hostname() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .filter(|h| !h.is_empty())
        .map(|h| {
            h.chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect()
        })
        .unwrap_or_else(|| "local".into())
}

/// `erp gateway`: upstreams from `ERP_<SERVICE>_URL`, until `shutdown` drained it.
pub async fn gateway(cfg: Arc<Config>, shutdown: Shutdown) -> Result<()> {
    let mut urls = HashMap::new();
    for s in services() {
        let url = Config::service_url(s.name).ok_or_else(|| {
            Error::validation(format!(
                "ERP_{}_URL não configurado.",
                s.name.to_ascii_uppercase()
            ))
        })?;
        urls.insert(s.name.to_string(), Target::Url(url));
    }
    if cfg.nats_url.is_none() {
        return Err(Error::validation(
            "NATS_URL é obrigatório no modo de microsserviços.",
        ));
    }
    let bus = bus::from_config(&cfg).await?;
    let cache = cache::from_config(&cfg).await?;
    let listener = TcpListener::bind(&cfg.http_addr)
        .await
        .map_err(Error::internal)?;
    let (addr, _, task) = start_gateway(cfg, urls, bus, cache, listener, shutdown).await?;
    tracing::info!(%addr, "gateway listening");
    task.await.map_err(Error::internal)
}

/// Everything in one process: every service, then the gateway.
pub struct Running {
    pub addr: SocketAddr,
    pub state: AppState,
    /// The gateway's HTTP server.
    pub gateway: tokio::task::JoinHandle<()>,
    /// Each service (its gRPC and its background work).
    pub services: Vec<tokio::task::JoinHandle<()>>,
    pub shutdown: Shutdown,
}

impl Running {
    /// Resolves when a role ended on its own (an error: roles run until stopped).
    pub async fn ended(&mut self) {
        let all = std::iter::once(&mut self.gateway).chain(self.services.iter_mut());
        let _ = futures::future::select_all(all).await;
    }

    /// Stops every role without dropping what is in flight (see
    /// `erp_platform::shutdown`): the gateway stops taking connections and answers
    /// the requests it has, then the services finish their batch of events and
    /// flush their outboxes; each step within the grace.
    pub async fn stop(self, grace: std::time::Duration) {
        let started = std::time::Instant::now();
        self.shutdown.drain();
        if tokio::time::timeout(grace, self.gateway).await.is_err() {
            tracing::warn!("requests cut at the end of the shutdown's grace");
        }
        self.shutdown.stop();
        let left = grace
            .saturating_sub(started.elapsed())
            .max(std::time::Duration::from_secs(1));
        if tokio::time::timeout(left, futures::future::join_all(self.services))
            .await
            .is_err()
        {
            tracing::warn!("services cut at the end of the shutdown's grace");
        }
    }
}

pub async fn start_all(cfg: Arc<Config>, listener: TcpListener) -> Result<Running> {
    let bus = bus::from_config(&cfg).await?;
    start_all_with(cfg, listener, bus).await
}

/// How the gateway reaches the services it starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// In-memory connections (`erp run`).
    InProcess,
    /// Loopback TCP, as `erp gateway` reaches `erp serve` (tests of that mode).
    Tcp,
}

/// `start_all` on a given bus (tests wrap the bus to inject faults).
pub async fn start_all_with(
    cfg: Arc<Config>,
    listener: TcpListener,
    bus: Arc<dyn Bus>,
) -> Result<Running> {
    start_linked(cfg, listener, bus, Link::InProcess).await
}

/// Every service and the gateway in this process, linked in-memory or over TCP.
pub async fn start_linked(
    cfg: Arc<Config>,
    listener: TcpListener,
    bus: Arc<dyn Bus>,
    link: Link,
) -> Result<Running> {
    migrate(cfg.clone()).await?;
    let cache = cache::from_config(&cfg).await?;
    let mut urls = HashMap::new();
    let mut handed = Vec::new();
    let peers = Peers::default();
    let shutdown = Shutdown::new();
    let mut services_tasks = Vec::new();
    for s in services() {
        let l = match link {
            Link::InProcess => {
                let (routes, l) = transport::direct();
                handed.push((s.name, routes));
                l
            }
            Link::Tcp => {
                let l = TcpListener::bind("127.0.0.1:0")
                    .await
                    .map_err(Error::internal)?;
                let addr = l.local_addr().map_err(Error::internal)?;
                urls.insert(s.name.to_string(), Target::Url(format!("http://{addr}")));
                Listener::Tcp(l)
            }
        };
        let ctx = service_ctx(
            cfg.clone(),
            bus.clone(),
            cache.clone(),
            peers.clone(),
            shutdown.clone(),
        )
        .await?;
        let name = s.name;
        let serve = s.serve;
        services_tasks.push(tokio::spawn(async move {
            if let Err(e) = serve(ctx, l).await {
                tracing::error!(service = name, error = %e, "service stopped");
            }
        }));
    }
    // In-process, each service hands over its routes once its background work
    // started; the gateway and the services' peers link straight to them.
    for (name, routes) in handed {
        let link = tokio::time::timeout(std::time::Duration::from_secs(120), routes)
            .await
            .map_err(|_| Error::internal(format!("{name}: did not start in 120 s")))?
            .map_err(|_| Error::internal(format!("{name}: stopped while starting")))?;
        urls.insert(name.to_string(), Target::Link(link));
    }
    peers.fill(
        urls.iter()
            .map(|(name, t)| Ok((name.clone(), t.channel()?)))
            .collect::<Result<_>>()?,
    );
    let (addr, state, gateway) =
        start_gateway(cfg, urls, bus, cache, listener, shutdown.clone()).await?;
    Ok(Running { addr, state, gateway, services: services_tasks, shutdown })
}
