//! The worker: takes due messages of every tenant and sends them.
//!
//! Each round claims up to `batch` dispatch rows (`queue::claim`: FOR UPDATE
//! SKIP LOCKED, a lease), then handles them `concurrency` at a time, each in
//! three steps so that no transaction is open while a provider is called:
//!
//! 1. **Prepare** (tenant transaction): the message is locked and must still be
//!    sendable; no provider configured → it stays queued with the reason
//!    ('Nenhum provedor de WhatsApp configurado para a empresa.') and is looked at
//!    again later or as soon as settings are saved; outside the company's
//!    sending hours (unless asked for now) → due at the next opening; the
//!    company's per-minute allowance used up → due the next minute; else 'P' and
//!    one more attempt.
//! 2. **Send**, through the WhatsApp provider or SMTP, with a timeout.
//! 3. **Record** (tenant transaction): sent → 'E' and the provider's id (statuses
//!    its webhooks reported meanwhile applied); a retryable failure (429, 5xx,
//!    timeouts) → due again after the backoff, with the reason; a final one, or
//!    the last attempt → 'F' with the reason.
//!
//! A worker that dies holds its claims until their lease runs out; then another
//! worker takes them. Stopping (the role's shutdown) takes no new claim, gives
//! back the claims it has not started and finishes the sends in flight.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use erp_platform::crypto::Sealer;
use erp_platform::db::Db;
use erp_platform::shutdown::Shutdown;
use erp_platform::Result;
use futures::StreamExt;
use tokio::sync::Notify;
use uuid::Uuid;

use crate::backoff::Backoff;
use crate::files::Kind;
use crate::mail::{self, Mail, MailFile};
use crate::providers::{Attachment, Outgoing, SendError};
use crate::queue::{self, Channel, Claim, Key};
use crate::settings::{self, DefaultSmtp, NO_SMTP, NO_WHATSAPP};

/// How the worker runs (`ERP_MESSAGING_*`, see `from_env`).
#[derive(Clone, Debug)]
pub struct Config {
    /// Messages claimed per round.
    pub batch: i64,
    /// Sends in flight at once.
    pub concurrency: usize,
    /// How long a claim holds a message (longer than a send with its timeout).
    pub lease: Duration,
    /// How often an idle worker looks for due messages.
    pub poll: Duration,
    /// Timeout of one call to a provider or SMTP server.
    pub timeout: Duration,
    pub backoff: Backoff,
    /// When a message without a provider is looked at again.
    pub no_provider_retry: Duration,
    /// Serve only these tenants (a replica dedicated to some clients, a test);
    /// none: every tenant.
    pub clients: Option<Vec<i64>>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            batch: 32,
            concurrency: 8,
            lease: Duration::from_secs(120),
            poll: Duration::from_secs(1),
            timeout: Duration::from_secs(30),
            backoff: Backoff::default(),
            no_provider_retry: Duration::from_secs(600),
            clients: None,
        }
    }
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

impl Config {
    /// The defaults, changed by `ERP_MESSAGING_BATCH`, `ERP_MESSAGING_CONCURRENCY`,
    /// `ERP_MESSAGING_POLL_MS` and `ERP_MESSAGING_TIMEOUT_SECS`.
    pub fn from_env() -> Config {
        let d = Config::default();
        let timeout = env_u64("ERP_MESSAGING_TIMEOUT_SECS").map_or(d.timeout, Duration::from_secs);
        Config {
            batch: env_u64("ERP_MESSAGING_BATCH").map_or(d.batch, |n| n.clamp(1, 1000) as i64),
            concurrency: env_u64("ERP_MESSAGING_CONCURRENCY")
                .map_or(d.concurrency, |n| n.clamp(1, 256) as usize),
            poll: env_u64("ERP_MESSAGING_POLL_MS").map_or(d.poll, Duration::from_millis),
            timeout,
            lease: d.lease.max(timeout * 4),
            ..d
        }
    }
}

/// What the worker works with.
#[derive(Clone)]
pub struct Worker {
    pub db: Db,
    pub sealer: Sealer,
    pub smtp: Option<DefaultSmtp>,
    pub config: Config,
    /// Woken when a message is queued in this process (others poll).
    pub wake: Arc<Notify>,
    http: reqwest::Client,
    owner: Uuid,
}

