//! Sales and stock over events, through the real path: catalog, orders and stock
//! write their outboxes, the relays publish to a NATS JetStream server of this test's
//! own, and stock's and orders' consumers apply each fact once through their inbox.
//! Negative checks wait for a condition (the relay's failed attempt, a marker),
//! never for a fixed time.
//!
//! - a product and a customer registered in catalog become known to orders and
//!   stock; a renamed customer names the next order while the invoiced one keeps
//!   its name;
//! - invoicing an order lowers the balance once; with NATS stopped during the
//!   invoice the exit waits in the outbox and happens once NATS is back;
//! - a consumer that loses its acknowledgement (the event comes again) and a second
//!   subscription replaying every event change nothing more.

use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use erp_platform::bus::{self, Bus, Effect, NatsBus};

use super::{metric, wait_for};
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Registry};
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

const CLIENT: i64 = 2;

fn caller() -> Caller {
    Caller { client_id: CLIENT, user_id: 1, emp_id: 1, privileged: false }
}

fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

async fn create(db: &Db, reg: &Registry, name: &str, v: Value) -> Value {
    let res = reg.get(name).expect("resource");
    let mut tx = db.begin_tenant(CLIENT).await.expect("tx");
    let row = query::create(&mut tx, res, &caller(), Some(1), &body(v))
        .await
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    tx.commit().await.expect("commit");
    row
}

async fn balance(db: &Db, product: i64) -> (Decimal, i64) {
    // One snapshot for the three reads: stock's consumer may commit between them.
    let mut tx = erp_platform::testing::begin_snapshot(db, CLIENT)
        .await
        .expect("tx");
    let b = erp_stock::ledger::balance(&mut tx, CLIENT, 1, product)
        .await
        .expect("balance");
    let exits: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM stock.movimentos WHERE movi_prod_id = $1 AND movi_origem = 'PEDIDO'",
    )
    .bind(product)
    .fetch_one(&mut *tx)
    .await
    .expect("exits");
    let sum: Option<Decimal> = sqlx::query_scalar(
        "SELECT sum(CASE movi_tipo WHEN 'E' THEN movi_qtde ELSE -movi_qtde END) FROM stock.movimentos
         WHERE movi_prod_id = $1 AND movi_emp_id = 1",
    )
    .bind(product)
    .fetch_one(&mut *tx)
    .await
    .expect("sum");
    assert_eq!(sum.unwrap_or_default(), b.qty, "ledger sum = balance");
    (b.qty, exits)
}

async fn invoice(db: &Db, id: i64) -> erp_orders::resources::billing::Invoiced {
    let mut tx = db.begin_tenant(CLIENT).await.expect("tx");
    let out = erp_orders::resources::billing::invoice(&mut tx, &caller(), 1, id, "1")
        .await
        .expect("invoice");
    tx.commit().await.expect("commit");
    out
}

