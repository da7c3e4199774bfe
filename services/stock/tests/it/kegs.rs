//! Keg states through loadings and movements.

use serde_json::{json, Value};

use crate::{post, remove, rows, run};

async fn keg(db: &erp_platform::db::Db, c: i64, id: &Value) -> (String, Value) {
    let all = rows(db, c, "barril", json!({})).await;
    let k = all.iter().find(|k| &k["BAR_ID"] == id).expect("keg");
    (
        k["BAR_STATUS"].as_str().unwrap_or_default().to_string(),
        k["BAR_CLI_ID"].clone(),
    )
}

#[tokio::test]
async fn loading_takes_kegs_to_the_customer_and_a_return_brings_them_back() {
    let db = crate::db().await;
    let c = crate::client();
    let b1 = post(
        &db,
        c,
        "barril",
        json!({"BAR_NUMERO": "B-10", "BAR_CAPACIDADE": "50"}),
    )
    .await
    .expect("keg 1")["BAR_ID"]
        .clone();
    let b2 = post(
        &db,
        c,
        "barril",
        json!({"BAR_NUMERO": "B-11", "BAR_CAPACIDADE": "30"}),
    )
    .await
    .expect("keg 2")["BAR_ID"]
        .clone();
    assert_eq!(keg(&db, c, &b1).await, ("D".into(), Value::Null));

    let load = post(&db, c, "carregamentobarril", json!({"CARB_CLI_ID": 77, "CARB_VEICULO": "ABC1D23", "CARB_DATA": "2026-11-23", "CARB_OBS": "Festa"}))
        .await
        .expect("loading");
    let carb = load["CARB_ID"].clone();
    let l1 = post(&db, c, "carregamentobarrilp", json!({"CARP_CARB_ID": carb, "CARP_BAR_ID": b1, "CARP_PROD_ID": 21, "CARP_QTDE": "50", "CARP_OBS": "pilsen"}))
        .await
        .expect("line 1");
    post(
        &db,
        c,
        "carregamentobarrilp",
        json!({"CARP_CARB_ID": carb, "CARP_BAR_ID": b2, "CARP_QTDE": "30", "CARP_OBS": "weiss"}),
    )
    .await
    .expect("line 2");
    assert_eq!(keg(&db, c, &b1).await, ("C".into(), json!(77)));
    assert_eq!(keg(&db, c, &b2).await, ("C".into(), json!(77)));
    assert_eq!(
        rows(&db, c, "carregamentobarrilp", json!({"CARP_CARB_ID": carb}))
            .await
            .len(),
        2
    );

    // A keg already out cannot be loaded again, nor leave by hand.
    let e = post(
        &db,
        c,
        "carregamentobarrilp",
        json!({"CARP_CARB_ID": carb, "CARP_BAR_ID": b1, "CARP_OBS": "de novo"}),
    )
    .await
    .expect_err("twice");
    assert_eq!(e.public_message(), "O barril já está com um cliente.");
    let e = post(&db, c, "movimentacaobarril", json!({"MOVB_BAR_ID": b1, "MOVB_TIPO": "S", "MOVB_CLI_ID": 5, "MOVB_DATA": "2026-11-24", "MOVB_OBS": "x"})).await.expect_err("out twice");
    assert_eq!(e.public_message(), "O barril já está com um cliente.");
    let e = remove(&db, c, "barril", &b1)
        .await
        .expect_err("delete a keg that is out");
    assert_eq!(e.http_status(), 409);

    // The return brings keg 1 back, naming who had it.
    let back = post(&db, c, "movimentacaobarril", json!({"MOVB_BAR_ID": b1, "MOVB_TIPO": "R", "MOVB_DATA": "2026-11-25", "MOVB_OBS": "vazio"}))
        .await
        .expect("return");
    assert_eq!(back["MOVB_CLI_ID"], 77);
    assert_eq!(keg(&db, c, &b1).await, ("D".into(), Value::Null));
    let e = post(&db, c, "movimentacaobarril", json!({"MOVB_BAR_ID": b1, "MOVB_TIPO": "R", "MOVB_DATA": "2026-11-25", "MOVB_OBS": "de novo"})).await.expect_err("back twice");
    assert_eq!(e.public_message(), "O barril não está com nenhum cliente.");

    // The loading line cannot be undone under a later movement; the return can.
    let e = remove(&db, c, "carregamentobarrilp", &l1["CARP_ID"])
        .await
        .expect_err("not the last move");
    assert_eq!(e.http_status(), 409);
    remove(&db, c, "movimentacaobarril", &back["MOVB_ID"])
        .await
        .expect("undo return");
    assert_eq!(keg(&db, c, &b1).await, ("C".into(), json!(77)));

    // The loading's own movements are deleted with it, not by hand.
    let auto = rows(&db, c, "movimentacaobarril", json!({"MOVB_BAR_ID": b2})).await;
    assert_eq!(
        (
            auto.len(),
            auto[0]["MOVB_TIPO"].clone(),
            auto[0]["MOVB_CLI_ID"].clone()
        ),
        (1, json!("S"), json!(77))
    );
    let e = remove(&db, c, "movimentacaobarril", &auto[0]["MOVB_ID"])
        .await
        .expect_err("loading's movement");
    assert_eq!(e.http_status(), 409);

    // PUT /carregamentobarril/uploads/{CARB_ID}/{emp}
    let r = crate::res("carregamentobarril");
    let upload = r
        .actions
        .iter()
        .find(|a| a.name == "upload")
        .expect("upload");
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let params = std::collections::HashMap::from([("CARB_ID".to_string(), carb.to_string())]);
    let v = upload
        .run(
            &mut tx,
            &r,
            &crate::caller(c),
            Some(1),
            &params,
            json!({"arquivo": {"nome": "c1.jpg", "original": "canhoto.jpg", "tamanho": 10}}),
        )
        .await
        .expect("upload");
    tx.commit().await.expect("commit");
    assert_eq!(
        (v["CARB_ANEXO"].clone(), v["CARB_ANEXO_NOME"].clone()),
        (json!("c1.jpg"), json!("canhoto.jpg"))
    );
    assert!(
        run(
            &db,
            c,
            "carregamentobarril",
            "upload",
            &[("CARB_ID", carb.to_string())]
        )
        .await
        .is_err(),
        "no file"
    );

    // Deleting the loading brings both kegs back and removes its movements.
    remove(&db, c, "carregamentobarril", &carb)
        .await
        .expect("delete loading");
    assert_eq!(keg(&db, c, &b1).await, ("D".into(), Value::Null));
    assert_eq!(keg(&db, c, &b2).await, ("D".into(), Value::Null));
    assert!(rows(&db, c, "movimentacaobarril", json!({}))
        .await
        .is_empty());
    remove(&db, c, "barril", &b1).await.expect("delete keg");
}
