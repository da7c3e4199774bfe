//! The stock card against the hand-computed table, the product registers fed by
//! the catalog copy (read-only), the last entry cost, and the recalculation.

use erp_platform::bus::{apply_once, Effect, Message};
use erp_platform::resource::query;
use prost::Message as _;
use serde_json::{json, Value};

use crate::{body, caller, d, dec, post, res, rows, run, stock};

async fn move_stock(
    db: &erp_platform::db::Db,
    c: i64,
    product: i64,
    tipo: &str,
    qty: &str,
    cost: &str,
) -> Value {
    post(db, c, "saldoestoque", json!({"SALD_PROD_ID": product, "SALD_TIPO": tipo, "SALD_QTDE": qty, "SALD_CUSTO_UNIT": cost, "SALD_DATA": "2026-11-23"}))
        .await
        .expect("movement")
}

/// Delivers a catalog product event to the copy, as the consumer would.
pub async fn catalog_product(db: &erp_platform::db::Db, c: i64, op: &str, row: Value) {
    let ev = erp_proto::erp::v1::RecordChanged {
        resource: "produtos".into(),
        op: op.into(),
        client_id: c,
        emp_id: 1,
        key: vec![row["PROD_ID"].to_string()],
        row_json: serde_json::to_vec(&row).expect("json"),
    };
    let msg = Message::new(
        format!("produto-{c}-{op}-{}", row["PROD_ID"]),
        format!("erp.catalog.produto.{op}"),
        ev.encode_to_vec().into(),
    );
    let id = msg.id.clone();
    let applied = apply_once(db, "stock", "stock-produtos", &id, c, move |tx| {
        Box::pin(async move { erp_stock::events::ProductCopy.apply(tx, c, &msg).await })
    })
    .await
    .expect("product event");
    assert!(applied);
}

async fn sao_paulo_today(db: &erp_platform::db::Db) -> String {
    let mut tx = db.begin().await.expect("tx");
    sqlx::query_scalar("SELECT ((now() AT TIME ZONE 'America/Sao_Paulo')::date)::text")
        .fetch_one(&mut *tx)
        .await
        .expect("today")
}

