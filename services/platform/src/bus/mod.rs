//! The event bus: one trait, two engines (NATS JetStream, in-process), the outbox
//! relay, the batch consumer with its inbox, and the scheduled jobs that ride on
//! them.
//!
//! Subjects are `erp.<service>.<entity>.<verb>`; jobs are `erp.jobs.<service>.<job>`.
//! What is guaranteed: **at-least-once delivery, exactly-once effect**. A domain
//! transaction writes its facts to the service's outbox ([`outbox::insert`]); the
//! relay ([`outbox::run_relay`]) publishes them in batches without holding any row
//! lock while it waits for the acknowledgements, with the outbox id as
//! `Nats-Msg-Id` so a re-publish after a crash is dropped by the stream. Consumers
//! ([`consumer::consume`]) pull batches and apply a batch per tenant in one
//! transaction that also records the event ids in the consumer's inbox, so a
//! redelivered event changes nothing.
//!
//! Layout:
//! - `mod` (here): `Message`, the `Bus` trait, subject matching, the configured bus.
//! - `memory`: `MemoryBus`, the in-process engine of `erp run` without NATS.
//! - `nats`: `NatsBus`, JetStream.
//! - `outbox`: writing facts in a domain transaction, the relay, pruning.
//! - `consumer`: `Effect`, the batch consumer and its inbox (`apply_once`).
//! - `copies`: another service's register facts read into a local copy.
//! - `facts`: protobuf facts decoded with the tenant check, their decimals and
//!   dates, the invoiced order.
//! - `jobs`: scheduled jobs published as messages and run once per slot.

pub mod consumer;
pub mod copies;
pub mod facts;
pub mod jobs;
pub mod memory;
pub mod nats;
pub mod outbox;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use tokio::task::JoinHandle;

use crate::Result;

pub use consumer::{apply_once, consume, consume_until, Effect};
pub use memory::MemoryBus;
pub use nats::NatsBus;
pub use outbox::{
    insert as outbox_insert, insert_many as outbox_insert_many, pending as outbox_backlog,
    relay_once, run_relay, run_relay_until,
};

pub const STREAM: &str = "ERP";
/// The tenant an event belongs to (from the outbox row), for consumers' transactions.
pub const CLIENT_HEADER: &str = "Erp-Client-Id";
pub use crate::config::DEFAULT_BATCH;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Message {
    pub id: String,
    pub subject: String,
    pub headers: Vec<(String, String)>,
    pub payload: Bytes,
    /// How many times the bus has delivered this message, this time included
    /// (1 on the first delivery; 0 when publishing).
    pub delivery: u64,
}

impl Message {
    pub fn new(id: impl Into<String>, subject: impl Into<String>, payload: Bytes) -> Message {
        Message { id: id.into(), subject: subject.into(), payload, ..Default::default() }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What a consumer says of each delivered message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Done with it (applied, or refused for good): acknowledge.
    Ack,
    /// Deliver it again later (the database did not answer, say).
    Retry,
}

pub type HandlerFuture = Pin<Box<dyn Future<Output = Result<()>> + Send>>;
/// A handler of one message at a time: `Ok` acknowledges, `Err` asks for it again.
pub type Handler = Arc<dyn Fn(Message) -> HandlerFuture + Send + Sync>;
pub type BatchFuture = Pin<Box<dyn Future<Output = Vec<Outcome>> + Send>>;
/// A handler of a batch of messages, in delivery order; answers one outcome per
/// message, in the same order.
pub type BatchHandler = Arc<dyn Fn(Vec<Message>) -> BatchFuture + Send + Sync>;

/// How a durable consumer takes its messages.
#[derive(Clone, Copy, Debug)]
pub struct ConsumerOpts {
    /// Messages handed to the handler at once (at most).
    pub max_batch: usize,
    /// How long the bus waits for an acknowledgement before delivering again.
    pub ack_wait: Duration,
}

impl Default for ConsumerOpts {
    fn default() -> Self {
        ConsumerOpts { max_batch: DEFAULT_BATCH, ack_wait: Duration::from_secs(30) }
    }
}

impl ConsumerOpts {
    pub fn batch(max_batch: usize) -> ConsumerOpts {
        ConsumerOpts { max_batch: max_batch.max(1), ..Default::default() }
    }
}

#[async_trait]
pub trait Bus: Send + Sync {
    /// Publishes messages in order without waiting for each acknowledgement in
    /// turn; resolves when every one was acknowledged or failed, with one result
    /// per message. Messages whose id was seen within the duplicate window are
    /// dropped by the bus (and answer `Ok`).
    async fn publish_all(&self, msgs: Vec<Message>) -> Vec<Result<()>>;

    /// Starts a durable consumer that hands the handler batches of up to
    /// `opts.max_batch` messages: as many as are waiting, without waiting for a
    /// batch to fill (one message alone goes at once).
    async fn subscribe_batch(
        &self,
        durable: &str,
        filter: &str,
        opts: ConsumerOpts,
        handler: BatchHandler,
    ) -> Result<JoinHandle<()>>;

    async fn ping(&self) -> Result<()>;
    fn kind(&self) -> &'static str;

    /// Publishes one message and waits for the bus to acknowledge it.
    async fn publish(&self, msg: Message) -> Result<()> {
        self.publish_all(vec![msg])
            .await
            .into_iter()
            .next()
            .unwrap_or(Ok(()))
    }

    /// A durable consumer with a handler of one message at a time (in order).
    async fn subscribe(
        &self,
        durable: &str,
        filter: &str,
        handler: Handler,
    ) -> Result<JoinHandle<()>> {
        self.subscribe_batch(
            durable,
            filter,
            ConsumerOpts::default(),
            one_by_one(handler),
        )
        .await
    }
}

/// Runs a one-message handler over each message of a batch, in order.
pub fn one_by_one(handler: Handler) -> BatchHandler {
    Arc::new(move |msgs: Vec<Message>| {
        let handler = handler.clone();
        Box::pin(async move {
            let mut out = Vec::with_capacity(msgs.len());
            for m in msgs {
                let subject = m.subject.clone();
                out.push(match handler(m).await {
                    Ok(()) => Outcome::Ack,
                    Err(e) => {
                        tracing::warn!(%subject, error = %e, "handler failed; redelivering");
                        Outcome::Retry
                    }
                });
            }
            out
        })
    })
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

/// The configured bus: NATS when `NATS_URL` is set (the `ERP` stream created with
/// `ERP_NATS_REPLICAS` replicas), else in-process.
pub async fn from_config(cfg: &crate::config::Config) -> Result<Arc<dyn Bus>> {
    Ok(match &cfg.nats_url {
        Some(url) => Arc::new(NatsBus::connect_replicated(url, cfg.nats_replicas).await?),
        None => Arc::new(MemoryBus::new()),
    })
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
