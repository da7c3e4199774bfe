//! The calls around the purchase: the whole purchase in one body (and nothing of
//! it when a row is refused), the list with its count, the instalments across
//! purchases, the grid, replication to another company, returns becoming a billing
//! order, and another tenant seeing none of it.

use serde_json::json;

use super::*;
use crate::{client, db};

#[tokio::test]
async fn a_refused_row_of_a_whole_purchase_leaves_nothing() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let (status, msg) = refusal(
        call(
            &db,
            c,
            "compra",
            "completa",
            &[],
            json!({
                "COMP_FORN_ID": 1, "COMP_DTA_EMISSAO": "2026-11-20", "COMP_DTA_ENTRADA": "2026-11-22",
                "itens": [
                    {"CMPP_PROD_ID": 1, "CMPP_QTDE": "1", "CMPP_VLR_UNIT": "10"},
                    {"CMPP_PROD_ID": 99, "CMPP_QTDE": "1"},
                ],
            }),
        )
        .await,
    );
    assert_eq!(
        (status, msg.as_str()),
        (400, "Item 2: Produto não encontrado.")
    );
    assert_eq!(count(&db, c, "compras").await, 0);
    // The header's fields at the top, a price left out is the product's cost.
    let out = call(
        &db,
        c,
        "compra",
        "completa",
        &[],
        json!({
            "COMP_FORN_ID": 1, "COMP_DTA_EMISSAO": "2026-11-20", "COMP_DTA_ENTRADA": "2026-11-22",
            "itens": [{"CMPP_PROD_ID": 3, "CMPP_QTDE": "2"}],
        }),
    )
    .await
    .expect("completa");
    assert_eq!(d(&out["itens"][0]["CMPP_VLR_UNIT"]), n("30"));
    assert_eq!(out["itens"][0]["CMPP_DESCRICAO"], "Chave combinada 17 mm");
    assert_eq!(out["itens"][0]["CMPP_VINCULO"], "manual");
    assert_eq!(d(&out["compra"]["COMP_VLR_TOTAL"]), n("60"));
    // With COMP_ID: the open purchase's items are replaced.
    let id = out["compra"]["COMP_ID"].as_i64().expect("id");
    let again = call(
        &db,
        c,
        "compra",
        "completa",
        &[],
        json!({"compra": {"COMP_ID": id, "COMP_OBS": "Conferida"},
               "itens": [{"CMPP_PROD_ID": 1, "CMPP_QTDE": "100", "CMPP_VLR_UNIT": "0.41"}]}),
    )
    .await
    .expect("replace");
    assert_eq!(again["compra"]["COMP_OBS"], "Conferida");
    assert_eq!(again["itens"].as_array().map(Vec::len), Some(1));
    assert_eq!(d(&again["compra"]["COMP_VLR_TOTAL"]), n("41"));
}

#[tokio::test]
async fn lists_answer_rows_and_counts() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    imported_and_linked(&db, c).await;
    let (xml, _) = own_fixture_as(4480);
    import(&db, c, &xml).await.expect("second");
    let out = call(
        &db,
        c,
        "compra",
        "filtrocontador",
        &[],
        json!({"LIMIT": 1, "FILTRO": "Fixa Forte"}),
    )
    .await
    .expect("filtrocontador");
    assert_eq!(out["count"], json!(2));
    assert_eq!(out["dados"].as_array().map(Vec::len), Some(1));
    let out = call(
        &db,
        c,
        "comprapagamentos",
        "filtros",
        &[],
        json!({"DTA_VCTO_INI": "2025-08-01", "DTA_VCTO_FIM": "2025-08-31", "FORN_ID": 1}),
    )
    .await
    .expect("filtros");
    assert_eq!(out["count"], json!(2));
    let row = &out["dados"][0];
    assert_eq!(
        (s(&row["CMPD_NUMERO"]), s(&row["CMPD_DTA_VCTO"])),
        ("002".into(), "2025-08-13".into())
    );
    assert_eq!(
        (row["CMPD_COMP_FORN_ID"].as_i64(), d(&row["SALDO"])),
        (Some(1), n("274.90"))
    );
    assert_eq!(row["FORN_DESCRICAO"], "Metalúrgica Fixa Forte Ltda");
    let (status, _) = refusal(
        call(
            &db,
            c,
            "comprapagamentos",
            "filtros",
            &[],
            json!({"BAIXADO": "talvez"}),
        )
        .await,
    );
    assert_eq!(status, 400);
}

