//! The event bus: one trait, two engines (NATS JetStream, in-process), the outbox
//! relay and the inbox.
//!
//! Subjects are `erp.<service>.<entity>.<verb>`. Publishing goes through the
//! outbox: a domain transaction calls [`outbox_insert`], and [`run_relay`] publishes
//! pending rows with the row id as `Nats-Msg-Id`, marking them only after the bus
//! acknowledged them, so an event survives a bus outage. Consumers are durable and
//! get at-least-once delivery; [`apply_once`] records the event id in the
//! consumer's inbox inside the same transaction as its effect, so a redelivery
//! changes nothing.

use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use futures::StreamExt;
use tokio::sync::{Mutex, Notify};
use tokio::task::JoinHandle;
use uuid::Uuid;

use crate::db::{Db, Tx};
use crate::{Error, Result};

pub const STREAM: &str = "ERP";
/// The tenant an event belongs to (from the outbox row), for consumers' transactions.
pub const CLIENT_HEADER: &str = "Erp-Client-Id";

#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    pub id: String,
    pub subject: String,
    pub headers: Vec<(String, String)>,
    pub payload: Bytes,
}

impl Message {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub type HandlerFuture = Pin<Box<dyn Future<Output = Result<()>> + Send>>;

/// Runs a handler inside a span that continues the publisher's trace (the
/// `traceparent` the outbox captured travels in the message headers).
async fn handle(handler: &Handler, durable: &str, msg: Message) -> Result<()> {
    use tracing::Instrument;
    let span = tracing::info_span!("event", subject = %msg.subject, consumer = %durable);
    let headers: HashMap<String, String> = msg.headers.iter().cloned().collect();
    crate::telemetry::set_parent_from(&span, &headers);
    let started = std::time::Instant::now();
    let result = handler(msg).instrument(span).await;
    metrics::histogram!("erp_event_handling_seconds", "consumer" => durable.to_string())
        .record(started.elapsed().as_secs_f64());
    result
}
pub type Handler = Arc<dyn Fn(Message) -> HandlerFuture + Send + Sync>;

#[async_trait]
pub trait Bus: Send + Sync {
    /// Publishes and waits for the bus to acknowledge it. Messages with an id already
    /// seen within the duplicate window are dropped by the bus.
    async fn publish(&self, msg: Message) -> Result<()>;
    /// Starts a durable consumer. The handler's `Ok` acknowledges; an `Err` makes the
    /// bus deliver the message again later.
    async fn subscribe(
        &self,
        durable: &str,
        filter: &str,
        handler: Handler,
    ) -> Result<JoinHandle<()>>;
    /// Like `subscribe`, handling up to `in_flight` messages at once (for effects
    /// whose order does not matter, such as ledger exits under row locks). Engines
    /// that cannot do so handle them one at a time.
    async fn subscribe_with(
        &self,
        durable: &str,
        filter: &str,
        handler: Handler,
        in_flight: usize,
    ) -> Result<JoinHandle<()>> {
        let _ = in_flight;
        self.subscribe(durable, filter, handler).await
    }
    async fn ping(&self) -> Result<()>;
    fn kind(&self) -> &'static str;
}

/// NATS subject wildcard match (`*` one token, `>` the rest).
pub fn subject_matches(filter: &str, subject: &str) -> bool {
    let mut f = filter.split('.');
    let mut s = subject.split('.');
    loop {
        match (f.next(), s.next()) {
            (Some(">"), Some(_)) => return true,
            (Some("*"), Some(_)) => {}
            (Some(a), Some(b)) if a == b => {}
            (None, None) => return true,
            _ => return false,
        }
    }
}

// ---------------------------------------------------------------- in-process

/// In-process bus for `erp run` without `NATS_URL`: the same contract as JetStream
/// (retained log, durable consumers that resume where they stopped, redelivery on
/// error, duplicate ids dropped) within one process.
#[derive(Clone, Default)]
pub struct MemoryBus {
    inner: Arc<MemoryInner>,
}

#[derive(Default)]
struct MemoryInner {
    state: Mutex<MemoryState>,
    notify: Notify,
}

#[derive(Default)]
struct MemoryState {
    base: u64,
    log: VecDeque<Message>,
    seen: HashSet<String>,
    seen_order: VecDeque<String>,
    consumers: HashMap<String, u64>,
}

const MEMORY_RETAIN: usize = 100_000;
const MEMORY_DEDUP: usize = 100_000;

impl MemoryBus {
    pub fn new() -> Self {
        Self::default()
    }
}

#[async_trait]
impl Bus for MemoryBus {
    async fn publish(&self, msg: Message) -> Result<()> {
        let mut st = self.inner.state.lock().await;
        if !st.seen.insert(msg.id.clone()) {
            return Ok(());
        }
        st.seen_order.push_back(msg.id.clone());
        if st.seen_order.len() > MEMORY_DEDUP {
            if let Some(old) = st.seen_order.pop_front() {
                st.seen.remove(&old);
            }
        }
        st.log.push_back(msg);
        // Retain like the JetStream stream does (a durable created later starts at
        // the oldest retained message), capped in count.
        while st.log.len() > MEMORY_RETAIN {
            st.log.pop_front();
            st.base += 1;
        }
        drop(st);
        self.inner.notify.notify_waiters();
        Ok(())
    }

