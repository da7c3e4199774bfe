//! Sizes and colours end to end: catalog's grid reaches orders' copy by its facts;
//! a purchase whose grid names the product's variants is finalized and stock
//! enters them per variant (and refuses a grid row that is no variant); a billing
//! order's line names a variant (priced by it, refused when it is another
//! product's or unknown), its invoice takes that variant out of stock once however
//! often the fact is delivered; `POST /produtosgradevendas/{emp}` answers the grid
//! with stock's figures, asked over gRPC, and no other tenant reaches it. Stock's
//! consumers are stock's own effects, applied as the bus would (`apply_once`).

use erp_platform::bus::{apply_once, Effect, Message};
use erp_platform::db::Db;
use erp_platform::Result;
use erp_proto::orders::v1::{CompraFinalizada, PedidoFaturado};
use erp_proto::subjects::{COMPRA_FINALIZADA, PEDIDO_FATURADO};
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::peers::{catalog_create, Finance};
use crate::purchases::{call_as, d, n, refusal, registry_with};
use crate::{action, caller, client, create, db, delete, s, update};

/// Applies `effect` to the message once (the consumer's inbox), as tenant `c`.
async fn deliver<E: Effect + 'static>(
    db: &Db,
    schema: &str,
    consumer: &str,
    c: i64,
    effect: E,
    msg: Message,
) -> Result<bool> {
    let id = msg.id.clone();
    apply_once(db, schema, consumer, &id, c, move |tx| {
        Box::pin(async move { effect.apply(tx, c, &msg).await })
    })
    .await
}

/// The facts of `schema`'s outbox for tenant `c` whose subject starts with
/// `prefix`, oldest first, as the bus delivers them.
async fn facts(db: &Db, schema: &str, c: i64, prefix: &str) -> Vec<Message> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let rows: Vec<(String, String, Vec<u8>)> = sqlx::query_as(&format!(
        "SELECT id::text, subject, payload FROM {schema}.outbox
         WHERE client_id = $1 AND starts_with(subject, $2) ORDER BY created_at, id"
    ))
    .bind(c)
    .bind(prefix)
    .fetch_all(&mut *tx)
    .await
    .expect("outbox");
    rows.into_iter()
        .map(|(id, subject, payload)| Message::new(&id, &subject, payload.into()))
        .collect()
}

/// Catalog's facts of products, grids, sizes and colours applied to orders'
/// copies by orders' consumers (each event once).
async fn copy_catalog(db: &Db, c: i64) {
    let consumers = erp_orders::events::consumers();
    for prefix in [
        "erp.catalog.produto.",
        "erp.catalog.tamanho.",
        "erp.catalog.cor.",
        "erp.catalog.produtograde.",
    ] {
        let def = consumers
            .iter()
            .find(|d| d.filter.starts_with(prefix))
            .unwrap_or_else(|| panic!("a consumer of {prefix}"));
        for msg in facts(db, "catalog", c, prefix).await {
            let effect = def.effect.clone();
            let id = msg.id.clone();
            apply_once(db, "orders", def.durable, &id, c, move |tx| {
                Box::pin(async move { effect.apply(tx, c, &msg).await })
            })
            .await
            .expect("copy");
        }
    }
}