#[tokio::test]
async fn the_grid_never_passes_the_item_and_is_read_in_the_stock_unit() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let id = imported_and_linked(&db, c).await;
    // Item 1: 10 boxes of 12 = 120 UN.
    for (size, qty) in [(1, "70"), (2, "50")] {
        create(
            &db,
            c,
            "compraprodutograde",
            json!({"CMPG_COMP_ID": id, "CMPG_CMPP_ID": 1, "CMPG_TAM_ID": size, "CMPG_QTDE": qty}),
        )
        .await
        .expect("grid");
    }
    let (status, msg) = refusal(
        create(
            &db,
            c,
            "compraprodutograde",
            json!({"CMPG_COMP_ID": id, "CMPG_CMPP_ID": 1, "CMPG_TAM_ID": 3, "CMPG_QTDE": "1"}),
        )
        .await,
    );
    assert_eq!(status, 400);
    assert_eq!(
        msg,
        "A grade do item 1 soma 121, mais que a quantidade do item na unidade de estoque (120)."
    );
    let (status, msg) = refusal(
        create(
            &db,
            c,
            "compraprodutograde",
            json!({"CMPG_COMP_ID": id, "CMPG_CMPP_ID": 9, "CMPG_QTDE": "1"}),
        )
        .await,
    );
    assert_eq!(
        (status, msg.as_str()),
        (409, "Item da compra não encontrado.")
    );
    let ids = id.to_string();
    let stock = call(
        &db,
        c,
        "compraprodutograde",
        "estoque",
        &[("CMPG_COMP_ID", &ids)],
        json!({}),
    )
    .await
    .expect("grid stock");
    let sizes: Vec<(i64, rust_decimal::Decimal)> = stock
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["CMPG_TAM_ID"].as_i64().unwrap_or_default(),
                d(&r["QTDE_ESTOQUE"]),
            )
        })
        .collect();
    assert_eq!(sizes, [(1, n("70")), (2, n("50"))]);
}

#[tokio::test]
async fn a_purchase_is_replicated_to_another_company_of_the_user() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let id = imported_and_linked(&db, c).await;
    let out = call(
        &db,
        c,
        "compra",
        "replicar",
        &[],
        json!({"COMP_ID": id, "COMP_EMP_ID": 1, "DESTINO_EMP_ID": 2}),
    )
    .await
    .expect("replicate");
    let h = &out["compra"];
    assert_eq!(
        (h["COMP_EMP_ID"].as_i64(), h["COMP_SITUACAO"].as_str()),
        (Some(2), Some("A"))
    );
    assert_eq!(d(&h["COMP_VLR_TOTAL"]), n("824.71"));
    let avisos: Vec<String> = out["avisos"]
        .as_array()
        .expect("avisos")
        .iter()
        .map(s)
        .collect();
    assert_eq!(
        avisos,
        [
            "Item 2: o produto 2 não existe na empresa 2; vincule-o.",
            "Item 3: o produto 3 não existe na empresa 2; vincule-o.",
        ]
    );
    let (status, msg) = refusal(
        call(
            &db,
            c,
            "compra",
            "replicar",
            &[],
            json!({"COMP_ID": id, "DESTINO_EMP_ID": 1}),
        )
        .await,
    );
    assert_eq!(
        (status, msg.as_str()),
        (400, "A empresa de destino deve ser outra que a da compra.")
    );
}

