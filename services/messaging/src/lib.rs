//! Messaging service: the queue of WhatsApp and e-mail messages of every company
//! (the `whatsapp` register: `MENS_*` columns, statuses 'N' na fila → 'P'
//! enviando → 'E' enviada → 'T' entregue → 'L' lida, or 'F' falhou), the worker
//! that sends them, the WhatsApp providers (Meta's Cloud API, the Evolution API
//! v2) with their webhooks, and SMTP.
//!
//! A call only queues: `POST /whatsapp/send` answers once the message is
//! committed, never after a provider call; a message naming a document
//! (`MENS_DOC_TIPO` `boleto`, `recibo`, `nfe`, `relatorio`, `orcamento` or
//! `pedido`, with `MENS_DOC_ID` and/or `MENS_DOC_REF`) without a file
//! carries the document itself, produced by the service that owns it through its
//! own declared call, as the caller (`documents`); the worker, running beside the
//! service's gRPC server, claims due messages of every tenant, sends them with
//! retries and reports their fate on the row; the providers' webhooks move them
//! on (delivered, read) without ever moving one back.
//!
//! Configuration: `ERP_MESSAGING_KEY` (32 bytes of base64, seals the providers'
//! tokens and the SMTP passwords at rest; a development key without it, with a
//! warning), `ERP_SMTP_URL` and `ERP_SMTP_FROM` (the instance's SMTP server for
//! companies without their own), `ERP_MESSAGING_BATCH`,
//! `ERP_MESSAGING_CONCURRENCY`, `ERP_MESSAGING_POLL_MS`,
//! `ERP_MESSAGING_TIMEOUT_SECS` (the worker).
//!
//! Decisions:
//! - The message row is the tenant's (row-level security); its dispatch row
//!   (`fila`) holds ids and times only, so workers find what is due across
//!   tenants without reading content, then work in the tenant's transaction.
//! - Claims are `FOR UPDATE SKIP LOCKED` with a lease: replicas never wait on each
//!   other, and a dead worker's messages are taken over when its lease ends. A
//!   message already sent (its provider id recorded) is never sent again.
//! - A status only moves forward (`status::Status::advance`); a status reported
//!   before the worker recorded the provider's id waits in `status_pendentes`.
//! - Webhook routes are public at the gateway; the tenant comes from the
//!   provider's number id or instance (`rotas`), never from the caller, and the
//!   signature or apikey is checked before anything changes.
//!
//! Layout:
//! - `numbers`: Brazilian WhatsApp numbers (55, DDD, 8 or 9 digits).
//! - `status`: the statuses, their labels and precedence.
//! - `backoff`: the retry schedule (exponential, jitter, `Retry-After`).
//! - `files`: attachments by their bytes and type, size limits, safe names.
//! - `documents`: the documents a message names (slip, receipt, NF-e, report,
//!   quote, order), asked of finance, fiscal, reports and orders
//!   (`erp_platform::peer`).
//! - `mail`: e-mail addresses, header checks, bodies, MIME and SMTP (`lettre`).
//! - `providers/`: the `Provider` trait; `cloud` (WhatsApp Cloud API: sends,
//!   media, templates, errors in pt-BR, webhook signature and payloads) and
//!   `evolution` (Evolution API v2: pairing, sends, webhooks).
//! - `settings`: a company's provider settings as the worker reads them
//!   (secrets opened), sending hours, the default SMTP.
//! - `queue`: the queue's SQL (enqueue, claim, record, report).
//! - `worker`: the loop that claims, sends and records.
//! - `live`: the hint that a company's queue moved (its open screens ask again).
//! - `notifications`: the bell's notifications (a message failed, facts, a new version).
//! - `webhooks`: `MessagingService`, the providers' webhooks.
//! - `resources/`: the registers: `messages` (the queue and its calls),
//!   `settings` (`whatsappconfig`, `emailconfig`).
//! - `fake/` (feature `fake`): fake Cloud API and Evolution API servers.

