//! Finalizing and cancelling: the landed cost of a hand-computed table, of the
//! imported fixture and with typed totals and a freight document; the fact in the
//! outbox; once under two concurrent calls; the reversing fact; refusals.

use serde_json::json;

use super::*;
use crate::{client, db};

/// A purchase typed by hand: 3 items worth 33,33 / 33,33 / 33,34 (the third, 2
/// boxes of 12), the invoice's freight, insurance, discount, other expenses, IPI
/// and ST typed on the header only.
pub(super) async fn typed_purchase(db: &Db, c: i64) -> i64 {
    let out = call(
        db,
        c,
        "compra",
        "completa",
        &[],
        json!({
            "compra": {"COMP_FORN_ID": 2, "COMP_SERIE": "1", "COMP_NUMERO": 981, "COMP_MODELO": "01",
                       "COMP_DTA_EMISSAO": "2026-11-20", "COMP_DTA_ENTRADA": "2026-11-22", "COMP_LOCA_ID": 3},
            "itens": [
                {"CMPP_PROD_ID": 1, "CMPP_QTDE": "1", "CMPP_VLR_UNIT": "33.33"},
                {"CMPP_PROD_ID": 2, "CMPP_QTDE": "3", "CMPP_VLR_UNIT": "11.11"},
                {"CMPP_PROD_ID": 4, "CMPP_QTDE": "2", "CMPP_VLR_UNIT": "16.67", "CMPP_UNIDADE": "CX", "CMPP_FATOR": "12"},
            ],
            "pagamentos": [{"CMPD_NUMERO": "981/1", "CMPD_DTA_VCTO": "2026-12-22", "CMPD_VLR_TITULO": "111.50"}],
        }),
    )
    .await
    .expect("completa");
    assert_eq!(out["compra"]["COMP_FORN_DESC"], "Distribuidora Sul");
    assert_eq!(d(&out["compra"]["COMP_VLR_TOTAL"]), n("100.00"));
    assert_eq!(out["itens"].as_array().map(Vec::len), Some(3));
    assert_eq!(out["pagamentos"].as_array().map(Vec::len), Some(1));
    out["compra"]["COMP_ID"].as_i64().expect("id")
}

// Hand computation (amounts over Σ values 100,00, share = amount × value / 100,00
// rounded half-up, the last item takes the remainder):
//
//   item            1 (33,33; 1 UN)   2 (33,33; 3 UN)   3 (33,34; 2 CX × 12 = 24 UN)
//   frete 10,00     3,33              3,33              3,34
//   seguro 1,00     0,33              0,33              0,34
//   desconto 5,00   1,67              1,67              1,66
//   outras 0,50     0,17              0,17              0,16
//   IPI 3,00        1,00              1,00              1,00
//   ST 2,00         0,67              0,67              0,66
//   total           37,16             37,16             37,18     (Σ 111,50)
//   unit            37,1600           12,3867           1,5492
#[tokio::test]
async fn typed_totals_are_apportioned_as_the_hand_computed_table() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let id = typed_purchase(&db, c).await;
    let ids = id.to_string();
    let typed = call(
        &db,
        c,
        "compra",
        "totalizadoresmanual",
        &[("COMP_ID", &ids)],
        json!({"COMP_MAN_FRETE": "10.00", "COMP_MAN_SEGURO": "1.00", "COMP_MAN_DESCONTO": "5.00",
               "COMP_MAN_OUTRAS": "0.50", "COMP_MAN_IPI": "3.00", "COMP_MAN_ST": "2.00"}),
    )
    .await
    .expect("typed totals");
    assert_eq!(typed["COMP_TOTALIZADOR_MANUAL"], json!(true));
    assert_eq!(d(&typed["COMP_MAN_TOTAL"]), n("111.50"));
    assert_eq!(d(&typed["COMP_VLR_DIFERENCA"]), n("11.50"));
    let out = call(
        &db,
        c,
        "compra",
        "finalizar",
        &[("COMP_ID", &ids)],
        json!({}),
    )
    .await
    .expect("finalize");
    assert_eq!(out["COMP_SITUACAO"], "F");
    let costs: Vec<(String, String)> = list(&db, c, "compraproduto", json!({"CMPP_COMP_ID": id}))
        .await
        .iter()
        .map(|i| (s(&i["CMPP_CUSTO_TOTAL"]), s(&i["CMPP_CUSTO_UNIT"])))
        .collect();
    assert_eq!(
        costs,
        [
            ("37.16".to_string(), "37.16".to_string()),
            ("37.16".into(), "12.3867".into()),
            ("37.18".into(), "1.5492".into()),
        ]
    );
    let facts = finalized_facts(&db, c).await;
    assert_eq!(facts.len(), 1);
    let f = &facts[0];
    assert_eq!(
        (f.compra_id, f.emp_id, f.supplier_id, f.total.as_str()),
        (id, 1, 2, "111.50")
    );
    assert_eq!(
        (f.model.as_str(), f.number.as_str(), f.entered_on.as_str()),
        ("01", "981", "2026-11-22")
    );
    let items: Vec<(i64, String, String, String, i64)> = f
        .items
        .iter()
        .map(|i| {
            (
                i.product_id,
                i.quantity.clone(),
                i.unit_cost.clone(),
                i.landed_total.clone(),
                i.location_id,
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            (
                1,
                "1".to_string(),
                "37.1600".to_string(),
                "37.16".to_string(),
                3
            ),
            (2, "3".into(), "12.3867".into(), "37.16".into(), 3),
            (4, "24".into(), "1.5492".into(), "37.18".into(), 3),
        ]
    );
    let inst: Vec<(String, String, String)> = f
        .instalments
        .iter()
        .map(|i| (i.due_on.clone(), i.amount.clone(), i.number.clone()))
        .collect();
    assert_eq!(
        inst,
        [(
            "2026-12-22".to_string(),
            "111.50".to_string(),
            "981/1".to_string()
        )]
    );
}

