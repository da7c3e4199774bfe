//! Stopping a role without dropping what is in flight (a Kubernetes rolling update
//! sends SIGTERM, then SIGKILL after `terminationGracePeriodSeconds`).
//!
//! Two steps, one [`Shutdown`] per process:
//! 1. **Draining** ([`Shutdown::drain`]): readiness answers 503 (the load balancer
//!    stops sending), the HTTP listener and the gRPC listeners are closed (a new
//!    connection is refused, never left hanging), requests already received are
//!    answered (an HTTP/1 connection is closed after its answer; a request that
//!    arrives on it meanwhile gets 503).
//! 2. **Stopping** ([`Shutdown::stop`]), once the requests are answered: event
//!    consumers finish the batch they are applying (its events acknowledged, or
//!    left for redelivery, where the inbox makes a second delivery change nothing)
//!    and take no other; the outbox relay publishes what the last requests
//!    committed; then the role ends and traces are flushed.
//!
//! Both steps are bounded by the grace (`ERP_SHUTDOWN_GRACE_SECS`, 25 s by
//! default, under Kubernetes' 30): what has not finished by then is cut, and is
//! safe to cut (requests run in transactions, facts wait in the outbox).

use std::sync::Arc;

use tokio::sync::{watch, OwnedRwLockReadGuard, RwLock};

#[derive(Clone)]
pub struct Shutdown(Arc<Inner>);

struct Inner {
    draining: watch::Sender<bool>,
    stopping: watch::Sender<bool>,
    /// Held (shared) by each batch of events being applied; taken (exclusive) once
    /// stopping, to wait for them.
    batches: Arc<RwLock<()>>,
}

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown(Arc::new(Inner {
            draining: watch::channel(false).0,
            stopping: watch::channel(false).0,
            batches: Arc::new(RwLock::new(())),
        }))
    }
}

impl Shutdown {
    pub fn new() -> Self {
        Shutdown::default()
    }

    /// Step 1: take no new requests.
    pub fn drain(&self) {
        self.0.draining.send_replace(true);
    }

    /// Step 2: background work finishes what it holds and ends.
    pub fn stop(&self) {
        self.drain();
        self.0.stopping.send_replace(true);
    }

    pub fn is_draining(&self) -> bool {
        *self.0.draining.borrow()
    }

    pub fn is_stopping(&self) -> bool {
        *self.0.stopping.borrow()
    }

    /// Resolves at step 1.
    pub async fn draining(&self) {
        wait_for(&self.0.draining).await
    }

    /// Resolves at step 2.
    pub async fn stopping(&self) {
        wait_for(&self.0.stopping).await
    }

    /// A batch of events may start: the guard is held while it is applied. While
    /// stopping there is none (the batch is not taken: its events are redelivered
    /// to the next process).
    pub async fn batch(&self) -> Option<OwnedRwLockReadGuard<()>> {
        if self.is_stopping() {
            return None;
        }
        let guard = self.0.batches.clone().read_owned().await;
        (!self.is_stopping()).then_some(guard)
    }

    /// Step 2, and waits until no batch is being applied.
    pub async fn stop_batches(&self) {
        self.stop();
        drop(self.0.batches.write().await);
    }
}

async fn wait_for(flag: &watch::Sender<bool>) {
    let mut rx = flag.subscribe();
    // The sender lives as long as the `Shutdown`: `changed` fails only when it is
    // gone, and then the step never comes.
    while !*rx.borrow_and_update() {
        if rx.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// The grace of a shutdown (`ERP_SHUTDOWN_GRACE_SECS`, default 25 s).
pub fn grace() -> std::time::Duration {
    let secs = std::env::var("ERP_SHUTDOWN_GRACE_SECS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(25);
    std::time::Duration::from_secs(secs.clamp(1, 600))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn stopping_waits_for_the_batch_in_progress_and_takes_no_other() {
        let s = Shutdown::new();
        let guard = s.batch().await.expect("a batch may start");
        let stopper = {
            let s = s.clone();
            tokio::spawn(async move { s.stop_batches().await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!stopper.is_finished(), "waits for the batch in progress");
        assert!(s.batch().await.is_none(), "no new batch while stopping");
        drop(guard);
        tokio::time::timeout(Duration::from_secs(1), stopper)
            .await
            .expect("stops once the batch ended")
            .expect("task");
        assert!(s.is_draining() && s.is_stopping());
        tokio::time::timeout(Duration::from_millis(100), s.draining())
            .await
            .expect("draining resolves");
    }
}
