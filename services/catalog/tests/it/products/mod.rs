//! Products and their tables against a migrated catalog: the table-driven register
//! test, the field rules with their exact messages and the copied descriptions.
//! The declared calls are tested in `products/declared_calls.rs`, the history in
//! `products/history.rs`, the replication to other companies in
//! `products/replicate.rs`.

mod declared_calls;
mod history;
mod replicate;

use std::sync::atomic::{AtomicI64, Ordering};

use erp_catalog::resources::products::{
    self, barcodes, classification, raw_material, sub_registers,
};
use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::query;
use erp_platform::resource::{Registry, Resource};
use serde_json::{json, Map, Value};

/// Client ids of this module only, so its tests never see each other's rows.
fn client() -> i64 {
    static NEXT: AtomicI64 = AtomicI64::new(30_000);
    NEXT.fetch_add(1, Ordering::SeqCst)
}

async fn db() -> Db {
    Db::connect(&crate::setup().await).await.expect("app pool")
}

fn caller(client_id: i64) -> Caller {
    Caller { client_id, user_id: 1, emp_id: 1, privileged: false }
}

fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

async fn create(tx: &mut Tx, res: &Resource, me: &Caller, v: Value) -> Value {
    let emp = res.company.as_ref().map(|_| 1);
    query::create(tx, res, me, emp, &body(v))
        .await
        .expect("create")
}

async fn create_err(db: &Db, res: &Resource, me: &Caller, v: Value) -> String {
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let emp = res.company.as_ref().map(|_| 1);
    match query::create(&mut tx, res, me, emp, &body(v)).await {
        Ok(row) => panic!("{} accepted {row}", res.name),
        Err(e) => e.public_message(),
    }
}

/// Runs the action `name` of `res` as the gateway would, with `emp` from the path.
async fn base(tx: &mut Tx, me: &Caller) -> Value {
    create(
        tx,
        &classification::unidade(),
        me,
        json!({"UNID_DESCRICAO": "UNIDADE", "UNID_ABREVIADA": "UN"}),
    )
    .await;
    create(
        tx,
        &classification::grupo(),
        me,
        json!({"GRUP_DESCRICAO": "FERRAGENS"}),
    )
    .await;
    create(
        tx,
        &classification::subgrupo(),
        me,
        json!({"GSUB_DESCRICAO": "PARAFUSOS", "GSUB_GRUP_ID": 1}),
    )
    .await;
    create(
        tx,
        &classification::tamanho(),
        me,
        json!({"TAM_DESCRICAO": "GG"}),
    )
    .await;
    create(
        tx,
        &classification::cor(),
        me,
        json!({"COR_DESCRICAO": "AZUL", "COR_HEX": "0000ff"}),
    )
    .await;
    create(
        tx,
        &products::produtos(),
        me,
        json!({"PROD_DESCRICAO": "PARAFUSO 1/4", "PROD_UNID_ID": 1, "PROD_GRUP_ID": 1, "PROD_GSUB_ID": 1,
               "PROD_CBAR": "7891000315507", "PROD_VALOR": "0.76"}),
    )
    .await
}

#[tokio::test]
async fn registry_round_trip() {
    let db = db().await;
    let registry = Registry::new(products::all()).expect("registry");
    let n = erp_platform::testing::exercise_registry(&db, &registry, client()).await;
    assert_eq!(n, Ok(14));
}