#[tokio::test]
async fn the_imported_nfe_enters_stock_at_its_per_item_landed_cost() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let id = imported_and_linked(&db, c).await;
    // Base64 ids are accepted where the legacy paths carry them so ("1" → "MQ==").
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD.encode(id.to_string());
    let out = call(
        &db,
        c,
        "compra",
        "finalizar",
        &[("COMP_ID", &b64)],
        json!({}),
    )
    .await
    .expect("finalize");
    assert_eq!(out["msg"], "Compra finalizada com sucesso.");
    // 1: 450,00 − 22,50 + 30,00 + 4,50 + 46,20 + 59,14 = 567,34 / 120 UN = 4,7278
    // 2: 131,00 − 6,55 + 8,73 + 6,66 + 11,27 = 151,11 / 200 UN = 0,7556
    // 3: 99,99 + 1,27 + 5,00 = 106,26 / 3 UN = 35,4200        Σ 824,71 = vNF
    let facts = finalized_facts(&db, c).await;
    assert_eq!(facts.len(), 1);
    let f = &facts[0];
    let items: Vec<(i64, String, String, String)> = f
        .items
        .iter()
        .map(|i| {
            (
                i.product_id,
                i.quantity.clone(),
                i.unit_cost.clone(),
                i.landed_total.clone(),
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            (
                1,
                "120".to_string(),
                "4.7278".to_string(),
                "567.34".to_string()
            ),
            (2, "200".into(), "0.7556".into(), "151.11".into()),
            (3, "3".into(), "35.4200".into(), "106.26".into()),
        ]
    );
    assert_eq!(
        (f.total.as_str(), f.access_key.as_str(), f.supplier_id),
        ("824.71", OWN_KEY, 1)
    );
    let amounts: Vec<&str> = f.instalments.iter().map(|i| i.amount.as_str()).collect();
    assert_eq!(amounts, ["274.90", "274.90", "274.91"]);
    // Finalized: the document and its items refuse changes.
    let ids = id.to_string();
    let (status, msg) = refusal(
        call(
            &db,
            c,
            "compra",
            "finalizar",
            &[("COMP_ID", &ids)],
            json!({}),
        )
        .await,
    );
    assert_eq!((status, msg.as_str()), (409, "Compra já finalizada."));
    let (status, msg) = refusal(
        update(
            &db,
            c,
            "compraproduto",
            &[&ids, "1"],
            json!({"CMPP_QTDE": "11"}),
        )
        .await,
    );
    assert_eq!((status, msg.as_str()), (409, "Compra já finalizada."));
    // The product's last purchase.
    let last = call(
        &db,
        c,
        "compraproduto",
        "ultimacompra",
        &[("prodId", "1")],
        json!({}),
    )
    .await
    .expect("last purchase");
    assert_eq!(last[0]["COMP_ID"].as_i64(), Some(id));
    assert_eq!(d(&last[0]["CMPP_CUSTO_UNIT"]), n("4.7278"));
    assert_eq!(d(&last[0]["QTDE_ESTOQUE"]), n("120"));
    let none = call(
        &db,
        c,
        "compraproduto",
        "ultimacompra",
        &[("prodId", "4")],
        json!({}),
    )
    .await
    .expect("no purchase");
    assert_eq!(none, json!([]));
}

