//! Scheduled jobs over the bus.
//!
//! A service declares its jobs ([`JobDef`]: name, cron expression with seconds,
//! evaluated in the companies' time zone America/Sao_Paulo, and what to run). Every
//! replica of the service runs a scheduler that publishes one message per due slot
//! on `erp.jobs.<service>.<job>` with the id `<service>.<job>@<slot>`: replicas
//! firing the same slot publish the same id and the stream keeps one (its
//! duplicate window; the in-process bus remembers ids the same way). The service
//! consumes its jobs like events — a durable consumer per job, so one slow job does
//! not hold another — and runs each slot once: the slot id goes into the inbox when
//! the run succeeds; a failed run is delivered again up to [`MAX_ATTEMPTS`] times.
//! A run that crashes half-way runs again, so jobs are written to be repeatable.
//!
//! The `jobs` table of the service's schema keeps the latest slot published (a
//! scheduler that starts after slots were missed publishes the latest missed one
//! only: one run for the gap, not one per slot) and how the last run went, which
//! `erp jobs` lists. [`trigger`] publishes a run by hand (the operator call).
//!
//! Every service gets the platform's own jobs ([`platform_jobs`]): pruning published
//! outbox rows and old inbox rows.

use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bytes::Bytes;
use chrono::{DateTime, SecondsFormat, Utc};
use chrono_tz::America::Sao_Paulo;
use tokio::task::JoinHandle;

use super::{Bus, ConsumerOpts, Message, Outcome};
use crate::db::Db;
use crate::{Error, Result};

/// Deliveries of one slot before a failing run is given up (and recorded).
pub const MAX_ATTEMPTS: u64 = 3;

/// What runs when a slot comes. Returns a short account of what it did.
#[async_trait]
pub trait Job: Send + Sync {
    async fn run(&self, ctx: &JobCtx) -> Result<String>;
}

/// What a running job may use.
pub struct JobCtx {
    pub db: Db,
    pub bus: Arc<dyn Bus>,
    pub service: &'static str,
    pub schema: &'static str,
    /// The slot (or `manual-<id>`) this run is for.
    pub slot: String,
}

#[derive(Clone)]
pub struct JobDef {
    pub name: &'static str,
    /// `sec min hour day-of-month month day-of-week [year]`, Sao Paulo time.
    pub cron: &'static str,
    pub job: Arc<dyn Job>,
}

impl JobDef {
    pub fn schedule(&self) -> Result<cron::Schedule> {
        cron::Schedule::from_str(self.cron)
            .map_err(|e| Error::internal(format!("job {}: cron '{}': {e}", self.name, self.cron)))
    }
}

pub fn subject(service: &str, job: &str) -> String {
    format!("erp.jobs.{service}.{job}")
}

fn slot_id(service: &str, job: &str, slot: &str) -> String {
    format!("{service}.{job}@{slot}")
}

