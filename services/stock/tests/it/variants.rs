//! Stock by grid variant: a purchase with a grid enters per variant, an invoiced
//! line naming a variant takes it out (once per event), a cancellation undoes the
//! variants' entries, the recalculation rebuilds the variants' quantities from the
//! movements, a manual exit of a variant finds its quantity, and
//! `POST /produtosgradeestoque/{emp}` answers them, for its tenant only.

use erp_platform::bus::{apply_once, Effect, Message, CLIENT_HEADER};
use erp_platform::db::Db;
use erp_proto::orders::v1::{
    CompraCancelada, CompraFinalizada, PedidoFaturado, PurchaseItem, StockLine, VariantQuantity,
};
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::{caller, d, dec, res, rows, stock};

const PRODUCT: i64 = 71;

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

fn grid(of: &[(i64, &str)]) -> Vec<VariantQuantity> {
    of.iter()
        .map(|(v, q)| VariantQuantity { variant_id: *v, quantity: q.to_string() })
        .collect()
}

/// Purchase 900: 10 of the product landed at 100.00, a grid of 4 (variant 501)
/// and 3 (variant 502); 3 enter without a variant.
fn purchase(c: i64) -> Vec<u8> {
    CompraFinalizada {
        client_id: c,
        emp_id: 1,
        compra_id: 900,
        supplier_id: 5,
        supplier_name: "CONFECÇÕES SUL".into(),
        total: "100.00".into(),
        user_id: 1,
        items: vec![PurchaseItem {
            product_id: PRODUCT,
            product_emp_id: 1,
            quantity: "10".into(),
            unit_cost: "10.00".into(),
            landed_total: "100.00".into(),
            item: 1,
            location_id: 0,
            variants: grid(&[(501, "4"), (502, "3")]),
        }],
        ..Default::default()
    }
    .encode_to_vec()
}

/// Order 77: 1 of variant 501 and 2 of the product without a variant.
fn invoice(c: i64) -> Vec<u8> {
    let line = |item, qty: &str, variant| StockLine {
        product_id: PRODUCT,
        product_emp_id: 1,
        quantity: qty.into(),
        item,
        location_id: 0,
        variant_id: variant,
    };
    PedidoFaturado {
        client_id: c,
        emp_id: 1,
        pedido_id: 77,
        serie: "1".into(),
        customer_id: 3,
        total: "90.00".into(),
        issued_on: "2026-11-27".into(),
        user_id: 1,
        lines: vec![line(1, "1", 501), line(2, "2", 0)],
        ..Default::default()
    }
    .encode_to_vec()
}

/// `POST /produtosgradeestoque/{emp}` with `body`, as tenant `c`: (variant,
/// location, quantity).
async fn by_variant(
    db: &Db,
    c: i64,
    body: Value,
) -> erp_platform::Result<Vec<(i64, Option<i64>, Decimal)>> {
    let r = res("consultaprodutos");
    let a = r
        .actions
        .iter()
        .find(|a| a.name == "gradeestoque")
        .expect("gradeestoque");
    let mut tx = db.begin_tenant(c).await?;
    let out = a
        .run(&mut tx, &r, &caller(c), Some(1), &Default::default(), body)
        .await?;
    tx.commit().await?;
    Ok(out
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| {
                    (
                        r["PRGR_ID"].as_i64().unwrap_or_default(),
                        r["LOCA_ID"].as_i64(),
                        dec(&r["SALDO_FISICO"]),
                    )
                })
                .collect()
        })
        .unwrap_or_default())
}

/// The variants' company quantities from `saldos_grade`.
async fn variants(db: &Db, c: i64) -> Vec<(i64, Decimal)> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    erp_stock::ledger::variant_balances(&mut tx, c, 1, PRODUCT, None)
        .await
        .expect("variants")
}

