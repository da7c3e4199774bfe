//! The consumers' effects applied as the bus would (through `apply_once`): an
//! invoiced order's exits once per event, service-order parts, a quote's
//! requisition, the movement events in the outbox, and 50 concurrent exits.

use erp_platform::bus::{apply_once, Effect, Message};
use erp_proto::orders::v1::{OrdemServicoBaixada, PedidoFaturado, RequisicaoSolicitada, StockLine};
use prost::Message as _;
use serde_json::json;

use crate::{d, dec, post, rows, stock};

fn line(product: i64, qty: &str, item: i64) -> StockLine {
    StockLine {
        product_id: product,
        product_emp_id: 1,
        quantity: qty.into(),
        item,
        location_id: 0,
        variant_id: 0,
    }
}

fn message(id: &str, subject: &str, payload: Vec<u8>) -> Message {
    Message::new(id, subject, payload.into())
}

async fn deliver<E: Effect + 'static>(
    db: &erp_platform::db::Db,
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

fn invoiced(c: i64, pedido: i64, lines: Vec<StockLine>) -> Vec<u8> {
    PedidoFaturado {
        client_id: c,
        emp_id: 1,
        pedido_id: pedido,
        serie: "1".into(),
        customer_id: 9,
        customer_name: "BAR DO ZÉ".into(),
        total: "100.00".into(),
        issued_on: "2026-11-23".into(),
        user_id: 1,
        lines,
        ..Default::default()
    }
    .encode_to_vec()
}

async fn entry(db: &erp_platform::db::Db, c: i64, product: i64, qty: &str, cost: &str) {
    post(db, c, "saldoestoque", json!({"SALD_PROD_ID": product, "SALD_TIPO": "E", "SALD_QTDE": qty, "SALD_CUSTO_UNIT": cost, "SALD_DATA": "2026-11-23"}))
        .await
        .expect("entry");
}

#[tokio::test]
async fn an_invoiced_order_lowers_the_balance_once_per_event() {
    let db = crate::db().await;
    let c = crate::client();
    entry(&db, c, 11, "10", "2.00").await;
    let payload = invoiced(c, 55, vec![line(11, "3", 1), line(12, "2.5", 2)]);
    let event = format!("pedido-{c}-55");
    let first = deliver(
        &db,
        "stock-pedido-faturado",
        c,
        erp_stock::events::InvoicedOrder,
        message(&event, erp_stock::events::PEDIDO_FATURADO, payload.clone()),
    )
    .await
    .expect("first delivery");
    let again = deliver(
        &db,
        "stock-pedido-faturado",
        c,
        erp_stock::events::InvoicedOrder,
        message(&event, erp_stock::events::PEDIDO_FATURADO, payload),
    )
    .await
    .expect("redelivery");
    assert!(first && !again);
    assert_eq!(stock(&db, c, 11).await, (d("7"), d("2")));
    // Product 12 had nothing: an invoiced order is a fact, the balance goes negative.
    assert_eq!(stock(&db, c, 12).await.0, d("-2.5"));

    let card = rows(&db, c, "fichaestoque", json!({"MOVI_ORIGEM": "PEDIDO"})).await;
    let got: Vec<(i64, String, rust_decimal::Decimal)> = card
        .iter()
        .map(|r| {
            (
                r["PROD_ID"].as_i64().unwrap_or_default(),
                r["MOVI_ORIGEM_ID"].as_str().unwrap_or_default().to_string(),
                dec(&r["QTDE_SAIDA"]),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (11, "1/1/55".to_string(), d("3")),
            (12, "1/1/55".to_string(), d("2.5"))
        ]
    );

    // Each movement wrote its event to the outbox.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let payloads: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT payload FROM stock.outbox WHERE client_id = $1 AND subject = $2 ORDER BY created_at, id",
    )
    .bind(c)
    .bind(erp_stock::ledger::MOVEMENT_SUBJECT)
    .fetch_all(&mut *tx)
    .await
    .expect("outbox");
    assert_eq!(payloads.len(), 3, "the manual entry and the two exits");
    let last =
        erp_proto::stock::v1::MovimentoRegistrado::decode(payloads[2].as_slice()).expect("decode");
    assert_eq!(
        (
            last.client_id,
            last.product_id,
            last.kind.as_str(),
            d(&last.quantity),
            d(&last.balance_after),
            last.origin.as_str(),
            last.origin_id.as_str()
        ),
        (c, 12, "S", d("2.5"), d("-2.5"), "PEDIDO", "1/1/55")
    );

    // Manual exits still refuse to go below zero.
    let e = post(
        &db,
        c,
        "saldoestoque",
        json!({"SALD_PROD_ID": 12, "SALD_TIPO": "S", "SALD_QTDE": "1", "SALD_DATA": "2026-11-23"}),
    )
    .await
    .expect_err("manual exit");
    assert_eq!(e.public_message(), erp_stock::ledger::INSUFFICIENT);

    // An event whose payload names another tenant is refused.
    let foreign = invoiced(c + 100_000, 56, vec![line(11, "1", 1)]);
    let e = deliver(
        &db,
        "stock-pedido-faturado",
        c,
        erp_stock::events::InvoicedOrder,
        message(
            &format!("pedido-{c}-56"),
            erp_stock::events::PEDIDO_FATURADO,
            foreign,
        ),
    )
    .await
    .expect_err("other tenant");
    assert_eq!(e.http_status(), 400);
    assert_eq!(stock(&db, c, 11).await, (d("7"), d("2")));
}

