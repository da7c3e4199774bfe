//! The resource engine against a real table: CRUD, per-company numbering under
//! concurrency, ordering and filter safety, mass assignment, constraint messages.

use erp_platform::grpc::Caller;
use erp_platform::resource::query;
use erp_platform::resource::{Field, Resource};
use serde_json::{json, Map, Value};

use crate::{client, db};

fn itens() -> Resource {
    Resource::new("itens", "Itens", "plat_it", "itens", "itens")
        .key(&["ITEM_ID"])
        .company("ITEM_EMP_ID")
        .label("ITEM_DESCRICAO")
        .order("ITEM_DESCRICAO")
        .fields(vec![
            Field::id("ITEM_ID", "Código"),
            Field::int("ITEM_EMP_ID", "Empresa"),
            Field::text("ITEM_DESCRICAO", "Descrição")
                .required()
                .len(60)
                .searchable(),
            Field::text("ITEM_CODIGO", "Código Interno")
                .len(20)
                .searchable(),
            Field::money("ITEM_VALOR", "Valor").max("100000"),
            Field::date("ITEM_DATA", "Data"),
            Field::password("ITEM_SENHA", "Senha"),
        ])
}

fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn caller(c: i64) -> Caller {
    Caller { client_id: c, user_id: 1, emp_id: 1, privileged: false }
}

#[tokio::test]
async fn crud_list_count_search_round_trip() {
    let db = db().await;
    let (res, me) = (itens(), caller(client()));
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let a = query::create(&mut tx, &res, &me, Some(1), &body(json!({"ITEM_DESCRICAO": "Parafuso 10mm", "ITEM_VALOR": "1234.567", "ITEM_DATA": "2026-11-22", "ITEM_SENHA": "x"}))).await;
    assert_eq!(
        a.err().map(|e| e.to_string()),
        Some("O campo Valor aceita no máximo 2 casas decimais.".into()),
        "money is never rounded silently"
    );
    drop(tx);

    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let a = query::create(&mut tx, &res, &me, Some(1), &body(json!({"ITEM_DESCRICAO": "Parafuso 10mm", "ITEM_VALOR": "1234.56", "ITEM_DATA": "2026-11-22", "ITEM_SENHA": "x"}))).await.expect("create");
    assert_eq!(a["ITEM_ID"], json!(1));
    assert_eq!(a["ITEM_VALOR"].to_string(), "1234.56");
    assert_eq!(a["ITEM_DATA"], json!("2026-11-22"));
    assert!(
        a.get("ITEM_SENHA").is_none(),
        "write-only fields are never read back"
    );
    let b = query::create(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"ITEM_DESCRICAO": "Arruela"})),
    )
    .await
    .expect("create");
    assert_eq!(b["ITEM_ID"], json!(2));
    let other_company = query::create(
        &mut tx,
        &res,
        &me,
        Some(2),
        &body(json!({"ITEM_DESCRICAO": "Porca"})),
    )
    .await
    .expect("create");
    assert_eq!(
        other_company["ITEM_ID"],
        json!(1),
        "ids are numbered per company"
    );

    let rows = query::list(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"ORDENACAO": "ITEM_DESCRICAO", "LIMIT": 20})),
    )
    .await
    .expect("list");
    let names: Vec<&str> = rows
        .iter()
        .filter_map(|r| r["ITEM_DESCRICAO"].as_str())
        .collect();
    assert_eq!(names, vec!["Arruela", "Parafuso 10mm"]);
    assert_eq!(rows[0]["ORDEM"], json!(0));
    assert_eq!(rows[1]["ORDEM"], json!(1));
    assert_eq!(rows[1]["id"], json!(1));
    assert_eq!(rows[1]["text"], json!("Parafuso 10mm"));

    let rows = query::list(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"FILTRO": "paraf"})),
    )
    .await
    .expect("filtro");
    assert_eq!(rows.len(), 1);
    let rows = query::list(&mut tx, &res, &me, Some(1), &body(json!({"FILTRO": "%"})))
        .await
        .expect("filtro");
    assert!(rows.is_empty(), "LIKE wildcards are escaped");
    let rows = query::list(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"ITEM_DATA_INI": "2026-11-01", "ITEM_DATA_FIM": "2026-11-30"})),
    )
    .await
    .expect("range");
    assert_eq!(rows.len(), 1);
    let rows = query::list(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"LIMIT": 1, "PAGINATION": 1})),
    )
    .await
    .expect("page");
    assert_eq!(rows[0]["ITEM_DESCRICAO"], json!("Parafuso 10mm"));
    assert_eq!(
        query::count(&mut tx, &res, &me, Some(1), &Map::new())
            .await
            .expect("count"),
        2
    );

    let found = query::search(&mut tx, &res, &me, Some(1), "arru", 0)
        .await
        .expect("search");
    assert_eq!(found.len(), 1);
    let by_id = query::search(&mut tx, &res, &me, Some(1), "2", 0)
        .await
        .expect("search by id");
    assert_eq!(by_id[0]["ITEM_DESCRICAO"], json!("Arruela"));

    let u = query::update(
        &mut tx,
        &res,
        &me,
        Some(1),
        &["2".into()],
        &body(json!({"ITEM_DESCRICAO": "Arruela lisa", "ITEM_ID": 99, "ITEM_EMP_ID": 2})),
    )
    .await
    .expect("update");
    assert_eq!(u["ITEM_DESCRICAO"], json!("Arruela lisa"));
    assert_eq!(
        u["ITEM_ID"],
        json!(2),
        "the key of a body never moves a row"
    );
    assert_eq!(
        u["ITEM_EMP_ID"],
        json!(1),
        "the company of a body never moves a row"
    );
    let e = query::update(
        &mut tx,
        &res,
        &me,
        Some(1),
        &["2".into()],
        &body(json!({"ITEM_DESCRICAO": ""})),
    )
    .await
    .err();
    assert_eq!(
        e.map(|e| e.to_string()),
        Some("Descrição é obrigatório!".into())
    );

    query::delete(&mut tx, &res, &me, Some(1), &["2".into()])
        .await
        .expect("delete");
    let e = query::get(&mut tx, &res, &me, Some(1), &["2".into()])
        .await
        .err();
    assert_eq!(e.map(|e| e.http_status()), Some(404));
    let e = query::delete(&mut tx, &res, &me, Some(1), &["2".into()])
        .await
        .err();
    assert_eq!(e.map(|e| e.http_status()), Some(404));
    tx.commit().await.expect("commit");
}