    async fn subscribe(
        &self,
        durable: &str,
        filter: &str,
        handler: Handler,
    ) -> Result<JoinHandle<()>> {
        let durable = durable.to_string();
        let filter = filter.to_string();
        {
            let mut st = self.inner.state.lock().await;
            let base = st.base;
            st.consumers.entry(durable.clone()).or_insert(base);
        }
        let inner = self.inner.clone();
        Ok(tokio::spawn(async move {
            let mut backoff = Duration::from_millis(50);
            loop {
                let notified = inner.notify.notified();
                let next = {
                    let mut st = inner.state.lock().await;
                    let mut pos = st
                        .consumers
                        .get(&durable)
                        .copied()
                        .unwrap_or(st.base)
                        .max(st.base);
                    let mut found = None;
                    while pos < st.base + st.log.len() as u64 {
                        let m = &st.log[(pos - st.base) as usize];
                        if subject_matches(&filter, &m.subject) {
                            found = Some((pos, m.clone()));
                            break;
                        }
                        pos += 1;
                    }
                    st.consumers.insert(durable.clone(), pos);
                    let lag = (st.base + st.log.len() as u64).saturating_sub(pos);
                    metrics::gauge!("erp_consumer_lag", "consumer" => durable.clone())
                        .set(lag as f64);
                    found
                };
                match next {
                    None => notified.await,
                    Some((pos, msg)) => match handle(&handler, &durable, msg).await {
                        Ok(()) => {
                            backoff = Duration::from_millis(50);
                            inner
                                .state
                                .lock()
                                .await
                                .consumers
                                .insert(durable.clone(), pos + 1);
                        }
                        Err(e) => {
                            tracing::warn!(consumer = %durable, error = %e, "handler failed; redelivering");
                            tokio::time::sleep(backoff).await;
                            backoff = (backoff * 2).min(Duration::from_secs(5));
                        }
                    },
                }
            }
        }))
    }

    async fn ping(&self) -> Result<()> {
        Ok(())
    }

    fn kind(&self) -> &'static str {
        "memory"
    }
}

// ---------------------------------------------------------------- NATS

pub struct NatsBus {
    client: async_nats::Client,
    js: async_nats::jetstream::Context,
}

impl NatsBus {
    /// Connects and makes sure the `ERP` stream (subjects `erp.>`) exists.
    pub async fn connect(url: &str) -> Result<NatsBus> {
        let client = async_nats::ConnectOptions::new()
            .retry_on_initial_connect()
            .connection_timeout(Duration::from_secs(5))
            .connect(url)
            .await
            .map_err(|e| Error::Unavailable(format!("NATS: {e}")))?;
        let js = async_nats::jetstream::new(client.clone());
        js.get_or_create_stream(async_nats::jetstream::stream::Config {
            name: STREAM.into(),
            subjects: vec!["erp.>".into()],
            duplicate_window: Duration::from_secs(600),
            max_age: Duration::from_secs(7 * 24 * 3600),
            storage: async_nats::jetstream::stream::StorageType::File,
            ..Default::default()
        })
        .await
        .map_err(|e| Error::Unavailable(format!("JetStream: {e}")))?;
        Ok(NatsBus { client, js })
    }

    pub fn client(&self) -> &async_nats::Client {
        &self.client
    }
}