#[tokio::test]
async fn two_concurrent_finalize_calls_finalize_once() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let id = imported_and_linked(&db, c).await;
    let ids = id.to_string();
    let runs = (0..2).map(|_| {
        let (db, ids) = (db.clone(), ids.clone());
        tokio::spawn(async move {
            call(
                &db,
                c,
                "compra",
                "finalizar",
                &[("COMP_ID", &ids)],
                json!({}),
            )
            .await
        })
    });
    let mut ok = 0;
    let mut refused = Vec::new();
    for r in futures_join(runs.collect()).await {
        match r {
            Ok(_) => ok += 1,
            Err(e) => refused.push((e.http_status(), e.public_message())),
        }
    }
    assert_eq!(ok, 1);
    assert_eq!(refused, [(409, "Compra já finalizada.".to_string())]);
    assert_eq!(finalized_facts(&db, c).await.len(), 1);
}

async fn futures_join(
    handles: Vec<tokio::task::JoinHandle<erp_platform::Result<serde_json::Value>>>,
) -> Vec<erp_platform::Result<serde_json::Value>> {
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.expect("task"));
    }
    out
}

#[tokio::test]
async fn cancelling_reverses_the_entries_once_and_never_with_a_paid_instalment() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let id = imported_and_linked(&db, c).await;
    let ids = id.to_string();
    call(
        &db,
        c,
        "compra",
        "finalizar",
        &[("COMP_ID", &ids)],
        json!({}),
    )
    .await
    .expect("finalize");
    let out = call(
        &db,
        c,
        "compra",
        "cancelar",
        &[("COMP_ID", &ids)],
        json!({}),
    )
    .await
    .expect("cancel");
    assert_eq!(out["COMP_SITUACAO"], "C");
    let facts = cancelled_facts(&db, c).await;
    assert_eq!(facts.len(), 1);
    let items: Vec<(i64, String, String)> = facts[0]
        .items
        .iter()
        .map(|i| (i.product_id, i.quantity.clone(), i.landed_total.clone()))
        .collect();
    assert_eq!(
        items,
        [
            (1, "120".to_string(), "567.34".to_string()),
            (2, "200".into(), "151.11".into()),
            (3, "3".into(), "106.26".into()),
        ]
    );
    let (status, msg) = refusal(
        call(
            &db,
            c,
            "compra",
            "cancelar",
            &[("COMP_ID", &ids)],
            json!({}),
        )
        .await,
    );
    assert_eq!((status, msg.as_str()), (409, "Compra já cancelada."));
    let (status, msg) = refusal(
        call(
            &db,
            c,
            "compra",
            "finalizar",
            &[("COMP_ID", &ids)],
            json!({}),
        )
        .await,
    );
    assert_eq!(
        (status, msg.as_str()),
        (409, "Compra cancelada não pode ser finalizada.")
    );
    assert_eq!(cancelled_facts(&db, c).await.len(), 1);

    // Another purchase whose first instalment finance settled.
    let (xml, _) = own_fixture_as(5001);
    let other = import(&db, c, &xml).await.expect("import")["compra"]["COMP_ID"]
        .as_i64()
        .expect("id");
    let others = other.to_string();
    call(
        &db,
        c,
        "compra",
        "finalizar",
        &[("COMP_ID", &others)],
        json!({}),
    )
    .await
    .expect("finalize (items matched by the links)");
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query("UPDATE orders.compra_pagamentos SET cmpd_baixado = true WHERE client_id = $1 AND cmpd_comp_id = $2 AND cmpd_id = 1")
        .bind(c)
        .bind(other)
        .execute(&mut *tx)
        .await
        .expect("settle");
    tx.commit().await.expect("commit");
    let (status, msg) = refusal(
        call(
            &db,
            c,
            "compra",
            "cancelar",
            &[("COMP_ID", &others)],
            json!({}),
        )
        .await,
    );
    assert_eq!(
        (status, msg.as_str()),
        (
            409,
            "Compra com parcela paga não pode ser cancelada (paga: 001). Estorne o pagamento no financeiro antes de cancelar a compra."
        )
    );
    assert_eq!(cancelled_facts(&db, c).await.len(), 1);
}