#[tokio::test]
async fn the_stock_card_follows_the_hand_computed_table() {
    let db = crate::db().await;
    let c = crate::client();
    catalog_product(&db, c, "criado", json!({"PROD_ID": 21, "PROD_EMP_ID": 1, "PROD_DESCRICAO": "CHOPE PILSEN 50L", "PROD_VALOR": "650.00", "PROD_CUSTO": "4.10", "UNID_ABREVIADA": "UN", "PROD_IMAGEM": "chope.png", "PROD_SITUACAO": 1})).await;
    // | movement     | qty | avg cost          | value  |
    // | in 10 @ 5.00 | 10  | 5.0000            | 50.00  |
    // | in 5 @ 8.00  | 15  | (50 + 40) / 15 = 6 | 90.00 |
    // | out 3        | 12  | 6.0000            | 72.00  |
    // | in 8 @ 7.25  | 20  | (72 + 58) / 20 = 6.5 | 130.00 |
    move_stock(&db, c, 21, "E", "10", "5.00").await;
    move_stock(&db, c, 21, "E", "5", "8.00").await;
    move_stock(&db, c, 21, "S", "3", "").await;
    move_stock(&db, c, 21, "E", "8", "7.25").await;
    let want = [
        ("E", "10", "0", "5", "10", "5", "50"),
        ("E", "5", "0", "8", "15", "6", "90"),
        ("S", "0", "3", "6", "12", "6", "72"),
        ("E", "8", "0", "7.25", "20", "6.5", "130"),
    ];
    let today = sao_paulo_today(&db).await;
    let card = rows(
        &db,
        c,
        "fichaestoque",
        json!({"PROD_ID": 21, "DATA_INI": today, "DATA_FIM": today}),
    )
    .await;
    assert_eq!(card.len(), want.len());
    for (row, (tipo, entrada, saida, unit, saldo, custo, valor)) in card.iter().zip(want) {
        assert_eq!(row["MOVI_TIPO"], tipo);
        assert_eq!(
            (
                dec(&row["QTDE_ENTRADA"]),
                dec(&row["QTDE_SAIDA"]),
                dec(&row["MOVI_CUSTO_UNIT"]),
                dec(&row["SALDO"]),
                dec(&row["CUSTO_MEDIO"]),
                dec(&row["SALDO_FINANCEIRO"])
            ),
            (d(entrada), d(saida), d(unit), d(saldo), d(custo), d(valor))
        );
        assert_eq!(row["MOVI_ORIGEM"], "SALDOESTOQUE");
        assert_eq!(row["DATA"], Value::from(today.clone()));
    }
    // The legacy name of the product filter, and a period before today.
    assert_eq!(
        rows(&db, c, "fichaestoque", json!({"SALD_PROD_ID": 21}))
            .await
            .len(),
        4
    );
    assert!(rows(
        &db,
        c,
        "fichaestoque",
        json!({"PROD_ID": 21, "DATA_FIM": "2000-01-01"})
    )
    .await
    .is_empty());
    assert!(rows(&db, c, "fichaestoque", json!({"PROD_ID": 22}))
        .await
        .is_empty());

    // consultaprodutos and the picker read the copy with its balance.
    let listed = rows(&db, c, "consultaprodutos", json!({"FILTRO": "pilsen"})).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (
            dec(&listed[0]["SALDO_FISICO"]),
            dec(&listed[0]["CUSTO_MEDIO"]),
            dec(&listed[0]["SALDO_FINANCEIRO"])
        ),
        (d("20"), d("6.5"), d("130"))
    );
    let picked = rows(
        &db,
        c,
        "estoqueprodutos",
        json!({"FILTRO": "chope", "LIMIT": 20, "PAGINATION": 0}),
    )
    .await;
    assert_eq!(picked.len(), 1);
    assert_eq!(
        (
            picked[0]["PROD_DESCRICAO"].clone(),
            dec(&picked[0]["PROD_VALOR"]),
            picked[0]["UNID_ABREVIADA"].clone(),
            picked[0]["PROD_IMAGEM"].clone(),
            dec(&picked[0]["SALDO_FISICO"])
        ),
        (
            json!("CHOPE PILSEN 50L"),
            d("650"),
            json!("UN"),
            json!("chope.png"),
            d("20")
        )
    );
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let n = query::count(
        &mut tx,
        &res("estoqueprodutos"),
        &caller(c),
        Some(1),
        &body(json!({"FILTRO": "chope"})),
    )
    .await
    .expect("registros");
    assert_eq!(n, 1);
    drop(tx);

    // GET /produtosutimocusto: the last real entry.
    let last = run(
        &db,
        c,
        "consultaprodutos",
        "ultimocusto",
        &[("PROD_ID", "21".into())],
    )
    .await
    .expect("ultimo custo");
    assert_eq!(dec(&last["ULTIMO_CUSTO"]), d("7.25"));
}

#[tokio::test]
async fn read_only_registers_refuse_writes() {
    let db = crate::db().await;
    let c = crate::client();
    catalog_product(&db, c, "criado", json!({"PROD_ID": 31, "PROD_EMP_ID": 1, "PROD_DESCRICAO": "COPO 300ML", "PROD_VALOR": "2.00"})).await;
    move_stock(&db, c, 31, "E", "4", "1.00").await;
    for (name, msg) in [
        (
            "estoqueprodutos",
            "A lista de produtos do estoque é somente para consulta.",
        ),
        (
            "consultaprodutos",
            "A consulta de estoque é somente para consulta.",
        ),
        (
            "fichaestoque",
            "A ficha de estoque é somente para consulta.",
        ),
    ] {
        let e = post(&db, c, name, json!({"PROD_DESCRICAO": "X"}))
            .await
            .expect_err("create");
        assert_eq!(e.public_message(), msg);
        let key = rows(&db, c, name, json!({})).await[0][&res(name).key[0]].clone();
        let e = crate::remove(&db, c, name, &key).await.expect_err("delete");
        assert_eq!(e.public_message(), msg);
        let mut tx = db.begin_tenant(c).await.expect("tx");
        let e = query::update(
            &mut tx,
            &res(name),
            &caller(c),
            Some(1),
            &[key.to_string()],
            &body(json!({"PROD_DESCRICAO": "Y"})),
        )
        .await
        .expect_err("update");
        assert_eq!(e.public_message(), msg);
    }
    // Nothing was deleted by the refused deletes.
    assert_eq!(rows(&db, c, "estoqueprodutos", json!({})).await.len(), 1);
    assert_eq!(
        rows(&db, c, "fichaestoque", json!({"PROD_ID": 31}))
            .await
            .len(),
        1
    );
    assert_eq!(stock(&db, c, 31).await, (d("4"), d("1")));
}

