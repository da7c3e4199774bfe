//! The bus contract, run against both engines; the outbox across a NATS outage; the
//! inbox against redelivery.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use erp_platform::bus::{self, Bus, Handler, MemoryBus, Message, NatsBus};
use erp_platform::db::Db;
use tokio::sync::mpsc;
use tokio::time::timeout;

use crate::{client, config, db};

fn msg(id: &str, subject: &str, body: &str) -> Message {
    Message {
        id: id.into(),
        subject: subject.into(),
        headers: vec![],
        payload: Bytes::from(body.to_string()),
    }
}

fn forward(tx: mpsc::UnboundedSender<Message>) -> Handler {
    Arc::new(move |m| {
        let tx = tx.clone();
        Box::pin(async move {
            let _ = tx.send(m);
            Ok(())
        })
    })
}

async fn recv(rx: &mut mpsc::UnboundedReceiver<Message>, secs: u64) -> Option<Message> {
    timeout(Duration::from_secs(secs), rx.recv())
        .await
        .ok()
        .flatten()
}

/// The contract both engines keep.
async fn contract(bus: Arc<dyn Bus>) -> Vec<String> {
    let p = format!("erp.t{}", uuid::Uuid::new_v4().simple());
    let durable = |n: &str| format!("{}-{n}", &p[4..]);

    // Published before the consumer exists: a durable consumer still gets it.
    bus.publish(msg(
        &uuid::Uuid::new_v4().to_string(),
        &format!("{p}.pedido.faturado"),
        "1",
    ))
    .await
    .expect("publish");
    let (tx, mut rx) = mpsc::unbounded_channel();
    bus.subscribe(&durable("a"), &format!("{p}.pedido.*"), forward(tx))
        .await
        .expect("subscribe");
    assert_eq!(
        recv(&mut rx, 10).await.map(|m| m.payload),
        Some(Bytes::from("1"))
    );

    // Only matching subjects; a duplicate id is dropped.
    let id = uuid::Uuid::new_v4().to_string();
    bus.publish(msg(
        &uuid::Uuid::new_v4().to_string(),
        &format!("{p}.outro.x"),
        "ignored",
    ))
    .await
    .expect("publish");
    bus.publish(msg(&id, &format!("{p}.pedido.faturado"), "2"))
        .await
        .expect("publish");
    bus.publish(msg(&id, &format!("{p}.pedido.faturado"), "2-dup"))
        .await
        .expect("publish");
    let m = recv(&mut rx, 10).await.expect("second message");
    assert_eq!(m.payload, Bytes::from("2"));
    assert_eq!(m.id, id, "the message id travels with the message");
    assert!(
        recv(&mut rx, 2).await.is_none(),
        "duplicate or unmatched message delivered"
    );

    // A failing handler gets the message again.
    let (tx2, mut rx2) = mpsc::unbounded_channel();
    let attempts = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let a = attempts.clone();
    let flaky: Handler = Arc::new(move |m| {
        let (tx2, a) = (tx2.clone(), a.clone());
        Box::pin(async move {
            if a.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
                return Err(erp_platform::Error::internal("first attempt fails"));
            }
            let _ = tx2.send(m);
            Ok(())
        })
    });
    bus.subscribe(&durable("b"), &format!("{p}.retry.>"), flaky)
        .await
        .expect("subscribe");
    bus.publish(msg(
        &uuid::Uuid::new_v4().to_string(),
        &format!("{p}.retry.um"),
        "r",
    ))
    .await
    .expect("publish");
    assert_eq!(
        recv(&mut rx2, 15).await.map(|m| m.payload),
        Some(Bytes::from("r"))
    );
    assert!(attempts.load(std::sync::atomic::Ordering::SeqCst) >= 2);

    // A durable created after every other consumer has passed a message still gets
    // it (a service that starts after another one's events were relayed).
    let (tx3, mut rx3) = mpsc::unbounded_channel();
    bus.subscribe(&durable("c"), &format!("{p}.pedido.*"), forward(tx3))
        .await
        .expect("subscribe");
    let late: Vec<Bytes> = vec![
        recv(&mut rx3, 10)
            .await
            .map(|m| m.payload)
            .unwrap_or_default(),
        recv(&mut rx3, 10)
            .await
            .map(|m| m.payload)
            .unwrap_or_default(),
    ];
    assert_eq!(late, vec![Bytes::from("1"), Bytes::from("2")]);
    vec![durable("a"), durable("b"), durable("c")]
}

