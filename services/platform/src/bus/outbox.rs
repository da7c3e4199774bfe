//! The transactional outbox of a service schema and its relay.
//!
//! A domain transaction writes its facts with [`insert`] (or [`insert_many`]); they
//! exist exactly when the transaction commits. The relay publishes them:
//!
//! - **One relay per schema at a time**: it holds a session advisory lock on its
//!   LISTEN connection, so replicas of a service stand by instead of publishing the
//!   same rows twice (the stream would drop the duplicates anyway: `Nats-Msg-Id` is
//!   the outbox id).
//! - **No lock held while waiting for the bus**: it reads up to [`BATCH`] pending
//!   rows outside any transaction, publishes them all before awaiting the
//!   acknowledgements together, then marks the acknowledged prefix as published. A
//!   crash between publish and mark re-publishes rows the stream then drops.
//! - **Woken by NOTIFY**: `insert` notifies `<schema>_outbox` in the writing
//!   transaction (delivered at commit); the relay drains while there is work and
//!   sleeps on the notification otherwise (a 5 s safety tick covers a notification
//!   lost with a dropped connection).
//! - **Retention**: published rows are deleted by the `outbox-prune` job once
//!   published for [`RETAIN_PUBLISHED_HOURS`] hours (kept that long to answer "was
//!   it sent, when" during support).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinHandle;
use uuid::Uuid;

use super::{Bus, Message, CLIENT_HEADER};
use crate::db::{Db, Tx};
use crate::{Error, Result};

/// Rows the relay publishes at once.
pub const BATCH: i64 = 512;
/// Published rows are kept this long, then pruned.
pub const RETAIN_PUBLISHED_HOURS: i64 = 24;

fn check_schema(schema: &str) -> Result<()> {
    if schema.chars().all(|c| c.is_ascii_lowercase() || c == '_') && !schema.is_empty() {
        Ok(())
    } else {
        Err(Error::internal(format!("invalid schema name {schema}")))
    }
}

/// Writes an event in the caller's transaction; it is published after commit.
pub async fn insert(
    tx: &mut Tx,
    schema: &str,
    subject: &str,
    client_id: i64,
    payload: &[u8],
) -> Result<Uuid> {
    let ids = insert_many(tx, schema, subject, client_id, &[payload.to_vec()]).await?;
    ids.into_iter()
        .next()
        .ok_or_else(|| Error::internal("outbox insert returned no id"))
}

/// Writes several events of one subject in the caller's transaction, in order, with
/// one statement.
pub async fn insert_many(
    tx: &mut Tx,
    schema: &str,
    subject: &str,
    client_id: i64,
    payloads: &[Vec<u8>],
) -> Result<Vec<Uuid>> {
    check_schema(schema)?;
    if payloads.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<Uuid> = payloads.iter().map(|_| Uuid::now_v7()).collect();
    let headers = serde_json::to_value(crate::telemetry::current_trace_headers())?;
    let sql = format!(
        "INSERT INTO {schema}.outbox (id, subject, client_id, payload, headers)
         SELECT id, $2, $3, payload, $4 FROM unnest($1::uuid[], $5::bytea[]) AS e(id, payload);
         "
    );
    sqlx::query(&sql)
        .bind(&ids)
        .bind(subject)
        .bind(client_id)
        .bind(&headers)
        .bind(payloads)
        .execute(&mut **tx)
        .await?;
    // Delivered at commit; several in one transaction collapse into one.
    sqlx::query("SELECT pg_notify($1, '')")
        .bind(format!("{schema}_outbox"))
        .execute(&mut **tx)
        .await?;
    Ok(ids)
}

/// Publishes one batch of pending rows; returns how many were published. Marks
/// only the acknowledged prefix, so the order of publication is kept; a failure
/// after publishing some answers an error once those are marked.
pub async fn relay_once(db: &Db, bus: &dyn Bus, schema: &str) -> Result<usize> {
    check_schema(schema)?;
    let sql = format!(
        "SELECT id, subject, payload, headers, client_id FROM {schema}.outbox
         WHERE published_at IS NULL ORDER BY created_at, id LIMIT {BATCH}"
    );
    let rows: Vec<(Uuid, String, Vec<u8>, serde_json::Value, i64)> =
        sqlx::query_as(&sql).fetch_all(&db.pool).await?;
    if rows.is_empty() {
        return Ok(0);
    }
    let ids: Vec<Uuid> = rows.iter().map(|r| r.0).collect();
    let msgs: Vec<Message> = rows
        .into_iter()
        .map(|(id, subject, payload, headers, client_id)| {
            let mut headers: Vec<(String, String)> =
                serde_json::from_value::<HashMap<String, String>>(headers)
                    .unwrap_or_default()
                    .into_iter()
                    .collect();
            headers.push((CLIENT_HEADER.into(), client_id.to_string()));
            Message {
                id: id.to_string(),
                subject,
                headers,
                payload: payload.into(),
                delivery: 0,
            }
        })
        .collect();
    let results = bus.publish_all(msgs).await;
    let acked = results.iter().take_while(|r| r.is_ok()).count();
    if acked > 0 {
        let sql = format!("UPDATE {schema}.outbox SET published_at = now() WHERE id = ANY($1)");
        sqlx::query(&sql)
            .bind(&ids[..acked])
            .execute(&db.pool)
            .await?;
    }
    if let Some(Err(e)) = results.into_iter().find(Result::is_err) {
        tracing::warn!(error = %e, schema, published = acked, "outbox publish failed; will retry");
        return Err(e);
    }
    Ok(acked)
}

