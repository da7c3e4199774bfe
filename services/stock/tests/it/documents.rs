//! Corrections, transfers and requisitions: what each posts to the company and
//! per-location balances, and that deleting reverses it.

use serde_json::{json, Value};

use crate::{at, d, dec, post, remove, rows, run, stock};

async fn locations(db: &erp_platform::db::Db, c: i64) -> (i64, i64) {
    let a = post(
        db,
        c,
        "localestoque",
        json!({"LOCA_DESCRICAO": "DEPÓSITO", "LOCA_PADRAO": true}),
    )
    .await
    .expect("depósito");
    let b = post(db, c, "localestoque", json!({"LOCA_DESCRICAO": "LOJA"}))
        .await
        .expect("loja");
    (
        a["LOCA_ID"].as_i64().expect("id"),
        b["LOCA_ID"].as_i64().expect("id"),
    )
}

async fn entry(
    db: &erp_platform::db::Db,
    c: i64,
    product: i64,
    qty: &str,
    cost: &str,
    location: Option<i64>,
) -> Value {
    post(db, c, "saldoestoque", json!({"SALD_PROD_ID": product, "SALD_TIPO": "E", "SALD_QTDE": qty, "SALD_CUSTO_UNIT": cost, "SALD_LOCA_ID": location, "SALD_DATA": "2026-11-23"}))
        .await
        .expect("entry")
}

#[tokio::test]
async fn a_transfer_moves_stock_between_locations_and_keeps_the_company_total() {
    let db = crate::db().await;
    let c = crate::client();
    let (depot, shop) = locations(&db, c).await;
    entry(&db, c, 5, "10", "4.00", Some(depot)).await;
    assert_eq!(
        (at(&db, c, 5, depot).await, at(&db, c, 5, shop).await),
        (d("10"), d("0"))
    );

    let same = post(&db, c, "transferencialocal", json!({"TRLO_LOCA_ORIGEM": depot, "TRLO_LOCA_DESTINO": depot, "TRLO_DATA": "2026-11-23", "TRLO_OBS": "x"}))
        .await
        .expect_err("same location");
    assert_eq!(
        same.public_message(),
        "O local de destino deve ser diferente do local de origem."
    );

    let t = post(&db, c, "transferencialocal", json!({"TRLO_LOCA_ORIGEM": depot, "TRLO_LOCA_DESTINO": shop, "TRLO_DATA": "2026-11-23", "TRLO_OBS": "Reposição"}))
        .await
        .expect("transfer");
    let trlo = t["TRLO_ID"].as_i64().expect("id");
    let line = |qty: &str| json!({"TRLP_TRLO_ID": trlo, "TRLP_PROD_ID": 5, "TRLP_QTDE": qty, "TRLP_OBS": "gôndola"});
    post(&db, c, "transferencialocalproduto", line("4"))
        .await
        .expect("line 4");
    assert_eq!(
        stock(&db, c, 5).await,
        (d("10"), d("4")),
        "company total and cost unchanged"
    );
    assert_eq!(
        (at(&db, c, 5, depot).await, at(&db, c, 5, shop).await),
        (d("6"), d("4"))
    );
    post(&db, c, "transferencialocalproduto", line("1"))
        .await
        .expect("line 1");
    assert_eq!(
        (at(&db, c, 5, depot).await, at(&db, c, 5, shop).await),
        (d("5"), d("5"))
    );

    // More than the origin holds is refused, and changes nothing.
    let e = post(&db, c, "transferencialocalproduto", line("6"))
        .await
        .expect_err("too much");
    assert_eq!(
        e.public_message(),
        erp_stock::ledger::INSUFFICIENT_AT_LOCATION
    );
    assert_eq!(
        (at(&db, c, 5, depot).await, at(&db, c, 5, shop).await),
        (d("5"), d("5"))
    );

    // PUT agrupar: the two lines of product 5 become one of 5.
    let merged = run(
        &db,
        c,
        "transferencialocalproduto",
        "agrupar",
        &[("TRLP_TRLO_ID", trlo.to_string())],
    )
    .await
    .expect("agrupar");
    let merged = merged.as_array().cloned().unwrap_or_default();
    assert_eq!(merged.len(), 1);
    assert_eq!(dec(&merged[0]["TRLP_QTDE"]), d("5"));
    let listed = rows(
        &db,
        c,
        "transferencialocalproduto",
        json!({"TRLP_TRLO_ID": trlo}),
    )
    .await;
    assert_eq!(listed.len(), 1);

    // GET /produtosmultiestoquebd: one row per location.
    let per = run(
        &db,
        c,
        "consultaprodutos",
        "multiestoquebd",
        &[("PROD_ID", "5".into())],
    )
    .await
    .expect("multiestoque");
    let per: Vec<(String, rust_decimal::Decimal)> = per
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|r| {
            (
                r["LOCA_DESCRICAO"].as_str().unwrap_or_default().to_string(),
                dec(&r["SALDO_FISICO"]),
            )
        })
        .collect();
    assert_eq!(
        per,
        vec![
            ("DEPÓSITO".to_string(), d("5")),
            ("LOJA".to_string(), d("5"))
        ]
    );

    // Deleting the merged line moves its 5 back.
    remove(&db, c, "transferencialocalproduto", &merged[0]["TRLP_ID"])
        .await
        .expect("delete line");
    assert_eq!(
        (at(&db, c, 5, depot).await, at(&db, c, 5, shop).await),
        (d("10"), d("0"))
    );
    assert_eq!(stock(&db, c, 5).await, (d("10"), d("4")));

    // Deleting a whole transfer moves every line back.
    post(&db, c, "transferencialocalproduto", line("3"))
        .await
        .expect("line 3");
    assert_eq!(at(&db, c, 5, shop).await, d("3"));
    remove(&db, c, "transferencialocal", &Value::from(trlo))
        .await
        .expect("delete transfer");
    assert_eq!(
        (at(&db, c, 5, depot).await, at(&db, c, 5, shop).await),
        (d("10"), d("0"))
    );
    assert!(rows(
        &db,
        c,
        "transferencialocalproduto",
        json!({"TRLP_TRLO_ID": trlo})
    )
    .await
    .is_empty());
    assert_eq!(stock(&db, c, 5).await, (d("10"), d("4")));
}

