//! `POST /compraproduto/atualizacaogeral` against catalog's real product register:
//! the landed costs of the hand-computed table (`finalize::typed_purchase` with its
//! typed totals) become the products' cost, and by margin their price — while open
//! (computed) and once finalized (stored), for all items or the ones named, with
//! the product's margin or the one given; refused without ALTERACAO on Produtos,
//! for a cancelled or unknown purchase and for an item of another purchase.

use serde_json::json;

use super::finalize::typed_purchase;
use super::*;
use crate::peers::{self, catalog_get};
use crate::{client, db};

/// The purchase of the hand-computed table (landed 37,16 for 1 UN of product 1,
/// 37,16 for 3 UN of product 2, 37,18 for 24 UN of product 4), still open; catalog
/// with products 1..4 and user 7 allowed to change them.
async fn purchase_with_catalog(db: &Db, c: i64, grants: &[&str], views: &[&str]) -> (i64, Peers) {
    seed(db, c).await;
    peers::catalog_products(db, c).await;
    peers::user(db, c, 7, grants, views).await;
    let id = typed_purchase(db, c).await;
    call(
        db,
        c,
        "compra",
        "totalizadoresmanual",
        &[("COMP_ID", &id.to_string())],
        json!({"COMP_MAN_FRETE": "10.00", "COMP_MAN_SEGURO": "1.00", "COMP_MAN_DESCONTO": "5.00",
               "COMP_MAN_OUTRAS": "0.50", "COMP_MAN_IPI": "3.00", "COMP_MAN_ST": "2.00"}),
    )
    .await
    .expect("typed totals");
    (id, peers::peers(db, None))
}

async fn update_prices(db: &Db, c: i64, peers: &Peers, b: Value) -> erp_platform::Result<Value> {
    call_as(
        db,
        &caller(c),
        registry_with(peers.clone()),
        "compraproduto",
        "atualizacaogeral",
        &[],
        b,
    )
    .await
}

/// (cost, margin, price) of catalog's product `id`.
async fn product(db: &Db, c: i64, id: i64) -> (Decimal, Option<Decimal>, Decimal) {
    let row = catalog_get(db, c, "produtos", &id.to_string()).await;
    let margin = match &row["PROD_MARGEM"] {
        Value::Null => None,
        v => Some(d(v)),
    };
    (d(&row["PROD_CUSTO"]), margin, d(&row["PROD_VALOR"]))
}

