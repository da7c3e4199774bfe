//! Another client's stock is never visible: registers, ledger reads, product
//! reads and raw reads under row-level security.

use serde_json::json;

use crate::{d, post, rows, run};

#[tokio::test]
async fn another_clients_rows_are_never_visible() {
    let db = crate::db().await;
    let (a, b) = (crate::client(), crate::client());
    post(
        &db,
        a,
        "localestoque",
        json!({"LOCA_DESCRICAO": "DEPÓSITO A", "LOCA_PADRAO": true}),
    )
    .await
    .expect("location");
    let entry = post(&db, a, "saldoestoque", json!({"SALD_PROD_ID": 61, "SALD_TIPO": "E", "SALD_QTDE": "9", "SALD_CUSTO_UNIT": "1.00", "SALD_DATA": "2026-11-23"}))
        .await
        .expect("entry");
    post(
        &db,
        a,
        "barril",
        json!({"BAR_NUMERO": "A-1", "BAR_CAPACIDADE": "50"}),
    )
    .await
    .expect("keg");
    post(
        &db,
        a,
        "requisicao",
        json!({"REQU_DESCRICAO": "A", "REQU_DATA": "2026-11-23"}),
    )
    .await
    .expect("requisition");
    crate::card::catalog_product(
        &db,
        a,
        "criado",
        json!({"PROD_ID": 61, "PROD_EMP_ID": 1, "PROD_DESCRICAO": "PRODUTO DE A"}),
    )
    .await;
    assert_eq!(rows(&db, a, "estoqueprodutos", json!({})).await.len(), 1);

    for name in [
        "localestoque",
        "saldoestoque",
        "barril",
        "requisicao",
        "fichaestoque",
        "consultaprodutos",
        "estoqueprodutos",
    ] {
        let company = if name == "localestoque" {
            None
        } else {
            Some(1)
        };
        let mut tx = db.begin_tenant(b).await.expect("tx");
        let n = erp_platform::resource::query::count(
            &mut tx,
            &crate::res(name),
            &crate::caller(b),
            company,
            &serde_json::Map::new(),
        )
        .await
        .expect("count");
        assert_eq!(n, 0, "{name} of client A seen by B");
    }
    let mut tx = db.begin_tenant(b).await.expect("tx");
    let got = erp_platform::resource::query::get(
        &mut tx,
        &crate::res("saldoestoque"),
        &crate::caller(b),
        Some(1),
        &[entry["SALD_ID"].to_string()],
    )
    .await;
    assert_eq!(got.err().map(|e| e.http_status()), Some(404));
    assert_eq!(
        erp_stock::ledger::balance(&mut tx, b, 1, 61)
            .await
            .expect("balance")
            .qty,
        d("0")
    );
    // Even naming A's client id in SQL, B's transaction sees none of A's rows.
    for table in ["movimentos", "saldos", "saldos_local", "produtos"] {
        let n: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM stock.{table} WHERE client_id = $1"
        ))
        .bind(a)
        .fetch_one(&mut *tx)
        .await
        .expect("raw count");
        assert_eq!(n, 0, "{table}");
    }
    drop(tx);
    let v = run(
        &db,
        b,
        "consultaprodutos",
        "estoquebd",
        &[("PROD_ID", "61".into())],
    )
    .await
    .expect("estoquebd");
    assert_eq!(crate::dec(&v["SALDO_FISICO"]), d("0"));
    let v = run(
        &db,
        a,
        "consultaprodutos",
        "estoquebd",
        &[("PROD_ID", "61".into())],
    )
    .await
    .expect("estoquebd");
    assert_eq!(crate::dec(&v["SALDO_FISICO"]), d("9"));
}
