//! The stock side of purchases: a finalized purchase enters stock at landed cost
//! (balance and average cost as computed by hand) once, its cancellation undoes it,
//! a cancellation that comes first leaves nothing behind, a batch of purchases of
//! two tenants touches each tenant's rows only; and the whole path over a NATS
//! JetStream server of the test's own, with a redelivery.

use erp_platform::testing::until;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use erp_platform::bus::{self, apply_once, Bus, Effect, Message, NatsBus, Outcome, CLIENT_HEADER};
use erp_platform::db::Db;
use erp_proto::orders::v1::{CompraCancelada, CompraFinalizada, PurchaseItem};
use erp_stock::purchases::{
    CancelledPurchase, FinalizedPurchase, COMPRA_CANCELADA, COMPRA_FINALIZADA,
};
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::json;

use crate::{at, d, dec, post, rows, run, stock};

const FINALIZED: &str = "stock-compra-finalizada";
const CANCELLED: &str = "stock-compra-cancelada";

fn item(product: i64, item: i64, qty: &str, unit: &str, total: &str) -> PurchaseItem {
    PurchaseItem {
        product_id: product,
        product_emp_id: 1,
        quantity: qty.into(),
        unit_cost: unit.into(),
        landed_total: total.into(),
        item,
        location_id: 0,
        variants: Vec::new(),
    }
}

fn finalized(c: i64, compra: i64, items: Vec<PurchaseItem>) -> Vec<u8> {
    CompraFinalizada {
        client_id: c,
        emp_id: 1,
        compra_id: compra,
        supplier_id: 5,
        supplier_name: "DISTRIBUIDORA RECIFE LTDA".into(),
        number: "4567".into(),
        serie: "1".into(),
        model: "55".into(),
        issued_on: "2026-11-20".into(),
        entered_on: "2026-11-23".into(),
        total: "140.00".into(),
        user_id: 1,
        items,
        ..Default::default()
    }
    .encode_to_vec()
}

fn cancelled(c: i64, compra: i64) -> Vec<u8> {
    CompraCancelada { client_id: c, emp_id: 1, compra_id: compra, user_id: 1, items: vec![] }
        .encode_to_vec()
}

fn message(c: i64, id: &str, subject: &str, payload: Vec<u8>) -> Message {
    let mut m = Message::new(id, subject, payload.into());
    m.headers.push((CLIENT_HEADER.into(), c.to_string()));
    m
}

async fn deliver<E: Effect + 'static>(
    db: &Db,
    consumer: &str,
    c: i64,
    effect: E,
    msg: Message,
) -> erp_platform::Result<bool> {
    let id = msg.id.clone();
    apply_once(db, "stock", consumer, &id, c, move |tx| {
        Box::pin(async move { effect.apply(tx, c, &msg).await })
    })
    .await
}

async fn entry(db: &Db, c: i64, product: i64, qty: &str, cost: &str) {
    post(db, c, "saldoestoque", json!({"SALD_PROD_ID": product, "SALD_TIPO": "E", "SALD_QTDE": qty, "SALD_CUSTO_UNIT": cost, "SALD_DATA": "2026-11-23"}))
        .await
        .expect("entry");
}

async fn location(db: &Db, c: i64, name: &str, default: bool) -> i64 {
    post(
        db,
        c,
        "localestoque",
        json!({"LOCA_DESCRICAO": name, "LOCA_PADRAO": default}),
    )
    .await
    .expect("location")["LOCA_ID"]
        .as_i64()
        .expect("id")
}

/// A purchase's line of the stock card: (document, kind, quantity, unit cost,
/// value, balance after, average cost after).
type CardLine = (String, String, Decimal, Decimal, Decimal, Decimal, Decimal);

async fn card(db: &Db, c: i64, product: i64) -> Vec<CardLine> {
    rows(
        db,
        c,
        "fichaestoque",
        json!({"PROD_ID": product, "MOVI_ORIGEM": "COMPRA"}),
    )
    .await
    .iter()
    .map(|r| {
        (
            r["MOVI_DOCUMENTO"].as_str().unwrap_or_default().to_string(),
            r["MOVI_TIPO"].as_str().unwrap_or_default().to_string(),
            dec(&r["MOVI_QTDE"]),
            dec(&r["MOVI_CUSTO_UNIT"]),
            dec(&r["VALOR_MOVIMENTO"]),
            dec(&r["SALDO"]),
            dec(&r["CUSTO_MEDIO"]),
        )
    })
    .collect()
}

