//! The bus contract, run against both engines; the relay across a NATS outage; the
//! batch consumer (inbox, batches per tenant, poison events); scheduled jobs.
//!
//! Nothing here asserts "nothing arrived" after a fixed sleep: a negative check
//! waits for a marker published after what must not arrive.

use erp_platform::testing::until;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use erp_platform::bus::jobs::{self, Job, JobCtx, JobDef};
use erp_platform::bus::{self, Bus, Effect, Handler, MemoryBus, Message, NatsBus};
use erp_platform::db::{Db, Tx};
use erp_platform::{Error, Result};
use tokio::sync::mpsc;
use tokio::time::timeout;

use crate::{client, config, db};

fn msg(id: &str, subject: &str, body: &str) -> Message {
    Message::new(id, subject, Bytes::from(body.to_string()))
}

fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
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

/// A counter of the process's Prometheus registry, summed over label sets that
/// contain `label`.
fn metric(name: &str, label: &str) -> f64 {
    erp_platform::telemetry::metrics_handle();
    erp_platform::telemetry::render_metrics()
        .lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) && l.contains(label))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// The contract both engines keep.
async fn contract(bus: Arc<dyn Bus>) -> Vec<String> {
    let p = format!("erp.t{}", uuid::Uuid::new_v4().simple());
    let durable = |n: &str| format!("{}-{n}", &p[4..]);

    // Published before the consumer exists: a durable consumer still gets it.
    bus.publish(msg(&new_id(), &format!("{p}.pedido.faturado"), "1"))
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

    // Only matching subjects; a duplicate id is dropped. The marker published last
    // is the next thing after "2": nothing came in between.
    let id = new_id();
    for m in [
        msg(&new_id(), &format!("{p}.outro.x"), "ignored"),
        msg(&id, &format!("{p}.pedido.faturado"), "2"),
        msg(&id, &format!("{p}.pedido.faturado"), "2-dup"),
        msg(&new_id(), &format!("{p}.pedido.marcador"), "marker"),
    ] {
        bus.publish(m).await.expect("publish");
    }
    let m = recv(&mut rx, 10).await.expect("second message");
    assert_eq!(m.payload, Bytes::from("2"));
    assert_eq!(m.id, id, "the message id travels with the message");
    assert_eq!(m.delivery, 1);
    assert_eq!(
        recv(&mut rx, 10).await.map(|m| m.payload),
        Some(Bytes::from("marker")),
        "a duplicate or unmatched message was delivered before the marker"
    );

    // A failing handler gets the message again, told it is a redelivery.
    let (tx2, mut rx2) = mpsc::unbounded_channel();
    let attempts = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let a = attempts.clone();
    let flaky: Handler = Arc::new(move |m| {
        let (tx2, a) = (tx2.clone(), a.clone());
        Box::pin(async move {
            if a.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
                return Err(Error::internal("first attempt fails"));
            }
            let _ = tx2.send(m);
            Ok(())
        })
    });
    bus.subscribe(&durable("b"), &format!("{p}.retry.>"), flaky)
        .await
        .expect("subscribe");
    bus.publish(msg(&new_id(), &format!("{p}.retry.um"), "r"))
        .await
        .expect("publish");
    let again = recv(&mut rx2, 15).await.expect("redelivered");
    assert_eq!(again.payload, Bytes::from("r"));
    assert!(again.delivery >= 2, "delivery {}", again.delivery);

    // Batches: 25 messages waiting, at most 10 per batch, all of them, in order.
    let results = bus
        .publish_all(
            (0..25)
                .map(|i| msg(&new_id(), &format!("{p}.lote.item"), &i.to_string()))
                .collect(),
        )
        .await;
    assert!(results.iter().all(Result::is_ok));
    let (btx, mut brx) = mpsc::unbounded_channel::<Vec<String>>();
    bus.subscribe_batch(
        &durable("lote"),
        &format!("{p}.lote.>"),
        bus::ConsumerOpts::batch(10),
        Arc::new(move |msgs: Vec<Message>| {
            let btx = btx.clone();
            Box::pin(async move {
                let n = msgs.len();
                let _ = btx.send(
                    msgs.into_iter()
                        .map(|m| String::from_utf8_lossy(&m.payload).to_string())
                        .collect(),
                );
                vec![bus::Outcome::Ack; n]
            })
        }),
    )
    .await
    .expect("subscribe batch");
    let mut seen = Vec::new();
    let mut sizes = Vec::new();
    while seen.len() < 25 {
        let b = timeout(Duration::from_secs(10), brx.recv())
            .await
            .ok()
            .flatten()
            .expect("a batch");
        sizes.push(b.len());
        seen.extend(b);
    }
    assert!(sizes.iter().all(|n| (1..=10).contains(n)), "{sizes:?}");
    assert_eq!(
        seen,
        (0..25).map(|i| i.to_string()).collect::<Vec<_>>(),
        "in order"
    );
    if bus.kind() == "memory" {
        assert_eq!(sizes, vec![10, 10, 5], "what waits is taken together");
    }

    // A durable created after every other consumer has passed a message still gets
    // it (a service that starts after another one's events were relayed).
    let (tx3, mut rx3) = mpsc::unbounded_channel();
    bus.subscribe(&durable("c"), &format!("{p}.pedido.*"), forward(tx3))
        .await
        .expect("subscribe");
    let mut late = Vec::new();
    for _ in 0..3 {
        late.push(
            recv(&mut rx3, 10)
                .await
                .map(|m| m.payload)
                .unwrap_or_default(),
        );
    }
    assert_eq!(
        late,
        vec![Bytes::from("1"), Bytes::from("2"), Bytes::from("marker")]
    );
    vec![durable("a"), durable("b"), durable("c"), durable("lote")]
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

    // Many rows in one transaction: one statement, published in order.
    let c = client();
    let mut t = db.begin_tenant(c).await.expect("tx");
    let payloads: Vec<Vec<u8>> = (0..600).map(|i: i32| i.to_be_bytes().to_vec()).collect();
    let ids = bus::outbox_insert_many(&mut t, schema, "erp.relay.item.lote", c, &payloads)
        .await
        .expect("insert many");
    t.commit().await.expect("commit");
    let relay = bus::run_relay(db.clone(), bus.clone(), schema);
    let mut got = Vec::new();
    while got.len() < 600 {
        got.push(recv(&mut rx, 10).await.expect("relayed").id);
    }
    assert_eq!(
        got,
        ids.iter().map(|i| i.to_string()).collect::<Vec<_>>(),
        "published in the order written"
    );
    until("rows marked", 10, || async {
        bus::outbox_backlog(&db, schema).await.unwrap_or(-1) == 0
    })
    .await;
    relay.abort();
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
    assert_eq!(recv(&mut rx, 15).await.map(|m| m.id), Some(first.clone()));

    nats.down();
    let failures = metric(
        "erp_outbox_publish_failures_total",
        &format!("schema=\"{schema}\""),
    );
    let second = write_event(&db, schema, "erp.outage.item.alterado").await;
    // The relay tried and failed: only then is "not published" worth asserting.
    until(
        "the relay to fail against the stopped server",
        60,
        || async {
            metric(
                "erp_outbox_publish_failures_total",
                &format!("schema=\"{schema}\""),
            ) > failures
        },
    )
    .await;
    assert_eq!(
        bus::outbox_backlog(&db, schema).await.expect("backlog"),
        1,
        "published while NATS was down"
    );

    nats.up();
    // At-least-once: the first event may come again (its acknowledgement may not
    // have reached the stream's disk); wait for the second, whatever comes first.
    let mut seen = HashSet::new();
    loop {
        let m = recv(&mut rx, 60).await.expect("the second event");
        assert!(m.id == first || m.id == second, "unexpected {}", m.id);
        seen.insert(m.id.clone());
        if m.id == second {
            break;
        }
    }
    until("the outbox to drain", 30, || async {
        bus::outbox_backlog(&db, schema).await.unwrap_or(-1) == 0
    })
    .await;
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
    let event = new_id();
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