fn slot_text(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

struct PruneOutbox;

#[async_trait]
impl Job for PruneOutbox {
    async fn run(&self, ctx: &JobCtx) -> Result<String> {
        let n = super::outbox::prune(&ctx.db, ctx.schema).await?;
        Ok(format!("{n} eventos publicados removidos"))
    }
}

struct PruneInbox;

#[async_trait]
impl Job for PruneInbox {
    async fn run(&self, ctx: &JobCtx) -> Result<String> {
        let n = super::consumer::prune(&ctx.db, ctx.schema).await?;
        Ok(format!("{n} registros de eventos aplicados removidos"))
    }
}

/// The jobs every service runs on its own schema.
pub fn platform_jobs() -> Vec<JobDef> {
    vec![
        JobDef { name: "outbox-prune", cron: "0 10 3 * * *", job: Arc::new(PruneOutbox) },
        JobDef { name: "inbox-prune", cron: "0 20 3 * * *", job: Arc::new(PruneInbox) },
    ]
}

/// The most recent slot at or before `now`.
fn latest_due(schedule: &cron::Schedule, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let local = (now + chrono::Duration::milliseconds(1)).with_timezone(&Sao_Paulo);
    schedule
        .after(&local)
        .next_back()
        .map(|t| t.with_timezone(&Utc))
}

fn next_after(schedule: &cron::Schedule, t: DateTime<Utc>) -> Option<DateTime<Utc>> {
    schedule
        .after(&t.with_timezone(&Sao_Paulo))
        .next()
        .map(|t| t.with_timezone(&Utc))
}

/// Publishes a run of `job` by hand; returns its id.
pub async fn trigger(bus: &dyn Bus, service: &str, job: &str) -> Result<String> {
    let slot = format!("manual-{}", uuid::Uuid::now_v7().simple());
    let id = slot_id(service, job, &slot);
    bus.publish(Message::new(
        id.clone(),
        subject(service, job),
        Bytes::from(slot),
    ))
    .await?;
    Ok(id)
}

async fn publish_slot(
    db: &Db,
    bus: &dyn Bus,
    service: &str,
    schema: &str,
    job: &str,
    slot: DateTime<Utc>,
) -> Result<()> {
    let text = slot_text(slot);
    bus.publish(Message::new(
        slot_id(service, job, &text),
        subject(service, job),
        Bytes::from(text),
    ))
    .await?;
    let sql = format!(
        "UPDATE {schema}.jobs SET last_slot = $2 WHERE name = $1 AND (last_slot IS NULL OR last_slot < $2)"
    );
    sqlx::query(&sql)
        .bind(job)
        .bind(slot)
        .execute(&db.pool)
        .await?;
    Ok(())
}

/// The scheduler of one service: missed slots once, then every slot as it comes.
async fn schedule_loop(
    db: Db,
    bus: Arc<dyn Bus>,
    service: &'static str,
    schema: &'static str,
    jobs: Vec<(JobDef, cron::Schedule)>,
) {
    // Where each job stands: the last slot known to be published.
    let mut cursors: Vec<DateTime<Utc>> = Vec::with_capacity(jobs.len());
    let now = Utc::now();
    for (def, schedule) in &jobs {
        let sql = format!("SELECT last_slot FROM {schema}.jobs WHERE name = $1");
        let last: Option<DateTime<Utc>> = sqlx::query_scalar(&sql)
            .bind(def.name)
            .fetch_optional(&db.pool)
            .await
            .ok()
            .flatten()
            .flatten();
        let due = latest_due(schedule, now);
        match (last, due) {
            (Some(last), Some(due)) if due > last => {
                // Down across one or more slots: run once for the gap.
                if let Err(e) =
                    publish_slot(&db, bus.as_ref(), service, schema, def.name, due).await
                {
                    tracing::warn!(job = def.name, error = %e, "missed slot not published");
                }
                cursors.push(due);
            }
            (None, Some(due)) => {
                // First start: nothing was missed; remember where we are.
                let sql = format!(
                    "UPDATE {schema}.jobs SET last_slot = $2 WHERE name = $1 AND last_slot IS NULL"
                );
                let _ = sqlx::query(&sql)
                    .bind(def.name)
                    .bind(due)
                    .execute(&db.pool)
                    .await;
                cursors.push(due);
            }
            (Some(last), _) => cursors.push(last.max(now - chrono::Duration::seconds(1))),
            (None, None) => cursors.push(now),
        }
    }
    loop {
        let next: Vec<Option<DateTime<Utc>>> = jobs
            .iter()
            .zip(&cursors)
            .map(|((_, s), c)| next_after(s, *c))
            .collect();
        let Some(soonest) = next.iter().flatten().min().copied() else {
            return;
        };
        let wait = (soonest - Utc::now()).to_std().unwrap_or(Duration::ZERO);
        tokio::time::sleep(wait).await;
        for (i, ((def, _), when)) in jobs.iter().zip(&next).enumerate() {
            if *when == Some(soonest) {
                if let Err(e) =
                    publish_slot(&db, bus.as_ref(), service, schema, def.name, soonest).await
                {
                    tracing::warn!(job = def.name, error = %e, "slot not published");
                }
                cursors[i] = soonest;
            }
        }
    }
}

/// Runs one delivered slot of a job.
async fn run_slot(
    db: &Db,
    bus: &Arc<dyn Bus>,
    service: &'static str,
    schema: &'static str,
    def: &JobDef,
    durable: &str,
    msg: Message,
) -> Outcome {
    let done: Result<Option<i32>> = sqlx::query_scalar(&format!(
        "SELECT 1 FROM {schema}.inbox WHERE consumer = $1 AND event_id = $2"
    ))
    .bind(durable)
    .bind(&msg.id)
    .fetch_optional(&db.pool)
    .await
    .map_err(Error::from);
    match done {
        Ok(Some(_)) => return Outcome::Ack,
        Ok(None) => {}
        Err(e) => {
            tracing::warn!(job = def.name, error = %e, "job inbox not readable; redelivering");
            return Outcome::Retry;
        }
    }
    let started = Instant::now();
    let _ = sqlx::query(&format!(
        "UPDATE {schema}.jobs SET last_started = now() WHERE name = $1"
    ))
    .bind(def.name)
    .execute(&db.pool)
    .await;
    let ctx = JobCtx {
        db: db.clone(),
        bus: bus.clone(),
        service,
        schema,
        slot: msg.id.rsplit('@').next().unwrap_or_default().to_string(),
    };
    let result = def.job.run(&ctx).await;
    let elapsed = started.elapsed();
    metrics::histogram!("erp_job_duration_seconds", "job" => def.name)
        .record(elapsed.as_secs_f64());
    let ms = elapsed.as_millis() as i64;
    match result {
        Ok(outcome) => {
            metrics::counter!("erp_job_runs_total", "job" => def.name).increment(1);
            let recorded = async {
                let mut tx = db.begin().await?;
                sqlx::query(&format!(
                    "INSERT INTO {schema}.inbox (consumer, event_id, client_id) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING"
                ))
                .bind(durable)
                .bind(&msg.id)
                .execute(&mut *tx)
                .await?;
                sqlx::query(&format!(
                    "UPDATE {schema}.jobs SET last_finished = now(), last_ok = true, last_outcome = $2,
                         last_duration_ms = $3, runs = runs + 1 WHERE name = $1"
                ))
                .bind(def.name)
                .bind(&outcome)
                .bind(ms)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok::<(), Error>(())
            };
            if let Err(e) = recorded.await {
                tracing::warn!(job = def.name, error = %e, "job ran but its run was not recorded");
            }
            tracing::info!(job = def.name, slot = %ctx.slot, %outcome, "job ran");
            Outcome::Ack
        }
        Err(e) => {
            metrics::counter!("erp_job_failures_total", "job" => def.name).increment(1);
            tracing::error!(job = def.name, slot = %ctx.slot, error = %e, attempt = msg.delivery, "job failed");
            let _ = sqlx::query(&format!(
                "UPDATE {schema}.jobs SET last_finished = now(), last_ok = false, last_outcome = $2,
                     last_duration_ms = $3, failures = failures + 1 WHERE name = $1"
            ))
            .bind(def.name)
            .bind(format!("erro: {e}"))
            .bind(ms)
            .execute(&db.pool)
            .await;
            if msg.delivery < MAX_ATTEMPTS {
                Outcome::Retry
            } else {
                Outcome::Ack
            }
        }
    }
}

/// Registers the jobs of a service and starts their consumers (one durable per
/// job, shared by the service's replicas).
pub async fn start_consumers(
    db: Db,
    bus: Arc<dyn Bus>,
    service: &'static str,
    schema: &'static str,
    jobs: Vec<JobDef>,
) -> Result<Vec<JoinHandle<()>>> {
    let mut tasks = Vec::new();
    for def in jobs {
        def.schedule()?;
        sqlx::query(&format!(
            "INSERT INTO {schema}.jobs (name, schedule) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET schedule = EXCLUDED.schedule"
        ))
        .bind(def.name)
        .bind(def.cron)
        .execute(&db.pool)
        .await?;
        let durable = format!("jobs-{service}-{}", def.name);
        let (db2, bus2, def2, durable2) = (db.clone(), bus.clone(), def.clone(), durable.clone());
        tasks.push(
            bus.subscribe_batch(
                &durable,
                &subject(service, def.name),
                ConsumerOpts { max_batch: 1, ack_wait: Duration::from_secs(15 * 60) },
                Arc::new(move |msgs: Vec<Message>| {
                    let (db, bus, def, durable) =
                        (db2.clone(), bus2.clone(), def2.clone(), durable2.clone());
                    Box::pin(async move {
                        let mut out = Vec::with_capacity(msgs.len());
                        for m in msgs {
                            out.push(run_slot(&db, &bus, service, schema, &def, &durable, m).await);
                        }
                        out
                    })
                }),
            )
            .await?,
        );
    }
    Ok(tasks)
}

/// Starts the scheduler of a service (every replica runs one).
pub fn spawn_scheduler(
    db: Db,
    bus: Arc<dyn Bus>,
    service: &'static str,
    schema: &'static str,
    jobs: Vec<JobDef>,
) -> Result<JoinHandle<()>> {
    let scheduled = jobs
        .into_iter()
        .map(|def| def.schedule().map(|s| (def, s)))
        .collect::<Result<Vec<_>>>()?;
    Ok(tokio::spawn(schedule_loop(
        db, bus, service, schema, scheduled,
    )))
}

/// Registers the jobs of a service, starts their consumers and its scheduler.
pub async fn start(
    db: Db,
    bus: Arc<dyn Bus>,
    service: &'static str,
    schema: &'static str,
    jobs: Vec<JobDef>,
) -> Result<Vec<JoinHandle<()>>> {
    let mut tasks = start_consumers(db.clone(), bus.clone(), service, schema, jobs.clone()).await?;
    tasks.push(spawn_scheduler(db, bus, service, schema, jobs)?);
    Ok(tasks)
}

/// A job as `erp jobs` shows it.
#[derive(Debug, Clone)]
pub struct JobStatus {
    pub name: String,
    pub schedule: String,
    pub next_run: Option<DateTime<Utc>>,
    pub last_started: Option<DateTime<Utc>>,
    pub last_finished: Option<DateTime<Utc>>,
    pub last_ok: Option<bool>,
    pub last_outcome: Option<String>,
    pub last_duration_ms: Option<i64>,
    pub runs: i64,
    pub failures: i64,
}

/// The jobs of a service schema with their next run (read as any role that can
/// read the schema).
pub async fn list(db: &Db, schema: &str) -> Result<Vec<JobStatus>> {
    type Row = (
        String,
        String,
        Option<DateTime<Utc>>,
        Option<DateTime<Utc>>,
        Option<bool>,
        Option<String>,
        Option<i64>,
        i64,
        i64,
    );
    let rows: Vec<Row> = sqlx::query_as(&format!(
        "SELECT name, schedule, last_started, last_finished, last_ok, last_outcome, last_duration_ms, runs, failures
         FROM {schema}.jobs ORDER BY name"
    ))
    .fetch_all(&db.pool)
    .await?;
    let now = Utc::now();
    Ok(rows
        .into_iter()
        .map(|r| JobStatus {
            next_run: cron::Schedule::from_str(&r.1)
                .ok()
                .and_then(|s| next_after(&s, now)),
            name: r.0,
            schedule: r.1,
            last_started: r.2,
            last_finished: r.3,
            last_ok: r.4,
            last_outcome: r.5,
            last_duration_ms: r.6,
            runs: r.7,
            failures: r.8,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn slots_follow_sao_paulo_time() {
        // 03:10 in Sao Paulo is 06:10 UTC (UTC-3, no daylight saving since 2019).
        let s = cron::Schedule::from_str("0 10 3 * * *").expect("cron");
        let now = Utc
            .with_ymd_and_hms(2026, 11, 24, 12, 0, 0)
            .single()
            .expect("t");
        assert_eq!(
            latest_due(&s, now),
            Utc.with_ymd_and_hms(2026, 11, 24, 6, 10, 0).single()
        );
        assert_eq!(
            next_after(&s, now),
            Utc.with_ymd_and_hms(2026, 11, 25, 6, 10, 0).single()
        );
        // A slot exactly now is due now.
        let at = Utc
            .with_ymd_and_hms(2026, 11, 24, 6, 10, 0)
            .single()
            .expect("t");
        assert_eq!(latest_due(&s, at), Some(at));
    }

    #[test]
    fn every_job_schedule_parses() {
        for j in platform_jobs() {
            assert!(j.schedule().is_ok(), "{}", j.name);
        }
        assert_eq!(
            slot_id("stock", "outbox-prune", "2026-11-24T06:10:00Z"),
            "stock.outbox-prune@2026-11-24T06:10:00Z"
        );
    }
}