#[tokio::test]
async fn landed_costs_become_the_products_cost_and_by_margin_their_price() {
    let db = db().await;
    let c = client();
    let (id, peers) = purchase_with_catalog(&db, c, &["produtos"], &[]).await;

    // Open: the landed cost is computed as finalizing would; each product's own
    // margin prices it (product 2 has none and keeps its price).
    let out = update_prices(
        &db,
        c,
        &peers,
        json!({"CMPP_COMP_ID": id, "CMPP_EMP_ID": 1}),
    )
    .await
    .expect("update while open");
    assert_eq!(
        out["msg"],
        "Custo e preço de venda atualizados em 3 produto(s)."
    );
    let rows: Vec<(i64, Decimal, Decimal, Decimal, Decimal)> = out["produtos"]
        .as_array()
        .expect("produtos")
        .iter()
        .map(|p| {
            (
                p["PROD_ID"].as_i64().expect("id"),
                d(&p["PROD_CUSTO_ANTERIOR"]),
                d(&p["PROD_CUSTO"]),
                d(&p["PROD_VALOR_ANTERIOR"]),
                d(&p["PROD_VALOR"]),
            )
        })
        .collect();
    // 37,16 / 1 = 37,16 at 100% = 74,32; 37,16 / 3 = 12,3867 → 12,39 (no margin);
    // 37,18 / 24 = 1,5492 → 1,55 at 40% = 2,17.
    assert_eq!(
        rows,
        [
            (1, n("0.40"), n("37.16"), n("0.90"), n("74.32")),
            (2, n("0.10"), n("12.39"), n("0.20"), n("0.20")),
            (4, n("12.00"), n("1.55"), n("25.00"), n("2.17")),
        ]
    );
    assert_eq!(out["ignorados"], json!([]));
    assert_eq!(out["erros"], json!([]));
    assert_eq!(
        product(&db, c, 1).await,
        (n("37.16"), Some(n("100")), n("74.32"))
    );
    assert_eq!(product(&db, c, 2).await, (n("12.39"), None, n("0.20")));
    assert_eq!(
        product(&db, c, 4).await,
        (n("1.55"), Some(n("40")), n("2.17"))
    );
    assert_eq!(
        product(&db, c, 3).await,
        (n("30.00"), Some(n("99.6667")), n("59.90")),
        "not in the purchase"
    );

    // Finalized: the stored landed costs; only the items named, with the body's
    // margin (50%) or the item's own (10%), which the products keep.
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
    let out = update_prices(
        &db,
        c,
        &peers,
        json!({"COMP_ID": ids, "MARGEM": "50", "itens": [{"CMPP_ID": 3, "MARGEM": "10"}, {"CMPP_ID": 2}]}),
    )
    .await
    .expect("update once finalized");
    assert_eq!(out["produtos"].as_array().map(Vec::len), Some(2));
    // 12,39 at 50% = 18,585 → 18,59; 1,55 at 10% = 1,705 → 1,71.
    assert_eq!(
        product(&db, c, 2).await,
        (n("12.39"), Some(n("50")), n("18.59"))
    );
    assert_eq!(
        product(&db, c, 4).await,
        (n("1.55"), Some(n("10")), n("1.71"))
    );
    assert_eq!(
        product(&db, c, 1).await,
        (n("37.16"), Some(n("100")), n("74.32")),
        "not named"
    );

    // The cost only: the price stays.
    peers::catalog_update(&db, c, "produtos", "1", json!({"PROD_CUSTO": "1.00"})).await;
    let out = update_prices(
        &db,
        c,
        &peers,
        json!({"CMPP_COMP_ID": id, "ATUALIZAR_PRECO": false, "itens": [{"CMPP_ID": 1}]}),
    )
    .await
    .expect("cost only");
    assert_eq!(out["msg"], "Custo atualizado em 1 produto(s).");
    assert_eq!(
        product(&db, c, 1).await,
        (n("37.16"), Some(n("100")), n("74.32"))
    );
}

#[tokio::test]
async fn the_update_needs_the_grant_on_products_and_a_live_purchase() {
    let db = db().await;
    let c = client();
    // User 7 may only view products.
    let (id, peers) = purchase_with_catalog(&db, c, &[], &["produtos"]).await;
    let before = product(&db, c, 1).await;
    let (status, msg) = refusal(update_prices(&db, c, &peers, json!({"CMPP_COMP_ID": id})).await);
    assert_eq!(
        (status, msg.as_str()),
        (
            403,
            "Usuário sem permissão para alterar Produtos: custos e preços não foram atualizados."
        )
    );
    assert_eq!(product(&db, c, 1).await, before, "nothing changed");

    let (status, msg) = refusal(
        update_prices(
            &db,
            c,
            &peers,
            json!({"CMPP_COMP_ID": id, "itens": [{"CMPP_ID": 9}]}),
        )
        .await,
    );
    assert_eq!(
        (status, msg),
        (400, format!("Item 9 não pertence à compra {id}."))
    );
    let (status, msg) =
        refusal(update_prices(&db, c, &peers, json!({"CMPP_COMP_ID": id, "MARGEM": "-5"})).await);
    assert_eq!(
        (status, msg.as_str()),
        (400, "MARGEM: informe uma margem entre 0 e 999,9999%.")
    );
    let (status, msg) =
        refusal(update_prices(&db, c, &peers, json!({"CMPP_COMP_ID": 999999})).await);
    assert_eq!((status, msg.as_str()), (404, "Compra não encontrada."));

    call(
        &db,
        c,
        "compra",
        "cancelar",
        &[("COMP_ID", &id.to_string())],
        json!({}),
    )
    .await
    .expect("cancel");
    let (status, msg) = refusal(update_prices(&db, c, &peers, json!({"CMPP_COMP_ID": id})).await);
    assert_eq!(
        (status, msg.as_str()),
        (
            409,
            "Compra cancelada: custos e preços não são atualizados por ela."
        )
    );
    assert_eq!(product(&db, c, 1).await, before);
}