#[tokio::test]
async fn memory_bus_keeps_the_contract() {
    contract(Arc::new(MemoryBus::new())).await;
}

#[tokio::test]
async fn nats_bus_keeps_the_contract() {
    let nats = NatsBus::connect(&erp_platform::testing::nats_url())
        .await
        .expect("NATS at TEST_NATS_URL");
    let client = nats.client().clone();
    let durables = contract(Arc::new(nats)).await;
    let js = async_nats::jetstream::new(client);
    if let Ok(stream) = js.get_stream(bus::STREAM).await {
        for d in durables {
            let _ = stream.delete_consumer(&d).await;
        }
    }
}

async fn write_event(db: &Db, schema: &str, subject: &str) -> String {
    let c = client();
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let id = bus::outbox_insert(&mut tx, schema, subject, c, b"payload")
        .await
        .expect("outbox");
    tx.commit().await.expect("commit");
    id.to_string()
}

#[tokio::test]
async fn the_relay_publishes_with_the_outbox_id_and_marks_rows() {
    let schema = "plat_it_relay";
    erp_platform::db::migrate(&config(), schema, &crate::MIGRATOR)
        .await
        .expect("migrate");
    let db = db().await;
    let bus = Arc::new(MemoryBus::new());
    let (tx, mut rx) = mpsc::unbounded_channel();
    bus.subscribe("relay", "erp.relay.>", forward(tx))
        .await
        .expect("subscribe");
    let id = write_event(&db, schema, "erp.relay.item.criado").await;
    assert_eq!(bus::outbox_backlog(&db, schema).await.expect("backlog"), 1);
    assert_eq!(
        bus::relay_once(&db, bus.as_ref(), schema)
            .await
            .expect("relay"),
        1
    );
    assert_eq!(recv(&mut rx, 5).await.map(|m| m.id), Some(id));
    assert_eq!(bus::outbox_backlog(&db, schema).await.expect("backlog"), 0);
    assert_eq!(
        bus::relay_once(&db, bus.as_ref(), schema)
            .await
            .expect("relay"),
        0
    );
}

#[tokio::test]
async fn an_event_written_while_nats_is_down_is_delivered_when_it_returns() {
    let schema = "plat_it_outage";
    erp_platform::db::migrate(&config(), schema, &crate::MIGRATOR)
        .await
        .expect("migrate");
    let db = db().await;
    let mut nats = erp_platform::testing::NatsServer::start();
    let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&nats.url()).await.expect("connect"));
    let (tx, mut rx) = mpsc::unbounded_channel();
    bus.subscribe("outage", "erp.outage.>", forward(tx))
        .await
        .expect("subscribe");
    let relay = bus::run_relay(db.clone(), bus.clone(), schema);

    let first = write_event(&db, schema, "erp.outage.item.criado").await;
    assert_eq!(recv(&mut rx, 15).await.map(|m| m.id), Some(first));

    nats.down();
    let second = write_event(&db, schema, "erp.outage.item.alterado").await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(
        bus::outbox_backlog(&db, schema).await.expect("backlog"),
        1,
        "published while NATS was down"
    );

    nats.up();
    let got = recv(&mut rx, 60).await.map(|m| m.id);
    assert_eq!(got, Some(second));
    let mut backlog = 1;
    for _ in 0..50 {
        backlog = bus::outbox_backlog(&db, schema).await.expect("backlog");
        if backlog == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(backlog, 0);
    relay.abort();
}

#[tokio::test]
async fn a_redelivered_event_is_applied_once() {
    let schema = "plat_it_inbox";
    erp_platform::db::migrate(&config(), schema, &crate::MIGRATOR)
        .await
        .expect("migrate");
    let db = db().await;
    let c = client();
    let event = uuid::Uuid::new_v4().to_string();
    for attempt in 0..3 {
        let applied = bus::apply_once(&db, schema, "stock", &event, c, |tx| {
            Box::pin(async move {
                sqlx::query(
                    "INSERT INTO plat_it_inbox.itens (client_id, item_emp_id, item_id, item_descricao)
                     VALUES (erp_current_client(), 1, (SELECT coalesce(max(item_id), 0) + 1 FROM plat_it_inbox.itens), 'baixa')",
                )
                .execute(&mut **tx)
                .await?;
                Ok(())
            })
        })
        .await
        .expect("apply");
        assert_eq!(applied, attempt == 0);
    }
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM plat_it_inbox.itens")
        .fetch_one(&mut *tx)
        .await
        .expect("count");
    assert_eq!(n, 1);
}