/// `SELECT count(*) ... WHERE client_id = $1 ...` for tenant `c`.
async fn count(db: &Db, c: i64, sql: &str) -> i64 {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query_scalar(sql)
        .bind(c)
        .fetch_one(&mut *tx)
        .await
        .expect("count")
}

/// By hand: product 31 has 10 at 5.00 (50.00); the purchase brings 20 landed at
/// 130.00 (6.50 each): (50 + 130) / 30 = 6.00. Product 32 (nothing before) gets 3
/// landed at 10.00 in the back room: 3.3333 each, the average 10 / 3 = 3.3333.
/// Cancelled: (30 x 6 - 130) / 10 = 5.00 and 3 - 3 = 0.
#[tokio::test]
async fn a_purchase_enters_at_landed_cost_once_and_its_cancellation_undoes_it() {
    let db = crate::db().await;
    let c = crate::client();
    let shop = location(&db, c, "LOJA", true).await;
    let back = location(&db, c, "FUNDOS", false).await;
    entry(&db, c, 31, "10", "5.00").await;
    let mut located = item(32, 2, "3", "3.3333", "10.00");
    located.location_id = back;
    let payload = finalized(c, 123, vec![item(31, 1, "20", "6.50", "130.00"), located]);
    let fact = format!("compra-{c}-123");
    let first = deliver(
        &db,
        FINALIZED,
        c,
        FinalizedPurchase,
        message(c, &fact, COMPRA_FINALIZADA, payload.clone()),
    )
    .await
    .expect("finalization");
    let again = deliver(
        &db,
        FINALIZED,
        c,
        FinalizedPurchase,
        message(c, &fact, COMPRA_FINALIZADA, payload.clone()),
    )
    .await
    .expect("redelivery");
    assert!(first && !again, "the redelivery is skipped by the inbox");
    assert_eq!(stock(&db, c, 31).await, (d("30"), d("6")));
    assert_eq!(stock(&db, c, 32).await, (d("3"), d("3.3333")));
    assert_eq!(
        at(&db, c, 31, shop).await,
        d("30"),
        "the manual entry and the purchase, in the default location"
    );
    assert_eq!(at(&db, c, 32, back).await, d("3"), "the item's location");

    // The stock card shows each item's entry, its document and its cost.
    assert_eq!(
        card(&db, c, 31).await,
        vec![(
            "Compra 123, item 1".to_string(),
            "E".to_string(),
            d("20"),
            d("6.5"),
            d("130"),
            d("30"),
            d("6")
        )]
    );
    assert_eq!(
        card(&db, c, 32).await,
        vec![(
            "Compra 123, item 2".to_string(),
            "E".to_string(),
            d("3"),
            d("3.3333"),
            d("10"),
            d("3"),
            d("3.3333")
        )]
    );
    // The last entry cost is the purchase's.
    let last = run(
        &db,
        c,
        "consultaprodutos",
        "ultimocusto",
        &[("PROD_ID", "31".into())],
    )
    .await
    .expect("last cost");
    assert_eq!(
        (dec(&last["ULTIMO_CUSTO"]), last["ORIGEM"].as_str()),
        (d("6.5"), Some("COMPRA"))
    );

    // The same purchase finalized again under another event id enters nothing.
    assert!(deliver(
        &db,
        FINALIZED,
        c,
        FinalizedPurchase,
        message(c, &format!("{fact}-bis"), COMPRA_FINALIZADA, payload)
    )
    .await
    .expect("second fact"));
    assert_eq!(stock(&db, c, 31).await, (d("30"), d("6")));

    // The recalculation from the movements gives the same (the landed total is kept).
    let v = run(
        &db,
        c,
        "consultaprodutos",
        "recalculaestoque",
        &[("PROD_ID", "32".into())],
    )
    .await
    .expect("recalculation");
    assert_eq!(v["CORRIGIDO"], false);

    // Cancelled: the entries are undone, balance and average cost as before; twice,
    // once.
    let cancel = format!("cancela-{c}-123");
    assert!(deliver(
        &db,
        CANCELLED,
        c,
        CancelledPurchase,
        message(c, &cancel, COMPRA_CANCELADA, cancelled(c, 123))
    )
    .await
    .expect("cancellation"));
    assert!(!deliver(
        &db,
        CANCELLED,
        c,
        CancelledPurchase,
        message(c, &cancel, COMPRA_CANCELADA, cancelled(c, 123))
    )
    .await
    .expect("redelivered cancellation"));
    assert!(deliver(
        &db,
        CANCELLED,
        c,
        CancelledPurchase,
        message(
            c,
            &format!("{cancel}-bis"),
            COMPRA_CANCELADA,
            cancelled(c, 123)
        )
    )
    .await
    .expect("second cancellation"));
    assert_eq!(stock(&db, c, 31).await, (d("10"), d("5")));
    assert_eq!(stock(&db, c, 32).await.0, d("0"));
    assert_eq!(at(&db, c, 31, shop).await, d("10"));
    assert_eq!(at(&db, c, 32, back).await, d("0"));
    assert_eq!(
        card(&db, c, 31).await,
        vec![
            (
                "Compra 123, item 1".to_string(),
                "E".to_string(),
                d("20"),
                d("6.5"),
                d("130"),
                d("30"),
                d("6")
            ),
            (
                "Compra 123, item 1 (cancelada)".to_string(),
                "S".to_string(),
                d("20"),
                d("6.5"),
                d("130"),
                d("10"),
                d("5")
            ),
        ]
    );
    let v = run(
        &db,
        c,
        "consultaprodutos",
        "recalculaestoque",
        &[("PROD_ID", "31".into())],
    )
    .await
    .expect("recalculation");
    assert_eq!(v["CORRIGIDO"], false, "{v}");
    // Each movement published its event.
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM stock.outbox WHERE client_id = $1 AND subject = 'erp.stock.movimento.registrado'").await,
        5,
        "the manual entry, two entries and two undos"
    );
}