#[tokio::test]
async fn finalizing_checks_instalments_apportionment_and_applies_freight_documents() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let id = typed_purchase(&db, c).await;
    let ids = id.to_string();
    // The instalment says 111,50; the items add up to 100,00.
    let (status, msg) = refusal(
        call(
            &db,
            c,
            "compra",
            "finalizar",
            &[("COMP_ID", &ids)],
            json!({}),
        )
        .await,
    );
    assert_eq!(status, 400);
    assert_eq!(
        msg,
        "A soma das parcelas (R$ 111,50) difere do total da nota (R$ 100,00)."
    );
    update(
        &db,
        c,
        "comprapagamentos",
        &[&ids, "1"],
        json!({"CMPD_VLR_TITULO": "100.00"}),
    )
    .await
    .expect("instalment");
    // The apportionment must add up to 100%: 60 + 50 is refused, 60 alone blocks.
    create(
        &db,
        c,
        "compraestatistica",
        json!({"CMPE_COMP_ID": id, "CMPE_LOCA_ID": 3, "CMPE_PERC": "60"}),
    )
    .await
    .expect("60%");
    let (status, msg) = refusal(
        create(
            &db,
            c,
            "compraestatistica",
            json!({"CMPE_COMP_ID": id, "CMPE_HISP_ID": 2, "CMPE_PERC": "50"}),
        )
        .await,
    );
    assert_eq!(
        (status, msg.as_str()),
        (400, "O rateio da compra passa de 100% (110%).")
    );
    let (status, msg) = refusal(
        call(
            &db,
            c,
            "compra",
            "finalizar",
            &[("COMP_ID", &ids)],
            json!({}),
        )
        .await,
    );
    assert_eq!(status, 400);
    assert_eq!(
        msg,
        "O rateio por local de estoque e centro de custo deve somar 100% (soma atual: 60%)."
    );
    let by_value = create(
        &db,
        c,
        "compraestatistica",
        json!({"CMPE_COMP_ID": id, "CMPE_HISP_ID": 2, "CMPE_VALOR": "40.00"}),
    )
    .await
    .expect("40,00 of 100,00");
    assert_eq!(d(&by_value["CMPE_PERC"]), n("40"));
    // A freight bill of 50,00 to apportion by value: 16,67 / 16,67 / 16,66 on top
    // of 33,33 / 33,33 / 33,34.
    create(&db, c, "comprafrete", json!({"CMPF_COMP_ID": id, "CMPF_TRANSP_DESC": "Transportes Exemplo", "CMPF_VALOR": "50.00"}))
        .await
        .expect("freight document");
    call(
        &db,
        c,
        "compra",
        "finalizar",
        &[("COMP_ID", &ids)],
        json!({}),
    )
    .await
    .expect("finalize");
    let totals: Vec<String> = list(&db, c, "compraproduto", json!({"CMPP_COMP_ID": id}))
        .await
        .iter()
        .map(|i| s(&i["CMPP_CUSTO_TOTAL"]))
        .collect();
    assert_eq!(totals, ["50", "50", "50"]);
    let f = &finalized_facts(&db, c).await[0];
    assert_eq!(f.total, "100.00");
}