/// A test effect: each event is a JSON `{"client": n, "desc": "..."}` that becomes an
/// item of its tenant; an event that does not decode, or names another tenant, is
/// refused. It records the size of each batch it is given.
struct Items {
    schema: &'static str,
    batches: Arc<Mutex<Vec<usize>>>,
}

#[async_trait]
impl Effect for Items {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let v: serde_json::Value = serde_json::from_slice(&msg.payload)
            .map_err(|_| Error::validation("Evento inválido."))?;
        if v["client"].as_i64() != Some(client_id) {
            return Err(Error::validation("Evento de outro cliente."));
        }
        let desc = v["desc"].as_str().unwrap_or_default().to_string();
        sqlx::query(&format!(
            "INSERT INTO {s}.itens (client_id, item_emp_id, item_id, item_descricao)
             VALUES ($1, 1, (SELECT coalesce(max(item_id), 0) + 1 FROM {s}.itens WHERE client_id = $1), $2)",
            s = self.schema
        ))
        .bind(client_id)
        .bind(desc)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }

    async fn apply_batch(&self, tx: &mut Tx, client_id: i64, msgs: &[&Message]) -> Result<()> {
        if let Ok(mut b) = self.batches.lock() {
            b.push(msgs.len());
        }
        for m in msgs {
            self.apply(tx, client_id, m).await?;
        }
        Ok(())
    }
}

