//! Stock write-off once, the odometer check, closed orders, conversion from a quote.

use super::*;

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
    create(
        &db,
        c,
        "ordemservicoservicosetor",
        json!({"NROS": 1, "ID_SERV": 1, "ID_SETOR": 4}),
    )
    .await
    .expect("sector");
    let p = [("ORDS_ID", "1"), ("emp", "1"), ("ORDS_SERIE", "OS")];
    let closed = action(&db, c, "ordemservico", "finalizar", &p)
        .await
        .expect("finalizar");
    assert_eq!(closed["ORDS_SITUACAO"], json!("F"));
    assert!(closed["ORDS_DTA_SAIDA"].is_string());
    assert_eq!(d(&closed["ORDS_VLR_TOTAL"]), n("160.00"));

    // The finish is a fact, once, with the totals and the line and its sector.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let payloads: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT payload FROM orders.outbox WHERE subject = 'erp.orders.ordemservico.finalizada' AND client_id = $1",
    )
    .bind(c)
    .fetch_all(&mut *tx)
    .await
    .expect("payload");
    tx.commit().await.expect("commit");
    assert_eq!(payloads.len(), 1);
    let ev = erp_proto::orders::v1::OrdemServicoFinalizada::decode(payloads[0].as_slice())
        .expect("decode");
    assert_eq!(
        (
            ev.client_id,
            ev.emp_id,
            ev.ordem_id,
            ev.serie.as_str(),
            ev.customer_id,
            ev.vehicle_id
        ),
        (c, 1, 1, "OS", 1, 10)
    );
    assert_eq!(
        (ev.odometer, ev.total.as_str(), ev.services_total.as_str()),
        (1000, "160.00", "160.00")
    );
    assert_eq!(
        ev.closed_on,
        closed["ORDS_DTA_SAIDA"].as_str().unwrap_or_default()
    );
    let lines: Vec<(&str, i64, i64, &str, i64)> = ev
        .lines
        .iter()
        .map(|l| {
            (
                l.kind.as_str(),
                l.item,
                l.item_id,
                l.total.as_str(),
                l.sector_id,
            )
        })
        .collect();
    assert_eq!(lines, vec![("S", 1, 1, "160.00", 4)]);

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