/// The apportionment travels in the fact: rows typed while the invoice was 100,00
/// are valued on what it is when finalized (111,11), the remainder cent on the last
/// row, and the values are written back.
#[tokio::test]
async fn the_apportionment_travels_in_the_fact_valued_on_the_final_total() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let id = typed_purchase(&db, c).await;
    let ids = id.to_string();
    for row in [
        json!({"CMPE_COMP_ID": id, "CMPE_LOCA_ID": 3, "CMPE_PERC": "33.3333"}),
        json!({"CMPE_COMP_ID": id, "CMPE_HISP_ID": 2, "CMPE_PERC": "33.3333"}),
        json!({"CMPE_COMP_ID": id, "CMPE_LOCA_ID": 1, "CMPE_HISP_ID": 1, "CMPE_PERC": "33.3334"}),
    ] {
        create(&db, c, "compraestatistica", row)
            .await
            .expect("share");
    }
    let values = |rows: Vec<serde_json::Value>| -> Vec<String> {
        rows.iter().map(|r| s(&r["CMPE_VALOR"])).collect()
    };
    assert_eq!(
        values(list(&db, c, "compraestatistica", json!({"CMPE_COMP_ID": id})).await),
        ["33.33", "33.33", "33.33"]
    );
    // One more 11,11 item of product 2: the invoice is 111,11.
    update(
        &db,
        c,
        "compraproduto",
        &[&ids, "2"],
        json!({"CMPP_QTDE": "4"}),
    )
    .await
    .expect("quantity");
    update(
        &db,
        c,
        "comprapagamentos",
        &[&ids, "1"],
        json!({"CMPD_VLR_TITULO": "111.11"}),
    )
    .await
    .expect("instalment");
    call(
        &db,
        c,
        "compra",
        "finalizar",
        &[("COMP_ID", &ids)],
        json!({}),
    )
    .await
    .expect("finalize");
    let f = &finalized_facts(&db, c).await[0];
    assert_eq!(f.total, "111.11");
    let shares: Vec<(i64, i64, i64, &str, &str)> = f
        .apportionment
        .iter()
        .map(|a| {
            (
                a.seq,
                a.location_id,
                a.cost_centre_id,
                a.percent.as_str(),
                a.value.as_str(),
            )
        })
        .collect();
    // 111,11 × 33,3333% = 37,0366 → 37,04 (twice); the last 111,11 − 74,08.
    assert_eq!(
        shares,
        [
            (1, 3, 0, "33.3333", "37.04"),
            (2, 0, 2, "33.3333", "37.04"),
            (3, 1, 1, "33.3334", "37.03"),
        ]
    );
    assert_eq!(
        values(list(&db, c, "compraestatistica", json!({"CMPE_COMP_ID": id})).await),
        ["37.04", "37.04", "37.03"]
    );
    // Without rows the fact carries none (the header's location and cost centre).
    let (xml, _) = own_fixture_as(5002);
    let other = import(&db, c, &xml).await.expect("import")["compra"]["COMP_ID"]
        .as_i64()
        .expect("id")
        .to_string();
    update(
        &db,
        c,
        "compraproduto",
        &[&other, "1"],
        json!({"CMPP_PROD_ID": 1}),
    )
    .await
    .expect("link 1");
    update(
        &db,
        c,
        "compraproduto",
        &[&other, "3"],
        json!({"CMPP_PROD_ID": 3}),
    )
    .await
    .expect("link 3");
    call(
        &db,
        c,
        "compra",
        "finalizar",
        &[("COMP_ID", &other)],
        json!({}),
    )
    .await
    .expect("finalize");
    let facts = finalized_facts(&db, c).await;
    assert_eq!(facts.len(), 2);
    assert!(facts[1].apportionment.is_empty());
}

/// 'Cadastrar produto' links an imported item to a product created a moment ago,
/// which reaches orders' copy of the catalog by event, maybe after the link: the
/// link is kept, finalizing names the item until the product has arrived, then
/// finalizes.
#[tokio::test]
async fn an_item_linked_before_its_new_product_arrives_is_finalized_once_it_has() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let id = imported_and_linked(&db, c).await;
    let ids = id.to_string();
    let linked = update(
        &db,
        c,
        "compraproduto",
        &[&ids, "3"],
        json!({"CMPP_PROD_ID": 50}),
    )
    .await
    .expect("link to a product not yet copied");
    assert_eq!(
        (
            linked["CMPP_PROD_ID"].as_i64(),
            linked["CMPP_VINCULO"].as_str()
        ),
        (Some(50), Some("manual"))
    );
    let params = [("COMP_ID", ids.as_str())];
    let finalize = || call(&db, c, "compra", "finalizar", &params, json!({}));
    let (status, msg) = refusal(finalize().await);
    assert_eq!(status, 400);
    assert!(
        msg.starts_with("Produto vinculado não encontrado no cadastro"),
        "{msg}"
    );
    assert!(msg.contains("3 - CHAVE COMBINADA 17MM"), "{msg}");
    assert!(finalized_facts(&db, c).await.is_empty());
    // The catalog's event arrives: orders' copy knows product 50.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query(
        "INSERT INTO orders.produtos (client_id, emp_id, prod_id, descricao, unidade, valor, custo)
         VALUES ($1, 1, 50, 'Chave combinada 17 mm (nova)', 'UN', 59.90, 0)",
    )
    .bind(c)
    .execute(&mut *tx)
    .await
    .expect("copy");
    tx.commit().await.expect("commit");
    finalize()
        .await
        .expect("finalize once the product is known");
    let facts = finalized_facts(&db, c).await;
    assert_eq!(facts.len(), 1);
    assert!(facts[0].items.iter().any(|i| i.product_id == 50));
}