#[tokio::test]
async fn the_product_copy_follows_the_catalog() {
    let db = crate::db().await;
    let c = crate::client();
    move_stock(&db, c, 41, "E", "3", "2.00").await;
    catalog_product(&db, c, "criado", json!({"PROD_ID": 41, "PROD_EMP_ID": 1, "PROD_DESCRICAO": "GELO 5KG", "PROD_VALOR": "12.00", "UNID_ABREVIADA": "SC"})).await;
    let row = rows(&db, c, "estoqueprodutos", json!({"FILTRO": "gelo"})).await;
    assert_eq!(
        (dec(&row[0]["PROD_VALOR"]), dec(&row[0]["SALDO_FISICO"])),
        (d("12"), d("3")),
        "a new copy starts with the balance"
    );
    catalog_product(&db, c, "alterado", json!({"PROD_ID": 41, "PROD_EMP_ID": 1, "PROD_DESCRICAO": "GELO EM CUBOS 5KG", "PROD_VALOR": "13.50", "UNID_ABREVIADA": "SC"})).await;
    let row = rows(&db, c, "estoqueprodutos", json!({"FILTRO": "cubos"})).await;
    assert_eq!(
        (dec(&row[0]["PROD_VALOR"]), dec(&row[0]["SALDO_FISICO"])),
        (d("13.5"), d("3"))
    );
    catalog_product(
        &db,
        c,
        "excluido",
        json!({"PROD_ID": 41, "PROD_EMP_ID": 1, "PROD_DESCRICAO": "GELO EM CUBOS 5KG"}),
    )
    .await;
    assert!(rows(&db, c, "estoqueprodutos", json!({"FILTRO": "gelo"}))
        .await
        .is_empty());
    assert_eq!(
        stock(&db, c, 41).await,
        (d("3"), d("2")),
        "the balance stays"
    );
}

#[tokio::test]
async fn recalculation_fixes_a_corrupted_balance() {
    let db = crate::db().await;
    let c = crate::client();
    move_stock(&db, c, 51, "E", "10", "5.00").await;
    move_stock(&db, c, 51, "E", "5", "8.00").await;
    let last = move_stock(&db, c, 51, "S", "3", "").await;
    crate::remove(&db, c, "saldoestoque", &last["SALD_ID"])
        .await
        .expect("undo exit");
    move_stock(&db, c, 51, "S", "5", "").await;
    // 10 @ 5, 5 @ 8 -> 15 @ 6; out 3 and back; out 5 -> 10 @ 6.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query(
        "UPDATE stock.saldos SET sald_qtde = 999, sald_custo_medio = 1 WHERE sald_prod_id = 51",
    )
    .execute(&mut *tx)
    .await
    .expect("corrupt");
    tx.commit().await.expect("commit");

    let v = run(
        &db,
        c,
        "consultaprodutos",
        "recalculaestoque",
        &[("PROD_ID", "51".into())],
    )
    .await
    .expect("recalcula");
    assert_eq!(
        (
            dec(&v["ANTES"]["SALDO_FISICO"]),
            dec(&v["ANTES"]["CUSTO_MEDIO"])
        ),
        (d("999"), d("1"))
    );
    assert_eq!(
        (
            dec(&v["DEPOIS"]["SALDO_FISICO"]),
            dec(&v["DEPOIS"]["CUSTO_MEDIO"]),
            dec(&v["DEPOIS"]["SALDO_FINANCEIRO"])
        ),
        (d("10"), d("6"), d("60"))
    );
    assert_eq!(v["CORRIGIDO"], true);
    assert_eq!(stock(&db, c, 51).await, (d("10"), d("6")));
    let again = run(
        &db,
        c,
        "consultaprodutos",
        "recalculaestoque",
        &[("PROD_ID", "51".into())],
    )
    .await
    .expect("again");
    assert_eq!(again["CORRIGIDO"], false);
}