#[async_trait]
impl Bus for NatsBus {
    async fn publish(&self, msg: Message) -> Result<()> {
        let mut headers = async_nats::HeaderMap::new();
        headers.insert("Nats-Msg-Id", msg.id.as_str());
        for (k, v) in &msg.headers {
            headers.insert(k.as_str(), v.as_str());
        }
        let ack = self
            .js
            .publish_with_headers(msg.subject.clone(), headers, msg.payload.clone())
            .await
            .map_err(|e| Error::Unavailable(format!("publish: {e}")))?;
        tokio::time::timeout(Duration::from_secs(10), ack)
            .await
            .map_err(|_| Error::Unavailable("publish ack timeout".into()))?
            .map_err(|e| Error::Unavailable(format!("publish ack: {e}")))?;
        Ok(())
    }

    async fn subscribe(
        &self,
        durable: &str,
        filter: &str,
        handler: Handler,
    ) -> Result<JoinHandle<()>> {
        self.subscribe_with(durable, filter, handler, 1).await
    }

    async fn subscribe_with(
        &self,
        durable: &str,
        filter: &str,
        handler: Handler,
        in_flight: usize,
    ) -> Result<JoinHandle<()>> {
        use async_nats::jetstream::consumer::{pull, AckPolicy};
        let stream = self
            .js
            .get_stream(STREAM)
            .await
            .map_err(|e| Error::Unavailable(format!("stream: {e}")))?;
        let consumer: pull::Stream = {
            let c = stream
                .get_or_create_consumer(
                    durable,
                    pull::Config {
                        durable_name: Some(durable.to_string()),
                        filter_subject: filter.to_string(),
                        ack_policy: AckPolicy::Explicit,
                        ack_wait: Duration::from_secs(30),
                        ..Default::default()
                    },
                )
                .await
                .map_err(|e| Error::Unavailable(format!("consumer: {e}")))?;
            c.messages()
                .await
                .map_err(|e| Error::Unavailable(format!("consumer: {e}")))?
        };
        let durable = durable.to_string();
        // Pending messages per consumer, for the consumer-lag gauge.
        let lag_stream = stream.clone();
        let lag_name = durable.clone();
        tokio::spawn(async move {
            loop {
                let info = lag_stream.consumer_info(&lag_name).await;
                match info {
                    Ok(i) => metrics::gauge!("erp_consumer_lag", "consumer" => lag_name.clone())
                        .set(i.num_pending as f64),
                    Err(e) => tracing::debug!(error = %e, "consumer info"),
                }
                tokio::time::sleep(Duration::from_secs(10)).await;
            }
        });
        let js_stream = stream;
        let permits = Arc::new(tokio::sync::Semaphore::new(in_flight.max(1)));
        Ok(tokio::spawn(async move {
            let mut messages = consumer;
            loop {
                match messages.next().await {
                    Some(Ok(m)) => {
                        if in_flight <= 1 {
                            process(&handler, &durable, m).await;
                        } else {
                            let permit = match permits.clone().acquire_owned().await {
                                Ok(p) => p,
                                Err(_) => break,
                            };
                            let (handler, durable) = (handler.clone(), durable.clone());
                            tokio::spawn(async move {
                                process(&handler, &durable, m).await;
                                drop(permit);
                            });
                        }
                    }
                    Some(Err(e)) => {
                        tracing::warn!(consumer = %durable, error = %e, "consumer stream error");
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                    None => {
                        // The stream ended (server restart): bind again.
                        tokio::time::sleep(Duration::from_millis(500)).await;
                        match js_stream.get_consumer::<pull::Config>(&durable).await {
                            Ok(c) => match c.messages().await {
                                Ok(s) => messages = s,
                                Err(e) => tracing::warn!(error = %e, "rebind failed"),
                            },
                            Err(e) => tracing::warn!(error = %e, "rebind failed"),
                        }
                    }
                }
            }
        }))
    }

    async fn ping(&self) -> Result<()> {
        match self.client.connection_state() {
            async_nats::connection::State::Connected => Ok(()),
            s => Err(Error::Unavailable(format!("NATS {s:?}"))),
        }
    }

    fn kind(&self) -> &'static str {
        "nats"
    }
}

/// Handles one JetStream message and acknowledges it (or asks for it again).
async fn process(handler: &Handler, durable: &str, m: async_nats::jetstream::Message) {
    let headers: Vec<(String, String)> = m
        .headers
        .as_ref()
        .map(|h| {
            h.iter()
                .flat_map(|(k, vs)| vs.iter().map(move |v| (k.to_string(), v.to_string())))
                .collect()
        })
        .unwrap_or_default();
    let id = headers
        .iter()
        .find(|(k, _)| k == "Nats-Msg-Id")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let msg = Message {
        id,
        subject: m.subject.to_string(),
        headers,
        payload: m.payload.clone(),
    };
    let result = handle(handler, durable, msg).await;
    let ack = match result {
        Ok(()) => m.ack().await,
        Err(e) => {
            tracing::warn!(consumer = %durable, error = %e, "handler failed; redelivering");
            m.ack_with(async_nats::jetstream::AckKind::Nak(Some(
                Duration::from_millis(500),
            )))
            .await
        }
    };
    if let Err(e) = ack {
        tracing::warn!(consumer = %durable, error = %e, "ack failed");
    }
}

