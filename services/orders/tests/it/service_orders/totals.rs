//! Totals from the lines and the document-level surcharge.

use super::*;

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