#[tokio::test]
async fn returns_of_a_finalized_purchase_become_one_billing_order_for_the_supplier() {
    let db = db().await;
    let c = client();
    seed(&db, c).await;
    let id = imported_and_linked(&db, c).await;
    let ids = id.to_string();
    create(&db, c, "compraprodutodevolucao", json!({"CMPR_COMP_ID": id, "CMPR_CMPP_ID": 1, "CMPR_QTDE": "12", "CMPR_MOTIVO": "Caixa avariada"}))
        .await
        .expect("return");
    let (status, msg) = refusal(
        create(&db, c, "compraprodutodevolucao", json!({"CMPR_COMP_ID": id, "CMPR_CMPP_ID": 3, "CMPR_QTDE": "4", "CMPR_MOTIVO": "A mais"})).await,
    );
    assert_eq!(status, 400);
    assert_eq!(msg, "A quantidade devolvida do item 3 (4) passa da quantidade comprada na unidade de estoque (3).");
    let (status, msg) = refusal(
        call(
            &db,
            c,
            "compraprodutodevolucao",
            "gerarpedido",
            &[("CMPR_COMP_ID", &ids)],
            json!({}),
        )
        .await,
    );
    assert_eq!(
        (status, msg.as_str()),
        (
            400,
            "Só é possível gerar a devolução de uma compra finalizada."
        )
    );
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
    let order = call(
        &db,
        c,
        "compraprodutodevolucao",
        "gerarpedido",
        &[("CMPR_COMP_ID", &ids)],
        json!({}),
    )
    .await
    .expect("return order");
    assert_eq!(order["PEDF_CLI_ID"].as_i64(), Some(10));
    assert_eq!(order["PEDF_SITUACAO"], "A");
    // 12 UN at 45,00 / 12 = 3,75 each.
    assert_eq!(d(&order["PEDF_TOT_PROD"]), n("45.00"));
    let returns = list(
        &db,
        c,
        "compraprodutodevolucao",
        json!({"CMPR_COMP_ID": id}),
    )
    .await;
    assert_eq!(returns[0]["CMPR_PEDF_ID"], order["PEDF_ID"]);
    let (status, _) = refusal(
        call(
            &db,
            c,
            "compraprodutodevolucao",
            "gerarpedido",
            &[("CMPR_COMP_ID", &ids)],
            json!({}),
        )
        .await,
    );
    assert_eq!(status, 400);
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
    assert_eq!(
        (status, msg.as_str()),
        (
            409,
            "Compra com devolução já em pedido não pode ser cancelada."
        )
    );
}

#[tokio::test]
async fn another_tenant_sees_and_changes_none_of_it() {
    let db = db().await;
    let a = client();
    let b = client();
    seed(&db, a).await;
    seed(&db, b).await;
    let id = imported_and_linked(&db, a).await;
    let ids = id.to_string();
    assert!(list(&db, b, "compra", json!({})).await.is_empty());
    assert!(list(&db, b, "compraproduto", json!({"CMPP_COMP_ID": id}))
        .await
        .is_empty());
    let (status, _) = refusal(get(&db, b, "compra", &[&ids]).await);
    assert_eq!(status, 404);
    let (status, msg) = refusal(
        call(
            &db,
            b,
            "compra",
            "finalizar",
            &[("COMP_ID", &ids)],
            json!({}),
        )
        .await,
    );
    assert_eq!((status, msg.as_str()), (404, "Compra não encontrada."));
    let out = call(&db, b, "compra", "filtrocontador", &[], json!({}))
        .await
        .expect("list");
    assert_eq!(out["count"], json!(0));
    // The same NF-e is B's to import too: keys are unique per client and company.
    let out = import(&db, b, &own_fixture()).await.expect("B imports it");
    assert_eq!(out["compra"]["COMP_ID"].as_i64(), Some(1));
    assert!(finalized_facts(&db, b).await.is_empty());
    call(
        &db,
        a,
        "compra",
        "finalizar",
        &[("COMP_ID", &ids)],
        json!({}),
    )
    .await
    .expect("A finalizes");
    assert!(finalized_facts(&db, b).await.is_empty());
    assert_eq!(finalized_facts(&db, a).await.len(), 1);
}