#[tokio::test]
async fn service_order_parts_and_a_quote_requisition_leave_stock() {
    let db = crate::db().await;
    let c = crate::client();
    entry(&db, c, 13, "5", "10.00").await;
    let os = OrdemServicoBaixada {
        client_id: c,
        emp_id: 1,
        ordem_id: 70,
        serie: "OS".into(),
        user_id: 1,
        lines: vec![line(13, "2", 1)],
    };
    assert!(deliver(
        &db,
        "stock-os-baixa",
        c,
        erp_stock::events::ServiceOrderParts,
        message(
            &format!("os-{c}-70"),
            erp_stock::events::OS_ESTOQUE_BAIXADO,
            os.encode_to_vec()
        )
    )
    .await
    .expect("os"));
    assert_eq!(stock(&db, c, 13).await, (d("3"), d("10")));
    let card = rows(
        &db,
        c,
        "fichaestoque",
        json!({"PROD_ID": 13, "MOVI_ORIGEM": "ORDEMSERVICO"}),
    )
    .await;
    assert_eq!(card.len(), 1);
    assert_eq!(card[0]["MOVI_ORIGEM_ID"], "1/OS/70");

    let quote = RequisicaoSolicitada {
        client_id: c,
        emp_id: 1,
        orcamento_id: 90,
        serie: "1".into(),
        user_id: 1,
        customer_id: 9,
        lines: vec![line(13, "1", 1), line(14, "4", 2)],
    };
    let msg = message(
        &format!("orc-{c}-90"),
        erp_stock::events::ORCAMENTO_REQUISICAO,
        quote.encode_to_vec(),
    );
    assert!(deliver(
        &db,
        "stock-orcamento-requisicao",
        c,
        erp_stock::events::QuoteRequisition,
        msg.clone()
    )
    .await
    .expect("quote"));
    assert!(!deliver(
        &db,
        "stock-orcamento-requisicao",
        c,
        erp_stock::events::QuoteRequisition,
        msg
    )
    .await
    .expect("again"));
    let docs = rows(&db, c, "requisicao", json!({"REQU_ORCA_ID": 90})).await;
    assert_eq!(docs.len(), 1, "one requisition for the quote");
    assert_eq!(
        (
            docs[0]["REQU_CLI_ID"].as_i64(),
            docs[0]["REQU_ORCA_SERIE"].as_str()
        ),
        (Some(9), Some("1"))
    );
    let lines = rows(
        &db,
        c,
        "requisicaoproduto",
        json!({"REQP_REQU_ID": docs[0]["REQU_ID"]}),
    )
    .await;
    let got: Vec<(i64, rust_decimal::Decimal)> = lines
        .iter()
        .map(|l| {
            (
                l["REQP_PROD_ID"].as_i64().unwrap_or_default(),
                dec(&l["REQP_QTDE"]),
            )
        })
        .collect();
    assert_eq!(got, vec![(13, d("1")), (14, d("4"))]);
    assert_eq!(stock(&db, c, 13).await, (d("2"), d("10")));
    assert_eq!(
        stock(&db, c, 14).await.0,
        d("-4"),
        "the quote's requisition is recorded as issued"
    );
}

