//! The in-process bus of `erp run` without `NATS_URL`: the same contract as
//! JetStream within one process — a retained log, durable consumers that resume
//! where they stopped and take what is waiting in batches, redelivery of what a
//! handler asks for again, and duplicate ids dropped.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use tokio::sync::{Mutex, Notify};
use tokio::task::JoinHandle;

use super::{subject_matches, BatchHandler, Bus, ConsumerOpts, Message, Outcome};
use crate::Result;

#[derive(Clone, Default)]
pub struct MemoryBus {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    state: Mutex<State>,
    notify: Notify,
}

#[derive(Default)]
struct State {
    /// Log position of `log[0]`.
    base: u64,
    log: VecDeque<Message>,
    seen: HashSet<String>,
    seen_order: VecDeque<String>,
    /// Next position each durable consumer reads.
    cursors: HashMap<String, u64>,
    /// Deliveries so far of positions a consumer asked for again.
    redeliveries: HashMap<(String, u64), u64>,
}

/// Messages kept, like the stream's retention (a durable created later starts at
/// the oldest retained one), and ids remembered for the duplicate window.
const RETAIN: usize = 100_000;
const DEDUP: usize = 100_000;

impl MemoryBus {
    pub fn new() -> Self {
        Self::default()
    }
}

impl State {
    fn push(&mut self, msg: Message) {
        if !self.seen.insert(msg.id.clone()) {
            return;
        }
        self.seen_order.push_back(msg.id.clone());
        if self.seen_order.len() > DEDUP {
            if let Some(old) = self.seen_order.pop_front() {
                self.seen.remove(&old);
            }
        }
        self.log.push_back(msg);
        while self.log.len() > RETAIN {
            self.log.pop_front();
            self.base += 1;
        }
    }

    /// Up to `max` messages matching `filter` from the durable's cursor, with their
    /// positions.
    fn take(&mut self, durable: &str, filter: &str, max: usize) -> Vec<(u64, Message)> {
        let end = self.base + self.log.len() as u64;
        let mut pos = self
            .cursors
            .get(durable)
            .copied()
            .unwrap_or(self.base)
            .max(self.base);
        let mut out = Vec::new();
        while pos < end && out.len() < max {
            let m = &self.log[(pos - self.base) as usize];
            if subject_matches(filter, &m.subject) {
                let mut m = m.clone();
                let n = self
                    .redeliveries
                    .get(&(durable.to_string(), pos))
                    .copied()
                    .unwrap_or(0);
                m.delivery = n + 1;
                out.push((pos, m));
            } else if out.is_empty() {
                // Skip what the consumer does not want without handing it over.
                self.cursors.insert(durable.to_string(), pos + 1);
            }
            pos += 1;
        }
        let lag = end.saturating_sub(self.cursors.get(durable).copied().unwrap_or(self.base));
        metrics::gauge!("erp_consumer_lag", "consumer" => durable.to_string()).set(lag as f64);
        out
    }
}

#[async_trait]
impl Bus for MemoryBus {
    async fn publish_all(&self, msgs: Vec<Message>) -> Vec<Result<()>> {
        let n = msgs.len();
        {
            let mut st = self.inner.state.lock().await;
            for m in msgs {
                st.push(m);
            }
        }
        self.inner.notify.notify_waiters();
        (0..n).map(|_| Ok(())).collect()
    }

    async fn subscribe_batch(
        &self,
        durable: &str,
        filter: &str,
        opts: ConsumerOpts,
        handler: BatchHandler,
    ) -> Result<JoinHandle<()>> {
        let durable = durable.to_string();
        let filter = filter.to_string();
        {
            let mut st = self.inner.state.lock().await;
            let base = st.base;
            st.cursors.entry(durable.clone()).or_insert(base);
        }
        let inner = self.inner.clone();
        let max = opts.max_batch.max(1);
        Ok(tokio::spawn(async move {
            let mut backoff = Duration::from_millis(50);
            loop {
                let notified = inner.notify.notified();
                let batch = inner.state.lock().await.take(&durable, &filter, max);
                if batch.is_empty() {
                    notified.await;
                    continue;
                }
                let positions: Vec<u64> = batch.iter().map(|(p, _)| *p).collect();
                let outcomes = handler(batch.into_iter().map(|(_, m)| m).collect()).await;
                let retry = positions
                    .iter()
                    .zip(outcomes.iter().chain(std::iter::repeat(&Outcome::Retry)))
                    .find(|(_, o)| **o == Outcome::Retry)
                    .map(|(p, _)| *p);
                let mut st = inner.state.lock().await;
                match retry {
                    None => {
                        let next = positions.last().map(|p| p + 1).unwrap_or_default();
                        st.cursors.insert(durable.clone(), next);
                        st.redeliveries
                            .retain(|(d, p), _| d != &durable || *p >= next);
                        backoff = Duration::from_millis(50);
                    }
                    Some(p) => {
                        // Later messages of the batch come again too: the inbox
                        // makes their second delivery a no-op.
                        st.cursors.insert(durable.clone(), p);
                        *st.redeliveries.entry((durable.clone(), p)).or_insert(0) += 1;
                        drop(st);
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(Duration::from_secs(5));
                    }
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