#[tokio::test]
async fn requisition_lines_are_exits_and_deleting_the_requisition_returns_them() {
    let db = crate::db().await;
    let c = crate::client();
    entry(&db, c, 6, "8", "2.50", None).await;
    let r = post(
        &db,
        c,
        "requisicao",
        json!({"REQU_DESCRICAO": "Manutenção", "REQU_DATA": "2026-11-23"}),
    )
    .await
    .expect("requisition");
    let requ = r["REQU_ID"].as_i64().expect("id");
    let line = |qty: &str| json!({"REQP_REQU_ID": requ, "REQP_PROD_ID": 6, "REQP_QTDE": qty, "REQP_OBS": "uso"});
    let l1 = post(&db, c, "requisicaoproduto", line("3"))
        .await
        .expect("line");
    assert_eq!(
        dec(&l1["REQP_CUSTO_UNIT"]),
        d("2.5"),
        "leaves at the average cost"
    );
    post(&db, c, "requisicaoproduto", line("2"))
        .await
        .expect("line");
    assert_eq!(stock(&db, c, 6).await, (d("3"), d("2.5")));
    let e = post(&db, c, "requisicaoproduto", line("4"))
        .await
        .expect_err("too much");
    assert_eq!(e.public_message(), erp_stock::ledger::INSUFFICIENT);
    assert_eq!(
        rows(&db, c, "requisicaoproduto", json!({"REQP_REQU_ID": requ}))
            .await
            .len(),
        2
    );

    // One line deleted comes back; then the whole document.
    remove(&db, c, "requisicaoproduto", &l1["REQP_ID"])
        .await
        .expect("delete line");
    assert_eq!(stock(&db, c, 6).await, (d("6"), d("2.5")));
    remove(&db, c, "requisicao", &Value::from(requ))
        .await
        .expect("delete requisition");
    assert_eq!(stock(&db, c, 6).await, (d("8"), d("2.5")));
    assert!(
        rows(&db, c, "requisicaoproduto", json!({"REQP_REQU_ID": requ}))
            .await
            .is_empty()
    );
}

