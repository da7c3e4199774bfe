//! A product's history (`produtoshistorico`): the rows an update writes (who, when,
//! which field, from what to what, from where), newest first; the register refuses
//! every write; another client reads and changes none of it.

use erp_catalog::resources::products::{self, classification, history};
use erp_platform::grpc::Caller;
use erp_platform::resource::query;
use serde_json::{json, Value};

use super::{base, body, caller, client, create, db};

async fn update(
    db: &erp_platform::db::Db,
    me: &Caller,
    id: &str,
    v: Value,
) -> erp_platform::Result<Value> {
    let mut tx = db.begin_tenant(me.client_id).await?;
    let row = query::update(
        &mut tx,
        &products::produtos(),
        me,
        Some(1),
        &[id.to_string()],
        &body(v),
    )
    .await?;
    tx.commit().await?;
    Ok(row)
}

/// (field, old, new, origin, user) of the product's history, newest first.
type Entry = (String, Value, Value, String, Value);

async fn entries(db: &erp_platform::db::Db, me: &Caller, id: &str) -> Vec<Entry> {
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let rows = query::list(
        &mut tx,
        &history::produtoshistorico(),
        me,
        Some(1),
        &body(json!({"PRHI_PROD_ID": id})),
    )
    .await
    .expect("list");
    rows.into_iter()
        .map(|r| {
            (
                r["PRHI_CAMPO"].as_str().unwrap_or_default().to_string(),
                r["PRHI_VALOR_ANTERIOR"].clone(),
                r["PRHI_VALOR_NOVO"].clone(),
                r["PRHI_ORIGEM"].as_str().unwrap_or_default().to_string(),
                r["PRHI_USR_ID"].clone(),
            )
        })
        .collect()
}

fn entry(field: &str, old: Value, new: Value, origin: &str, user: i64) -> Entry {
    (field.into(), old, new, origin.into(), json!(user))
}

#[tokio::test]
async fn updates_write_who_changed_what_from_where() {
    let db = db().await;
    let me = caller(client());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let p = base(&mut tx, &me).await;
    create(
        &mut tx,
        &classification::unidade(),
        &me,
        json!({"UNID_DESCRICAO": "QUILO", "UNID_ABREVIADA": "KG"}),
    )
    .await;
    tx.commit().await.expect("commit");
    let id = p["PROD_ID"].to_string();
    assert!(
        entries(&db, &me, &id).await.is_empty(),
        "a new product has no history"
    );

    // The product screen: the price and the description (the remark is not kept).
    update(
        &db,
        &me,
        &id,
        json!({"PROD_VALOR": "0.90", "PROD_DESCRICAO": "PARAFUSO 1/4 ZINCADO", "PROD_OBS": "novo"}),
    )
    .await
    .expect("screen");
    // A purchase's price update, by another user, says where it comes from.
    let buyer = Caller { user_id: 5, ..me };
    update(
        &db,
        &buyer,
        &id,
        json!({"PROD_CUSTO": "0.45", "PROD_VALOR": "0.95", "HIST_ORIGEM": "compra"}),
    )
    .await
    .expect("purchase");
    update(
        &db,
        &me,
        &id,
        json!({"PROD_UNID_ID": 2, "PROD_SITUACAO": 0}),
    )
    .await
    .expect("unit and situation");
    // Nothing the history keeps, or the same values again: no row.
    update(
        &db,
        &me,
        &id,
        json!({"PROD_OBS": "outra", "PROD_VALOR": "0.95"}),
    )
    .await
    .expect("no change");

    assert_eq!(
        entries(&db, &me, &id).await,
        [
            entry(
                "PROD_SITUACAO",
                json!("Ativado"),
                json!("Desativado"),
                "cadastro",
                1
            ),
            entry("PROD_UNID_ID", json!("UN"), json!("KG"), "cadastro", 1),
            entry("PROD_CUSTO", Value::Null, json!("0.45"), "compra", 5),
            entry("PROD_VALOR", json!("0.90"), json!("0.95"), "compra", 5),
            entry(
                "PROD_DESCRICAO",
                json!("PARAFUSO 1/4"),
                json!("PARAFUSO 1/4 ZINCADO"),
                "cadastro",
                1
            ),
            entry("PROD_VALOR", json!("0.76"), json!("0.90"), "cadastro", 1),
        ]
    );
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let h = history::produtoshistorico();
    let n = query::count(
        &mut tx,
        &h,
        &me,
        Some(1),
        &body(json!({"PRHI_PROD_ID": id})),
    )
    .await
    .expect("count");
    assert_eq!(n, 6);
    let newest = query::list(
        &mut tx,
        &h,
        &me,
        Some(1),
        &body(json!({"PRHI_PROD_ID": id, "LIMIT": 1})),
    )
    .await
    .expect("list");
    assert_eq!(newest[0]["PRHI_DESCRICAO"], json!("Situação"));
    assert!(newest[0]["PRHI_DATA"]
        .as_str()
        .is_some_and(|d| d.len() >= 10));

    // Read only: no generic write reaches it.
    let key = [newest[0]["PRHI_ID"].to_string()];
    let refusals = [
        query::create(
            &mut tx,
            &h,
            &me,
            Some(1),
            &body(json!({"PRHI_PROD_ID": id})),
        )
        .await
        .err(),
        query::update(
            &mut tx,
            &h,
            &me,
            Some(1),
            &key,
            &body(json!({"PRHI_VALOR_NOVO": "1"})),
        )
        .await
        .err(),
    ];
    for e in refusals {
        assert_eq!(
            e.map(|e| (e.http_status(), e.public_message())),
            Some((400, history::READ_ONLY.into()))
        );
    }
    drop(tx);
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let e = query::delete(&mut tx, &h, &me, Some(1), &key).await.err();
    assert_eq!(
        e.map(|e| e.public_message()),
        Some(history::READ_ONLY.into())
    );
    drop(tx);
    assert_eq!(entries(&db, &me, &id).await.len(), 6);
}

#[tokio::test]
async fn another_client_neither_reads_nor_writes_the_history() {
    let db = db().await;
    let owner = caller(client());
    let mut tx = db.begin_tenant(owner.client_id).await.expect("tx");
    let p = base(&mut tx, &owner).await;
    tx.commit().await.expect("commit");
    let id = p["PROD_ID"].to_string();
    update(&db, &owner, &id, json!({"PROD_VALOR": "1.00"}))
        .await
        .expect("price");

    let stranger = caller(client());
    assert!(entries(&db, &stranger, &id).await.is_empty());
    let e = update(&db, &stranger, &id, json!({"PROD_VALOR": "9.99"}))
        .await
        .err();
    assert_eq!(e.map(|e| e.http_status()), Some(404));
    assert_eq!(
        entries(&db, &owner, &id).await,
        [entry(
            "PROD_VALOR",
            json!("0.76"),
            json!("1.00"),
            "cadastro",
            1
        )]
    );
}
