//! Conditional sales: totals from the lines, returns, closing, the state each
//! change publishes (the reports' open-goods report), tenant isolation.

use erp_platform::Error;
use serde_json::json;

use erp_platform::db::Db;
use erp_proto::orders::v1::CondicionalSituacao;
use prost::Message as _;

use super::service_orders::{act, d, list, n};
use super::{client, create, db, delete, get, s, seed_copies, update};

/// The states published for client `c`'s conditionals, newest first.
async fn published(db: &Db, c: i64) -> Vec<CondicionalSituacao> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let rows: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT payload FROM orders.outbox WHERE subject = 'erp.orders.condicional.situacao' AND client_id = $1",
    )
    .bind(c)
    .fetch_all(&mut *tx)
    .await
    .expect("states");
    tx.commit().await.expect("commit");
    let mut states: Vec<CondicionalSituacao> = rows
        .iter()
        .map(|p| CondicionalSituacao::decode(p.as_slice()).expect("decode"))
        .collect();
    states.sort_by_key(|s| std::cmp::Reverse(s.version));
    states
}

async fn last_state(db: &Db, c: i64) -> CondicionalSituacao {
    published(db, c).await.into_iter().next().expect("a state")
}

async fn states(db: &Db, c: i64) -> usize {
    published(db, c).await.len()
}

#[tokio::test]
async fn conditional_totals_and_returns() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let h = create(
        &db,
        c,
        "condicional",
        json!({"COND_CLI_ID": 1, "COND_DTA_SAIDA": "2026-11-20"}),
    )
    .await
    .expect("conditional");
    let id = s(&h["COND_ID"]);
    assert_eq!(id, "1");
    assert_eq!(h["COND_CLI_DESC"], json!("Oficina do Zé Ltda"));
    assert_eq!(h["COND_SITUACAO"], json!("A"));

    // 3 x 42.50 (price from the copy) = 127.50
    let p1 = create(
        &db,
        c,
        "condicionalprod",
        json!({"CNDP_COND_ID": 1, "CNDP_PROD_ID": 2, "CNDP_QTDE": "3"}),
    )
    .await
    .expect("p1");
    assert_eq!(
        (p1["CNDP_ID"].clone(), p1["CNDP_DESCRICAO"].clone()),
        (json!(1), json!("Óleo 5W30"))
    );
    assert_eq!(d(&p1["CNDP_VLR_TOTAL"]), n("127.50"));
    assert_eq!(d(&p1["CNDP_QTDE_DEVOLVIDA"]), n("0"));
    // 2 x 35.90 = 71.80 - 1.80 = 70.00
    let p2 = create(&db, c, "condicionalprod", json!({"CNDP_COND_ID": 1, "CNDP_PROD_ID": 1, "CNDP_QTDE": "2", "CNDP_VLR_UNIT": "35.90", "CNDP_VLR_DESC": "1.80"}))
        .await
        .expect("p2");
    assert_eq!(d(&p2["CNDP_VLR_TOTAL"]), n("70.00"));
    create(
        &db,
        c,
        "condicionalserv",
        json!({"CNDI_COND_ID": 1, "CNDI_SERV_ID": 2, "CNDI_QTDE": "1"}),
    )
    .await
    .expect("service");
    let tot = |h: &serde_json::Value| {
        [
            "COND_VLR_PROD",
            "COND_VLR_SERV",
            "COND_VLR_DESC",
            "COND_VLR_TOTAL",
        ]
        .map(|k| d(&h[k]))
    };
    // products 127.50 + 71.80 = 199.30; services 150.00; discounts 1.80 -> 347.50
    let h = get(&db, c, "condicional", &[&id]).await.expect("row");
    assert_eq!(tot(&h), ["199.30", "150.00", "1.80", "347.50"].map(n));

    delete(&db, c, "condicionalserv", &["1", "1"])
        .await
        .expect("delete service");
    update(
        &db,
        c,
        "condicionalprod",
        &["1", "1"],
        json!({"CNDP_QTDE": "4"}),
    )
    .await
    .expect("update qty");
    // 4 x 42.50 = 170.00 -> products 241.80, total 240.00
    let h = get(&db, c, "condicional", &[&id]).await.expect("row");
    assert_eq!(tot(&h), ["241.80", "0", "1.80", "240.00"].map(n));

    let p = [("COND_ID", "1"), ("emp", "1")];
    let r = act(
        &db,
        c,
        "condicional",
        "devolucao",
        &p,
        json!({"ITENS": [{"CNDP_ID": 1, "QTDE": "1"}]}),
    )
    .await
    .expect("return 1");
    assert_eq!(r["COND_SITUACAO"], json!("A"));
    let back: Vec<_> = r["ITENS"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| d(&i["CNDP_QTDE_DEVOLVIDA"]))
        .collect();
    assert_eq!(back, vec![n("1"), n("0")]);

    // Each change left the conditional's whole state for the reports' open-goods
    // report: the last one has 6 out, 1 back (line 1: 4 out, 1 back at 42.50;
    // line 2: 2 out at 35.90), the customer and the day it left.
    let state = last_state(&db, c).await;
    assert_eq!(
        (
            state.cond_id,
            state.emp_id,
            state.customer_id,
            state.status.as_str()
        ),
        (1, 1, 1, "A")
    );
    assert_eq!(
        (state.customer_name.as_str(), state.left_on.as_str()),
        ("Oficina do Zé Ltda", "2026-11-20")
    );
    let lines: Vec<(
        i64,
        i64,
        rust_decimal::Decimal,
        rust_decimal::Decimal,
        rust_decimal::Decimal,
    )> = state
        .lines
        .iter()
        .map(|l| {
            (
                l.item,
                l.product_id,
                n(&l.quantity),
                n(&l.returned),
                n(&l.unit_price),
            )
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            (1, 2, n("4"), n("1"), n("42.50")),
            (2, 1, n("2"), n("0"), n("35.90"))
        ]
    );
    // One per change: the header, two product lines, a quantity, a return (the
    // service lines are no goods).
    assert_eq!(states(&db, c).await, 5);

    // More back than went out (3 left of line 1).
    let e = act(
        &db,
        c,
        "condicional",
        "devolucao",
        &p,
        json!({"ITENS": [{"CNDP_ID": 1, "QTDE": "3.5"}]}),
    )
    .await
    .err();
    assert!(
        matches!(&e, Some(Error::Validation(m)) if m == "A quantidade devolvida não pode ser maior que a quantidade que saiu."),
        "{e:?}"
    );
    let e = act(
        &db,
        c,
        "condicional",
        "devolucao",
        &p,
        json!({"ITENS": [{"CNDP_ID": 1, "QTDE": "0"}]}),
    )
    .await
    .err();
    assert!(matches!(e, Some(Error::Validation(_))));
    let e = act(
        &db,
        c,
        "condicional",
        "devolucao",
        &p,
        json!({"ITENS": [{"CNDP_ID": 9, "QTDE": "1"}]}),
    )
    .await
    .err();
    assert!(matches!(e, Some(Error::NotFound(_))));
    // The quantity out cannot go below what came back.
    let e = update(
        &db,
        c,
        "condicionalprod",
        &["1", "1"],
        json!({"CNDP_QTDE": "0.5"}),
    )
    .await
    .err();
    assert!(matches!(e, Some(Error::Validation(_))));

    // Everything back closes it.
    let r = act(
        &db,
        c,
        "condicional",
        "devolucao",
        &p,
        json!({"ITENS": [{"CNDP_ID": 1, "QTDE": "3"}, {"CNDP_ID": 2, "QTDE": "2"}]}),
    )
    .await
    .expect("return all");
    assert_eq!(r["COND_SITUACAO"], json!("F"));
    assert!(r["COND_DTA_RETORNO"].is_string());
    // The closed state is published: the open-goods report leaves it out.
    let state = last_state(&db, c).await;
    assert_eq!((state.cond_id, state.status.as_str()), (1, "F"));
    assert!(!state.return_on.is_empty());
    // A closed conditional refuses changes.
    let e = create(
        &db,
        c,
        "condicionalprod",
        json!({"CNDP_COND_ID": 1, "CNDP_PROD_ID": 3, "CNDP_QTDE": "1"}),
    )
    .await
    .err();
    assert!(
        matches!(&e, Some(Error::Conflict(m)) if m == "Condicional encerrada não pode ser alterada."),
        "{e:?}"
    );
    let e = act(
        &db,
        c,
        "condicional",
        "devolucao",
        &p,
        json!({"ENCERRAR": true}),
    )
    .await
    .err();
    assert!(matches!(e, Some(Error::Conflict(_))));

    // Closing with goods still out.
    create(
        &db,
        c,
        "condicional",
        json!({"COND_CLI_ID": 2, "COND_DTA_SAIDA": "2026-11-21"}),
    )
    .await
    .expect("second");
    create(
        &db,
        c,
        "condicionalprod",
        json!({"CNDP_COND_ID": 2, "CNDP_PROD_ID": 3, "CNDP_QTDE": "1"}),
    )
    .await
    .expect("line");
    let e = act(
        &db,
        c,
        "condicional",
        "devolucao",
        &[("COND_ID", "2"), ("emp", "1")],
        json!({}),
    )
    .await
    .err();
    assert!(matches!(e, Some(Error::Validation(_))));
    let r = act(
        &db,
        c,
        "condicional",
        "devolucao",
        &[("COND_ID", "2"), ("emp", "1")],
        json!({"ENCERRAR": true}),
    )
    .await
    .expect("close");
    assert_eq!(r["COND_SITUACAO"], json!("F"));
    assert_eq!(d(&r["ITENS"][0]["CNDP_QTDE_DEVOLVIDA"]), n("0"));
}