#[tokio::test]
async fn a_correction_sets_the_counted_quantity() {
    let db = crate::db().await;
    let c = crate::client();
    entry(&db, c, 8, "10", "3.00", None).await;
    let count = |qty: &str, cost: Option<&str>| json!({"CORE_PROD_ID": 8, "CORE_QTDE_CONTADA": qty, "CORE_CUSTO_UNIT": cost, "CORE_DATA": "2026-11-23", "CORE_OBS": "inventário"});

    let down = post(&db, c, "correcaoestoque", count("7", None))
        .await
        .expect("count 7");
    assert_eq!(
        (
            dec(&down["CORE_QTDE_ANTERIOR"]),
            dec(&down["CORE_DIFERENCA"]),
            down["CORE_TIPO"].clone()
        ),
        (d("10"), d("-3"), json!("S"))
    );
    assert_eq!(stock(&db, c, 8).await, (d("7"), d("3")));

    // Found 5 more, at 4.50: (7 * 3 + 5 * 4.5) / 12 = 3.625.
    let up = post(&db, c, "correcaoestoque", count("12", Some("4.50")))
        .await
        .expect("count 12");
    assert_eq!(
        (dec(&up["CORE_DIFERENCA"]), up["CORE_TIPO"].clone()),
        (d("5"), json!("E"))
    );
    assert_eq!(stock(&db, c, 8).await, (d("12"), d("3.625")));

    let same = post(&db, c, "correcaoestoque", count("12", None))
        .await
        .expect("count 12 again");
    assert_eq!(
        (dec(&same["CORE_DIFERENCA"]), same["CORE_TIPO"].clone()),
        (d("0"), Value::Null)
    );
    remove(&db, c, "correcaoestoque", &same["CORE_ID"])
        .await
        .expect("delete no-op count");
    assert_eq!(stock(&db, c, 8).await, (d("12"), d("3.625")));

    remove(&db, c, "correcaoestoque", &up["CORE_ID"])
        .await
        .expect("delete count");
    assert_eq!(stock(&db, c, 8).await, (d("7"), d("3")));

    // GET /produtosalocados/{id}/{emp}: nothing is reserved in stock.
    let v = run(
        &db,
        c,
        "correcaoestoque",
        "alocados",
        &[("PROD_ID", "8".into())],
    )
    .await
    .expect("alocados");
    assert_eq!(
        (dec(&v["QTD_ALOCADO"]), dec(&v["SALDO_DISPONIVEL"])),
        (d("0"), d("7"))
    );
    let v = run(
        &db,
        c,
        "consultaprodutos",
        "estoquebd",
        &[("PROD_ID", "8".into())],
    )
    .await
    .expect("estoquebd");
    assert_eq!(
        (
            dec(&v["SALDO_FISICO"]),
            dec(&v["CUSTO_MEDIO"]),
            dec(&v["SALDO_FINANCEIRO"])
        ),
        (d("7"), d("3"), d("21"))
    );
}

#[tokio::test]
async fn an_entry_without_a_product_is_refused_and_writes_nothing() {
    let db = crate::db().await;
    let c = crate::client();
    for product in [0, -3] {
        let err = post(&db, c, "saldoestoque", json!({"SALD_PROD_ID": product, "SALD_TIPO": "E", "SALD_QTDE": "2", "SALD_CUSTO_UNIT": "1.00", "SALD_DATA": "2026-11-23"}))
            .await
            .expect_err("no product");
        assert_eq!(err.public_message(), "Produto não informado.");
    }
    assert!(rows(&db, c, "saldoestoque", json!({})).await.is_empty());
    assert!(rows(&db, c, "fichaestoque", json!({})).await.is_empty());
}