#[tokio::test]
async fn goods_sold_before_the_cancellation_leave_the_balance_below_zero() {
    let db = crate::db().await;
    let c = crate::client();
    assert!(deliver(
        &db,
        FINALIZED,
        c,
        FinalizedPurchase,
        message(
            c,
            &format!("compra-{c}-7"),
            COMPRA_FINALIZADA,
            finalized(c, 7, vec![item(33, 1, "4", "2.50", "10.00")])
        )
    )
    .await
    .expect("finalization"));
    post(
        &db,
        c,
        "saldoestoque",
        json!({"SALD_PROD_ID": 33, "SALD_TIPO": "S", "SALD_QTDE": "3", "SALD_DATA": "2026-11-23"}),
    )
    .await
    .expect("sold");
    assert!(deliver(
        &db,
        CANCELLED,
        c,
        CancelledPurchase,
        message(
            c,
            &format!("cancela-{c}-7"),
            COMPRA_CANCELADA,
            cancelled(c, 7)
        )
    )
    .await
    .expect("cancellation"));
    assert_eq!(stock(&db, c, 33).await, (d("-3"), d("2.5")));
}

#[tokio::test]
async fn a_cancellation_applied_before_its_finalization_leaves_nothing() {
    let db = crate::db().await;
    let c = crate::client();
    entry(&db, c, 34, "2", "1.00").await;
    assert!(deliver(
        &db,
        CANCELLED,
        c,
        CancelledPurchase,
        message(
            c,
            &format!("cancela-{c}-9"),
            COMPRA_CANCELADA,
            cancelled(c, 9)
        )
    )
    .await
    .expect("cancellation first"));
    assert_eq!(
        stock(&db, c, 34).await,
        (d("2"), d("1")),
        "no phantom negative stock"
    );
    assert!(deliver(
        &db,
        FINALIZED,
        c,
        FinalizedPurchase,
        message(
            c,
            &format!("compra-{c}-9"),
            COMPRA_FINALIZADA,
            finalized(c, 9, vec![item(34, 1, "5", "3.00", "15.00")])
        )
    )
    .await
    .expect("finalization after"));
    assert_eq!(
        stock(&db, c, 34).await,
        (d("2"), d("1")),
        "the cancelled purchase enters nothing"
    );
    assert_eq!(
        count(
            &db,
            c,
            "SELECT count(*) FROM stock.movimentos WHERE client_id = $1 AND movi_origem = 'COMPRA'"
        )
        .await,
        0
    );
    assert_eq!(
        count(&db, c, "SELECT count(*) FROM stock.compras WHERE client_id = $1 AND comp_id = 9 AND comp_situacao = 'C'").await,
        1
    );
}

