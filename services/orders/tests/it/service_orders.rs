//! Service orders: totals from the lines, surcharge, stock write-off once, the
//! odometer check, closed orders, conversion from a quote, tenant isolation.

use std::str::FromStr;

use erp_platform::db::Db;
use erp_platform::resource::query;
use erp_platform::Error;
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use super::{
    action, body, caller, client, create, db, delete, get, registry, s, seed_copies, update,
};

pub fn d(v: &Value) -> Decimal {
    Decimal::from_str(&s(v)).unwrap_or_else(|_| panic!("not a decimal: {v}"))
}

pub fn n(x: &str) -> Decimal {
    Decimal::from_str(x).expect("decimal")
}

/// Runs a declared call with a body, as the gateway would.
pub async fn act(
    db: &Db,
    c: i64,
    name: &str,
    action: &str,
    params: &[(&str, &str)],
    b: Value,
) -> erp_platform::Result<Value> {
    let reg = registry();
    let res = reg.get(name).expect("resource");
    let a = res
        .actions
        .iter()
        .find(|a| a.name == action)
        .expect("action")
        .clone();
    let params = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut tx = db.begin_tenant(c).await?;
    let out = a
        .handler
        .run(&mut tx, res, &caller(c), Some(1), &params, b)
        .await?;
    tx.commit().await?;
    Ok(out)
}

pub async fn list(db: &Db, c: i64, name: &str, filter: Value) -> erp_platform::Result<Vec<Value>> {
    let reg = registry();
    let res = reg.get(name).expect("resource");
    let mut tx = db.begin_tenant(c).await?;
    let rows = query::list(&mut tx, res, &caller(c), Some(1), &body(filter)).await?;
    tx.commit().await?;
    Ok(rows)
}

async fn order(db: &Db, c: i64, cli: i64, vehicle: i64, km: i64) -> String {
    let row = create(db, c, "ordemservico", json!({
        "ORDS_CLI_ID": cli, "ORDS_VEIC_ID": vehicle, "ORDS_KM": km, "ORDS_DTA_ENTRADA": "2026-11-22",
        "ORDS_DEFEITO": "Ruído na suspensão"
    }))
    .await
    .expect("order");
    s(&row["ORDS_ID"])
}

async fn header(db: &Db, c: i64, id: &str) -> Value {
    get(db, c, "ordemservico", &[id, "OS"])
        .await
        .expect("order row")
}

/// [services, parts, surcharges, discounts, total]
fn totals(row: &Value) -> [Decimal; 5] {
    [
        "ORDS_VLR_SERV",
        "ORDS_VLR_PECAS",
        "ORDS_VLR_ACRE",
        "ORDS_VLR_DESC",
        "ORDS_VLR_TOTAL",
    ]
    .map(|k| d(&row[k]))
}

fn t(v: [&str; 5]) -> [Decimal; 5] {
    v.map(n)
}