#[tokio::test]
async fn validation_messages_and_constraints_are_friendly() {
    let db = db().await;
    let (res, me) = (itens(), caller(client()));
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let e = query::create(&mut tx, &res, &me, Some(1), &Map::new())
        .await
        .err()
        .map(|e| e.to_string());
    assert_eq!(e, Some("Descrição é obrigatório!".into()));
    let e = query::create(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"ITEM_DESCRICAO": "x", "ITEM_VALOR": 100001})),
    )
    .await
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        e,
        Some("Valor Máximo permitido para o campo: 100000".into())
    );
    let e = query::create(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"ITEM_DESCRICAO": "x", "ITEM_VALOR": -1})),
    )
    .await
    .err()
    .map(|e| e.to_string());
    assert_eq!(e, Some("O campo Valor deve ser maior ou igual a 0 ".into()));
    let e = query::create(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"ITEM_DESCRICAO": "x", "ITEM_DATA": "31/02/2026"})),
    )
    .await
    .err()
    .map(|e| e.to_string());
    assert_eq!(e, Some("Data inválida".into()));
    query::create(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"ITEM_DESCRICAO": "a", "ITEM_CODIGO": "X1"})),
    )
    .await
    .expect("first");
    tx.commit().await.expect("commit");

    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let e = query::create(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"ITEM_DESCRICAO": "b", "ITEM_CODIGO": "X1"})),
    )
    .await
    .expect_err("duplicate");
    assert_eq!(e.http_status(), 409);
    assert_eq!(e.public_message(), "Registro já cadastrado.");
}