/// Catalog's T-shirt (product 1, 49.90) in sizes P, M and colours AZUL, PRETO
/// (variants 1..4; P/AZUL priced 59.90), and a cap (product 2) with one variant
/// (5); orders' copies follow from the facts. Also the supplier and customer
/// orders knows.
async fn seed(db: &Db, c: i64) {
    catalog_create(
        db,
        c,
        "unidade",
        json!({"UNID_DESCRICAO": "UNIDADE", "UNID_ABREVIADA": "UN"}),
    )
    .await;
    for (desc, price) in [("Camiseta básica", "49.90"), ("Boné aba reta", "35.00")] {
        catalog_create(
            db,
            c,
            "produtos",
            json!({"PROD_DESCRICAO": desc, "PROD_UNID_ID": 1, "PROD_CUSTO": "20.00", "PROD_VALOR": price}),
        )
        .await;
    }
    for size in ["P", "M"] {
        catalog_create(db, c, "tamanho", json!({"TAM_DESCRICAO": size})).await;
    }
    for colour in ["AZUL", "PRETO"] {
        catalog_create(db, c, "cor", json!({"COR_DESCRICAO": colour})).await;
    }
    for (product, size, colour, price) in [
        (1, 1, 1, Some("59.90")),
        (1, 2, 1, None),
        (1, 1, 2, None),
        (1, 2, 2, None),
        (2, 1, 1, None),
    ] {
        let row = catalog_create(
            db,
            c,
            "produtosgrade",
            json!({"PRGR_PROD_ID": product, "PRGR_TAM_ID": size, "PRGR_COR_ID": colour, "PRGR_VALOR": price}),
        )
        .await;
        assert!(row["PRGR_ID"].as_i64().is_some());
    }
    copy_catalog(db, c).await;
    let mut tx = db.begin_tenant(c).await.expect("tx");
    for sql in [
        "INSERT INTO orders.fornecedores (client_id, forn_id, descricao, documento) VALUES
            ($1, 2, 'Confecções Sul', '99888777000161')",
        "INSERT INTO orders.clientes (client_id, emp_id, cli_id, descricao) VALUES ($1, 1, 1, 'Loja do Centro')",
    ] {
        sqlx::query(sql).bind(c).execute(&mut *tx).await.expect("seed");
    }
    tx.commit().await.expect("commit");
}

/// A declared call of orders as tenant `c`, company 1, with `body`, reaching
/// catalog, identity and stock in process.
async fn call(
    db: &Db,
    c: i64,
    register: &str,
    name: &str,
    params: &[(&str, &str)],
    body: Value,
) -> Result<Value> {
    let peers = crate::peers::peers(db, Some(&Finance::default()));
    call_as(
        db,
        &caller(c),
        registry_with(peers),
        register,
        name,
        params,
        body,
    )
    .await
}

/// (variant, size, colour, price, stock) of the sales grid's rows.
type GridRow = (i64, String, String, Decimal, Decimal);

fn grid_rows(out: &Value) -> Vec<GridRow> {
    out["grade"]
        .as_array()
        .expect("grade")
        .iter()
        .map(|r| {
            (
                r["PRGR_ID"].as_i64().expect("id"),
                s(&r["TAM_DESCRICAO"]),
                s(&r["COR_DESCRICAO"]),
                d(&r["PRGR_VALOR"]),
                d(&r["QTD_ESTOQUE"]),
            )
        })
        .collect()
}

/// The variants' company quantities in stock.
async fn variant_stock(db: &Db, c: i64, product: i64) -> Vec<(i64, Decimal)> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    erp_stock::ledger::variant_balances(&mut tx, c, 1, product, None)
        .await
        .expect("variants")
}

async fn product_stock(db: &Db, c: i64, product: i64) -> Decimal {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    erp_stock::ledger::balance(&mut tx, c, 1, product)
        .await
        .expect("balance")
        .qty
}

async fn line(db: &Db, c: i64, order: i64, product: i64, qty: &str, variant: i64) -> Result<Value> {
    create(
        db,
        c,
        "pedidoproduto",
        json!({"PEDI_PEDF_ID": order, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": product,
               "PEDI_QTDE": qty, "PEDI_PRGR_ID": variant}),
    )
    .await
}