#[tokio::test]
async fn order_totals_follow_service_and_product_lines() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let id = order(&db, c, 1, 10, 1000).await;
    assert_eq!(id, "1");
    let h = header(&db, c, &id).await;
    assert_eq!(h["ORDS_SERIE"], json!("OS"));
    assert_eq!(h["ORDS_SITUACAO"], json!("A"));
    assert_eq!(h["ORDS_CLI_DESC"], json!("Oficina do Zé Ltda"));
    assert_eq!(h["ORDS_CLI_CIDADE"], json!("Porto Alegre"));
    assert_eq!(h["ORDS_USR_ID"], json!(7));
    assert_eq!(h["ORDS_ESTOQUE_BAIXADO"], json!(false));
    assert_eq!(totals(&h), t(["0", "0", "0", "0", "0"]));

    // 1.5 h x 150.00 (price from the copy) = 225.00 - 10.00 discount = 215.00
    let l1 = create(
        &db,
        c,
        "ordemservicoservico",
        json!({
            "ORDI_ORDS_ID": 1, "ORDI_SERV_ID": 2, "ORDI_QTDE": "1.5", "ORDI_VLR_DESC": "10"
        }),
    )
    .await
    .expect("service line");
    assert_eq!(l1["ORDI_ID"], json!(1));
    assert_eq!(l1["ORDI_SERIE"], json!("OS"));
    assert_eq!(l1["ORDI_DESCRICAO"], json!("Revisão de freios"));
    assert_eq!(d(&l1["ORDI_VLR_UNIT"]), n("150"));
    assert_eq!(d(&l1["ORDI_VLR_TOTAL"]), n("215.00"));
    // 1 x 80.00 + 5.00 surcharge = 85.00
    let l2 = create(&db, c, "ordemservicoservico", json!({
        "ORDI_ORDS_ID": 1, "ORDI_SERIE": "OS", "ORDI_SERV_ID": 1, "ORDI_QTDE": "1", "ORDI_VLR_UNIT": "80", "ORDI_VLR_ACRE": "5"
    }))
    .await
    .expect("service line 2");
    assert_eq!(l2["ORDI_ID"], json!(2));
    assert_eq!(d(&l2["ORDI_VLR_TOTAL"]), n("85.00"));
    // 2 x 35.90 = 71.80 - 1.80 = 70.00
    let p1 = create(
        &db,
        c,
        "ordemservicoproduto",
        json!({
            "ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 1, "ORDP_QTDE": "2", "ORDP_VLR_DESC": "1.80"
        }),
    )
    .await
    .expect("product line");
    assert_eq!(p1["ORDP_SEQ"], json!(1));
    assert_eq!(p1["ORDP_UNIDADE"], json!("UN"));
    assert_eq!(d(&p1["ORDP_VLR_TOTAL"]), n("70.00"));
    // 4 x 42.50 = 170.00 + 2.50 = 172.50
    let p2 = create(&db, c, "ordemservicoproduto", json!({
        "ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 2, "ORDP_QTDE": "4", "ORDP_VLR_UNIT": "42.50", "ORDP_VLR_ACRE": "2.50"
    }))
    .await
    .expect("product line 2");
    assert_eq!(d(&p2["ORDP_VLR_TOTAL"]), n("172.50"));
    // services 225 + 80 = 305.00; parts 71.80 + 170.00 = 241.80; surcharges 7.50;
    // discounts 11.80 -> 305 + 241.80 + 7.50 - 11.80 = 542.50
    assert_eq!(
        totals(&header(&db, c, &id).await),
        t(["305.00", "241.80", "7.50", "11.80", "542.50"])
    );

    // 3 x 42.50 = 127.50 -> parts 199.30, total 500.00
    let p2 = update(
        &db,
        c,
        "ordemservicoproduto",
        &["1", "OS", "2"],
        json!({"ORDP_QTDE": "3"}),
    )
    .await
    .expect("update line");
    assert_eq!(d(&p2["ORDP_VLR_TOTAL"]), n("130.00"));
    assert_eq!(
        totals(&header(&db, c, &id).await),
        t(["305.00", "199.30", "7.50", "11.80", "500.00"])
    );

    // Without the 85.00 line: services 225, surcharges 2.50 -> 415.00
    delete(&db, c, "ordemservicoservico", &["1", "OS", "2"])
        .await
        .expect("delete line");
    assert_eq!(
        totals(&header(&db, c, &id).await),
        t(["225.00", "199.30", "2.50", "11.80", "415.00"])
    );

    // The totalisation call answers the same, as money.
    let tot = action(
        &db,
        c,
        "ordemservico",
        "totalizacao",
        &[("ORDS_ID", "1"), ("emp", "1"), ("ORDS_SERIE", "OS")],
    )
    .await
    .expect("totalizacao");
    assert_eq!(tot["ORDS_VLR_TOTAL"], json!("415.00"));
    assert_eq!(tot["ORDS_VLR_SERV"], json!("225.00"));
    assert_eq!(tot["ORDS_VLR_PECAS"], json!("199.30"));
    assert_eq!(tot["ORDS_VLR_ACRE"], json!("2.50"));
    assert_eq!(tot["ORDS_VLR_DESC"], json!("11.80"));

    // Lines listed by the legacy path's filters.
    let rows = list(
        &db,
        c,
        "ordemservicoproduto",
        json!({"ORDP_ORDS_ID": 1, "ORDP_SERIE": "OS"}),
    )
    .await
    .expect("list");
    assert_eq!(rows.len(), 2);

    // Merging product 2 twice: 3 + 1 = 4 x 42.50 = 170.00 + 2.50 surcharge = 172.50
    create(
        &db,
        c,
        "ordemservicoproduto",
        json!({"ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 2, "ORDP_QTDE": "1", "ORDP_VLR_UNIT": "42.50"}),
    )
    .await
    .expect("third product line");
    let g = action(
        &db,
        c,
        "ordemservicoproduto",
        "agrupar",
        &[
            ("ORDP_ORDS_ID", "1"),
            ("emp", "1"),
            ("ORDP_SERIE", "OS"),
            ("ORDP_PROD_ID", "2"),
            ("PROD_EMP_ID", "1"),
        ],
    )
    .await
    .expect("agrupar");
    assert_eq!(g["LINHAS_AGRUPADAS"], json!(2));
    let rows = list(
        &db,
        c,
        "ordemservicoproduto",
        json!({"ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 2}),
    )
    .await
    .expect("list");
    assert_eq!(rows.len(), 1);
    assert_eq!(d(&rows[0]["ORDP_QTDE"]), n("4"));
    assert_eq!(d(&rows[0]["ORDP_VLR_TOTAL"]), n("172.50"));
    // parts 71.80 + 170.00 = 241.80 -> 225 + 241.80 + 2.50 - 11.80 = 457.50
    assert_eq!(
        totals(&header(&db, c, &id).await),
        t(["225.00", "241.80", "2.50", "11.80", "457.50"])
    );
}

#[tokio::test]
async fn surcharge_by_value_and_by_percentage() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let id = order(&db, c, 1, 10, 1000).await;
    // 1 x 150.00 + 4.00 surcharge = 154.00; 1 x 180.00 - 30.00 = 150.00 -> lines 304.00
    create(
        &db,
        c,
        "ordemservicoservico",
        json!({"ORDI_ORDS_ID": 1, "ORDI_SERV_ID": 2, "ORDI_QTDE": "1", "ORDI_VLR_ACRE": "4"}),
    )
    .await
    .expect("service");
    create(
        &db,
        c,
        "ordemservicoproduto",
        json!({"ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 3, "ORDP_QTDE": "1", "ORDP_VLR_DESC": "30"}),
    )
    .await
    .expect("product");
    assert_eq!(d(&header(&db, c, &id).await["ORDS_VLR_TOTAL"]), n("304.00"));
    let p = [("NROS", "1"), ("emp", "1"), ("SERIE", "OS")];

    let r = act(
        &db,
        c,
        "ordemservico",
        "acrescimo",
        &p,
        json!({"VALOR": "12.50"}),
    )
    .await
    .expect("by value");
    assert_eq!(r["ORDS_ACRESCIMO"], json!("12.50"));
    assert_eq!(r["ORDS_VLR_ACRE"], json!("16.50"));
    assert_eq!(r["ORDS_VLR_TOTAL"], json!("316.50"));
    assert_eq!(d(&header(&db, c, &id).await["ORDS_VLR_TOTAL"]), n("316.50"));

    // 10% of the lines' 304.00 = 30.40 (replaces the 12.50) -> 304.00 + 30.40 = 334.40
    let r = act(
        &db,
        c,
        "ordemservico",
        "acrescimo",
        &p,
        json!({"PERCENTUAL": "10"}),
    )
    .await
    .expect("by percentage");
    assert_eq!(r["ORDS_ACRESCIMO"], json!("30.40"));
    assert_eq!(r["ORDS_VLR_ACRE"], json!("34.40"));
    assert_eq!(r["ORDS_VLR_TOTAL"], json!("334.40"));

    // The surcharge is a value: a new line adds 35.90 only -> 304 + 35.90 + 30.40 = 370.30
    create(
        &db,
        c,
        "ordemservicoproduto",
        json!({"ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 1, "ORDP_QTDE": "1"}),
    )
    .await
    .expect("product 2");
    let h = header(&db, c, &id).await;
    assert_eq!(
        totals(&h),
        t(["150.00", "215.90", "34.40", "30.00", "370.30"])
    );
    assert_eq!(d(&h["ORDS_ACRESCIMO"]), n("30.40"));

    // Comma decimals are accepted; 0 removes it: 304 + 35.90 = 339.90
    let r = act(
        &db,
        c,
        "ordemservico",
        "acrescimo",
        &p,
        json!({"VALOR": "0,00"}),
    )
    .await
    .expect("zero");
    assert_eq!(r["ORDS_VLR_TOTAL"], json!("339.90"));

    for (b, msg) in [
        (json!({}), "Informe o VALOR ou o PERCENTUAL do acréscimo."),
        (json!({"VALOR": "-1"}), "O acréscimo não pode ser negativo."),
        (
            json!({"PERCENTUAL": "-5"}),
            "O percentual de acréscimo não pode ser negativo.",
        ),
        (json!({"VALOR": "abc"}), "Valor inválido: abc."),
    ] {
        let e = act(&db, c, "ordemservico", "acrescimo", &p, b)
            .await
            .err()
            .map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some(msg));
    }
    assert_eq!(d(&header(&db, c, &id).await["ORDS_VLR_TOTAL"]), n("339.90"));
}

async fn outbox_count(db: &Db, c: i64) -> i64 {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let n: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM orders.outbox WHERE subject = 'erp.orders.ordemservico.estoquebaixado' AND client_id = $1",
    )
    .bind(c)
    .fetch_one(&mut *tx)
    .await
    .expect("count");
    tx.commit().await.expect("commit");
    n
}

#[tokio::test]
async fn stock_leaves_once_per_order() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let id = order(&db, c, 1, 10, 1000).await;
    create(
        &db,
        c,
        "ordemservicoproduto",
        json!({"ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 1, "ORDP_QTDE": "2"}),
    )
    .await
    .expect("p1");
    create(
        &db,
        c,
        "ordemservicoproduto",
        json!({"ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 2, "ORDP_QTDE": "1.5", "ORDP_LOCA_ID": 3}),
    )
    .await
    .expect("p2");
    create(
        &db,
        c,
        "ordemservicoservico",
        json!({"ORDI_ORDS_ID": 1, "ORDI_SERV_ID": 1, "ORDI_QTDE": "1"}),
    )
    .await
    .expect("s1");
    let b = json!({"ORDS_ID": 1, "ORDS_EMP_ID": 1, "ORDS_SERIE": "OS"});

    let r = act(&db, c, "ordemservico", "baixarestoque", &[], b.clone())
        .await
        .expect("write-off");
    assert_eq!(r["ITENS"], json!(2));
    assert_eq!(
        header(&db, c, &id).await["ORDS_ESTOQUE_BAIXADO"],
        json!(true)
    );
    assert_eq!(outbox_count(&db, c).await, 1);

    let e = act(&db, c, "ordemservico", "baixarestoque", &[], b.clone())
        .await
        .err();
    assert!(
        matches!(&e, Some(Error::Conflict(m)) if m == "O estoque desta ordem de serviço já foi baixado."),
        "{e:?}"
    );
    assert_eq!(outbox_count(&db, c).await, 1);

    // The event carries the product lines.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let payload: Vec<u8> = sqlx::query_scalar(
        "SELECT payload FROM orders.outbox WHERE subject = 'erp.orders.ordemservico.estoquebaixado' AND client_id = $1",
    )
    .bind(c)
    .fetch_one(&mut *tx)
    .await
    .expect("payload");
    tx.commit().await.expect("commit");
    let ev =
        erp_proto::orders::v1::OrdemServicoBaixada::decode(payload.as_slice()).expect("decode");
    assert_eq!(
        (
            ev.client_id,
            ev.emp_id,
            ev.ordem_id,
            ev.serie.as_str(),
            ev.user_id
        ),
        (c, 1, 1, "OS", 7)
    );
    let lines: Vec<(i64, String, i64, i64)> = ev
        .lines
        .iter()
        .map(|l| (l.product_id, l.quantity.clone(), l.item, l.location_id))
        .collect();
    assert_eq!(
        lines,
        vec![(1, "2".to_string(), 1, 0), (2, "1.5".to_string(), 2, 3)]
    );

    // The parts cannot change any more, and the order can be neither cancelled nor deleted.
    let e = create(
        &db,
        c,
        "ordemservicoproduto",
        json!({"ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 3, "ORDP_QTDE": "1"}),
    )
    .await
    .err();
    assert!(
        matches!(&e, Some(Error::Conflict(m)) if m.starts_with("O estoque desta ordem de serviço já foi baixado")),
        "{e:?}"
    );
    let e = delete(&db, c, "ordemservicoproduto", &["1", "OS", "1"])
        .await
        .err();
    assert!(matches!(e, Some(Error::Conflict(_))));
    let e = action(
        &db,
        c,
        "ordemservico",
        "cancelar",
        &[("ORDS_ID", "1"), ("emp", "1"), ("ORDS_SERIE", "OS")],
    )
    .await
    .err();
    assert!(matches!(e, Some(Error::Conflict(_))));
    let e = delete(&db, c, "ordemservico", &["1", "OS"]).await.err();
    assert!(matches!(e, Some(Error::Conflict(_))));
    let rows = list(&db, c, "ordemservicoproduto", json!({"ORDP_ORDS_ID": 1}))
        .await
        .expect("list");
    assert_eq!(rows.len(), 2);

    // An order without products has nothing to write off.
    let id2 = order(&db, c, 1, 10, 1000).await;
    assert_eq!(id2, "2");
    let e = act(
        &db,
        c,
        "ordemservico",
        "baixarestoque",
        &[],
        json!({"ORDS_ID": "2", "ORDS_EMP_ID": 1, "ORDS_SERIE": "OS"}),
    )
    .await
    .err();
    assert!(
        matches!(&e, Some(Error::Validation(m)) if m == "Ordem de serviço sem produtos: não há estoque a baixar."),
        "{e:?}"
    );
    assert_eq!(
        header(&db, c, &id2).await["ORDS_ESTOQUE_BAIXADO"],
        json!(false)
    );
    // A missing order is not found.
    let e = act(
        &db,
        c,
        "ordemservico",
        "baixarestoque",
        &[],
        json!({"ORDS_ID": 99, "ORDS_EMP_ID": 1, "ORDS_SERIE": "OS"}),
    )
    .await
    .err();
    assert!(
        matches!(&e, Some(Error::NotFound(m)) if m == "Ordem de serviço não encontrada."),
        "{e:?}"
    );
    assert_eq!(outbox_count(&db, c).await, 1);
}

#[tokio::test]
async fn consultakm_compares_with_the_vehicles_highest_odometer() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    order(&db, c, 1, 77, 1000).await;
    order(&db, c, 1, 77, 5000).await;
    order(&db, c, 2, 78, 90000).await; // another vehicle
    let cancelled = order(&db, c, 1, 77, 9000).await;
    action(
        &db,
        c,
        "ordemservico",
        "cancelar",
        &[("ORDS_ID", &cancelled), ("emp", "1"), ("ORDS_SERIE", "OS")],
    )
    .await
    .expect("cancel");
    assert_eq!(
        header(&db, c, &cancelled).await["ORDS_SITUACAO"],
        json!("C")
    );
    let km = |vehicle: &'static str, odo: &'static str| {
        let db = db.clone();
        async move {
            action(
                &db,
                c,
                "ordemservico",
                "consultakm",
                &[("vehicle", vehicle), ("emp", "1"), ("odometer", odo)],
            )
            .await
            .expect("consultakm")
        }
    };
    assert_eq!(
        km("77", "6000").await,
        json!({"VEIC_ID": 77, "KM_ANTERIOR": 5000, "KM_INFORMADO": 6000, "KM_VALIDO": true})
    );
    assert_eq!(km("77", "5000").await["KM_VALIDO"], json!(true));
    assert_eq!(
        km("77", "4999").await,
        json!({"VEIC_ID": 77, "KM_ANTERIOR": 5000, "KM_INFORMADO": 4999, "KM_VALIDO": false})
    );
    // Not a positive number -> 200.
    for odo in ["abc", "0", "-10", "undefined"] {
        assert_eq!(
            km("77", odo).await,
            json!({"VEIC_ID": 77, "KM_ANTERIOR": 5000, "KM_INFORMADO": 200, "KM_VALIDO": false}),
            "{odo}"
        );
    }
    // A vehicle without orders: 0 before, the fallback is valid.
    assert_eq!(
        km("88", "x").await,
        json!({"VEIC_ID": 88, "KM_ANTERIOR": 0, "KM_INFORMADO": 200, "KM_VALIDO": true})
    );
}

#[tokio::test]
async fn a_closed_order_refuses_changes() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let id = order(&db, c, 1, 10, 1000).await;
    create(
        &db,
        c,
        "ordemservicoservico",
        json!({"ORDI_ORDS_ID": 1, "ORDI_SERV_ID": 1, "ORDI_QTDE": "2"}),
    )
    .await
    .expect("line");
    let p = [("ORDS_ID", "1"), ("emp", "1"), ("ORDS_SERIE", "OS")];
    let closed = action(&db, c, "ordemservico", "finalizar", &p)
        .await
        .expect("finalizar");
    assert_eq!(closed["ORDS_SITUACAO"], json!("F"));
    assert!(closed["ORDS_DTA_SAIDA"].is_string());
    assert_eq!(d(&closed["ORDS_VLR_TOTAL"]), n("160.00"));

    let msg = "Ordem de serviço finalizada ou cancelada não pode ser alterada.";
    let is_closed = |e: Option<Error>| matches!(&e, Some(Error::Conflict(m)) if m == msg);
    assert!(is_closed(
        create(
            &db,
            c,
            "ordemservicoservico",
            json!({"ORDI_ORDS_ID": 1, "ORDI_SERV_ID": 2, "ORDI_QTDE": "1"})
        )
        .await
        .err()
    ));
    assert!(is_closed(
        update(
            &db,
            c,
            "ordemservicoservico",
            &["1", "OS", "1"],
            json!({"ORDI_QTDE": "5"})
        )
        .await
        .err()
    ));
    assert!(is_closed(
        delete(&db, c, "ordemservicoservico", &["1", "OS", "1"])
            .await
            .err()
    ));
    assert!(is_closed(
        create(
            &db,
            c,
            "ordemservicoproduto",
            json!({"ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 1, "ORDP_QTDE": "1"})
        )
        .await
        .err()
    ));
    assert!(is_closed(
        update(
            &db,
            c,
            "ordemservico",
            &["1", "OS"],
            json!({"ORDS_OBS": "mudou"})
        )
        .await
        .err()
    ));
    assert!(is_closed(
        create(
            &db,
            c,
            "ordemservicomecanico",
            json!({"ORDM_ORDS_ID": 1, "ORDM_COLA_ID": 3, "ORDM_NOME": "Ana"})
        )
        .await
        .err()
    ));
    assert!(is_closed(
        act(
            &db,
            c,
            "ordemservico",
            "acrescimo",
            &[("NROS", "1"), ("emp", "1"), ("SERIE", "OS")],
            json!({"VALOR": "5"})
        )
        .await
        .err()
    ));
    let e = action(&db, c, "ordemservico", "finalizar", &p).await.err();
    assert!(
        matches!(&e, Some(Error::Conflict(m)) if m == "Ordem de serviço já finalizada."),
        "{e:?}"
    );

    let h = header(&db, c, &id).await;
    assert_eq!(totals(&h), t(["160.00", "0", "0", "0", "160.00"]));
    assert_eq!(h["ORDS_OBS"], Value::Null);
    let line = get(&db, c, "ordemservicoservico", &["1", "OS", "1"])
        .await
        .expect("line");
    assert_eq!(d(&line["ORDI_QTDE"]), n("2"));
    // The totalisation of a closed order answers the stored totals.
    let tot = action(&db, c, "ordemservico", "totalizacao", &p)
        .await
        .expect("totalizacao");
    assert_eq!(tot["ORDS_VLR_TOTAL"], json!("160.00"));
    assert_eq!(tot["ORDS_SITUACAO"], json!("F"));
}

#[tokio::test]
async fn a_quote_becomes_a_service_order_with_its_lines() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let q = create(&db, c, "orcamento", json!({"ORCA_CLI_ID": 2, "ORCA_VEIC_ID": 55, "ORCA_DTA_EMIS": "2026-11-20", "ORCA_OBS": "Cliente aguarda"}))
        .await
        .expect("quote");
    let qid = s(&q["ORCA_ID"]);
    // 2 x 150.00 = 300.00 - 20.00 = 280.00; 1 x 180.00; 3 x 42.50 = 127.50
    create(&db, c, "orcamentoservico", json!({"ORCI_ORCA_ID": 1, "ORCI_SERV_ID": 2, "ORCI_QTDE": "2", "ORCI_VLR_UNIT": "150", "ORCI_VLR_DESC": "20"}))
        .await
        .expect("quote service");
    create(
        &db,
        c,
        "orcamentoproduto",
        json!({"ORCP_ORCA_ID": 1, "ORCP_PROD_ID": 3, "ORCP_QTDE": "1", "ORCP_VLR_UNIT": "180"}),
    )
    .await
    .expect("quote product");
    create(
        &db,
        c,
        "orcamentoproduto",
        json!({"ORCP_ORCA_ID": 1, "ORCP_PROD_ID": 2, "ORCP_QTDE": "3", "ORCP_VLR_UNIT": "42.50"}),
    )
    .await
    .expect("quote product 2");

    let os = action(
        &db,
        c,
        "orcamento",
        "geraos",
        &[("ORCA_ID", &qid), ("emp", "1"), ("user", "7")],
    )
    .await
    .expect("geraos");
    assert_eq!(os["ORDS_ID"], json!(1));
    assert_eq!(os["ORDS_SERIE"], json!("OS"));
    assert_eq!(os["ORDS_SITUACAO"], json!("A"));
    assert_eq!(os["ORDS_CLI_ID"], json!(2));
    assert_eq!(os["ORDS_CLI_DESC"], json!("Transportes Sul"));
    assert_eq!(os["ORDS_VEIC_ID"], json!(55));
    assert_eq!(os["ORDS_ORCA_ID"], json!(1));
    assert_eq!(os["ORDS_OBS"], json!("Cliente aguarda"));
    // services 300.00, parts 307.50, discounts 20.00 -> 587.50
    assert_eq!(totals(&os), t(["300.00", "307.50", "0", "20.00", "587.50"]));

    let services = list(
        &db,
        c,
        "ordemservicoservico",
        json!({"ORDI_ORDS_ID": 1, "ORDI_SERIE": "OS"}),
    )
    .await
    .expect("services");
    assert_eq!(services.len(), 1);
    assert_eq!(services[0]["ORDI_SERV_ID"], json!(2));
    assert_eq!(services[0]["ORDI_DESCRICAO"], json!("Revisão de freios"));
    assert_eq!(d(&services[0]["ORDI_QTDE"]), n("2"));
    assert_eq!(d(&services[0]["ORDI_VLR_DESC"]), n("20"));
    assert_eq!(d(&services[0]["ORDI_VLR_TOTAL"]), n("280.00"));
    let products = list(&db, c, "ordemservicoproduto", json!({"ORDP_ORDS_ID": 1}))
        .await
        .expect("products");
    let got: Vec<(Value, Decimal, Decimal, Value)> = products
        .iter()
        .map(|p| {
            (
                p["ORDP_PROD_ID"].clone(),
                d(&p["ORDP_QTDE"]),
                d(&p["ORDP_VLR_TOTAL"]),
                p["ORDP_UNIDADE"].clone(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (json!(3), n("1"), n("180.00"), json!("JG")),
            (json!(2), n("3"), n("127.50"), json!("L"))
        ]
    );

    let q = get(&db, c, "orcamento", &[&qid]).await.expect("quote");
    assert_eq!(q["ORCA_SITUACAO"], json!("C"));
    assert_eq!(q["ORCA_ORDS_ID"], json!(1));
}

#[tokio::test]
async fn another_tenant_sees_nothing() {
    let db = db().await;
    let (a, b) = (client(), client());
    seed_copies(&db, a).await;
    seed_copies(&db, b).await;
    order(&db, a, 1, 77, 5000).await;
    create(
        &db,
        a,
        "ordemservicoservico",
        json!({"ORDI_ORDS_ID": 1, "ORDI_SERV_ID": 1, "ORDI_QTDE": "1"}),
    )
    .await
    .expect("line");
    create(
        &db,
        a,
        "ordemservicoservicoleituras",
        json!({"NROS": 1, "KM_ENTRADA": 5000, "OBSERVACAO": "Entrada"}),
    )
    .await
    .expect("readings");

    assert!(matches!(
        get(&db, b, "ordemservico", &["1", "OS"]).await,
        Err(Error::NotFound(_))
    ));
    assert!(matches!(
        get(&db, b, "ordemservicoservico", &["1", "OS", "1"]).await,
        Err(Error::NotFound(_))
    ));
    assert!(matches!(
        get(&db, b, "ordemservicoservicoleituras", &["1", "OS"]).await,
        Err(Error::NotFound(_))
    ));
    assert!(list(&db, b, "ordemservico", json!({}))
        .await
        .expect("list")
        .is_empty());
    assert!(
        list(&db, b, "ordemservicoservico", json!({"ORDI_ORDS_ID": 1}))
            .await
            .expect("list")
            .is_empty()
    );
    let km = action(
        &db,
        b,
        "ordemservico",
        "consultakm",
        &[("vehicle", "77"), ("emp", "1"), ("odometer", "100")],
    )
    .await
    .expect("km");
    assert_eq!(km["KM_ANTERIOR"], json!(0));
    let e = action(
        &db,
        b,
        "ordemservico",
        "totalizacao",
        &[("ORDS_ID", "1"), ("emp", "1"), ("ORDS_SERIE", "OS")],
    )
    .await
    .err();
    assert!(matches!(e, Some(Error::NotFound(_))), "{e:?}");
    // B's lines cannot hang on A's order.
    assert!(create(
        &db,
        b,
        "ordemservicoservico",
        json!({"ORDI_ORDS_ID": 1, "ORDI_SERV_ID": 1, "ORDI_QTDE": "1"})
    )
    .await
    .is_err());
    // A still sees its own.
    assert_eq!(
        list(&db, a, "ordemservico", json!({}))
            .await
            .expect("list")
            .len(),
        1
    );
}

#[tokio::test]
async fn readings_sectors_mechanics_and_images() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    order(&db, c, 1, 10, 1000).await;

    let e = create(
        &db,
        c,
        "ordemservicoservicoleituras",
        json!({"NROS": 1, "KM_ENTRADA": 1000, "KM_SAIDA": 900, "OBSERVACAO": "x"}),
    )
    .await
    .err();
    assert!(
        matches!(&e, Some(Error::Validation(m)) if m == "A quilometragem de saída não pode ser menor que a de entrada."),
        "{e:?}"
    );
    let r = create(
        &db,
        c,
        "ordemservicoservicoleituras",
        json!({"NROS": 1, "KM_ENTRADA": 1000, "COMBUSTIVEL": "3/4", "OBSERVACAO": "Entrada"}),
    )
    .await
    .expect("readings");
    assert_eq!(r["SERIE"], json!("OS"));
    let r = update(
        &db,
        c,
        "ordemservicoservicoleituras",
        &["1", "OS"],
        json!({"KM_SAIDA": 1012}),
    )
    .await
    .expect("readings out");
    assert_eq!(
        (r["KM_ENTRADA"].clone(), r["KM_SAIDA"].clone()),
        (json!(1000), json!(1012))
    );

    create(
        &db,
        c,
        "ordemservicoservicosetor",
        json!({"NROS": 1, "ID_SERV": 1, "ID_SETOR": 4, "OBSERVACAO": "Funilaria"}),
    )
    .await
    .expect("sector");
    create(
        &db,
        c,
        "ordemservicoservicosetor",
        json!({"NROS": 1, "ID_SERV": 1, "ID_SETOR": 5, "OBSERVACAO": "Pintura"}),
    )
    .await
    .expect("sector 2");
    let rows = list(
        &db,
        c,
        "ordemservicoservicosetor",
        json!({"NROS": 1, "SERIE": "OS", "ID_SERV": 1}),
    )
    .await
    .expect("sectors");
    assert_eq!(
        rows.iter()
            .map(|r| r["ID_SETOR"].clone())
            .collect::<Vec<_>>(),
        vec![json!(4), json!(5)]
    );
    delete(&db, c, "ordemservicoservicosetor", &["1", "OS", "1", "4"])
        .await
        .expect("delete sector");

    let m = create(&db, c, "ordemservicomecanico", json!({"ORDM_ORDS_ID": 1, "ORDM_COLA_ID": 3, "ORDM_NOME": "Ana", "ORDM_HORAS": "1.5", "ORDM_PERC_COMISSAO": "12.5"}))
        .await
        .expect("mechanic");
    assert_eq!(m["ORDM_ID"], json!(1));
    let e = create(
        &db,
        c,
        "ordemservicomecanico",
        json!({"ORDM_ORDS_ID": 1, "ORDM_COLA_ID": 3, "ORDM_PERC_COMISSAO": "101"}),
    )
    .await;
    assert!(matches!(e, Err(Error::Validation(_))));

    let o = create(&db, c, "ordemservicooculista", json!({"ORDO_ORDS_ID": 1, "ORDO_PROFISSIONAL": "Dr. Luiz", "ORDO_OD_ESFERICO": "-2.25", "ORDO_OD_EIXO": 90}))
        .await
        .expect("prescription");
    assert_eq!(
        (
            o["ORDO_ID"].clone(),
            o["ORDO_TIPO"].clone(),
            d(&o["ORDO_OD_ESFERICO"])
        ),
        (json!(1), json!("L"), n("-2.25"))
    );

    let p = [
        ("NROS", "1"),
        ("emp", "1"),
        ("SERIE", "OS"),
        ("position", "2"),
    ];
    let up = act(
        &db,
        c,
        "ordemservicoimagem",
        "enviar",
        &p,
        json!({"arquivo": {"nome": "a1.png", "original": "painel.png"}, "ORDS_COMP_DOC": "Painel"}),
    )
    .await
    .expect("upload");
    assert_eq!(
        (
            up["ARQUIVO"].clone(),
            up["NOME_ORIGINAL"].clone(),
            up["ORDS_COMP_DOC"].clone()
        ),
        (json!("a1.png"), json!("painel.png"), json!("Painel"))
    );
    assert!(up.get("anterior").is_none());
    let up = act(
        &db,
        c,
        "ordemservicoimagem",
        "enviar",
        &p,
        json!({"arquivo": {"nome": "a2.png", "original": "painel2.png"}}),
    )
    .await
    .expect("replace");
    assert_eq!(
        (
            up["ARQUIVO"].clone(),
            up["anterior"].clone(),
            up["ORDS_COMP_DOC"].clone()
        ),
        (json!("a2.png"), json!("a1.png"), json!("Painel"))
    );
    let e = act(&db, c, "ordemservicoimagem", "enviar", &p, json!({}))
        .await
        .err();
    assert!(matches!(e, Some(Error::Validation(_))));
    let del = [
        ("NROS", "1"),
        ("emp", "1"),
        ("SERIE", "OS"),
        ("position", "2"),
        ("image", "a2.png"),
    ];
    let gone = act(
        &db,
        c,
        "ordemservicoimagem",
        "excluir_imagem",
        &del,
        json!({}),
    )
    .await
    .expect("delete image");
    assert_eq!(gone["arquivo"], json!("a2.png"));
    let e = act(
        &db,
        c,
        "ordemservicoimagem",
        "excluir_imagem",
        &del,
        json!({}),
    )
    .await
    .err();
    assert!(matches!(e, Some(Error::NotFound(_))));
    assert!(list(&db, c, "ordemservicoimagem", json!({"NROS": 1}))
        .await
        .expect("images")
        .is_empty());

    // Deleting the open order takes its rows along.
    delete(&db, c, "ordemservico", &["1", "OS"])
        .await
        .expect("delete order");
    assert!(list(&db, c, "ordemservicomecanico", json!({}))
        .await
        .expect("mechanics")
        .is_empty());
    assert!(list(&db, c, "ordemservicoservicoleituras", json!({}))
        .await
        .expect("readings")
        .is_empty());
}