#[tokio::test]
async fn field_rules_answer_the_spec_messages() {
    let db = db().await;
    let me = caller(client());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    base(&mut tx, &me).await;
    tx.commit().await.expect("commit");
    let prod = products::produtos();
    let ok = json!({"PROD_DESCRICAO": "ARRUELA", "PROD_UNID_ID": 1});
    let with = |k: &str, v: Value| {
        let mut b = ok.clone();
        b[k] = v;
        b
    };

    let cases = [
        (
            &prod,
            json!({"PROD_UNID_ID": 1}),
            "Descrição é obrigatório!",
        ),
        (
            &prod,
            json!({"PROD_DESCRICAO": "ARRUELA"}),
            "Unidade é obrigatório!",
        ),
        (
            &prod,
            with("PROD_CBAR", json!("7891000315508")),
            "Código de barras inválido.",
        ),
        (
            &prod,
            with("PROD_CBAR", json!("789100031550")),
            "Código de barras inválido.",
        ),
        (&prod, with("PROD_NCM", json!("7318.15")), "NCM inválido."),
        (
            &prod,
            with("PROD_CEST", json!("10.060.0A")),
            "CEST inválido.",
        ),
        (
            &prod,
            with("PROD_ORIGEM", json!(9)),
            "Valor inválido para o campo Origem da Mercadoria.",
        ),
        (
            &prod,
            with("PROD_VALOR", json!("1.234")),
            "O campo Preço de Venda aceita no máximo 2 casas decimais.",
        ),
        (
            &prod,
            with("PROD_CUSTO", json!("-1")),
            "O campo Preço de Custo deve ser maior ou igual a 0 ",
        ),
        (
            &prod,
            with("PROD_MARGEM", json!("1000")),
            "Valor Máximo permitido para o campo: 999.9999",
        ),
        (
            &prod,
            with("PROD_ESTOQUE_MIN", json!("1.00001")),
            "O campo Estoque Mínimo aceita no máximo 4 casas decimais.",
        ),
    ];
    for (res, v, msg) in cases {
        assert_eq!(create_err(&db, res, &me, v.clone()).await, msg, "{v}");
    }

    let cbar = barcodes::produtoscbar();
    assert_eq!(
        create_err(
            &db,
            &cbar,
            &me,
            json!({"PRCB_PROD_ID": 1, "PRCB_CODIGO": "12345678"})
        )
        .await,
        "Código de barras inválido."
    );
    assert_eq!(
        create_err(
            &db,
            &sub_registers::produtosgrade(),
            &me,
            json!({"PRGR_PROD_ID": 1, "PRGR_CBAR": "abc"})
        )
        .await,
        "Código de barras inválido."
    );
    assert_eq!(
        create_err(
            &db,
            &classification::cor(),
            &me,
            json!({"COR_DESCRICAO": "X", "COR_HEX": "#12345G"})
        )
        .await,
        "Valor hexadecimal inválido."
    );
    assert_eq!(
        create_err(
            &db,
            &raw_material::materiaprima(),
            &me,
            json!({"MATP_PROD_ID": 1, "MATP_COMP_ID": 1, "MATP_QTDE": 0})
        )
        .await,
        "O campo Quantidade deve ser maior ou igual a 0.0001 "
    );
    // A product's barcode and an extra barcode are each unique in the company.
    assert_eq!(
        create_err(&db, &prod, &me, with("PROD_CBAR", json!("7891000315507"))).await,
        "Código de barras já cadastrado para outro produto."
    );
    // A subgroup of another group is refused.
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    create(
        &mut tx,
        &classification::grupo(),
        &me,
        json!({"GRUP_DESCRICAO": "ELÉTRICA"}),
    )
    .await;
    tx.commit().await.expect("commit");
    assert_eq!(
        create_err(&db, &prod, &me, json!({"PROD_DESCRICAO": "FIO", "PROD_UNID_ID": 1, "PROD_GRUP_ID": 2, "PROD_GSUB_ID": 1})).await,
        "Registro relacionado não encontrado."
    );
}