#[tokio::test]
async fn a_grid_purchase_and_a_sale_by_variant_move_the_variants_stock_and_the_sales_grid_shows_it()
{
    let db = db().await;
    let c = client();
    seed(&db, c).await;

    // The copy: orders knows the grid, with the sizes' and colours' names.
    let out = call(
        &db,
        c,
        "pedido",
        "produtosgradevendas",
        &[],
        json!({"PROD_ID": 1}),
    )
    .await
    .expect("sales grid before stock");
    assert_eq!(
        grid_rows(&out),
        vec![
            (1, "P".into(), "AZUL".into(), n("59.90"), n("0")),
            (3, "P".into(), "PRETO".into(), n("49.9"), n("0")),
            (2, "M".into(), "AZUL".into(), n("49.9"), n("0")),
            (4, "M".into(), "PRETO".into(), n("49.9"), n("0")),
        ]
    );

    // A purchase of 10 T-shirts at 20.00: 4 P/AZUL and 3 M/AZUL in the grid.
    let purchase = call(
        &db,
        c,
        "compra",
        "completa",
        &[],
        json!({
            "compra": {"COMP_FORN_ID": 2, "COMP_SERIE": "1", "COMP_NUMERO": 77, "COMP_MODELO": "01",
                       "COMP_DTA_EMISSAO": "2026-11-25", "COMP_DTA_ENTRADA": "2026-11-26"},
            "itens": [{"CMPP_PROD_ID": 1, "CMPP_QTDE": "10", "CMPP_VLR_UNIT": "20.00"}],
        }),
    )
    .await
    .expect("purchase");
    let id = purchase["compra"]["COMP_ID"].as_i64().expect("id");
    let ids = id.to_string();
    for (size, colour, qty) in [(1, Some(1), "4"), (2, Some(1), "3"), (2, None, "1")] {
        crate::purchases::create(
            &db,
            c,
            "compraprodutograde",
            json!({"CMPG_COMP_ID": id, "CMPG_CMPP_ID": 1, "CMPG_TAM_ID": size, "CMPG_COR_ID": colour, "CMPG_QTDE": qty}),
        )
        .await
        .expect("grid row");
    }
    // Size M without a colour is no variant of the T-shirt: finalizing says so.
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
        "Grade sem variação correspondente na grade do produto (cadastre-a no produto; se acabou de ser cadastrada, tente novamente em instantes): item 1 (tamanho 2, cor -)."
    );
    let grid =
        crate::purchases::list(&db, c, "compraprodutograde", json!({"CMPG_COMP_ID": id})).await;
    let stray = grid
        .iter()
        .find(|r| r["CMPG_COR_ID"].is_null())
        .expect("the stray row");
    delete(&db, c, "compraprodutograde", &[&ids, &s(&stray["CMPG_ID"])])
        .await
        .expect("delete the stray row");
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
    let finalized = facts(&db, "orders", c, COMPRA_FINALIZADA).await;
    assert_eq!(finalized.len(), 1);
    let fact = CompraFinalizada::decode(finalized[0].payload.as_ref()).expect("decode");
    let variants: Vec<(i64, String)> = fact.items[0]
        .variants
        .iter()
        .map(|v| (v.variant_id, v.quantity.clone()))
        .collect();
    assert_eq!(variants, vec![(1, "4".to_string()), (2, "3".to_string())]);
    for msg in finalized {
        assert!(deliver(
            &db,
            "stock",
            "stock-compra-finalizada",
            c,
            erp_stock::purchases::FinalizedPurchase,
            msg
        )
        .await
        .expect("stock entry"));
    }
    assert_eq!(product_stock(&db, c, 1).await, n("10"));
    assert_eq!(
        variant_stock(&db, c, 1).await,
        vec![(1, n("4")), (2, n("3"))]
    );

    // A billing order: 1 P/AZUL (its own price), 2 M/AZUL (the product's price).
    let order = create(
        &db,
        c,
        "pedido",
        json!({"PEDF_SERIE": "1", "PEDF_CLI_ID": 1, "PEDF_DTA_EMISSAO": "2026-11-27"}),
    )
    .await
    .expect("order")["PEDF_ID"]
        .as_i64()
        .expect("order id");
    let first = line(&db, c, order, 1, "1", 1).await.expect("line P/AZUL");
    assert_eq!(d(&first["PEDI_VLR_UNITARIO"]), n("59.90"));
    assert_eq!(first["PEDI_PRGR_ID"].as_i64(), Some(1));
    let second = line(&db, c, order, 1, "2", 2).await.expect("line M/AZUL");
    assert_eq!(d(&second["PEDI_VLR_UNITARIO"]), n("49.90"));
    // The cap's variant on a T-shirt line, and a variant catalog never had.
    let (status, msg) = refusal(line(&db, c, order, 1, "1", 5).await);
    assert_eq!(
        (status, msg.as_str()),
        (400, "A variação 5 da grade não é do produto 1.")
    );
    let (status, msg) = refusal(line(&db, c, order, 1, "1", 99).await);
    assert_eq!(
        (status, msg.as_str()),
        (400, "Variação 99 da grade não encontrada (se acabou de ser cadastrada, tente novamente em instantes).")
    );
    let oid = order.to_string();
    let (status, msg) = refusal(
        update(
            &db,
            c,
            "pedidoproduto",
            &[&oid, "1", "2"],
            json!({"PEDI_PRGR_ID": 5}),
        )
        .await,
    );
    assert_eq!(
        (status, msg.as_str()),
        (400, "A variação 5 da grade não é do produto 1.")
    );

    action(
        &db,
        c,
        "pedido",
        "faturar",
        &[("PEDF_ID", &oid), ("PEDF_SERIE", "1")],
    )
    .await
    .expect("invoice");
    let invoiced = facts(&db, "orders", c, PEDIDO_FATURADO).await;
    assert_eq!(invoiced.len(), 1);
    let fact = PedidoFaturado::decode(invoiced[0].payload.as_ref()).expect("decode");
    let lines: Vec<(i64, i64, String)> = fact
        .lines
        .iter()
        .map(|l| (l.product_id, l.variant_id, l.quantity.clone()))
        .collect();
    assert_eq!(
        lines,
        vec![(1, 1, "1".to_string()), (1, 2, "2".to_string())]
    );
    // Delivered twice: applied once.
    let msg = invoiced[0].clone();
    for expected in [true, false] {
        let applied = deliver(
            &db,
            "stock",
            "stock-pedido-faturado",
            c,
            erp_stock::events::InvoicedOrder,
            msg.clone(),
        )
        .await
        .expect("stock exit");
        assert_eq!(applied, expected);
    }
    assert_eq!(product_stock(&db, c, 1).await, n("7"));
    assert_eq!(
        variant_stock(&db, c, 1).await,
        vec![(1, n("3")), (2, n("1"))]
    );

    // The sales grid with stock's figures, sizes and colours for the table.
    let out = call(
        &db,
        c,
        "pedido",
        "produtosgradevendas",
        &[],
        json!({"PROD_ID": 1}),
    )
    .await
    .expect("sales grid");
    assert_eq!(
        (
            out["PROD_ID"].as_i64(),
            s(&out["PROD_DESCRICAO"]),
            d(&out["PROD_VALOR"])
        ),
        (Some(1), "Camiseta básica".to_string(), n("49.90"))
    );
    assert!(out["LOCA_ID"].is_null());
    assert_eq!(
        grid_rows(&out),
        vec![
            (1, "P".into(), "AZUL".into(), n("59.90"), n("3")),
            (3, "P".into(), "PRETO".into(), n("49.9"), n("0")),
            (2, "M".into(), "AZUL".into(), n("49.9"), n("1")),
            (4, "M".into(), "PRETO".into(), n("49.9"), n("0")),
        ]
    );
    assert_eq!(
        out["tamanhos"],
        json!([{"TAM_ID": 1, "TAM_DESCRICAO": "P"}, {"TAM_ID": 2, "TAM_DESCRICAO": "M"}])
    );
    assert_eq!(
        out["cores"],
        json!([{"COR_ID": 1, "COR_DESCRICAO": "AZUL"}, {"COR_ID": 2, "COR_DESCRICAO": "PRETO"}])
    );
    // In a location that holds nothing of it.
    let there = call(
        &db,
        c,
        "pedido",
        "produtosgradevendas",
        &[],
        json!({"PROD_ID": 1, "LOCA_ID": 5}),
    )
    .await
    .expect("sales grid in a location");
    assert_eq!(there["LOCA_ID"].as_i64(), Some(5));
    assert!(grid_rows(&there).iter().all(|r| r.4.is_zero()));
    // The cap: its one variant at the cap's price, none in stock.
    let cap = call(
        &db,
        c,
        "pedido",
        "produtosgradevendas",
        &[],
        json!({"PROD_ID": 2}),
    )
    .await
    .expect("the cap");
    assert_eq!(
        grid_rows(&cap),
        vec![(5, "P".into(), "AZUL".into(), n("35"), n("0"))]
    );
    let (status, msg) =
        refusal(call(&db, c, "pedido", "produtosgradevendas", &[], json!({})).await);
    assert_eq!((status, msg.as_str()), (400, "Informe Produto."));

    // Another tenant reaches none of it.
    let other = client();
    let (status, msg) = refusal(
        call(
            &db,
            other,
            "pedido",
            "produtosgradevendas",
            &[],
            json!({"PROD_ID": 1}),
        )
        .await,
    );
    assert_eq!((status, msg.as_str()), (404, "Produto não encontrado."));
    assert!(variant_stock(&db, other, 1).await.is_empty());
}