pub mod backoff;
pub mod documents;
#[cfg(feature = "fake")]
pub mod fake;
pub mod files;
pub mod live;
pub mod mail;
pub mod notifications;
pub mod numbers;
pub mod providers;
pub mod queue;
pub mod resources;
pub mod settings;
pub mod status;
pub mod webhooks;
pub mod worker;

use std::sync::Arc;
use std::time::Duration;

use erp_platform::crypto::Sealer;
use erp_platform::service::{Peers, ServiceCtx};
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};
use sqlx::migrate::Migrator;
use tokio::sync::Notify;

use crate::settings::DefaultSmtp;

pub const SCHEMA: &str = "messaging";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

/// What the calls, the webhooks and the worker share.
pub struct Deps {
    pub sealer: Sealer,
    /// For the calls that ask a provider (connection state, pairing).
    pub http: reqwest::Client,
    pub smtp: Option<DefaultSmtp>,
    /// Wakes this process's worker when a message is queued.
    pub wake: Arc<Notify>,
    /// The services that own the documents a message carries (none: a message
    /// naming a document without its file answers 503).
    pub peers: Peers,
    /// How long an owner may take to produce a document.
    pub peer_timeout: Duration,
}

impl Deps {
    /// From `ERP_MESSAGING_KEY`, `ERP_SMTP_URL` and `ERP_SMTP_FROM`.
    pub fn from_env() -> std::result::Result<Deps, String> {
        Deps::new(Sealer::from_env(&settings::KEY)?, DefaultSmtp::from_env()?)
    }

    pub fn new(sealer: Sealer, smtp: Option<DefaultSmtp>) -> std::result::Result<Deps, String> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Deps {
            sealer,
            http,
            smtp,
            wake: Arc::new(Notify::new()),
            peers: Peers::default(),
            peer_timeout: erp_platform::peer::TIMEOUT,
        })
    }

    /// Reaching the documents' owners through `peers`.
    pub fn with_peers(mut self, peers: Peers) -> Deps {
        self.peers = peers;
        self
    }
}

/// Serves the registers and the webhooks, with the worker beside them.
pub async fn serve(ctx: ServiceCtx, listener: Listener) -> Result<()> {
    let deps = Arc::new(
        Deps::from_env()
            .map_err(Error::internal)?
            .with_peers(ctx.peers.clone()),
    );
    serve_with(ctx, listener, deps, worker::Config::from_env()).await
}

/// `serve` with given settings (tests).
pub async fn serve_with(
    ctx: ServiceCtx,
    listener: Listener,
    deps: Arc<Deps>,
    config: worker::Config,
) -> Result<()> {
    let registry = Arc::new(resources::registry_with(deps.clone()).map_err(Error::internal)?);
    let consumers = notifications::consumers();
    let background =
        erp_platform::service::start_background(&ctx, SCHEMA, consumers, Vec::new()).await?;
    notifications::announce(&ctx.db).await;
    let worker = worker::Worker::new(
        ctx.db.clone(),
        deps.sealer.clone(),
        deps.smtp.clone(),
        config,
        deps.wake.clone(),
    )?;
    let sends = tokio::spawn(worker.run(ctx.shutdown.clone()));
    let routes = tonic::service::Routes::new(
        erp_platform::resource::grpc::ResourceGrpc::new(ctx.db.clone(), registry).server(),
    )
    .add_service(webhooks::Webhooks::new(ctx.db.clone(), deps).server());
    let result = erp_platform::service::serve_then_stop(&ctx, listener, routes, background).await;
    // Stopped: the worker took no new claim and finishes the sends in flight.
    if tokio::time::timeout(erp_platform::shutdown::grace(), sends)
        .await
        .is_err()
    {
        tracing::warn!("messaging: sends cut at the end of the shutdown's grace");
    }
    result
}
