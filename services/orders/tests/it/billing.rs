//! Billing orders and quotes: totals computed by the server from the lines (a
//! hand-computed table), defaults from the catalog copy, the invoice transition once
//! (also when two run at once), issued documents refusing changes, the customer's
//! name on open and issued documents, duplication, conversions and promotions.

use std::str::FromStr;

use erp_proto::orders::v1::PedidoFaturado;
use erp_proto::subjects::PEDIDO_FATURADO;
use prost::Message;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::{action, caller, client, create, db, delete, get, s, seed_copies, update};

fn d(v: &str) -> Decimal {
    Decimal::from_str(v).unwrap_or_default()
}

fn dv(v: &Value) -> Decimal {
    Decimal::from_str(&s(v)).unwrap_or_else(|_| panic!("not a decimal: {v}"))
}

async fn order(db: &erp_platform::db::Db, c: i64, cli: i64) -> i64 {
    let row = create(
        db,
        c,
        "pedido",
        json!({"PEDF_SERIE": "1", "PEDF_CLI_ID": cli, "PEDF_DTA_EMISSAO": "2026-11-22"}),
    )
    .await
    .expect("order");
    row["PEDF_ID"].as_i64().expect("id")
}

#[allow(clippy::too_many_arguments)]
async fn product_line(
    db: &erp_platform::db::Db,
    c: i64,
    id: i64,
    prod: i64,
    q: &str,
    u: &str,
    desc: &str,
    acre: &str,
    frete: &str,
) -> Value {
    create(db, c, "pedidoproduto", json!({
        "PEDI_PEDF_ID": id, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": prod, "PEDI_QTDE": q,
        "PEDI_VLR_UNITARIO": u, "PEDI_VLR_DESCONTO": desc, "PEDI_VLR_ACRECIMO": acre, "PEDI_VLR_FRETE": frete
    }))
    .await
    .expect("product line")
}

async fn service_line(
    db: &erp_platform::db::Db,
    c: i64,
    id: i64,
    serv: i64,
    q: &str,
    u: &str,
) -> Value {
    create(db, c, "pedidoservico", json!({
        "PFOS_PEDF_ID": id, "PFOS_PEDF_SERIE": "1", "PFOS_SERV_ID": serv, "PFOS_QTDE": q, "PFOS_VLR_UNIT": u
    }))
    .await
    .expect("service line")
}

fn totals(row: &Value) -> [Decimal; 6] {
    [
        dv(&row["PEDF_TOT_PROD"]),
        dv(&row["PEDF_TOT_SERV"]),
        dv(&row["PEDF_VLR_ACRE"]),
        dv(&row["PEDF_VLR_FRETE"]),
        dv(&row["PEDF_VLR_DESC"]),
        dv(&row["PEDF_VLR_TOTAL"]),
    ]
}

