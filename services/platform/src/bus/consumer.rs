//! The batch consumer: what turns delivered events into effects exactly once.
//!
//! A batch (up to the configured size, as many as are waiting) is split by tenant
//! (the `Erp-Client-Id` header the relay adds from the outbox row), keeping the
//! delivery order within a tenant. Each tenant's part is applied in one
//! transaction: the event ids go into the consumer's inbox in one statement
//! (`ON CONFLICT DO NOTHING RETURNING` tells which are new), the effect runs for
//! the new ones only ([`Effect::apply_batch`]), one commit, then the bus gets the
//! acknowledgements.
//!
//! When a tenant's part fails, its events are applied again one by one, each in a
//! transaction of its own: one bad event is then refused — logged, counted in
//! `erp_events_refused_total` and acknowledged — without holding the others back.
//! An error that is not a refusal (the database did not answer) leaves the event
//! for redelivery.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use async_trait::async_trait;
use tokio::task::JoinHandle;
use tracing::Instrument;

use super::{Bus, ConsumerOpts, Message, Outcome, CLIENT_HEADER};
use crate::db::{Db, Tx};
use crate::{Error, Result};

/// What a consumer does with events, inside the tenant transaction that also
/// records them in the consumer's inbox.
#[async_trait]
pub trait Effect: Send + Sync {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()>;

    /// Several new events of one tenant, in delivery order, in one transaction.
    /// Effects that can do better than one after the other (stock aggregates the
    /// exits of a batch per product) override it; an error undoes the whole batch,
    /// which is then applied event by event through `apply`.
    async fn apply_batch(&self, tx: &mut Tx, client_id: i64, msgs: &[&Message]) -> Result<()> {
        for m in msgs {
            self.apply(tx, client_id, m).await?;
        }
        Ok(())
    }

    /// After the transaction that applied `msgs` (new to the inbox) committed:
    /// what must happen once per event and only if its effect stayed (metrics).
    fn committed(&self, _client_id: i64, _msgs: &[&Message]) {}
}

/// Errors that refuse an event for good: applying it again cannot succeed.
fn is_refusal(e: &Error) -> bool {
    matches!(
        e,
        Error::Validation(_) | Error::Conflict(_) | Error::NotFound(_)
    )
}

fn refuse(consumer: &str, msg: &Message, why: &dyn std::fmt::Display) {
    metrics::counter!("erp_events_refused_total", "consumer" => consumer.to_string()).increment(1);
    tracing::error!(consumer, event = %msg.id, subject = %msg.subject, error = %why, "event refused");
}

fn tenant(msg: &Message) -> Option<i64> {
    msg.header(CLIENT_HEADER)
        .and_then(|c| c.trim().parse::<i64>().ok())
        .filter(|c| *c > 0)
}

/// Applies one event at most once for `consumer`: the inbox row and the effect
/// commit together; a redelivered event finds its row and does nothing. Returns
/// whether the effect ran.
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

/// One tenant's events in one transaction; returns how many were new.
async fn apply_tenant(
    db: &Db,
    schema: &str,
    consumer: &str,
    effect: &dyn Effect,
    client_id: i64,
    msgs: &[&Message],
) -> Result<usize> {
    let mut tx = db.begin_tenant(client_id).await?;
    let ids: Vec<&str> = msgs.iter().map(|m| m.id.as_str()).collect();
    let sql = format!(
        "INSERT INTO {schema}.inbox (consumer, event_id, client_id)
         SELECT $1, id, $3 FROM unnest($2::text[]) AS e(id)
         ON CONFLICT DO NOTHING RETURNING event_id"
    );
    let new: HashSet<String> = sqlx::query_scalar(&sql)
        .bind(consumer)
        .bind(&ids)
        .bind(client_id)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .collect();
    // An id twice in one batch (a redelivery that caught up) applies once.
    let mut taken = HashSet::new();
    let fresh: Vec<&Message> = msgs
        .iter()
        .copied()
        .filter(|m| new.contains(&m.id) && taken.insert(m.id.as_str()))
        .collect();
    if !fresh.is_empty() {
        effect.apply_batch(&mut tx, client_id, &fresh).await?;
    }
    tx.commit().await?;
    if !fresh.is_empty() {
        effect.committed(client_id, &fresh);
    }
    Ok(fresh.len())
}

/// One event alone (after its batch failed).
async fn apply_single(
    db: &Db,
    schema: &str,
    consumer: &str,
    effect: &Arc<dyn Effect>,
    client_id: i64,
    msg: &Message,
) -> Outcome {
    let applying = effect.clone();
    let result = apply_once(db, schema, consumer, &msg.id, client_id, |tx| {
        let msg = msg.clone();
        Box::pin(async move { applying.apply(tx, client_id, &msg).await })
    })
    .await;
    match result {
        Ok(applied) => {
            if applied {
                effect.committed(client_id, &[msg]);
                metrics::counter!("erp_events_applied_total", "consumer" => consumer.to_string())
                    .increment(1);
            }
            Outcome::Ack
        }
        Err(e) if is_refusal(&e) => {
            refuse(consumer, msg, &e);
            Outcome::Ack
        }
        Err(e) => {
            tracing::warn!(consumer, event = %msg.id, error = %e, "event not applied; redelivering");
            Outcome::Retry
        }
    }
}