#[tokio::test]
async fn fifty_concurrent_invoiced_exits_keep_the_ledger_sum_equal_to_the_balance() {
    let db = crate::db().await;
    let c = crate::client();
    let depot = post(
        &db,
        c,
        "localestoque",
        json!({"LOCA_DESCRICAO": "DEPÓSITO", "LOCA_PADRAO": true}),
    )
    .await
    .expect("location")["LOCA_ID"]
        .as_i64()
        .expect("id");
    entry(&db, c, 15, "30", "3.00").await;
    let mut tasks = Vec::new();
    for i in 0..50 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            let msg = message(
                &format!("pedido-{c}-{i}"),
                erp_stock::events::PEDIDO_FATURADO,
                invoiced(c, 1000 + i, vec![line(15, "1", 1)]),
            );
            deliver(
                &db,
                "stock-pedido-faturado",
                c,
                erp_stock::events::InvoicedOrder,
                msg,
            )
            .await
        }));
    }
    let mut applied = 0;
    for t in tasks {
        if t.await.expect("task").expect("apply") {
            applied += 1;
        }
    }
    assert_eq!(applied, 50);
    assert_eq!(stock(&db, c, 15).await, (d("-20"), d("3")));
    assert_eq!(
        crate::at(&db, c, 15, depot).await,
        d("-20"),
        "all of it from the default location"
    );
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let (moves, last_after): (i64, rust_decimal::Decimal) = sqlx::query_as(
        "SELECT count(*), (array_agg(movi_saldo_apos ORDER BY movi_id DESC))[1] FROM stock.movimentos WHERE movi_prod_id = 15",
    )
    .fetch_one(&mut *tx)
    .await
    .expect("moves");
    assert_eq!(
        (moves, last_after),
        (51, d("-20")),
        "each exit saw the one before it"
    );
}

/// The stock card of one product as (kind, quantity, unit cost, balance after,
/// average cost after, origin id, location), in order.
type CardRow = (
    String,
    rust_decimal::Decimal,
    rust_decimal::Decimal,
    rust_decimal::Decimal,
    rust_decimal::Decimal,
    String,
    Option<i64>,
);

async fn card_of(db: &erp_platform::db::Db, c: i64, product: i64) -> Vec<CardRow> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query_as(
        "SELECT movi_tipo::text, movi_qtde, movi_custo_unit, movi_saldo_apos, movi_custo_medio_apos, movi_origem_id, movi_loca_id
         FROM stock.movimentos WHERE movi_prod_id = $1 ORDER BY movi_id",
    )
    .bind(product)
    .fetch_all(&mut *tx)
    .await
    .expect("card")
}