fn item_event(client: i64, payload: &[u8]) -> Message {
    let mut m = Message::new(
        new_id(),
        "erp.itens.item.criado",
        Bytes::from(payload.to_vec()),
    );
    m.headers
        .push((bus::CLIENT_HEADER.into(), client.to_string()));
    m
}

async fn items_of(db: &Db, schema: &str, client: i64) -> Vec<String> {
    let mut tx = db.begin_tenant(client).await.expect("tx");
    sqlx::query_scalar(&format!(
        "SELECT item_descricao FROM {schema}.itens ORDER BY item_id"
    ))
    .fetch_all(&mut *tx)
    .await
    .expect("items")
}

/// Good events of two tenants and two poison ones (undecodable; naming another
/// tenant), all waiting when the consumer starts: the first batch carries them all,
/// fails on the poison, and is applied event by event: every good one once, the
/// bad ones counted and acknowledged. Delivered again, nothing changes.
async fn poison_between_good_events(bus: Arc<dyn Bus>, schema: &'static str) {
    erp_platform::db::migrate(&config(), schema, &crate::MIGRATOR)
        .await
        .expect("migrate");
    let db = db().await;
    let (a, b) = (client(), client());
    let good =
        |c: i64, d: &str| item_event(c, format!(r#"{{"client": {c}, "desc": "{d}"}}"#).as_bytes());
    let mut events = vec![
        good(a, "a1"),
        good(b, "b1"),
        good(a, "a2"),
        item_event(a, &[0xff, 0xfe, 0x00]),
        good(a, "a3"),
        good(b, "b2"),
        item_event(
            a,
            format!(r#"{{"client": {b}, "desc": "intruso"}}"#).as_bytes(),
        ),
        good(a, "a4"),
    ];
    // An event delivered twice in the same batch applies once.
    events.push(events[0].clone());
    let consumer = format!("{schema}-itens");
    let refused_before = metric(
        "erp_events_refused_total",
        &format!("consumer=\"{consumer}\""),
    );
    let batches = Arc::new(Mutex::new(Vec::new()));
    let subject = format!("erp.{}.item.criado", uuid::Uuid::new_v4().simple());
    for e in &mut events {
        e.subject = subject.clone();
    }
    let results = bus.publish_all(events.clone()).await;
    assert!(results.iter().all(Result::is_ok));
    let task = bus::consume(
        &bus,
        db.clone(),
        schema,
        &consumer,
        &subject,
        Arc::new(Items { schema, batches: batches.clone() }),
        256,
    )
    .await
    .expect("consume");
    until("every event handled", 30, || {
        let db = db.clone();
        let consumer = consumer.clone();
        async move {
            items_of(&db, schema, a).await.len() == 4
                && items_of(&db, schema, b).await.len() == 2
                && metric(
                    "erp_events_refused_total",
                    &format!("consumer=\"{consumer}\""),
                ) >= refused_before + 2.0
        }
    })
    .await;
    assert_eq!(items_of(&db, schema, a).await, ["a1", "a2", "a3", "a4"]);
    assert_eq!(items_of(&db, schema, b).await, ["b1", "b2"]);
    assert_eq!(
        metric(
            "erp_events_refused_total",
            &format!("consumer=\"{consumer}\"")
        ),
        refused_before + 2.0
    );
    // Everything delivered again (what a consumer that lost its acknowledgements
    // sees), plus one new event: only the new one changes anything.
    task.abort();
    let mut marker = good(a, "marcador");
    marker.subject = subject.clone();
    let again: Vec<Message> = events.iter().cloned().chain([marker]).collect();
    let effect: Arc<dyn Effect> = Arc::new(Items { schema, batches: batches.clone() });
    let outcomes = bus::consumer::apply_delivered(&db, schema, &consumer, &effect, &again).await;
    assert!(outcomes.iter().all(|o| *o == bus::Outcome::Ack));
    assert_eq!(
        items_of(&db, schema, a).await,
        ["a1", "a2", "a3", "a4", "marcador"]
    );
    assert_eq!(items_of(&db, schema, b).await, ["b1", "b2"]);
    let sizes = batches.lock().map(|b| b.clone()).unwrap_or_default();
    assert!(
        sizes.iter().any(|n| *n > 1),
        "the first batch was applied as a batch: {sizes:?}"
    );
}

#[tokio::test]
async fn poison_events_are_refused_without_holding_the_good_ones_in_memory() {
    poison_between_good_events(Arc::new(MemoryBus::new()), "plat_it_poison_mem").await;
}

#[tokio::test]
async fn poison_events_are_refused_without_holding_the_good_ones_on_nats() {
    let nats = erp_platform::testing::NatsServer::start();
    let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&nats.url()).await.expect("connect"));
    poison_between_good_events(bus, "plat_it_poison_nats").await;
}

/// A job that records the slots it ran for.
struct Tick(Arc<Mutex<Vec<String>>>);

#[async_trait]
impl Job for Tick {
    async fn run(&self, ctx: &JobCtx) -> Result<String> {
        if let Ok(mut v) = self.0.lock() {
            v.push(ctx.slot.clone());
        }
        Ok("tique".into())
    }
}

fn every_second(runs: &Arc<Mutex<Vec<String>>>) -> Vec<JobDef> {
    vec![JobDef { name: "tick", cron: "* * * * * *", job: Arc::new(Tick(runs.clone())) }]
}

fn ran(runs: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
    runs.lock().map(|v| v.clone()).unwrap_or_default()
}

/// Sleeps until 200 ms past the next whole second (slots are whole seconds).
async fn align() {
    let ms = chrono::Utc::now().timestamp_subsec_millis() as u64;
    tokio::time::sleep(Duration::from_millis(1200 - ms)).await;
}

#[tokio::test]
async fn two_schedulers_run_a_job_once_per_slot_and_a_gap_once() {
    let schema = "plat_it_jobs";
    erp_platform::db::migrate(&config(), schema, &crate::MIGRATOR)
        .await
        .expect("migrate");
    let db = db().await;
    let nats = erp_platform::testing::NatsServer::start();
    let runs = Arc::new(Mutex::new(Vec::new()));
    let mut replicas = Vec::new();
    for _ in 0..2 {
        let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&nats.url()).await.expect("connect"));
        replicas.push(bus);
    }
    let mut consumers = Vec::new();
    for bus in &replicas {
        consumers.extend(
            jobs::start_consumers(db.clone(), bus.clone(), "plat", schema, every_second(&runs))
                .await
                .expect("consumers"),
        );
    }

    // Two replicas schedule for 10 s: 10 slots, each run once (not 20 runs).
    align().await;
    let start = chrono::Utc::now();
    let schedulers: Vec<_> = replicas
        .iter()
        .map(|bus| {
            jobs::spawn_scheduler(db.clone(), bus.clone(), "plat", schema, every_second(&runs))
                .expect("scheduler")
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(10_000)).await;
    // The slots due while the schedulers ran: every whole second from `start` to
    // the abort. A second that turns during the abort itself may or may not have
    // been published (and on a loaded machine the slot just before the abort may
    // not have been yet), so the count is bounded on both sides, never doubled.
    let aborting = chrono::Utc::now();
    for s in &schedulers {
        s.abort();
    }
    let stop = chrono::Utc::now();
    let least = (aborting.timestamp() - start.timestamp()) as usize - 1;
    let most = (stop.timestamp() - start.timestamp()) as usize;
    until("the window's runs", 30, || {
        let runs = runs.clone();
        async move { ran(&runs).len() >= least }
    })
    .await;
    let window = ran(&runs);
    let distinct: HashSet<&String> = window.iter().collect();
    assert_eq!(distinct.len(), window.len(), "a slot ran twice: {window:?}");
    assert!(
        (least..=most).contains(&window.len()),
        "one run per second of the window ({least}..={most}): {window:?}"
    );

    // Everything stopped for 5 slots, then one scheduler starts: the gap runs once.
    tokio::time::sleep(Duration::from_millis(5_000)).await;
    let restart = chrono::Utc::now();
    let before = window.len();
    let scheduler = jobs::spawn_scheduler(
        db.clone(),
        replicas[0].clone(),
        "plat",
        schema,
        every_second(&runs),
    )
    .expect("scheduler");
    until("the gap's run and a regular one after it", 30, || {
        let runs = runs.clone();
        async move { ran(&runs).len() >= before + 2 }
    })
    .await;
    scheduler.abort();
    let after = ran(&runs);
    let gap: Vec<&String> = after[before..]
        .iter()
        .filter(|slot| {
            chrono::DateTime::parse_from_rfc3339(slot)
                .map(|t| t.timestamp() > stop.timestamp() && t.timestamp() <= restart.timestamp())
                .unwrap_or(false)
        })
        .collect();
    assert_eq!(gap.len(), 1, "the missed slots ran once: {after:?}");
    // A run is pushed to `runs` inside the job and counted in the job's status
    // when its transaction commits, a moment later: wait for the count.
    until("the status to count every run", 30, || {
        let (db, runs) = (db.clone(), runs.clone());
        async move {
            let status = jobs::list(&db, schema).await.expect("list");
            status
                .first()
                .is_some_and(|s| s.runs as usize == ran(&runs).len())
        }
    })
    .await;
    let status = jobs::list(&db, schema).await.expect("list");
    assert_eq!(status.len(), 1);
    assert_eq!(status[0].runs as usize, ran(&runs).len());
    assert_eq!(status[0].last_ok, Some(true));
    assert!(status[0].next_run.is_some());
    for c in consumers {
        c.abort();
    }
}