#[tokio::test]
async fn order_and_filter_payloads_never_reach_sql() {
    let db = db().await;
    let (res, me) = (itens(), caller(client()));
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    for bad in [
        "1; DROP TABLE plat_it.itens",
        "pg_sleep(5)",
        "\"ITEM_ID\"",
        "ITEM_ID; SELECT 1",
        "(SELECT 1)",
    ] {
        let e = query::list(
            &mut tx,
            &res,
            &me,
            Some(1),
            &body(json!({"ORDENACAO": bad})),
        )
        .await
        .expect_err(bad);
        assert_eq!(e.http_status(), 400, "{bad}");
    }
    for key in ["1=1; --", "pg_sleep(5)", "\"ITEM_ID\"", "client_id"] {
        let e = query::list(&mut tx, &res, &me, Some(1), &body(json!({ key: 1 })))
            .await
            .expect_err(key);
        assert_eq!(e.http_status(), 400, "{key}");
    }
    // Values are bound: a hostile value is just text that matches nothing.
    let rows = query::list(
        &mut tx,
        &res,
        &me,
        Some(1),
        &body(json!({"FILTRO": "'; DROP TABLE plat_it.itens; --", "ITEM_CODIGO": "x' OR '1'='1"})),
    )
    .await
    .expect("bound");
    assert!(rows.is_empty());
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM plat_it.itens")
        .fetch_one(&mut *tx)
        .await
        .expect("table still there");
    assert!(n >= 0);
}

#[tokio::test]
async fn concurrent_inserts_never_duplicate_an_id() {
    let db = db().await;
    let me = caller(client());
    let mut tasks = Vec::new();
    for i in 0..25 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            let res = itens();
            let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
            let row = query::create(
                &mut tx,
                &res,
                &me,
                Some(3),
                &body(json!({"ITEM_DESCRICAO": format!("item {i}")})),
            )
            .await
            .expect("create");
            tx.commit().await.expect("commit");
            row["ITEM_ID"].as_i64().expect("id")
        }));
    }
    let mut ids = Vec::new();
    for t in tasks {
        ids.push(t.await.expect("task"));
    }
    ids.sort();
    assert_eq!(ids, (1..=25).collect::<Vec<_>>());
}

/// The list call's bytes, written straight from the rows, are the rows `list`
/// answers as values: every type, nulls, escapes, the decoration.
#[tokio::test]
async fn a_list_written_as_bytes_is_the_list_as_values() {
    let db = db().await;
    let (res, me) = (itens(), caller(client()));
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    for b in [
        json!({"ITEM_DESCRICAO": "Aspas \"duplas\", barra \\ e tab\t", "ITEM_VALOR": "0.10", "ITEM_DATA": "2026-02-28", "ITEM_CODIGO": "ção ✓ 😀"}),
        json!({"ITEM_DESCRICAO": "Sem valor"}),
        json!({"ITEM_DESCRICAO": "Grande", "ITEM_VALOR": "99999.99", "ITEM_SENHA": "segredo"}),
    ] {
        query::create(&mut tx, &res, &me, Some(1), &body(b))
            .await
            .expect("create");
    }
    let q = body(json!({"ORDENACAO": "ITEM_DESCRICAO", "LIMIT": 20}));
    let values = query::list(&mut tx, &res, &me, Some(1), &q)
        .await
        .expect("list");
    let bytes = query::list_json(&mut tx, &res, &me, Some(1), &q)
        .await
        .expect("list_json");
    let parsed: Value = serde_json::from_slice(&bytes).expect("valid JSON");
    assert_eq!(parsed, Value::Array(values.clone()));
    assert_eq!(values.len(), 3);
    assert!(values.iter().all(|r| r.get("ITEM_SENHA").is_none()));
    assert_eq!(parsed[0]["ITEM_VALOR"].to_string(), "0.1");
    assert!(parsed[2]["ITEM_VALOR"].is_null());
    tx.rollback().await.expect("rollback");
}