/// The configured bus: NATS when `NATS_URL` is set, else in-process.
pub async fn from_config(cfg: &crate::config::Config) -> Result<Arc<dyn Bus>> {
    Ok(match &cfg.nats_url {
        Some(url) => Arc::new(NatsBus::connect(url).await?),
        None => Arc::new(MemoryBus::new()),
    })
}

// ---------------------------------------------------------------- outbox

/// Writes an event in the caller's transaction; it is published after commit.
pub async fn outbox_insert(
    tx: &mut Tx,
    schema: &str,
    subject: &str,
    client_id: i64,
    payload: &[u8],
) -> Result<Uuid> {
    let id = Uuid::now_v7();
    let headers = crate::telemetry::current_trace_headers();
    let sql =
        format!("INSERT INTO {schema}.outbox (id, subject, client_id, payload, headers) VALUES ($1, $2, $3, $4, $5)");
    sqlx::query(&sql)
        .bind(id)
        .bind(subject)
        .bind(client_id)
        .bind(payload)
        .bind(serde_json::to_value(headers).unwrap_or_default())
        .execute(&mut **tx)
        .await?;
    let notify = format!("SELECT pg_notify('{schema}_outbox', '')");
    sqlx::query(&notify).execute(&mut **tx).await?;
    Ok(id)
}

/// Publishes a batch of pending outbox rows; returns how many were published.
pub async fn relay_once(db: &Db, bus: &dyn Bus, schema: &str) -> Result<usize> {
    let mut tx = db.begin().await?;
    let sql = format!(
        "SELECT id, subject, payload, headers, client_id FROM {schema}.outbox WHERE published_at IS NULL \
         ORDER BY created_at, id LIMIT 200 FOR UPDATE SKIP LOCKED"
    );
    let rows: Vec<(Uuid, String, Vec<u8>, serde_json::Value, i64)> =
        sqlx::query_as(&sql).fetch_all(&mut *tx).await?;
    let mut done = Vec::with_capacity(rows.len());
    for (id, subject, payload, headers, client_id) in rows {
        let mut headers: Vec<(String, String)> =
            serde_json::from_value::<HashMap<String, String>>(headers)
                .unwrap_or_default()
                .into_iter()
                .collect();
        headers.push((CLIENT_HEADER.into(), client_id.to_string()));
        let msg = Message {
            id: id.to_string(),
            subject,
            headers,
            payload: payload.into(),
        };
        if let Err(e) = bus.publish(msg).await {
            // Keep what was acknowledged; the rest waits for the bus to come back.
            tracing::warn!(error = %e, "outbox publish failed; will retry");
            break;
        }
        done.push(id);
    }
    if !done.is_empty() {
        let sql = format!("UPDATE {schema}.outbox SET published_at = now() WHERE id = ANY($1)");
        sqlx::query(&sql).bind(&done).execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(done.len())
}

/// Pending outbox rows, for the backlog gauge and tests.
pub async fn outbox_backlog(db: &Db, schema: &str) -> Result<i64> {
    let sql = format!("SELECT count(*) FROM {schema}.outbox WHERE published_at IS NULL");
    Ok(sqlx::query_scalar(&sql).fetch_one(&db.pool).await?)
}

/// The relay loop of one service schema: wakes on NOTIFY and at least twice a second.
pub fn run_relay(db: Db, bus: Arc<dyn Bus>, schema: &'static str) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut listener = sqlx::postgres::PgListener::connect_with(&db.pool)
            .await
            .ok();
        if let Some(l) = listener.as_mut() {
            if let Err(e) = l.listen(&format!("{schema}_outbox")).await {
                tracing::warn!(error = %e, "outbox LISTEN failed; polling only");
                listener = None;
            }
        }
        let mut failures = 0u32;
        loop {
            match relay_once(&db, bus.as_ref(), schema).await {
                Ok(n) if n > 0 => {
                    failures = 0;
                    continue;
                }
                Ok(_) => failures = 0,
                Err(e) => {
                    failures += 1;
                    tracing::warn!(error = %e, schema, "outbox relay error");
                }
            }
            if let Ok(n) = outbox_backlog(&db, schema).await {
                metrics::gauge!("erp_outbox_backlog", "schema" => schema).set(n as f64);
            }
            let wait = Duration::from_millis(if failures > 0 { 1000 } else { 500 });
            match listener.as_mut() {
                Some(l) => {
                    let _ = tokio::time::timeout(wait, l.recv()).await;
                }
                None => tokio::time::sleep(wait).await,
            }
        }
    })
}