/// Applies a delivered batch; one outcome per message, in order.
pub async fn apply_delivered(
    db: &Db,
    schema: &str,
    consumer: &str,
    effect: &Arc<dyn Effect>,
    msgs: &[Message],
) -> Vec<Outcome> {
    let mut outcomes = vec![Outcome::Ack; msgs.len()];
    let mut groups: Vec<(i64, Vec<usize>)> = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        match tenant(m) {
            None => refuse(consumer, m, &"evento sem cliente"),
            Some(_) if m.id.is_empty() => refuse(consumer, m, &"evento sem id"),
            Some(c) => match groups.iter_mut().find(|(g, _)| *g == c) {
                Some((_, idx)) => idx.push(i),
                None => groups.push((c, vec![i])),
            },
        }
    }
    for (client, idx) in groups {
        let part: Vec<&Message> = idx.iter().map(|i| &msgs[*i]).collect();
        match apply_tenant(db, schema, consumer, effect.as_ref(), client, &part).await {
            Ok(n) => {
                metrics::counter!("erp_events_applied_total", "consumer" => consumer.to_string())
                    .increment(n as u64);
            }
            Err(e) => {
                if part.len() > 1 {
                    tracing::warn!(consumer, error = %e, events = part.len(), "batch failed; applying its events one by one");
                }
                for i in idx {
                    outcomes[i] =
                        apply_single(db, schema, consumer, effect, client, &msgs[i]).await;
                }
            }
        }
    }
    outcomes
}

/// A span for a batch: a batch of one continues its publisher's trace; a larger one
/// names how many events it carries.
fn batch_span(consumer: &str, msgs: &[Message]) -> tracing::Span {
    let span = tracing::info_span!(
        "events",
        consumer,
        count = msgs.len(),
        subject = tracing::field::Empty
    );
    if let [only] = msgs {
        span.record("subject", only.subject.as_str());
        let headers = only.headers.iter().cloned().collect();
        crate::telemetry::set_parent_from(&span, &headers);
    }
    span
}

/// A durable consumer whose effect runs exactly once per event, in batches of up to
/// `max_batch` through `schema`'s inbox.
pub async fn consume(
    bus: &Arc<dyn Bus>,
    db: Db,
    schema: &'static str,
    durable: &str,
    filter: &str,
    effect: Arc<dyn Effect>,
    max_batch: usize,
) -> Result<JoinHandle<()>> {
    let never = crate::shutdown::Shutdown::new();
    consume_until(bus, db, schema, durable, filter, effect, max_batch, never).await
}

/// `consume` until `shutdown` stops: a batch being applied then is finished (and
/// acknowledged); none is taken after (its events go to the next process).
#[allow(clippy::too_many_arguments)]
pub async fn consume_until(
    bus: &Arc<dyn Bus>,
    db: Db,
    schema: &'static str,
    durable: &str,
    filter: &str,
    effect: Arc<dyn Effect>,
    max_batch: usize,
    shutdown: crate::shutdown::Shutdown,
) -> Result<JoinHandle<()>> {
    let consumer: Arc<str> = Arc::from(durable);
    bus.subscribe_batch(
        durable,
        filter,
        ConsumerOpts::batch(max_batch),
        Arc::new(move |msgs: Vec<Message>| {
            let (db, effect, consumer) = (db.clone(), effect.clone(), consumer.clone());
            let shutdown = shutdown.clone();
            Box::pin(async move {
                let Some(_applying) = shutdown.batch().await else {
                    // Stopping: the task ends before this batch would be answered.
                    return std::future::pending().await;
                };
                let span = batch_span(&consumer, &msgs);
                let started = Instant::now();
                let out = apply_delivered(&db, schema, &consumer, &effect, &msgs)
                    .instrument(span)
                    .await;
                metrics::histogram!("erp_event_handling_seconds", "consumer" => consumer.to_string())
                    .record(started.elapsed().as_secs_f64());
                metrics::histogram!("erp_event_batch_size", "consumer" => consumer.to_string())
                    .record(msgs.len() as f64);
                out
            })
        }),
    )
    .await
}

/// Inbox rows are kept longer than the stream retains events (7 days), so no
/// retained event can be delivered again after its row is gone.
pub const RETAIN_INBOX_DAYS: i64 = 14;

/// Deletes inbox rows older than `RETAIN_INBOX_DAYS`, in chunks; returns how many.
pub async fn prune(db: &Db, schema: &str) -> Result<u64> {
    if !schema.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
        return Err(Error::internal(format!("invalid schema name {schema}")));
    }
    let sql = format!(
        "DELETE FROM {schema}.inbox WHERE (consumer, event_id) IN (
             SELECT consumer, event_id FROM {schema}.inbox
             WHERE processed_at < now() - make_interval(days => $1::int) LIMIT 10000)"
    );
    let mut total = 0;
    loop {
        let n = sqlx::query(&sql)
            .bind(RETAIN_INBOX_DAYS as i32)
            .execute(&db.pool)
            .await?
            .rows_affected();
        total += n;
        if n < 10_000 {
            return Ok(total);
        }
    }
}
