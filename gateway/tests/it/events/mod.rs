//! Events end to end, on stacks of their own (a fresh database, a NATS server of
//! the test's own):
//!
//! - `copies`: catalog's registers reach orders and stock; an invoice lowers stock
//!   once through a NATS outage and a consumer that loses its acknowledgements.
//! - `load`: the scenario of 5,000 invoices from 16 callers over HTTP that must
//!   reach stock exactly once (shared with the `cluster` test target).
//! - `single_node`: that scenario on one NATS server — as it is, with every first
//!   acknowledgement lost, and with `nats-server` killed (SIGKILL) in the middle.
//! - `pg_restart`: the same while PostgreSQL (a cluster of the test's own) restarts.

mod copies;
mod load;
mod pg_restart;
mod single_node;

/// The load tests take turns: three stacks of six services at once (each pool of
/// 6, listeners and consumers besides) with the other tests' stacks went past the
/// shared PostgreSQL's 100 connections ('remaining connection slots are
/// reserved'), and invoices waited out the pool's 10 s — a test of the machine,
/// not of exactly-once.
pub static ONE_STACK_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

use std::time::{Duration, Instant};

/// Polls `check` until it holds (at most `secs`).
pub async fn wait_up_to<F, Fut>(secs: u64, what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(secs) {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

pub async fn wait_for<F, Fut>(what: &str, check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    wait_up_to(30, what, check).await
}

/// A metric of this process's Prometheus registry, summed over the label sets that
/// contain `label`.
pub fn metric(name: &str, label: &str) -> f64 {
    erp_platform::telemetry::metrics_handle();
    erp_platform::telemetry::render_metrics()
        .lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) && l.contains(label))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}
