//! Tenant isolation and the order's sub-registers (readings, sectors, mechanics,
//! prescriptions, images).

use super::*;

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