/// What became of one claimed message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Sent,
    Retry,
    Failed,
    /// Waits (no provider, sending hours, rate), or was not sendable any more.
    Waiting,
    /// Given back untouched (stopping).
    Released,
}

/// A message prepared for its send.
enum Ready {
    Whatsapp {
        provider: Box<dyn crate::providers::Provider>,
        msg: Outgoing,
        attempts: i32,
    },
    Email {
        mailer: settings::Mailer,
        mail: Box<lettre::Message>,
        attempts: i32,
    },
}

impl Worker {
    pub fn new(
        db: Db,
        sealer: Sealer,
        smtp: Option<DefaultSmtp>,
        config: Config,
        wake: Arc<Notify>,
    ) -> Result<Worker> {
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(Duration::from_secs(10))
            .build()
            .map_err(erp_platform::Error::internal)?;
        Ok(Worker { db, sealer, smtp, config, wake, http, owner: Uuid::now_v7() })
    }

    /// Runs until `shutdown` stops the role: rounds back to back while there is
    /// work, else waits for the poll interval or a wake-up.
    pub async fn run(self, shutdown: Shutdown) {
        loop {
            if shutdown.is_stopping() {
                return;
            }
            let claimed = match self.round(&shutdown).await {
                Ok(n) => n,
                Err(e) => {
                    tracing::warn!(error = %e, "messaging: round failed");
                    0
                }
            };
            if claimed as i64 >= self.config.batch {
                continue;
            }
            tokio::select! {
                _ = tokio::time::sleep(self.config.poll) => {}
                _ = self.wake.notified() => {}
                _ = shutdown.stopping() => return,
            }
        }
    }

    /// One round: claims a batch and handles it. Answers how many were claimed.
    pub async fn round(&self, shutdown: &Shutdown) -> Result<usize> {
        let claims = queue::claim(
            &self.db,
            self.owner,
            self.config.batch,
            self.config.lease,
            self.config.clients.as_deref(),
        )
        .await?;
        let n = claims.len();
        futures::stream::iter(claims)
            .for_each_concurrent(self.config.concurrency, |c| async move {
                let outcome = if shutdown.is_stopping() {
                    queue::release(&self.db, c.key, self.owner).await.map(|_| Outcome::Released)
                } else {
                    self.handle(c).await
                };
                if let Err(e) = outcome {
                    tracing::warn!(error = %e, message = ?c.key, "messaging: message not handled; its lease will expire");
                }
            })
            .await;
        Ok(n)
    }

    /// Prepare, send, record one claimed message.
    pub async fn handle(&self, c: Claim) -> Result<Outcome> {
        let Some(ready) = self.prepare(c).await? else {
            return Ok(Outcome::Waiting);
        };
        let (result, attempts) = match ready {
            Ready::Whatsapp { provider, msg, attempts } => {
                (provider.send(&msg).await.map(|s| s.provider_id), attempts)
            }
            Ready::Email { mailer, mail, attempts } => {
                let r = mail::send(&mailer.smtp, &mail, self.config.timeout).await;
                (
                    r.map(|_| format!("smtp-{}-{}-{}", c.key.client, c.key.emp, c.key.id)),
                    attempts,
                )
            }
        };
        self.record(c.key, result, attempts).await
    }