/// Two tenants' purchases in one delivered batch, with a redelivered event, an
/// event whose payload names another tenant and one that does not decode: each
/// tenant gets its own purchases only (one movement per item), the bad events are
/// refused and acknowledged, the good ones applied once.
#[tokio::test]
async fn a_batch_of_purchases_of_two_tenants_touches_each_tenants_rows_only() {
    let db = crate::db().await;
    let (a, b) = (crate::client(), crate::client());
    entry(&db, a, 41, "10", "5.00").await;
    let mut batch = Vec::new();
    for i in 0..4 {
        // Product 41 twice per purchase (two items), product 42 once.
        let items = vec![
            item(41, 1, "2", "6.00", "12.00"),
            item(42, 2, "1", "4.00", "4.00"),
            item(41, 3, "1", "9.00", "9.00"),
        ];
        batch.push(message(
            a,
            &format!("lote-{a}-{i}"),
            COMPRA_FINALIZADA,
            finalized(a, 500 + i, items),
        ));
        batch.push(message(
            b,
            &format!("lote-{b}-{i}"),
            COMPRA_FINALIZADA,
            finalized(b, 500 + i, vec![item(41, 1, "100", "1.00", "100.00")]),
        ));
    }
    batch.push(batch[0].clone());
    batch.push(message(
        a,
        &format!("alheio-{a}"),
        COMPRA_FINALIZADA,
        finalized(b, 600, vec![item(41, 1, "1000", "1", "1000")]),
    ));
    batch.push(message(
        a,
        &format!("lixo-{a}"),
        COMPRA_FINALIZADA,
        vec![0xff, 0xff, 0xff],
    ));
    let effect: Arc<dyn Effect> = Arc::new(FinalizedPurchase);
    let outcomes = bus::consumer::apply_delivered(&db, "stock", FINALIZED, &effect, &batch).await;
    assert!(outcomes.iter().all(|o| *o == Outcome::Ack), "{outcomes:?}");

    // Tenant a, by hand: 10 at 5.00 (50); each purchase adds 2 for 12.00 and 1 for
    // 9.00, each step's average rounded to 4 places as the ledger keeps it:
    // 12 at 5.1667, 13 at 5.4616, 15 at 5.5334, 16 at 5.7501, 18 at 5.7779,
    // 19 at 5.9475, 21 at 5.9525, 22 at 6.0910 (134 / 22 = 6.0909... unrounded).
    let (qty, avg) = stock(&db, a, 41).await;
    assert_eq!(qty, d("22"));
    let mut want = (d("10"), d("5"));
    let mut steps = Vec::new();
    for _ in 0..4 {
        for (q, total) in [("2", "12"), ("1", "9")] {
            let (bq, ba) = want;
            let nq = bq + d(q);
            let na = ((bq * ba + d(total)) / nq)
                .round_dp_with_strategy(4, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
            want = (nq, na);
            steps.push(want);
        }
    }
    assert_eq!((qty, avg), want);
    assert_eq!(avg, d("6.0910"));
    let got: Vec<(Decimal, Decimal)> = card(&db, a, 41).await.iter().map(|r| (r.5, r.6)).collect();
    assert_eq!(got, steps, "one movement per item, in order");
    assert_eq!(stock(&db, a, 42).await, (d("4"), d("4")));

    // Tenant b has its own four purchases only; the payload naming b inside a's
    // batch was refused, not applied to either.
    assert_eq!(stock(&db, b, 41).await, (d("400"), d("1")));
    assert_eq!(stock(&db, b, 42).await, (d("0"), d("0")));
    assert_eq!(
        count(
            &db,
            a,
            "SELECT count(*) FROM stock.compras WHERE client_id = $1"
        )
        .await,
        4
    );
    assert_eq!(
        count(
            &db,
            b,
            "SELECT count(*) FROM stock.compras WHERE client_id = $1"
        )
        .await,
        4
    );
    assert_eq!(
        count(&db, a, "SELECT count(*) FROM stock.inbox WHERE client_id = $1 AND consumer = 'stock-compra-finalizada'").await,
        4,
        "the refused events left no inbox row"
    );

    // b's cancellation of its purchase 500 does not touch a's purchase 500.
    assert!(deliver(
        &db,
        CANCELLED,
        b,
        CancelledPurchase,
        message(
            b,
            &format!("cancela-{b}-500"),
            COMPRA_CANCELADA,
            cancelled(b, 500)
        )
    )
    .await
    .expect("b cancels"));
    assert_eq!(stock(&db, b, 41).await, (d("300"), d("1")));
    assert_eq!(stock(&db, a, 41).await, (d("22"), d("6.0910")));
    // A cancellation naming another tenant is refused.
    let e = deliver(
        &db,
        CANCELLED,
        a,
        CancelledPurchase,
        message(
            a,
            &format!("cancela-{a}-x"),
            COMPRA_CANCELADA,
            cancelled(b, 501),
        ),
    )
    .await
    .expect_err("other tenant");
    assert_eq!(e.http_status(), 400);
    assert_eq!(stock(&db, b, 41).await, (d("300"), d("1")));
}

/// A second subscription to the finalizations that applies them through the same
/// inbox as stock's consumer and loses its first acknowledgement of each (the
/// server delivers it again).
fn flaky(db: Db, deliveries: Arc<AtomicUsize>) -> bus::Handler {
    let seen = Arc::new(std::sync::Mutex::new(
        std::collections::HashSet::<String>::new(),
    ));
    Arc::new(move |msg: Message| {
        let (db, deliveries, seen) = (db.clone(), deliveries.clone(), seen.clone());
        Box::pin(async move {
            let client: i64 = msg
                .header(CLIENT_HEADER)
                .and_then(|c| c.parse().ok())
                .unwrap_or_default();
            let id = msg.id.clone();
            apply_once(&db, "stock", FINALIZED, &id, client, |tx| {
                Box::pin(async move { FinalizedPurchase.apply(tx, client, &msg).await })
            })
            .await?;
            deliveries.fetch_add(1, Ordering::SeqCst);
            if seen.lock().map(|mut s| s.insert(id)).unwrap_or(false) {
                Err(erp_platform::Error::Unavailable("ack lost".into()))
            } else {
                Ok(())
            }
        })
    })
}

#[tokio::test]
async fn over_nats_a_purchase_enters_once_and_its_cancellation_undoes_it() {
    let db = crate::db().await;
    let c = crate::client();
    entry(&db, c, 35, "10", "5.00").await;
    let nats = erp_platform::testing::NatsServer::start();
    let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&nats.url()).await.expect("nats"));
    let mut tasks = Vec::new();
    for def in erp_stock::events::consumers()
        .into_iter()
        .filter(|def| def.durable.starts_with("stock-compra-"))
    {
        tasks.push(
            bus::consume(
                &bus,
                db.clone(),
                "stock",
                def.durable,
                def.filter,
                def.effect,
                256,
            )
            .await
            .expect("consumer"),
        );
    }
    assert_eq!(tasks.len(), 2, "both purchase consumers are served");
    let deliveries = Arc::new(AtomicUsize::new(0));
    tasks.push(
        bus.subscribe(
            "test-compra-redelivery",
            COMPRA_FINALIZADA,
            flaky(db.clone(), deliveries.clone()),
        )
        .await
        .expect("flaky"),
    );

    let fact = message(
        c,
        &format!("nats-compra-{c}-77"),
        COMPRA_FINALIZADA,
        finalized(c, 77, vec![item(35, 1, "20", "6.50", "130.00")]),
    );
    bus.publish(fact.clone()).await.expect("publish");
    // Published again with the same id (the relay after a crash): dropped.
    bus.publish(fact).await.expect("publish again");
    until("the entry and its redelivery", 30, || {
        let (db, deliveries) = (db.clone(), deliveries.clone());
        async move {
            stock(&db, c, 35).await == (d("30"), d("6")) && deliveries.load(Ordering::SeqCst) >= 2
        }
    })
    .await;
    assert_eq!(
        count(
            &db,
            c,
            "SELECT count(*) FROM stock.movimentos WHERE client_id = $1 AND movi_origem = 'COMPRA'"
        )
        .await,
        1,
        "one entry, whoever applied it and however often it came"
    );

    bus.publish(message(
        c,
        &format!("nats-cancela-{c}-77"),
        COMPRA_CANCELADA,
        cancelled(c, 77),
    ))
    .await
    .expect("publish cancellation");
    until("the undo", 30, || {
        let db = db.clone();
        async move { stock(&db, c, 35).await == (d("10"), d("5")) }
    })
    .await;
    assert_eq!(
        count(
            &db,
            c,
            "SELECT count(*) FROM stock.movimentos WHERE client_id = $1 AND movi_origem = 'COMPRA'"
        )
        .await,
        2
    );
    for t in tasks {
        t.abort();
    }
}