// ---------------------------------------------------------------- inbox

/// Applies an event at most once for `consumer`: the inbox row and the effect commit
/// together; a redelivered event finds its row and does nothing. Returns whether
/// the effect ran.
pub async fn apply_once<F>(
    db: &Db,
    schema: &str,
    consumer: &str,
    event_id: &str,
    client_id: i64,
    effect: F,
) -> Result<bool>
where
    F: for<'a> FnOnce(&'a mut Tx) -> Pin<Box<dyn Future<Output = Result<()>> + Send + 'a>>,
{
    let mut tx = db.begin_tenant(client_id).await?;
    let sql = format!(
        "INSERT INTO {schema}.inbox (consumer, event_id, client_id) VALUES ($1, $2, $3) \
         ON CONFLICT DO NOTHING"
    );
    let inserted = sqlx::query(&sql)
        .bind(consumer)
        .bind(event_id)
        .bind(client_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if inserted == 0 {
        tx.rollback().await?;
        return Ok(false);
    }
    effect(&mut tx).await?;
    tx.commit().await?;
    Ok(true)
}

/// What a consumer does with one event, inside the tenant transaction that also
/// records the event in the consumer's inbox.
#[async_trait]
pub trait Effect: Send + Sync {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()>;
}

/// A durable consumer whose effect runs at most once per event (`apply_once` in
/// `schema`'s inbox). An event the effect refuses for good (validation, conflict,
/// not found) is logged and acknowledged; any other error leaves it for redelivery.
pub async fn consume(
    bus: &Arc<dyn Bus>,
    db: Db,
    schema: &'static str,
    durable: &str,
    filter: &str,
    effect: Arc<dyn Effect>,
) -> Result<JoinHandle<()>> {
    consume_with(bus, db, schema, durable, filter, effect, 1).await
}

/// `consume` with up to `in_flight` events applied at once (effects whose order does
/// not matter).
pub async fn consume_with(
    bus: &Arc<dyn Bus>,
    db: Db,
    schema: &'static str,
    durable: &str,
    filter: &str,
    effect: Arc<dyn Effect>,
    in_flight: usize,
) -> Result<JoinHandle<()>> {
    let consumer = durable.to_string();
    bus.subscribe_with(
        durable,
        filter,
        Arc::new(move |msg: Message| {
            let (db, effect, consumer) = (db.clone(), effect.clone(), consumer.clone());
            Box::pin(async move {
                let Some(client) = msg
                    .header(CLIENT_HEADER)
                    .and_then(|c| c.trim().parse::<i64>().ok())
                else {
                    tracing::warn!(subject = %msg.subject, "event without tenant; ignored");
                    return Ok(());
                };
                let id = msg.id.clone();
                let result = apply_once(&db, schema, &consumer, &id, client, |tx| {
                    Box::pin(async move { effect.apply(tx, client, &msg).await })
                })
                .await;
                match result {
                    Ok(_) => Ok(()),
                    Err(e @ (Error::Validation(_) | Error::Conflict(_) | Error::NotFound(_))) => {
                        metrics::counter!("erp_events_refused_total", "consumer" => consumer.clone())
                            .increment(1);
                        tracing::error!(error = %e, consumer = %consumer, event = %id, "event refused");
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            })
        }),
        in_flight,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::subject_matches;

    #[test]
    fn wildcards_follow_nats_rules() {
        assert!(subject_matches("erp.>", "erp.orders.pedido.faturado"));
        assert!(subject_matches(
            "erp.*.pedido.*",
            "erp.orders.pedido.faturado"
        ));
        assert!(!subject_matches(
            "erp.*.pedido",
            "erp.orders.pedido.faturado"
        ));
        assert!(subject_matches(
            "erp.orders.pedido.faturado",
            "erp.orders.pedido.faturado"
        ));
        assert!(!subject_matches(
            "erp.stock.>",
            "erp.orders.pedido.faturado"
        ));
        assert!(!subject_matches("erp.>", "erp"));
    }
}
