//! The fake WhatsApp providers ([`erp_messaging::fake::Fake`]: the Cloud API and
//! the Evolution API) on their own, for `deploy/bench-messaging.sh` and demos:
//!
//! ```sh
//! cargo run --release -p erp-messaging --features fake --example fake_provider -- 8799
//! ```
//!
//! The fake listens on a loopback port of its own (it picks it); the address
//! given (an argument or `FAKE_PROVIDER_ADDR`: a port or `host:port`, default
//! `127.0.0.1:0`) serves what a bench reads from outside. At start it prints, one
//! per line, `cloud_url=…` (the `WCFG_URL` of a `cloud` company),
//! `evolution_url=…` and `bench_url=…`, then serves until killed:
//!
//! - `GET /_bench/sends`: the number of sends the fake accepted, as text.
//! - `POST /_bench/mark`: starts a new window (the sends from now on); answers
//!   the sends before it.
//! - `GET /_bench/stats`: JSON: `sends`, `requests`, and the window's `sends`,
//!   `distinct` (different recipient and text), `first_ms` and `last_ms` (Unix
//!   milliseconds of its first and last send, seen within a millisecond), and
//!   `max_per_minute` (the most sends in one clock minute) and `max_per_60s` (in
//!   any 60 seconds).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use erp_messaging::fake::Fake;
use serde_json::{json, Value};

/// When each send was seen (Unix milliseconds), and where the window starts.
#[derive(Default)]
struct Seen {
    times: Vec<u64>,
    mark: usize,
}

#[derive(Clone)]
struct Bench {
    fake: Fake,
    seen: Arc<Mutex<Seen>>,
}

impl Bench {
    fn seen(&self) -> MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Every millisecond, the fake's count of sends: each new one gets the time.
/// (The fake takes every send here: its requests are its sends.)
async fn watch(bench: Bench) {
    let mut tick = tokio::time::interval(Duration::from_millis(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        tick.tick().await;
        let n = bench.fake.requests() as usize;
        let mut s = bench.seen();
        if n > s.times.len() {
            let t = now_ms();
            s.times.resize(n, t);
        }
    }
}

async fn sends(State(b): State<Bench>) -> String {
    b.fake.sends().len().to_string()
}

async fn mark(State(b): State<Bench>) -> String {
    let n = b.fake.requests() as usize;
    let mut s = b.seen();
    if n > s.times.len() {
        let t = now_ms();
        s.times.resize(n, t);
    }
    s.mark = s.times.len();
    s.mark.to_string()
}

/// The most sends in any `span` milliseconds of sorted `times`.
fn densest(times: &[u64], span: u64) -> usize {
    let mut start = 0;
    let mut best = 0;
    for (end, t) in times.iter().enumerate() {
        while times[start] + span <= *t {
            start += 1;
        }
        best = best.max(end + 1 - start);
    }
    best
}

async fn stats(State(b): State<Bench>) -> Json<Value> {
    let all = b.fake.sends();
    let requests = b.fake.requests();
    let (mark, times) = {
        let s = b.seen();
        (s.mark, s.times[s.mark.min(s.times.len())..].to_vec())
    };
    let window = all.get(mark..).unwrap_or_default();
    let distinct = window
        .iter()
        .map(|s| (s.to.as_str(), s.text.as_str()))
        .collect::<HashSet<_>>()
        .len();
    let mut per_minute = std::collections::HashMap::<u64, usize>::new();
    for t in &times {
        *per_minute.entry(t / 60_000).or_default() += 1;
    }
    Json(json!({
        "sends": all.len(),
        "requests": requests,
        "window": {
            "sends": window.len(),
            "distinct": distinct,
            "first_ms": times.first(),
            "last_ms": times.last(),
            "max_per_minute": per_minute.values().max().copied().unwrap_or(0),
            "max_per_60s": densest(&times, 60_000),
        }
    }))
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let given = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("FAKE_PROVIDER_ADDR").ok())
        .unwrap_or_else(|| "127.0.0.1:0".into());
    let addr = if given.contains(':') {
        given
    } else {
        format!("127.0.0.1:{given}")
    };
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    let fake = Fake::start().await?;
    let bench = Bench { fake: fake.clone(), seen: Arc::default() };
    tokio::spawn(watch(bench.clone()));
    let app = Router::new()
        .route("/_bench/sends", get(sends))
        .route("/_bench/mark", post(mark))
        .route("/_bench/stats", get(stats))
        .with_state(bench);
    println!("cloud_url={}", fake.cloud_url());
    println!("evolution_url={}", fake.evolution_url());
    println!("bench_url=http://{}/_bench", listener.local_addr()?);
    axum::serve(listener, app).await
}
