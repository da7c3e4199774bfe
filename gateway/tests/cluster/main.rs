//! Microservices mode on a 3-node NATS JetStream cluster (`make test-cluster`;
//! built only with the `cluster` feature).
//!
//! Every service runs behind a gRPC port of its own on loopback, reached by the
//! gateway as `erp gateway` reaches `erp serve` (`Link::Tcp`), all on one bus
//! connected to the three nodes of a cluster started by `deploy/nats-cluster.sh`,
//! with the `ERP` stream (and so its consumers) on 3 replicas. 16 callers invoice
//! 5,000 orders over HTTP (`events::load`'s scenario, shared with the `it` target);
//! after 2,000 the node leading the stream — made to be the one the bus is
//! connected to, so that the bus reconnects while the stream elects a leader —
//! is SIGKILLed and started again 5 s later. Then: every call answered 200 within the gateway's 15 s deadline, every
//! invoice applied to stock exactly once, and the three replicas hold the same
//! stream. Printed: invoices/s, invoice → balance latency (p50/p99, every 25th
//! order's stock exit polled), and the time without a stream leader (each node's
//! monitoring endpoint polled every 50 ms).

// Shared with the `it` target, which uses what this one does not.
#[allow(dead_code)]
#[path = "../it/events/load.rs"]
mod load;
mod nats;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use erp_gateway::roles::Link;
use erp_gateway::upstream::UPSTREAM_TIMEOUT;
use erp_platform::bus::{Bus, NatsBus, STREAM};
use futures::StreamExt;

use load::{Call, EMP, ORDERS, SERIE};
use nats::{NatsCluster, NODES};

/// The demo tenant's login (`load` logs in with it).
pub const DEMO: &str = erp_identity::seed::LOGINS[0].cpfcnpj;

pub fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(40))
        .build()
        .expect("client")
}

/// `load`'s wait: polls `check` until it holds (at most `secs`).
pub async fn wait_up_to<F, Fut>(secs: u64, what: &str, check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    erp_platform::testing::until(what, secs, check).await
}

/// Orders whose invoice → balance latency is measured: every 25th.
const SAMPLE_EVERY: i64 = 25;
/// Invoices answered before the stream leader is killed.
const KILL_AFTER: usize = 2_000;
/// How long the killed node stays down.
const DOWN_FOR: Duration = Duration::from_secs(5);

/// A metric of this process's Prometheus registry, summed over its label sets.
fn metric(name: &str) -> f64 {
    erp_platform::telemetry::render_metrics()
        .lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) || l.starts_with(&format!("{name} ")))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = (sorted.len() * p).div_ceil(100).max(1);
    sorted[rank - 1]
}

fn ms(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}

