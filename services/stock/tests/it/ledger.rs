//! The ledger through manual entries and exits: the average cost table, exits that
//! would go below zero, reversal on delete, and concurrent exits on one product.

use std::str::FromStr;

use erp_platform::grpc::Caller;
use erp_platform::resource::query;
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn dec(v: &Value) -> Decimal {
    Decimal::from_str(&v.to_string().replace('"', "")).unwrap_or_default()
}

async fn post(
    db: &erp_platform::db::Db,
    c: &Caller,
    product: i64,
    tipo: &str,
    qty: &str,
    cost: &str,
) -> erp_platform::Result<Value> {
    let registry = erp_stock::resources::registry().map_err(erp_platform::Error::internal)?;
    let res = registry
        .get("saldoestoque")
        .ok_or_else(|| erp_platform::Error::internal("saldoestoque"))?;
    let mut tx = db.begin_tenant(c.client_id).await?;
    let row = query::create(&mut tx, res, c, Some(1), &body(json!({"SALD_PROD_ID": product, "SALD_TIPO": tipo, "SALD_QTDE": qty, "SALD_CUSTO_UNIT": cost, "SALD_DATA": "2026-11-22"}))).await?;
    tx.commit().await?;
    Ok(row)
}

async fn balance(db: &erp_platform::db::Db, c: &Caller, product: i64) -> (Decimal, Decimal) {
    let mut tx = db.begin_tenant(c.client_id).await.expect("tx");
    let b = erp_stock::ledger::balance(&mut tx, c.client_id, 1, product)
        .await
        .expect("balance");
    let ledger: Option<Decimal> = sqlx::query_scalar(
        "SELECT sum(CASE movi_tipo WHEN 'E' THEN movi_qtde ELSE -movi_qtde END) FROM stock.movimentos WHERE movi_prod_id = $1 AND movi_emp_id = 1",
    )
    .bind(product)
    .fetch_one(&mut *tx)
    .await
    .expect("ledger sum");
    assert_eq!(
        ledger.unwrap_or_default(),
        b.qty,
        "the ledger's sum is the balance"
    );
    (b.qty, b.avg_cost)
}

#[tokio::test]
async fn manual_entries_and_exits_keep_the_average_cost_of_the_hand_computed_table() {
    let db = crate::db().await;
    let c = Caller { client_id: crate::client(), user_id: 1, emp_id: 1, privileged: false };
    let d = |s: &str| Decimal::from_str(s).unwrap_or_default();
    post(&db, &c, 7, "E", "10", "5.00").await.expect("in");
    post(&db, &c, 7, "E", "5", "8.00").await.expect("in");
    let out = post(&db, &c, 7, "S", "3", "").await.expect("out");
    assert_eq!(
        dec(&out["SALD_CUSTO_UNIT"]),
        d("6"),
        "an exit leaves at the average cost"
    );
    assert_eq!(balance(&db, &c, 7).await, (d("12"), d("6")));
    let last = post(&db, &c, 7, "E", "8", "7.25").await.expect("in");
    assert_eq!(balance(&db, &c, 7).await, (d("20"), d("6.5")));
    let e = post(&db, &c, 7, "S", "21", "").await.expect_err("too much");
    assert_eq!(e.to_string(), erp_stock::ledger::INSUFFICIENT);
    assert_eq!(e.http_status(), 409);
    assert_eq!(
        balance(&db, &c, 7).await,
        (d("20"), d("6.5")),
        "a refused exit changes nothing"
    );

    // Deleting the last entry writes the reversing movement.
    let registry = erp_stock::resources::registry().expect("registry");
    let res = registry.get("saldoestoque").expect("saldoestoque");
    let mut tx = db.begin_tenant(c.client_id).await.expect("tx");
    query::delete(&mut tx, res, &c, Some(1), &[last["SALD_ID"].to_string()])
        .await
        .expect("delete");
    tx.commit().await.expect("commit");
    assert_eq!(balance(&db, &c, 7).await, (d("12"), d("6")));

    // GET /produtoscustomedio/{id}/{emp}
    let action = res
        .actions
        .iter()
        .find(|a| a.name == "customedio")
        .expect("action");
    let mut tx = db.begin_tenant(c.client_id).await.expect("tx");
    let params = std::collections::HashMap::from([("SALD_PROD_ID".to_string(), "7".to_string())]);
    let v = action
        .run(&mut tx, res, &c, Some(1), &params, Value::Null)
        .await
        .expect("cost");
    assert_eq!(
        (
            dec(&v["QTD_ESTOQUE"]),
            dec(&v["CUSTO_MEDIO"]),
            dec(&v["SALDO_FINANCEIRO"])
        ),
        (d("12"), d("6"), d("72"))
    );
}

#[tokio::test]
async fn fifty_concurrent_exits_leave_the_ledger_sum_equal_to_the_balance() {
    let db = crate::db().await;
    let c = Caller { client_id: crate::client(), user_id: 1, emp_id: 1, privileged: false };
    post(&db, &c, 9, "E", "30", "2.00").await.expect("in");
    let mut tasks = Vec::new();
    for _ in 0..50 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            post(&db, &c, 9, "S", "1", "").await.is_ok()
        }));
    }
    let mut ok = 0;
    for t in tasks {
        if t.await.expect("task") {
            ok += 1;
        }
    }
    assert_eq!(ok, 30, "exactly the stock on hand left");
    let (qty, _) = balance(&db, &c, 9).await;
    assert_eq!(qty, Decimal::ZERO);
}
