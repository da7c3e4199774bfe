//! 5,000 invoices over one NATS server of the test's own reach stock exactly once:
//! as they are, with every first acknowledgement lost, and with `nats-server`
//! killed (SIGKILL) in the middle (the scenario: `load`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use erp_platform::bus::{BatchHandler, Bus, ConsumerOpts, Message, NatsBus, Outcome};
use tokio::task::JoinHandle;

use super::load::{
    all_ok, assert_exactly_once, config, invoice_all, start, ORDERS, STOCK_CONSUMER,
};
use super::wait_up_to;

#[tokio::test]
async fn five_thousand_invoices_reach_stock_exactly_once() {
    let _turn = super::ONE_STACK_AT_A_TIME.lock().await;
    let nats = erp_platform::testing::NatsServer::start();
    let cfg = config("load", &nats.url()).await;
    let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&nats.url()).await.expect("nats"));
    let stack = start(cfg, bus).await;
    let calls = invoice_all(&stack, Arc::new(AtomicUsize::new(0))).await;
    all_ok(&calls);
    let invoiced = assert_exactly_once(&stack).await;
    assert_eq!(invoiced.len() as i64, ORDERS);
}

/// A bus whose consumer `durable` loses the acknowledgement of every first
/// delivery: the effect is committed, the bus delivers it again.
struct LosingFirstAcks {
    inner: Arc<dyn Bus>,
    durable: &'static str,
    redelivered: Arc<AtomicUsize>,
}

#[async_trait]
impl Bus for LosingFirstAcks {
    async fn publish_all(&self, msgs: Vec<Message>) -> Vec<erp_platform::Result<()>> {
        self.inner.publish_all(msgs).await
    }

    async fn subscribe_batch(
        &self,
        durable: &str,
        filter: &str,
        opts: ConsumerOpts,
        handler: BatchHandler,
    ) -> erp_platform::Result<JoinHandle<()>> {
        if durable != self.durable {
            return self
                .inner
                .subscribe_batch(durable, filter, opts, handler)
                .await;
        }
        let redelivered = self.redelivered.clone();
        let lossy: BatchHandler = Arc::new(move |msgs: Vec<Message>| {
            let (handler, redelivered) = (handler.clone(), redelivered.clone());
            Box::pin(async move {
                let firsts: Vec<bool> = msgs.iter().map(|m| m.delivery <= 1).collect();
                redelivered.fetch_add(firsts.iter().filter(|f| !**f).count(), Ordering::SeqCst);
                let outcomes = handler(msgs).await;
                outcomes
                    .into_iter()
                    .zip(firsts)
                    .map(|(o, first)| if first { Outcome::Retry } else { o })
                    .collect()
            })
        });
        self.inner
            .subscribe_batch(durable, filter, opts, lossy)
            .await
    }

    async fn ping(&self) -> erp_platform::Result<()> {
        self.inner.ping().await
    }

    fn kind(&self) -> &'static str {
        "lossy"
    }
}

#[tokio::test]
async fn five_thousand_invoices_reach_stock_once_when_every_first_ack_is_lost() {
    let _turn = super::ONE_STACK_AT_A_TIME.lock().await;
    let nats = erp_platform::testing::NatsServer::start();
    let cfg = config("loadack", &nats.url()).await;
    let redelivered = Arc::new(AtomicUsize::new(0));
    let bus: Arc<dyn Bus> = Arc::new(LosingFirstAcks {
        inner: Arc::new(NatsBus::connect(&nats.url()).await.expect("nats")),
        durable: STOCK_CONSUMER,
        redelivered: redelivered.clone(),
    });
    let stack = start(cfg, bus).await;
    let calls = invoice_all(&stack, Arc::new(AtomicUsize::new(0))).await;
    all_ok(&calls);
    let invoiced = assert_exactly_once(&stack).await;
    assert_eq!(invoiced.len() as i64, ORDERS);
    wait_up_to(120, "every invoice delivered a second time", || {
        let r = redelivered.clone();
        async move { r.load(Ordering::SeqCst) >= ORDERS as usize }
    })
    .await;
    // Redelivered after their effect: still exactly once.
    assert_exactly_once(&stack).await;
}

#[tokio::test]
async fn five_thousand_invoices_reach_stock_once_across_a_nats_kill() {
    let _turn = super::ONE_STACK_AT_A_TIME.lock().await;
    let nats = Arc::new(tokio::sync::Mutex::new(
        erp_platform::testing::NatsServer::start(),
    ));
    let url = nats.lock().await.url();
    let cfg = config("loadkill", &url).await;
    let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&url).await.expect("nats"));
    let stack = start(cfg, bus).await;
    let done = Arc::new(AtomicUsize::new(0));
    let fault = {
        let (done, nats) = (done.clone(), nats.clone());
        tokio::spawn(async move {
            while done.load(Ordering::SeqCst) < (ORDERS / 3) as usize {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let mut n = nats.lock().await;
            n.down(); // SIGKILL
            let down_at = done.load(Ordering::SeqCst);
            // Invoices go on while the bus is gone; their facts wait in the outbox.
            while done.load(Ordering::SeqCst) < down_at + 300 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            n.up();
        })
    };
    let calls = invoice_all(&stack, done).await;
    fault.await.expect("fault");
    all_ok(&calls);
    let invoiced = assert_exactly_once(&stack).await;
    assert_eq!(invoiced.len() as i64, ORDERS);
}