/// (products: qty, unit, discount, surcharge, freight), (services: qty, unit) ->
/// [products, services, surcharges, freight, discounts, total], worked by hand.
#[tokio::test]
async fn order_totals_follow_the_lines_as_computed_by_hand() {
    type P = (
        &'static str,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    );
    type Case = (Vec<P>, Vec<(&'static str, &'static str)>, [&'static str; 6]);
    let cases: Vec<Case> = vec![
        // 2 x 10 + 1 x 5.50 = 25.50
        (
            vec![("2", "10", "0", "0", "0"), ("1", "5.50", "0", "0", "0")],
            vec![],
            ["25.50", "0", "0", "0", "0", "25.50"],
        ),
        // 3 x 19.90 = 59.70, discount 4.70, freight 15; service 1.5 x 80 = 120
        // -> 59.70 + 120 + 15 - 4.70 = 190.00
        (
            vec![("3", "19.90", "4.70", "0", "15")],
            vec![("1.5", "80")],
            ["59.70", "120.00", "0", "15", "4.70", "190.00"],
        ),
        // 0.125 x 39.99 = 4.99875 -> 5.00 (disc .50, freight 2.15); 12 x 1.333 = 15.996 -> 16.00
        // (disc 1, surcharge .35, freight .85) -> 21.00 + .35 + 3.00 - 1.50 = 22.85
        (
            vec![
                ("0.125", "39.99", "0.50", "0", "2.15"),
                ("12", "1.333", "1.00", "0.35", "0.85"),
            ],
            vec![],
            ["21.00", "0", "0.35", "3.00", "1.50", "22.85"],
        ),
        // services only: 2 x 45.455 = 90.91; 1 x 0.01 -> 90.92
        (
            vec![],
            vec![("2", "45.455"), ("1", "0.01")],
            ["0", "90.92", "0", "0", "0", "90.92"],
        ),
        // mixed: 1 x 30 given away (disc 30), 4 x 2.50 = 10 with surcharge 2; service 3 x 33.333 = 100.00
        // -> 40 + 100 + 2 - 30 = 112.00
        (
            vec![("1", "30", "30", "0", "0"), ("4", "2.50", "0", "2", "0")],
            vec![("3", "33.333")],
            ["40.00", "100.00", "2", "0", "30", "112.00"],
        ),
    ];
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    for (i, (products, services, want)) in cases.into_iter().enumerate() {
        let id = order(&db, c, 1).await;
        for (q, u, desc, acre, frete) in products {
            product_line(&db, c, id, 1, q, u, desc, acre, frete).await;
        }
        for (q, u) in services {
            service_line(&db, c, id, 1, q, u).await;
        }
        let row = get(&db, c, "pedido", &[&id.to_string(), "1"])
            .await
            .expect("get");
        let want: Vec<Decimal> = want.iter().map(|w| d(w)).collect();
        assert_eq!(totals(&row).to_vec(), want, "case {i}");
    }
}

#[tokio::test]
async fn lines_take_defaults_from_the_catalog_copy_and_changes_recompute_the_order() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let id = order(&db, c, 1).await;
    let head = get(&db, c, "pedido", &[&id.to_string(), "1"])
        .await
        .expect("get");
    // The customer's name and city, trimmed.
    assert_eq!(head["PEDF_CLI_DESC"], "Oficina do Zé Ltda");
    assert_eq!(head["PEDF_CLI_CIDADE"], "Porto Alegre");
    // No description or price: the product's.
    let line = create(
        &db,
        c,
        "pedidoproduto",
        json!({"PEDI_PEDF_ID": id, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": 2, "PEDI_QTDE": "3"}),
    )
    .await
    .expect("line");
    assert_eq!(line["PEDI_DESCRICAO"], "Óleo 5W30");
    assert_eq!(line["PEDI_UNIDADE"], "L");
    assert_eq!(dv(&line["PEDI_VLR_UNITARIO"]), d("42.50"));
    assert_eq!(dv(&line["PEDI_VLR_TOTAL"]), d("127.50"));
    assert_eq!(line["PEDI_PEDF_ITEM"], 1);
    let second = product_line(&db, c, id, 3, "1", "180", "10", "0", "0").await;
    assert_eq!(second["PEDI_PEDF_ITEM"], 2);
    let head = get(&db, c, "pedido", &[&id.to_string(), "1"])
        .await
        .expect("get");
    assert_eq!(dv(&head["PEDF_VLR_TOTAL"]), d("297.50"));
    // Change the quantity of line 1: 5 x 42.50 = 212.50; total 212.50 + 170 = 382.50
    update(
        &db,
        c,
        "pedidoproduto",
        &[&id.to_string(), "1", "1"],
        json!({"PEDI_QTDE": "5"}),
    )
    .await
    .expect("update");
    let head = get(&db, c, "pedido", &[&id.to_string(), "1"])
        .await
        .expect("get");
    assert_eq!(dv(&head["PEDF_VLR_TOTAL"]), d("382.50"));
    // The server's totals cannot be written by a client.
    update(
        &db,
        c,
        "pedido",
        &[&id.to_string(), "1"],
        json!({"PEDF_VLR_TOTAL": "1.00", "PEDF_SITUACAO": "F", "PEDF_OBS": "x"}),
    )
    .await
    .expect("update header");
    let head = get(&db, c, "pedido", &[&id.to_string(), "1"])
        .await
        .expect("get");
    assert_eq!(
        (dv(&head["PEDF_VLR_TOTAL"]), s(&head["PEDF_SITUACAO"])),
        (d("382.50"), "A".into())
    );
    // Delete line 2 -> 212.50
    delete(&db, c, "pedidoproduto", &[&id.to_string(), "1", "2"])
        .await
        .expect("delete");
    let head = get(&db, c, "pedido", &[&id.to_string(), "1"])
        .await
        .expect("get");
    assert_eq!(dv(&head["PEDF_VLR_TOTAL"]), d("212.50"));
    // Bad lines change nothing.
    let msg = |r: erp_platform::Result<Value>| r.err().map(|e| e.public_message());
    assert_eq!(
        msg(create(&db, c, "pedidoproduto", json!({"PEDI_PEDF_ID": id, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": 1, "PEDI_QTDE": "1", "PEDI_VLR_UNITARIO": "10", "PEDI_VLR_DESCONTO": "11"})).await),
        Some("O desconto não pode ser maior que o valor do item.".into())
    );
    assert_eq!(
        msg(create(&db, c, "pedidoproduto", json!({"PEDI_PEDF_ID": id, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": 99, "PEDI_QTDE": "1"})).await),
        Some("Produto não encontrado.".into())
    );
    assert_eq!(
        msg(create(&db, c, "pedidoproduto", json!({"PEDI_PEDF_ID": 999, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": 1, "PEDI_QTDE": "1"})).await),
        Some("Pedido não encontrado.".into())
    );
    assert_eq!(
        msg(create(
            &db,
            c,
            "pedido",
            json!({"PEDF_SERIE": "1", "PEDF_CLI_ID": 77, "PEDF_DTA_EMISSAO": "2026-11-22"})
        )
        .await),
        Some("Cliente não encontrado.".into())
    );
    let head = get(&db, c, "pedido", &[&id.to_string(), "1"])
        .await
        .expect("get");
    assert_eq!(dv(&head["PEDF_VLR_TOTAL"]), d("212.50"));
}

async fn outbox_events(db: &erp_platform::db::Db, c: i64) -> Vec<PedidoFaturado> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let rows: Vec<Vec<u8>> = sqlx::query_scalar("SELECT payload FROM orders.outbox WHERE subject = $1 AND client_id = $2 ORDER BY created_at")
        .bind(PEDIDO_FATURADO)
        .bind(c)
        .fetch_all(&mut *tx)
        .await
        .expect("outbox");
    rows.iter()
        .map(|p| PedidoFaturado::decode(p.as_slice()).expect("decode"))
        .collect()
}

#[tokio::test]
async fn invoicing_happens_once_and_freezes_the_order() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let id = order(&db, c, 1).await;
    let ids = id.to_string();
    let params = [("PEDF_ID", ids.as_str()), ("PEDF_SERIE", "1")];
    let msg = |r: erp_platform::Result<Value>| r.err().map(|e| e.public_message());
    assert_eq!(
        msg(action(&db, c, "pedido", "faturar", &params).await),
        Some("Pedido sem itens não pode ser faturado.".into())
    );
    product_line(&db, c, id, 1, "2", "35.90", "0", "0", "0").await;
    product_line(&db, c, id, 3, "1", "180", "0", "0", "0").await;
    service_line(&db, c, id, 1, "1", "80").await;
    let out = action(&db, c, "pedido", "faturar", &params)
        .await
        .expect("invoice");
    assert_eq!(out["PEDF_SITUACAO"], "F");
    assert_eq!(dv(&out["PEDF_VLR_TOTAL"]), d("331.80"));
    let again = action(&db, c, "pedido", "faturar", &params).await;
    assert_eq!(msg(again), Some("Pedido já faturado.".into()));
    // One fact with the product lines.
    let events = outbox_events(&db, c).await;
    assert_eq!(events.len(), 1);
    let e = &events[0];
    assert_eq!(
        (e.pedido_id, e.serie.as_str(), e.emp_id, e.customer_id),
        (id, "1", 1, 1)
    );
    assert_eq!(
        (e.total.as_str(), e.customer_name.as_str()),
        ("331.80", "Oficina do Zé Ltda")
    );
    let lines: Vec<(i64, String)> = e
        .lines
        .iter()
        .map(|l| (l.product_id, l.quantity.clone()))
        .collect();
    assert_eq!(lines, vec![(1, "2".to_string()), (3, "1".to_string())]);
    // Frozen: lines, header and deletion are refused.
    let frozen = Some("Pedido já faturado não pode ser alterado.".to_string());
    assert_eq!(msg(create(&db, c, "pedidoproduto", json!({"PEDI_PEDF_ID": id, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": 1, "PEDI_QTDE": "1"})).await), frozen);
    assert_eq!(
        msg(update(
            &db,
            c,
            "pedidoproduto",
            &[&ids, "1", "1"],
            json!({"PEDI_QTDE": "9"})
        )
        .await),
        frozen
    );
    assert_eq!(
        msg(delete(&db, c, "pedidoservico", &[&ids, "1", "1"]).await),
        frozen
    );
    assert_eq!(
        msg(update(&db, c, "pedido", &[&ids, "1"], json!({"PEDF_OBS": "mudou"})).await),
        frozen
    );
    assert_eq!(msg(delete(&db, c, "pedido", &[&ids, "1"]).await), frozen);
    let head = get(&db, c, "pedido", &[&ids, "1"]).await.expect("get");
    assert_eq!(
        (dv(&head["PEDF_VLR_TOTAL"]), head["PEDF_OBS"].clone()),
        (d("331.80"), Value::Null)
    );
}

#[tokio::test]
async fn two_invoices_of_one_order_at_once_invoice_it_once() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    for _round in 0..5 {
        let id = order(&db, c, 2).await;
        product_line(&db, c, id, 2, "1", "42.50", "0", "0", "0").await;
        let ids = id.to_string();
        let run = |ids: String| {
            let db = db.clone();
            tokio::spawn(async move {
                action(
                    &db,
                    c,
                    "pedido",
                    "faturar",
                    &[("PEDF_ID", ids.as_str()), ("PEDF_SERIE", "1")],
                )
                .await
            })
        };
        let (a, b) = (run(ids.clone()), run(ids.clone()));
        let results = [a.await.expect("join"), b.await.expect("join")];
        let ok = results.iter().filter(|r| r.is_ok()).count();
        let conflicts: Vec<String> = results
            .iter()
            .filter_map(|r| r.as_ref().err().map(|e| e.public_message()))
            .collect();
        assert_eq!(ok, 1);
        assert_eq!(conflicts, vec!["Pedido já faturado.".to_string()]);
    }
    assert_eq!(outbox_events(&db, c).await.len(), 5);
}

#[tokio::test]
async fn a_renamed_customer_names_later_documents_and_issued_ones_keep_theirs() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let issued = order(&db, c, 2).await;
    product_line(&db, c, issued, 1, "1", "10", "0", "0", "0").await;
    action(
        &db,
        c,
        "pedido",
        "faturar",
        &[("PEDF_ID", &issued.to_string()), ("PEDF_SERIE", "1")],
    )
    .await
    .expect("invoice");
    // Catalog renamed the customer (what the copy consumer writes).
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query("UPDATE orders.clientes SET descricao = 'Transportes Sul S/A', cidade = 'Esteio' WHERE client_id = $1 AND cli_id = 2")
        .bind(c)
        .execute(&mut *tx)
        .await
        .expect("rename");
    tx.commit().await.expect("commit");
    let later = order(&db, c, 2).await;
    let old = get(&db, c, "pedido", &[&issued.to_string(), "1"])
        .await
        .expect("get");
    let new = get(&db, c, "pedido", &[&later.to_string(), "1"])
        .await
        .expect("get");
    assert_eq!(
        (old["PEDF_CLI_DESC"].clone(), old["PEDF_CLI_CIDADE"].clone()),
        (json!("Transportes Sul"), json!("Canoas"))
    );
    assert_eq!(
        (new["PEDF_CLI_DESC"].clone(), new["PEDF_CLI_CIDADE"].clone()),
        (json!("Transportes Sul S/A"), json!("Esteio"))
    );
}

#[tokio::test]
async fn duplicating_an_order_copies_lines_with_a_new_number() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let id = order(&db, c, 1).await;
    product_line(&db, c, id, 1, "2", "35.90", "1.80", "0", "5").await;
    service_line(&db, c, id, 2, "1", "150").await;
    action(
        &db,
        c,
        "pedido",
        "faturar",
        &[("PEDF_ID", &id.to_string()), ("PEDF_SERIE", "1")],
    )
    .await
    .expect("invoice");
    let dup = action(
        &db,
        c,
        "pedido",
        "duplicar",
        &[
            ("PEDF_ID", &id.to_string()),
            ("PEDF_SERIE", "1"),
            ("userId", "7"),
        ],
    )
    .await
    .expect("duplicate");
    assert_eq!(dup["PEDF_ID"].as_i64(), Some(id + 1));
    assert_eq!(dup["PEDF_SITUACAO"], "A");
    // 71.80 - 1.80 + 5 + 150 = 225.00
    assert_eq!(dv(&dup["PEDF_VLR_TOTAL"]), d("225.00"));
    // The new order takes more lines numbered after the copied ones.
    let l = product_line(&db, c, id + 1, 3, "1", "180", "0", "0", "0").await;
    assert_eq!(l["PEDI_PEDF_ITEM"], 2);
}

#[tokio::test]
async fn a_quote_becomes_a_billing_order_once() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let q = create(
        &db,
        c,
        "orcamento",
        json!({"ORCA_CLI_ID": 1, "ORCA_DTA_EMIS": "2026-11-22"}),
    )
    .await
    .expect("quote");
    let qid = q["ORCA_ID"].as_i64().expect("id");
    assert_eq!(q["ORCA_CLI_DESC"], "Oficina do Zé Ltda");
    for (prod, qty) in [(1, "2"), (2, "4")] {
        create(
            &db,
            c,
            "orcamentoproduto",
            json!({"ORCP_ORCA_ID": qid, "ORCP_PROD_ID": prod, "ORCP_QTDE": qty}),
        )
        .await
        .expect("product");
    }
    create(
        &db,
        c,
        "orcamentoservico",
        json!({"ORCI_ORCA_ID": qid, "ORCI_SERV_ID": 1, "ORCI_QTDE": "1", "ORCI_VLR_DESC": "10"}),
    )
    .await
    .expect("service");
    let q = get(&db, c, "orcamento", &[&qid.to_string()])
        .await
        .expect("get");
    // parts 2 x 35.90 + 4 x 42.50 = 241.80; services 80 - 10 discount -> 311.80
    assert_eq!(
        (
            dv(&q["ORCA_VLR_PECAS"]),
            dv(&q["ORCA_VLR_OS"]),
            dv(&q["ORCA_VLR_DESC"]),
            dv(&q["ORCA_VLR_TOT"])
        ),
        (d("241.80"), d("80.00"), d("10"), d("311.80"))
    );
    let qs = qid.to_string();
    let msg = |r: erp_platform::Result<Value>| r.err().map(|e| e.public_message());
    assert_eq!(
        msg(action(
            &db,
            c,
            "orcamento",
            "gerapdv",
            &[("ORCA_ID", &qs), ("user", "7")]
        )
        .await),
        Some(erp_orders::resources::quotes::NOT_AVAILABLE_PDV.into())
    );
    let order = action(
        &db,
        c,
        "orcamento",
        "gerapedidofat",
        &[
            ("ORCA_ID", &qs),
            ("serie", "1"),
            ("model", "55"),
            ("type", "1"),
            ("user", "7"),
        ],
    )
    .await
    .expect("convert");
    assert_eq!(dv(&order["PEDF_VLR_TOTAL"]), d("311.80"));
    assert_eq!(
        (
            order["PEDF_ORCA_ID"].as_i64(),
            order["PEDF_CLI_DESC"].clone()
        ),
        (Some(qid), json!("Oficina do Zé Ltda"))
    );
    let q = get(&db, c, "orcamento", &[&qs]).await.expect("get");
    assert_eq!(
        (q["ORCA_SITUACAO"].clone(), q["ORCA_PEDF_ID"].clone()),
        (json!("C"), order["PEDF_ID"].clone())
    );
    assert_eq!(
        msg(action(
            &db,
            c,
            "orcamento",
            "gerapedidofat",
            &[
                ("ORCA_ID", &qs),
                ("serie", "1"),
                ("model", "55"),
                ("type", "1"),
                ("user", "7")
            ]
        )
        .await),
        Some("Orçamento já convertido não pode ser alterado.".into())
    );
    assert_eq!(
        msg(create(
            &db,
            c,
            "orcamentoproduto",
            json!({"ORCP_ORCA_ID": qid, "ORCP_PROD_ID": 1, "ORCP_QTDE": "1"})
        )
        .await),
        Some("Orçamento já convertido não pode ser alterado.".into())
    );
    // Duplicating the converted quote gives an open one with the same totals.
    let dup = action(
        &db,
        c,
        "orcamento",
        "duplicar",
        &[("ORCA_ID", &qs), ("user", "7")],
    )
    .await
    .expect("dup");
    assert_eq!(
        (dup["ORCA_SITUACAO"].clone(), dv(&dup["ORCA_VLR_TOT"])),
        (json!("A"), d("311.80"))
    );
}

#[tokio::test]
async fn grouping_a_quotes_product_lines_and_requisition_once() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let q = create(
        &db,
        c,
        "orcamento",
        json!({"ORCA_CLI_ID": 2, "ORCA_DTA_EMIS": "2026-11-22"}),
    )
    .await
    .expect("quote");
    let qs = s(&q["ORCA_ID"]);
    let qid = q["ORCA_ID"].as_i64().expect("id");
    for qty in ["1", "2.5"] {
        create(
            &db,
            c,
            "orcamentoproduto",
            json!({"ORCP_ORCA_ID": qid, "ORCP_PROD_ID": 2, "ORCP_QTDE": qty}),
        )
        .await
        .expect("line");
    }
    let out = action(
        &db,
        c,
        "orcamentoproduto",
        "agrupar",
        &[("ORCP_ORCA_ID", &qs), ("ORCP_PROD_ID", "2")],
    )
    .await
    .expect("group");
    assert_eq!(out["LINHAS_AGRUPADAS"], 2);
    let q = get(&db, c, "orcamento", &[&qs]).await.expect("get");
    // 3.5 x 42.50 = 148.75
    assert_eq!(dv(&q["ORCA_VLR_TOT"]), d("148.75"));
    action(
        &db,
        c,
        "orcamento",
        "gerarequisicao",
        &[("ORCA_ID", &qs), ("user", "7")],
    )
    .await
    .expect("requisition");
    let msg = |r: erp_platform::Result<Value>| r.err().map(|e| e.public_message());
    assert_eq!(
        msg(action(
            &db,
            c,
            "orcamento",
            "gerarequisicao",
            &[("ORCA_ID", &qs), ("user", "7")]
        )
        .await),
        Some("A requisição deste orçamento já foi gerada.".into())
    );
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM orders.outbox WHERE subject = 'erp.orders.orcamento.requisicao' AND client_id = $1")
        .bind(c)
        .fetch_one(&mut *tx)
        .await
        .expect("count");
    assert_eq!(n, 1);
}

#[tokio::test]
async fn promotions_price_by_quantity_and_period() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let today = chrono::Local::now().date_naive();
    let (ini, fim) = (
        (today - chrono::Duration::days(1))
            .format("%Y-%m-%d")
            .to_string(),
        (today + chrono::Duration::days(1))
            .format("%Y-%m-%d")
            .to_string(),
    );
    create(&db, c, "promocao", json!({"PROM_DESCRICAO": "Leve 10", "PROM_PROD_ID": 1, "PROM_QTDE_MIN": "10", "PROM_VLR_UNIT": "30.00", "PROM_DTA_INI": ini, "PROM_DTA_FIM": fim})).await.expect("p1");
    create(&db, c, "promocao", json!({"PROM_DESCRICAO": "Atacado 50", "PROM_PROD_ID": 1, "PROM_QTDE_MIN": "50", "PROM_PERC_DESC": "20", "PROM_DTA_INI": ini, "PROM_DTA_FIM": fim})).await.expect("p2");
    create(&db, c, "promocao", json!({"PROM_DESCRICAO": "Vencida", "PROM_PROD_ID": 1, "PROM_QTDE_MIN": "1", "PROM_VLR_UNIT": "1.00", "PROM_DTA_INI": "2020-01-01", "PROM_DTA_FIM": "2020-01-31"})).await.expect("p3");
    let value = |qty: &'static str| {
        let db = db.clone();
        async move {
            action(
                &db,
                c,
                "promocao",
                "valor",
                &[("prodId", "1"), ("qty", qty)],
            )
            .await
            .expect("value")
        }
    };
    let v = value("2").await;
    assert_eq!(
        (
            s(&v["VALOR_UNITARIO"]),
            s(&v["VALOR_TOTAL"]),
            v["PROM_ID"].clone()
        ),
        ("35.9".into(), "71.80".into(), Value::Null)
    );
    let v = value("10").await;
    assert_eq!(
        (s(&v["VALOR_UNITARIO"]), s(&v["VALOR_TOTAL"])),
        ("30".into(), "300.00".into())
    );
    // 35.90 x 0.8 = 28.72
    let v = value("50").await;
    assert_eq!(
        (
            s(&v["VALOR_UNITARIO"]),
            s(&v["VALOR_TOTAL"]),
            s(&v["PROM_DESCRICAO"])
        ),
        ("28.72".into(), "1436.00".into(), "Atacado 50".into())
    );
}

#[tokio::test]
async fn another_client_never_reaches_these_documents() {
    let db = db().await;
    let (a, b) = (client(), client());
    seed_copies(&db, a).await;
    seed_copies(&db, b).await;
    let id = order(&db, a, 1).await;
    product_line(&db, a, id, 1, "1", "10", "0", "0", "0").await;
    let ids = id.to_string();
    assert!(matches!(
        get(&db, b, "pedido", &[&ids, "1"]).await,
        Err(erp_platform::Error::NotFound(_))
    ));
    assert!(action(
        &db,
        b,
        "pedido",
        "faturar",
        &[("PEDF_ID", &ids), ("PEDF_SERIE", "1")]
    )
    .await
    .is_err());
    assert!(delete(&db, b, "pedidoproduto", &[&ids, "1", "1"])
        .await
        .is_err());
    // A's order is untouched and still open.
    let head = get(&db, a, "pedido", &[&ids, "1"]).await.expect("get");
    assert_eq!(
        (head["PEDF_SITUACAO"].clone(), dv(&head["PEDF_VLR_TOTAL"])),
        (json!("A"), d("10"))
    );
    let _ = caller(a);
}