    async fn prepare(&self, c: Claim) -> Result<Option<Ready>> {
        let k = c.key;
        let mut tx = self.db.begin_tenant(k.client).await?;
        let Some(m) = queue::lock(&mut tx, k).await? else {
            queue::finish(&mut tx, k).await?;
            tx.commit().await?;
            return Ok(None);
        };
        if !m.status().sendable() || m.mens_provedor_id.is_some() {
            // Sent by a worker whose lease ran out meanwhile, or failed: done.
            queue::finish(&mut tx, k).await?;
            tx.commit().await?;
            return Ok(None);
        }
        let now = Utc::now();
        let later = |d: Duration| {
            now + chrono::Duration::from_std(d).unwrap_or(chrono::Duration::minutes(10))
        };
        let ready = match c.channel {
            Channel::Whatsapp => {
                let Some(cfg) = settings::whatsapp(&mut tx, &self.sealer, k.client, k.emp).await?
                else {
                    queue::note(&mut tx, k, NO_WHATSAPP).await?;
                    queue::reschedule(&mut tx, k, later(self.config.no_provider_retry)).await?;
                    tx.commit().await?;
                    return Ok(None);
                };
                if let Some(open) = cfg
                    .hours
                    .filter(|_| !m.mens_imediata)
                    .and_then(|h| h.next_open(now))
                {
                    queue::reschedule(&mut tx, k, open).await?;
                    tx.commit().await?;
                    return Ok(None);
                }
                if let Some(limit) = cfg.per_minute {
                    if let queue::Pace::At(slot) = queue::pace(&mut tx, k, limit).await? {
                        queue::reschedule(&mut tx, k, slot).await?;
                        tx.commit().await?;
                        return Ok(None);
                    }
                }
                let kind = Kind::parse(&m.mens_tipo).unwrap_or(Kind::Text);
                let attachment = queue::files(&mut tx, k)
                    .await?
                    .into_iter()
                    .next()
                    .map(|(name, mime, bytes)| Attachment { name, mime, bytes });
                let msg = Outgoing {
                    to: m.mens_destinatario.clone(),
                    kind,
                    text: m.mens_descricao.clone().unwrap_or_default(),
                    attachment,
                    template: m.template(),
                };
                let provider = cfg.provider(&self.http)?;
                let attempts =
                    queue::start_attempt(&mut tx, k, m.status(), cfg.kind.code()).await?;
                Ready::Whatsapp { provider, msg, attempts }
            }
            Channel::Email => {
                let Some(mailer) =
                    settings::mailer(&mut tx, &self.sealer, self.smtp.as_ref(), k.client, k.emp)
                        .await?
                else {
                    queue::note(&mut tx, k, NO_SMTP).await?;
                    queue::reschedule(&mut tx, k, later(self.config.no_provider_retry)).await?;
                    tx.commit().await?;
                    return Ok(None);
                };
                let files = queue::files(&mut tx, k).await?;
                let built = mail::addresses("Destinatário", &m.mens_destinatario).and_then(|to| {
                    let bcc = mail::addresses(
                        "Destinatário oculto",
                        m.mens_destinatario_oculto.as_deref().unwrap_or_default(),
                    )?;
                    mail::build(&Mail {
                        from: mailer.from.clone(),
                        to,
                        bcc,
                        subject: m.mens_assunto.clone().unwrap_or_default(),
                        description: m.mens_descricao.clone().unwrap_or_default(),
                        files: files
                            .into_iter()
                            .map(|(name, mime, bytes)| MailFile { name, mime, bytes })
                            .collect(),
                    })
                });
                let attempts = queue::start_attempt(&mut tx, k, m.status(), "smtp").await?;
                match built {
                    Ok(mail) => Ready::Email { mailer, mail: Box::new(mail), attempts },
                    Err(e) => {
                        queue::failed(&mut tx, k, &e.public_message()).await?;
                        tx.commit().await?;
                        return Ok(None);
                    }
                }
            }
        };
        tx.commit().await?;
        Ok(Some(ready))
    }

    async fn record(
        &self,
        k: Key,
        result: std::result::Result<String, SendError>,
        attempts: i32,
    ) -> Result<Outcome> {
        let mut tx = self.db.begin_tenant(k.client).await?;
        let outcome = match result {
            Ok(id) => {
                queue::sent(&mut tx, k, &id).await?;
                Outcome::Sent
            }
            Err(SendError::Retry { reason, after })
                if !self.config.backoff.exhausted(attempts.max(0) as u32) =>
            {
                let wait = self.config.backoff.delay(
                    attempts.max(1) as u32,
                    after,
                    &mut rand::thread_rng(),
                );
                let at = Utc::now()
                    + chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::minutes(30));
                let when = at
                    .with_timezone(&chrono_tz::America::Sao_Paulo)
                    .format("%H:%M:%S");
                queue::retry(
                    &mut tx,
                    k,
                    &format!("{reason} Nova tentativa às {when}."),
                    at,
                )
                .await?;
                Outcome::Retry
            }
            Err(e) => {
                queue::failed(&mut tx, k, e.reason()).await?;
                Outcome::Failed
            }
        };
        tx.commit().await?;
        Ok(outcome)
    }
}