#[tokio::test]
async fn codes_are_stored_normalised_and_descriptions_copied() {
    let db = db().await;
    let me = caller(client());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let p = base(&mut tx, &me).await;
    let unit = create(
        &mut tx,
        &classification::unidade(),
        &me,
        json!({"UNID_DESCRICAO": "QUILOGRAMA", "UNID_ABREVIADA": " kg "}),
    )
    .await;
    assert_eq!(unit["UNID_ABREVIADA"], json!("KG"));
    assert_eq!(
        p["UNID_ABREVIADA"],
        json!("UN"),
        "the unit's abbreviation comes with the product"
    );
    assert_eq!(p["PROD_ESTOQUE"].to_string(), "0", "stock starts at zero");
    assert_eq!(p["PROD_ORIGEM"], json!(0));
    assert_eq!(p["PROD_TIPO"], json!("00"));
    let prod = products::produtos();
    let p2 = create(
        &mut tx,
        &prod,
        &me,
        json!({"PROD_DESCRICAO": "CABO", "PROD_UNID_ID": 1, "PROD_NCM": "8544.49.00", "PROD_CEST": "12.001.00",
               "PROD_ESTOQUE": 99, "PROD_IMAGEM": "x.png"}),
    )
    .await;
    assert_eq!(
        (p2["PROD_NCM"].clone(), p2["PROD_CEST"].clone()),
        (json!("85444900"), json!("1200100"))
    );
    assert_eq!(
        p2["PROD_ESTOQUE"].to_string(),
        "0",
        "the balance is not a product field to set"
    );
    assert_eq!(
        p2["PROD_IMAGEM"],
        Value::Null,
        "the image comes only through its call"
    );

    // Renaming the unit's abbreviation reaches its products.
    query::update(
        &mut tx,
        &classification::unidade(),
        &me,
        Some(1),
        &["1".into()],
        &body(json!({"UNID_ABREVIADA": "pc"})),
    )
    .await
    .expect("update unit");
    let got = query::get(&mut tx, &prod, &me, Some(1), &["1".into()])
        .await
        .expect("get");
    assert_eq!(got["UNID_ABREVIADA"], json!("PC"));

    let m = create(
        &mut tx,
        &raw_material::materiaprima(),
        &me,
        json!({"MATP_PROD_ID": 2, "MATP_COMP_ID": 1, "MATP_QTDE": "0.25"}),
    )
    .await;
    assert_eq!(m["MATP_DESCRICAO"], json!("PARAFUSO 1/4"));
    let s = create(
        &mut tx,
        &sub_registers::produtosespeciais(),
        &me,
        json!({"PRES_CLI_ID": 7, "PRES_PROD_ID": 1, "PRES_VALOR": "0.70"}),
    )
    .await;
    assert_eq!(s["PRES_DESCRICAO"], json!("PARAFUSO 1/4"));
    query::update(
        &mut tx,
        &prod,
        &me,
        Some(1),
        &["1".into()],
        &body(json!({"PROD_DESCRICAO": "PARAFUSO 1/4 ZINCADO"})),
    )
    .await
    .expect("rename");
    let m = query::get(
        &mut tx,
        &raw_material::materiaprima(),
        &me,
        Some(1),
        &["1".into()],
    )
    .await
    .expect("get");
    assert_eq!(m["MATP_DESCRICAO"], json!("PARAFUSO 1/4 ZINCADO"));
    let s = query::get(
        &mut tx,
        &sub_registers::produtosespeciais(),
        &me,
        Some(1),
        &["7".into(), "1".into()],
    )
    .await
    .expect("get");
    assert_eq!(s["PRES_DESCRICAO"], json!("PARAFUSO 1/4 ZINCADO"));

    let g = create(
        &mut tx,
        &sub_registers::produtosgrade(),
        &me,
        json!({"PRGR_PROD_ID": 1, "PRGR_TAM_ID": 1, "PRGR_COR_ID": 1}),
    )
    .await;
    assert_eq!(g["PRGR_DESCRICAO"], json!("GG / AZUL"));
    let g = create(
        &mut tx,
        &sub_registers::produtosgrade(),
        &me,
        json!({"PRGR_PROD_ID": 1, "PRGR_COR_ID": 1, "PRGR_DESCRICAO": "Azul"}),
    )
    .await;
    assert_eq!(
        g["PRGR_DESCRICAO"],
        json!("Azul"),
        "a description given is kept"
    );
}