async fn order(db: &Db, orders: &Registry, customer: i64, product: i64, qty: &str) -> i64 {
    let head = create(
        db,
        orders,
        "pedido",
        json!({"PEDF_SERIE": "1", "PEDF_CLI_ID": customer, "PEDF_DTA_EMISSAO": "2026-11-22"}),
    )
    .await;
    let id = head["PEDF_ID"].as_i64().expect("id");
    create(
        db,
        orders,
        "pedidoproduto",
        json!({"PEDI_PEDF_ID": id, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": product, "PEDI_QTDE": qty}),
    )
    .await;
    id
}

/// A consumer that applies through stock's inbox and then "loses" its first
/// acknowledgement of every event, so NATS delivers each one again.
struct Flaky {
    db: Db,
    deliveries: Arc<AtomicUsize>,
    seen: Arc<std::sync::Mutex<std::collections::HashSet<String>>>,
}

impl Flaky {
    fn handler(self: Arc<Self>) -> bus::Handler {
        Arc::new(move |msg: bus::Message| {
            let me = self.clone();
            Box::pin(async move {
                let client: i64 = msg
                    .header(bus::CLIENT_HEADER)
                    .and_then(|c| c.parse().ok())
                    .unwrap_or_default();
                let id = msg.id.clone();
                bus::apply_once(
                    &me.db,
                    "stock",
                    "stock-pedido-faturado",
                    &id,
                    client,
                    |tx| {
                        Box::pin(async move {
                            erp_stock::events::InvoicedOrder
                                .apply(tx, client, &msg)
                                .await
                        })
                    },
                )
                .await?;
                // Counted once the delivery was applied (or found applied).
                me.deliveries.fetch_add(1, Ordering::SeqCst);
                let first = me.seen.lock().map(|mut s| s.insert(id)).unwrap_or(false);
                if first {
                    Err(erp_platform::Error::Unavailable("ack lost".into()))
                } else {
                    Ok(())
                }
            })
        })
    }
}

#[tokio::test]
async fn invoicing_lowers_stock_once_over_nats_even_when_it_stops_or_redelivers() {
    erp_platform::telemetry::metrics_handle();
    let mut cfg = erp_platform::testing::fresh_database("events").await;
    let mut nats = erp_platform::testing::NatsServer::start();
    cfg.nats_url = Some(nats.url());
    let cfg = Arc::new(cfg);
    erp_gateway::roles::migrate(cfg.clone())
        .await
        .expect("migrate");
    let db = Db::connect(&cfg).await.expect("db");
    let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&nats.url()).await.expect("nats"));
    let mut tasks = Vec::new();
    for schema in ["catalog", "orders", "stock"] {
        tasks.push(bus::run_relay(db.clone(), bus.clone(), schema));
    }
    for c in erp_orders::events::consumers() {
        tasks.push(
            bus::consume(
                &bus,
                db.clone(),
                "orders",
                c.durable,
                c.filter,
                c.effect,
                256,
            )
            .await
            .expect("orders consumer"),
        );
    }
    for c in erp_stock::events::consumers() {
        tasks.push(
            bus::consume(
                &bus,
                db.clone(),
                "stock",
                c.durable,
                c.filter,
                c.effect,
                256,
            )
            .await
            .expect("stock consumer"),
        );
    }
    let catalog = erp_catalog::resources::registry().expect("catalog");
    let orders = erp_orders::resources::registry().expect("orders");
    let stock = erp_stock::resources::registry().expect("stock");

    // Catalog registers a customer and a product; orders and stock learn of them.
    let cli = create(&db, &catalog, "clientes", json!({
        "CLI_TIPO_PESSOA": "J", "CLI_DESCRICAO": "  Mecânica Boa Viagem Ltda ", "CLI_CGC": "11.444.777/0001-61",
        "CLI_IND_IE": 9, "CLI_CIDADE": " Recife ", "CLI_UF": "PE"
    }))
    .await;
    let cli_id = cli["CLI_ID"].as_i64().expect("cli");
    let unit_sample = catalog
        .get("unidade")
        .and_then(|r| r.sample.clone())
        .expect("unit sample");
    let unit = create(&db, &catalog, "unidade", unit_sample).await;
    let prod = create(&db, &catalog, "produtos", json!({
        "PROD_DESCRICAO": "Correia dentada", "PROD_VALOR": "89.90", "PROD_CUSTO": "50.00", "PROD_TIPO": "00",
        "PROD_UNID_ID": unit["UNID_ID"]
    }))
    .await;
    let prod_id = prod["PROD_ID"].as_i64().expect("prod");
    wait_for("orders and stock to know the product and customer", || {
        let db = db.clone();
        async move {
            let mut tx = db.begin_tenant(CLIENT).await.expect("tx");
            let o: i64 = sqlx::query_scalar("SELECT (SELECT count(*) FROM orders.produtos) + (SELECT count(*) FROM orders.clientes) + (SELECT count(*) FROM stock.produtos)")
                .fetch_one(&mut *tx)
                .await
                .expect("count");
            o == 3
        }
    })
    .await;
    // Stock: 10 in at 50.00.
    create(&db, &stock, "saldoestoque", json!({"SALD_PROD_ID": prod_id, "SALD_TIPO": "E", "SALD_QTDE": "10", "SALD_CUSTO_UNIT": "50", "SALD_DATA": "2026-11-22"})).await;
    assert_eq!(balance(&db, prod_id).await, (Decimal::from(10), 0));

    // 1. Invoice: the balance goes down once.
    let first = order(&db, &orders, cli_id, prod_id, "2").await;
    let line = {
        let mut tx = db.begin_tenant(CLIENT).await.expect("tx");
        let r = query::get(
            &mut tx,
            orders.get("pedidoproduto").expect("r"),
            &caller(),
            Some(1),
            &[first.to_string(), "1".into(), "1".into()],
        )
        .await
        .expect("line");
        tx.commit().await.expect("c");
        r
    };
    // The line took the product's description and price from orders' copy.
    let total =
        Decimal::from_str(&line["PEDI_VLR_TOTAL"].to_string().replace('"', "")).unwrap_or_default();
    assert_eq!(
        (line["PEDI_DESCRICAO"].clone(), total),
        (
            json!("Correia dentada"),
            Decimal::from_str("179.80").unwrap_or_default()
        )
    );
    let out = invoice(&db, first).await;
    assert_eq!(out.status, "F");
    wait_for("the first exit", || {
        let db = db.clone();
        async move { balance(&db, prod_id).await == (Decimal::from(8), 1) }
    })
    .await;

    // 2. NATS stops during the invoice: the fact waits in the outbox, then arrives once.
    nats.down();
    let failures = metric("erp_outbox_publish_failures_total", "schema=\"orders\"");
    let second = order(&db, &orders, cli_id, prod_id, "3").await;
    invoice(&db, second).await;
    wait_for(
        "the relay's failed attempt to publish the invoice",
        || async { metric("erp_outbox_publish_failures_total", "schema=\"orders\"") > failures },
    )
    .await;
    assert_eq!(
        balance(&db, prod_id).await,
        (Decimal::from(8), 1),
        "no exit while NATS is down"
    );
    assert!(bus::outbox_backlog(&db, "orders").await.expect("backlog") >= 1);
    nats.up();
    wait_for("the exit after NATS came back", || {
        let db = db.clone();
        async move { balance(&db, prod_id).await == (Decimal::from(5), 2) }
    })
    .await;

    // 3. Redelivery: a subscription that replays every invoice and loses its first
    //    acknowledgement of each applies through the same inbox: nothing more.
    let flaky = Arc::new(Flaky {
        db: db.clone(),
        deliveries: Arc::new(AtomicUsize::new(0)),
        seen: Arc::new(std::sync::Mutex::new(Default::default())),
    });
    let deliveries = flaky.deliveries.clone();
    tasks.push(
        bus.subscribe(
            "test-redelivery",
            erp_proto::subjects::PEDIDO_FATURADO,
            flaky.handler(),
        )
        .await
        .expect("flaky"),
    );
    let third = order(&db, &orders, cli_id, prod_id, "1").await;
    invoice(&db, third).await;
    wait_for("the third exit and every redelivery", || {
        let db = db.clone();
        let deliveries = deliveries.clone();
        async move {
            balance(&db, prod_id).await == (Decimal::from(4), 3)
                && deliveries.load(Ordering::SeqCst) >= 6
        }
    })
    .await;
    assert_eq!(balance(&db, prod_id).await, (Decimal::from(4), 3));
    let mut tx = db.begin_tenant(CLIENT).await.expect("tx");
    let applied: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM stock.inbox WHERE consumer = 'stock-pedido-faturado'",
    )
    .fetch_one(&mut *tx)
    .await
    .expect("inbox");
    assert_eq!(applied, 3);
    // Average cost unchanged by exits; value = 4 x 50.
    let avg: Decimal =
        sqlx::query_scalar("SELECT sald_custo_medio FROM stock.saldos WHERE sald_prod_id = $1")
            .bind(prod_id)
            .fetch_one(&mut *tx)
            .await
            .expect("avg");
    assert_eq!(avg, Decimal::from_str("50").unwrap_or_default());
    tx.commit().await.expect("c");

    // 4. The customer is renamed in catalog: the next order has the new name, the
    //    invoiced ones keep theirs.
    {
        let mut tx = db.begin_tenant(CLIENT).await.expect("tx");
        query::update(
            &mut tx,
            catalog.get("clientes").expect("r"),
            &caller(),
            Some(1),
            &[cli_id.to_string()],
            &body(json!({"CLI_DESCRICAO": "Mecânica Boa Viagem S/A", "CLI_CIDADE": "Olinda"})),
        )
        .await
        .expect("rename");
        tx.commit().await.expect("c");
    }
    wait_for("orders' copy of the renamed customer", || {
        let db = db.clone();
        async move {
            let mut tx = db.begin_tenant(CLIENT).await.expect("tx");
            let name: String =
                sqlx::query_scalar("SELECT descricao FROM orders.clientes WHERE cli_id = $1")
                    .bind(cli_id)
                    .fetch_one(&mut *tx)
                    .await
                    .expect("name");
            name == "Mecânica Boa Viagem S/A"
        }
    })
    .await;
    let fourth = order(&db, &orders, cli_id, prod_id, "1").await;
    let mut tx = db.begin_tenant(CLIENT).await.expect("tx");
    let names: Vec<(i64, String, String)> = sqlx::query_as(
        "SELECT pedf_id, pedf_cli_desc, pedf_cli_cidade FROM orders.pedido WHERE pedf_id IN ($1, $2) ORDER BY pedf_id",
    )
    .bind(first)
    .bind(fourth)
    .fetch_all(&mut *tx)
    .await
    .expect("names");
    assert_eq!(
        names,
        vec![
            (first, "Mecânica Boa Viagem Ltda".into(), "Recife".into()),
            (fourth, "Mecânica Boa Viagem S/A".into(), "Olinda".into()),
        ]
    );
    for t in tasks {
        t.abort();
    }
}