/// The answered calls of sampled orders (200 only), each until its stock exit is
/// visible: the time from the 200 to the exit, per order.
async fn invoice_to_balance(
    owner: sqlx::PgPool,
    mut calls: tokio::sync::mpsc::UnboundedReceiver<Call>,
) -> Vec<Duration> {
    let mut waiting: HashMap<String, Instant> = HashMap::new();
    let mut took = Vec::new();
    let mut open = true;
    let deadline = Instant::now() + Duration::from_secs(600);
    while (open || !waiting.is_empty()) && Instant::now() < deadline {
        // Whatever was answered since the last look.
        loop {
            match calls.try_recv() {
                Ok(c) if c.status == 200 && c.id % SAMPLE_EVERY == 0 => {
                    waiting.insert(format!("{EMP}/{SERIE}/{}", c.id), c.ended);
                }
                Ok(_) => {}
                Err(tokio::sync::mpsc::error::TryRecvError::Empty) => break,
                Err(tokio::sync::mpsc::error::TryRecvError::Disconnected) => {
                    open = false;
                    break;
                }
            }
        }
        if !waiting.is_empty() {
            let ids: Vec<String> = waiting.keys().cloned().collect();
            let seen: Vec<String> = sqlx::query_scalar(
                "SELECT DISTINCT movi_origem_id FROM stock.movimentos
                 WHERE movi_origem = 'PEDIDO' AND movi_origem_id = ANY($1)",
            )
            .bind(&ids)
            .fetch_all(&owner)
            .await
            .unwrap_or_default();
            let now = Instant::now();
            for id in seen {
                if let Some(answered) = waiting.remove(&id) {
                    took.push(now.saturating_duration_since(answered));
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(
        waiting.is_empty(),
        "sampled invoices never reached stock: {waiting:?}"
    );
    took.sort();
    took
}

/// Who leads the stream, every 50 ms, until `stop`: (when, which node).
async fn watch_leader(
    cluster: Arc<NatsCluster>,
    stop: Arc<AtomicBool>,
) -> Vec<(Instant, Option<usize>)> {
    let http = reqwest::Client::new();
    let mut seen = Vec::new();
    while !stop.load(Ordering::SeqCst) {
        let at = Instant::now();
        seen.push((at, cluster.leader(&http, STREAM).await));
        tokio::time::sleep_until((at + Duration::from_millis(50)).into()).await;
    }
    seen
}

/// Moves the stream's leadership (stepping its leader down) until the node the
/// bus is connected to leads it, so that the kill takes both: the bus reconnects
/// while the stream elects a leader (the harsher case). Answers that node.
async fn lead_from_the_bus_server(
    cluster: &NatsCluster,
    nats: &NatsBus,
    monitor: &reqwest::Client,
) -> usize {
    let mut previous = None;
    for _ in 0..20 {
        let connected: usize = nats
            .client()
            .server_info()
            .server_name
            .trim_start_matches("erp-")
            .parse()
            .expect("a node erp-<n>");
        // A leader, and after a step-down another one.
        let deadline = Instant::now() + Duration::from_secs(30);
        let leader = loop {
            match cluster.leader(monitor, STREAM).await {
                Some(l) if Some(l) != previous => break l,
                _ if Instant::now() > deadline => panic!("no new stream leader in 30 s"),
                _ => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };
        if leader == connected {
            return connected;
        }
        previous = Some(leader);
        nats.client()
            .request(
                format!("$JS.API.STREAM.LEADER.STEPDOWN.{STREAM}"),
                "".into(),
            )
            .await
            .expect("stream leader steps down");
    }
    panic!("the stream's leadership never reached the bus's server");
}

/// The stretches without a stream leader: (when the first poll that found none
/// began, until the next poll that found one began).
fn leaderless(seen: &[(Instant, Option<usize>)]) -> Vec<(Instant, Duration)> {
    let mut out: Vec<(Instant, Duration)> = Vec::new();
    let mut from: Option<Instant> = None;
    for (at, leader) in seen {
        match (leader, from) {
            (None, None) => from = Some(*at),
            (Some(_), Some(f)) => {
                out.push((f, *at - f));
                from = None;
            }
            _ => {}
        }
    }
    if let (Some(f), Some((last, _))) = (from, seen.last()) {
        out.push((f, *last - f));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn five_thousand_invoices_reach_stock_once_across_a_stream_leader_kill() {
    if std::env::var("TEST_LOG").is_ok() {
        erp_platform::telemetry::init("cluster-it", None);
    }
    erp_platform::testing::drop_stale("cluster").await;
    let cluster = Arc::new(NatsCluster::start());
    let urls = cluster.urls();
    let mut cfg = load::config("cluster", &urls).await;
    cfg.nats_replicas = 3;
    let nats = Arc::new(
        NatsBus::connect_replicated(&urls, cfg.nats_replicas)
            .await
            .expect("nats cluster"),
    );
    // The stream lives on all three nodes.
    let js = async_nats::jetstream::new(nats.client().clone());
    let mut stream = js.get_stream(STREAM).await.expect("stream ERP");
    let info = stream.info().await.expect("stream info");
    assert_eq!(info.config.num_replicas, 3, "stream ERP replicas");
    assert_eq!(
        info.cluster.as_ref().map(|c| c.replicas.len()),
        Some(2),
        "a leader and two followers: {:?}",
        info.cluster
    );

    let monitor = reqwest::Client::new();
    let leading = lead_from_the_bus_server(&cluster, &nats, &monitor).await;

    let bus: Arc<dyn Bus> = nats.clone();
    let stack = load::start_linked(cfg, bus, Link::Tcp).await;

    let stop = Arc::new(AtomicBool::new(false));
    let watcher = tokio::spawn(watch_leader(cluster.clone(), stop.clone()));
    let (observer, answered) = tokio::sync::mpsc::unbounded_channel();
    let sampler = tokio::spawn(invoice_to_balance(stack.owner.clone(), answered));
    let publish_failures_before = metric("erp_outbox_publish_failures_total");

    let done = Arc::new(AtomicUsize::new(0));
    let fault = {
        let (done, cluster, nats) = (done.clone(), cluster.clone(), nats.clone());
        let monitor = monitor.clone();
        tokio::spawn(async move {
            while done.load(Ordering::SeqCst) < KILL_AFTER {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let stock_consumer_leader = cluster
                .stream_on(&monitor, 1, STREAM)
                .await
                .and_then(|s| {
                    s["consumer_detail"]
                        .as_array()?
                        .iter()
                        .find(|c| c["name"] == load::STOCK_CONSUMER)
                        .map(|c| c["cluster"]["leader"].as_str().unwrap_or("?").to_string())
                })
                .unwrap_or_else(|| "?".into());
            let connected = nats.client().server_info().server_name;
            let c = cluster.clone();
            let (killed, at) =
                tokio::task::spawn_blocking(move || (c.kill_leader(STREAM), Instant::now()))
                    .await
                    .expect("kill");
            let answered = done.load(Ordering::SeqCst);
            tokio::time::sleep(DOWN_FOR).await;
            let c = cluster.clone();
            tokio::task::spawn_blocking(move || c.restart(killed))
                .await
                .expect("restart");
            (killed, at, answered, connected, stock_consumer_leader)
        })
    };

    let started = Instant::now();
    let calls = load::invoice_all_observed(&stack, done, Some(observer)).await;
    let invoicing = started.elapsed();
    let (killed, killed_at, killed_after, connected, stock_consumer_leader) =
        fault.await.expect("fault");
    assert!(
        killed_after < ORDERS as usize,
        "the leader was killed while invoices were coming"
    );
    assert_eq!(
        killed, leading,
        "the node killed is the stream leader the bus was connected to"
    );

    // Every call answered 200, none past the gateway's deadline.
    load::all_ok(&calls);
    let slowest = calls.iter().map(|c| c.took).max().unwrap_or_default();
    assert!(
        slowest < UPSTREAM_TIMEOUT,
        "a call took {slowest:?}, past the {UPSTREAM_TIMEOUT:?} deadline"
    );
    // Every invoice applied to stock exactly once.
    let invoiced = load::assert_exactly_once(&stack).await;
    assert_eq!(invoiced.len() as i64, ORDERS);
    let to_stock = started.elapsed();
    let latencies = sampler.await.expect("sampler");
    // The restarted node caught up: the three replicas hold the same messages.
    wait_up_to(60, "the three replicas to hold the same stream", || {
        let (cluster, monitor) = (cluster.clone(), monitor.clone());
        async move {
            let states = futures::future::join_all(NODES.map(|n| {
                let (cluster, monitor) = (cluster.clone(), monitor.clone());
                async move { cluster.stream_on(&monitor, n, STREAM).await }
            }))
            .await;
            let seqs: Vec<Option<u64>> = states
                .iter()
                .map(|s| s.as_ref().and_then(|s| s["state"]["last_seq"].as_u64()))
                .collect();
            seqs[0].is_some() && seqs.iter().all(|s| *s == seqs[0])
        }
    })
    .await;
    // Every consumer of the stream caught up, those whose leader moved included.
    wait_up_to(120, "every consumer to have nothing pending", || {
        let js = js.clone();
        async move {
            let Ok(stream) = js.get_stream(STREAM).await else {
                return false;
            };
            let infos: Vec<_> = stream.consumers().collect().await;
            !infos.is_empty()
                && infos.iter().all(|i| {
                    i.as_ref()
                        .is_ok_and(|i| i.num_pending == 0 && i.num_ack_pending == 0)
                })
        }
    })
    .await;
    stop.store(true, Ordering::SeqCst);
    let seen = watcher.await.expect("watcher");
    let stretches: Vec<String> = leaderless(&seen)
        .into_iter()
        .map(|(from, d)| {
            let offset = if from >= killed_at {
                format!("+{}", ms(from - killed_at))
            } else {
                format!("-{}", ms(killed_at - from))
            };
            format!("{} from kill{offset}", ms(d))
        })
        .collect();
    let new_leader = seen
        .iter()
        .find(|(at, l)| *at > killed_at && l.is_some_and(|l| l != killed))
        .map(|(at, l)| (*at - killed_at, l.unwrap_or_default()));
    let (elected_after, new_leader) = new_leader.expect("a new stream leader after the kill");
    let publish_failures = metric("erp_outbox_publish_failures_total") - publish_failures_before;

    let rate = ORDERS as f64 / invoicing.as_secs_f64();
    eprintln!(
        "cluster: {ORDERS} invoices in {:.1} s = {rate:.0} invoices/s (16 callers, services over loopback gRPC, stream {STREAM} on 3 replicas); all in stock after {:.1} s",
        invoicing.as_secs_f64(),
        to_stock.as_secs_f64()
    );
    eprintln!(
        "cluster: killed the stream leader erp-{killed} after {killed_after} invoices (bus connected to {connected}, stock consumer led by {stock_consumer_leader}); started again {} s later",
        DOWN_FOR.as_secs()
    );
    eprintln!(
        "cluster: without a stream leader: {} from the kill until erp-{new_leader} led (polls that found none: {})",
        ms(elected_after),
        stretches.join(", ")
    );
    eprintln!(
        "cluster: invoice → balance ({} orders, every {SAMPLE_EVERY}th): p50 {}, p99 {}, max {}",
        latencies.len(),
        ms(percentile(&latencies, 50)),
        ms(percentile(&latencies, 99)),
        ms(latencies.last().copied().unwrap_or_default())
    );
    let mut took: Vec<Duration> = calls.iter().map(|c| c.took).collect();
    took.sort();
    eprintln!(
        "cluster: invoice calls: p50 {}, p99 {}, slowest {}; outbox publish failures retried: {publish_failures}",
        ms(percentile(&took, 50)),
        ms(percentile(&took, 99)),
        ms(slowest)
    );
    assert!(
        elected_after < Duration::from_secs(30),
        "no stream leader for {elected_after:?}"
    );
    drop(stack);
}