#[tokio::test]
async fn another_tenant_cannot_read_conditionals() {
    let db = db().await;
    let (a, b) = (client(), client());
    seed_copies(&db, a).await;
    seed_copies(&db, b).await;
    create(
        &db,
        a,
        "condicional",
        json!({"COND_CLI_ID": 1, "COND_DTA_SAIDA": "2026-11-20"}),
    )
    .await
    .expect("conditional");
    create(
        &db,
        a,
        "condicionalprod",
        json!({"CNDP_COND_ID": 1, "CNDP_PROD_ID": 1, "CNDP_QTDE": "1"}),
    )
    .await
    .expect("line");

    assert!(matches!(
        get(&db, b, "condicional", &["1"]).await,
        Err(Error::NotFound(_))
    ));
    assert!(matches!(
        get(&db, b, "condicionalprod", &["1", "1"]).await,
        Err(Error::NotFound(_))
    ));
    assert!(list(&db, b, "condicionalprod", json!({"CNDP_COND_ID": 1}))
        .await
        .expect("list")
        .is_empty());
    // B's outbox has none of A's states.
    assert_eq!(states(&db, b).await, 0);
    let e = act(
        &db,
        b,
        "condicional",
        "devolucao",
        &[("COND_ID", "1"), ("emp", "1")],
        json!({"ENCERRAR": true}),
    )
    .await
    .err();
    assert!(e.is_some());
    // A's conditional is untouched.
    let h = get(&db, a, "condicional", &["1"]).await.expect("row");
    assert_eq!(h["COND_SITUACAO"], json!("A"));
    assert_eq!(d(&h["COND_VLR_TOTAL"]), n("35.90"));
    assert_eq!(last_state(&db, a).await.status, "A");
}