/// Twelve invoices with repeated and located lines, applied by one tenant as one
/// batch (one lock per product) and by another one event at a time, leave the same
/// stock card, balances per location and average cost.
#[tokio::test]
async fn a_batch_of_exits_leaves_the_stock_card_one_at_a_time_would() {
    let db = crate::db().await;
    let (batch, single) = (crate::client(), crate::client());
    let mut locations = Vec::new();
    for c in [batch, single] {
        let shop = post(
            &db,
            c,
            "localestoque",
            json!({"LOCA_DESCRICAO": "LOJA", "LOCA_PADRAO": true}),
        )
        .await
        .expect("location")["LOCA_ID"]
            .as_i64()
            .expect("id");
        let back = post(&db, c, "localestoque", json!({"LOCA_DESCRICAO": "FUNDOS"}))
            .await
            .expect("location")["LOCA_ID"]
            .as_i64()
            .expect("id");
        locations.push((shop, back));
        entry(&db, c, 21, "40", "2.50").await;
        entry(&db, c, 22, "8", "7.00").await;
        entry(&db, c, 21, "10", "4.00").await; // average (100 + 40) / 50 = 2.80
    }
    let events = |c: i64, back: i64| -> Vec<Message> {
        (0..12)
            .map(|i| {
                let mut lines = vec![line(21, "1.5", 1), line(22, "1", 2), line(21, "2", 3)];
                if i % 3 == 0 {
                    lines[2].location_id = back;
                }
                let mut m = message(
                    &format!("lote-{c}-{i}"),
                    erp_stock::events::PEDIDO_FATURADO,
                    invoiced(c, 300 + i, lines),
                );
                m.headers
                    .push((erp_platform::bus::CLIENT_HEADER.into(), c.to_string()));
                m
            })
            .collect()
    };
    let effect: std::sync::Arc<dyn Effect> = std::sync::Arc::new(erp_stock::events::InvoicedOrder);
    let outcomes = erp_platform::bus::consumer::apply_delivered(
        &db,
        "stock",
        "stock-pedido-faturado",
        &effect,
        &events(batch, locations[0].1),
    )
    .await;
    assert!(outcomes
        .iter()
        .all(|o| *o == erp_platform::bus::Outcome::Ack));
    for m in events(single, locations[1].1) {
        assert!(deliver(
            &db,
            "stock-pedido-faturado",
            single,
            erp_stock::events::InvoicedOrder,
            m
        )
        .await
        .expect("one at a time"));
    }
    for product in [21, 22] {
        let (a, b) = (
            card_of(&db, batch, product).await,
            card_of(&db, single, product).await,
        );
        let strip = |rows: Vec<CardRow>, shop: i64, back: i64| -> Vec<CardRow> {
            // Location ids differ between the tenants; compare their roles.
            rows.into_iter()
                .map(|mut r| {
                    r.6 = r.6.map(|l| {
                        if l == shop {
                            1
                        } else if l == back {
                            2
                        } else {
                            l
                        }
                    });
                    r
                })
                .collect()
        };
        assert_eq!(
            strip(a, locations[0].0, locations[0].1),
            strip(b, locations[1].0, locations[1].1),
            "product {product}: the same stock card"
        );
    }
    // By hand: 50 - 12 x 3.5 = 8 of product 21 at 2.80; 8 - 12 = -4 of product 22.
    for c in [batch, single] {
        assert_eq!(stock(&db, c, 21).await, (d("8"), d("2.8")));
        assert_eq!(stock(&db, c, 22).await, (d("-4"), d("7")));
    }
    // Four invoices took 2 of product 21 from the back room; the rest from the shop.
    assert_eq!(crate::at(&db, batch, 21, locations[0].1).await, d("-8"));
    assert_eq!(crate::at(&db, batch, 21, locations[0].0).await, d("16"));
    let mut tx = db.begin_tenant(batch).await.expect("tx");
    let exits: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM stock.movimentos WHERE movi_origem = 'PEDIDO' AND movi_origem_id LIKE '1/1/3%'",
    )
    .fetch_one(&mut *tx)
    .await
    .expect("exits");
    assert_eq!(exits, 36, "one movement per document line");
}