/// Pending (unpublished) rows: for tests and the throttled backlog gauge only.
pub async fn pending(db: &Db, schema: &str) -> Result<i64> {
    check_schema(schema)?;
    let sql = format!("SELECT count(*) FROM {schema}.outbox WHERE published_at IS NULL");
    Ok(sqlx::query_scalar(&sql).fetch_one(&db.pool).await?)
}

/// Deletes rows published more than `RETAIN_PUBLISHED_HOURS` ago, in chunks;
/// returns how many.
pub async fn prune(db: &Db, schema: &str) -> Result<u64> {
    check_schema(schema)?;
    let sql = format!(
        "DELETE FROM {schema}.outbox WHERE id IN (
             SELECT id FROM {schema}.outbox
             WHERE published_at < now() - make_interval(hours => $1::int) LIMIT 10000)"
    );
    let mut total = 0;
    loop {
        let n = sqlx::query(&sql)
            .bind(RETAIN_PUBLISHED_HOURS as i32)
            .execute(&db.pool)
            .await?
            .rows_affected();
        total += n;
        if n < 10_000 {
            return Ok(total);
        }
    }
}

/// A stable 63-bit key for the schema's relay lock.
fn lock_key(schema: &str) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in "erp-outbox-relay:".bytes().chain(schema.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h >> 1) as i64
}

/// The relay of one service schema, for as long as the task lives. Connection
/// losses end a session; the next one takes the lock again.
pub fn run_relay(db: Db, bus: Arc<dyn Bus>, schema: &'static str) -> JoinHandle<()> {
    run_relay_until(db, bus, schema, crate::shutdown::Shutdown::new())
}

/// `run_relay` until `shutdown` stops; then what the last requests committed is
/// published (the rows are marked as usual, and a replica's relay publishing the
/// same rows is deduplicated by their `Nats-Msg-Id`) and the task ends.
pub fn run_relay_until(
    db: Db,
    bus: Arc<dyn Bus>,
    schema: &'static str,
    shutdown: crate::shutdown::Shutdown,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let relay = async {
            loop {
                if let Err(e) = relay_session(&db, bus.as_ref(), schema).await {
                    tracing::warn!(error = %e, schema, "outbox relay restarting");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        };
        tokio::select! {
            _ = relay => {}
            _ = shutdown.stopping() => {}
        }
        loop {
            match relay_once(&db, bus.as_ref(), schema).await {
                Ok(0) => break,
                Ok(n) => {
                    metrics::counter!("erp_outbox_published_total", "schema" => schema)
                        .increment(n as u64);
                }
                Err(e) => {
                    tracing::warn!(error = %e, schema, "outbox left for the next process");
                    break;
                }
            }
        }
    })
}

async fn relay_session(db: &Db, bus: &dyn Bus, schema: &'static str) -> Result<()> {
    let mut listener = sqlx::postgres::PgListener::connect_with(&db.pool).await?;
    // Replicas wait here; the lock goes with the connection.
    sqlx::query("SELECT pg_advisory_lock($1)")
        .bind(lock_key(schema))
        .execute(&mut listener)
        .await?;
    listener.listen(&format!("{schema}_outbox")).await?;
    let mut failures: u32 = 0;
    let mut counted: Option<Instant> = None;
    loop {
        let n = match relay_once(db, bus, schema).await {
            Ok(n) => {
                failures = 0;
                n
            }
            Err(e) => {
                failures += 1;
                metrics::counter!("erp_outbox_publish_failures_total", "schema" => schema)
                    .increment(1);
                if matches!(e, Error::Db(_)) {
                    return Err(e);
                }
                0
            }
        };
        if n > 0 {
            metrics::counter!("erp_outbox_published_total", "schema" => schema).increment(n as u64);
        }
        if n as i64 == BATCH {
            // More is waiting; the exact backlog is counted at most every 10 s.
            if counted.is_none_or(|t| t.elapsed() > Duration::from_secs(10)) {
                counted = Some(Instant::now());
                if let Ok(p) = pending(db, schema).await {
                    metrics::gauge!("erp_outbox_backlog", "schema" => schema).set(p as f64);
                }
            }
            continue;
        }
        if failures == 0 {
            // Everything pending at the read was published.
            metrics::gauge!("erp_outbox_backlog", "schema" => schema).set(0.0);
            if n > 0 {
                // Rows committed while this batch was in flight: take them now
                // rather than waiting on their notification.
                continue;
            }
        }
        let wait = if failures > 0 {
            Duration::from_millis((250 * u64::from(failures)).min(2000))
        } else {
            Duration::from_secs(5)
        };
        match tokio::time::timeout(wait, listener.try_recv()).await {
            Ok(Ok(Some(_))) | Err(_) => {}
            // The connection was lost: the lock went with it.
            Ok(Ok(None)) => return Err(Error::Unavailable("outbox listener reconnected".into())),
            Ok(Err(e)) => return Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lock_keys_differ_per_schema_and_stay_positive() {
        let a = super::lock_key("orders");
        let b = super::lock_key("stock");
        assert_ne!(a, b);
        assert!(a >= 0 && b >= 0);
        assert_eq!(a, super::lock_key("orders"));
    }
}