#[tokio::test]
async fn a_grid_purchase_and_an_invoiced_variant_move_the_variants_and_the_product() {
    let db = crate::db().await;
    let c = crate::client();
    let entered = deliver(
        &db,
        "stock-compra-finalizada",
        c,
        erp_stock::purchases::FinalizedPurchase,
        message(
            c,
            &format!("compra-{c}-900"),
            erp_stock::purchases::COMPRA_FINALIZADA,
            purchase(c),
        ),
    )
    .await
    .expect("purchase");
    assert!(entered);
    // The product's balance and average cost are the whole item's: 10 at 100.00.
    assert_eq!(stock(&db, c, PRODUCT).await, (d("10"), d("10")));
    assert_eq!(variants(&db, c).await, vec![(501, d("4")), (502, d("3"))]);
    // The stock card: one entry per variant and one for the rest, each with its
    // share of the landed total (40.00 + 30.00 + 30.00).
    let card: Vec<(Option<i64>, Decimal, Decimal)> = rows(
        &db,
        c,
        "fichaestoque",
        json!({"PROD_ID": PRODUCT, "MOVI_ORIGEM": "COMPRA"}),
    )
    .await
    .iter()
    .map(|r| {
        (
            r["MOVI_PRGR_ID"].as_i64(),
            dec(&r["MOVI_QTDE"]),
            dec(&r["VALOR_MOVIMENTO"]),
        )
    })
    .collect();
    assert_eq!(
        card,
        vec![
            (Some(501), d("4"), d("40.00")),
            (Some(502), d("3"), d("30.00")),
            (None, d("3"), d("30.00")),
        ]
    );

    // The invoice, delivered twice: applied once.
    let event = format!("pedido-{c}-77");
    for expected in [true, false] {
        let applied = deliver(
            &db,
            "stock-pedido-faturado",
            c,
            erp_stock::events::InvoicedOrder,
            message(c, &event, erp_stock::events::PEDIDO_FATURADO, invoice(c)),
        )
        .await
        .expect("invoice");
        assert_eq!(applied, expected);
    }
    assert_eq!(stock(&db, c, PRODUCT).await, (d("7"), d("10")));
    assert_eq!(variants(&db, c).await, vec![(501, d("3")), (502, d("3"))]);
    assert_eq!(
        by_variant(&db, c, json!({"PROD_ID": PRODUCT}))
            .await
            .expect("call"),
        vec![(501, None, d("3")), (502, None, d("3"))]
    );
    // No location: the quantities sit in location 0.
    assert_eq!(
        by_variant(&db, c, json!({"PROD_ID": PRODUCT, "LOCA_ID": 0}))
            .await
            .expect("call"),
        vec![(501, Some(0), d("3")), (502, Some(0), d("3"))]
    );
    assert_eq!(
        by_variant(&db, c, json!({"PROD_ID": PRODUCT, "LOCA_ID": 9}))
            .await
            .expect("call"),
        vec![]
    );

    // Another tenant sees none of it.
    let other = crate::client();
    assert_eq!(
        by_variant(&db, other, json!({"PROD_ID": PRODUCT}))
            .await
            .expect("call"),
        vec![]
    );

    // The recalculation rebuilds the same quantities from the movements.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query("UPDATE stock.saldos_grade SET salg_qtde = 99 WHERE salg_prod_id = $1")
        .bind(PRODUCT)
        .execute(&mut *tx)
        .await
        .expect("spoil");
    erp_stock::ledger::recalculate(&mut tx, c, 1, PRODUCT)
        .await
        .expect("recalculate");
    tx.commit().await.expect("commit");
    assert_eq!(variants(&db, c).await, vec![(501, d("3")), (502, d("3"))]);

    // The cancellation undoes the purchase's entries, variants included: the sold
    // one of variant 501 leaves it below zero (the cancellation is a fact).
    let undone = deliver(
        &db,
        "stock-compra-cancelada",
        c,
        erp_stock::purchases::CancelledPurchase,
        message(
            c,
            &format!("cancel-{c}-900"),
            erp_stock::purchases::COMPRA_CANCELADA,
            CompraCancelada { client_id: c, emp_id: 1, compra_id: 900, user_id: 1, items: vec![] }
                .encode_to_vec(),
        ),
    )
    .await
    .expect("cancel");
    assert!(undone);
    assert_eq!(stock(&db, c, PRODUCT).await.0, d("-3"));
    assert_eq!(variants(&db, c).await, vec![(501, d("-1")), (502, d("0"))]);
}

#[tokio::test]
async fn a_manual_exit_of_a_variant_must_find_its_quantity() {
    let db = crate::db().await;
    let c = crate::client();
    let movement = |kind, qty: &str, variant| {
        let mut m =
            erp_stock::ledger::Movement::new(1, PRODUCT, kind, d(qty), "SALDOESTOQUE", "1".into());
        m.variant = variant;
        m.unit_cost = d("5");
        m
    };
    let mut tx = db.begin_tenant(c).await.expect("tx");
    erp_stock::ledger::record_many(
        &mut tx,
        c,
        &[
            movement(erp_stock::ledger::Kind::Entry, "5", None),
            movement(erp_stock::ledger::Kind::Entry, "2", Some(601)),
        ],
    )
    .await
    .expect("entries");
    tx.commit().await.expect("commit");
    // The product has 7, the variant 2: 3 of the variant are refused.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let refused = erp_stock::ledger::record(
        &mut tx,
        c,
        &movement(erp_stock::ledger::Kind::Exit, "3", Some(601)),
    )
    .await
    .err()
    .map(|e| e.public_message());
    assert_eq!(
        refused.as_deref(),
        Some(erp_stock::ledger::INSUFFICIENT_VARIANT)
    );
    drop(tx);
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let invalid = erp_stock::ledger::record(
        &mut tx,
        c,
        &movement(erp_stock::ledger::Kind::Entry, "1", Some(-4)),
    )
    .await
    .err()
    .map(|e| e.public_message());
    assert_eq!(invalid.as_deref(), Some("Variação da grade inválida."));
    drop(tx);
    assert_eq!(variants(&db, c).await, vec![(601, d("2"))]);
    assert_eq!(stock(&db, c, PRODUCT).await.0, d("7"));
}
