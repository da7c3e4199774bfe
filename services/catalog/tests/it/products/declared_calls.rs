//! The product calls (settings, duplicate, image, barcode lookup for sales, raw
//! material of a product), run as the gateway runs them.

use std::collections::HashMap;

use erp_catalog::resources::products::{self, barcodes, raw_material, sub_registers};
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::query;
use erp_platform::resource::Resource;
use serde_json::{json, Value};

use super::{base, body, caller, client, create, db};

async fn action(
    tx: &mut Tx,
    res: &Resource,
    me: &Caller,
    name: &str,
    params: &[(&str, &str)],
    body: Value,
) -> erp_platform::Result<Value> {
    let a = res
        .actions
        .iter()
        .find(|a| a.name == name)
        .expect("declared action");
    let params: HashMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let emp = params.get("emp").and_then(|e| e.parse().ok());
    a.run(tx, res, me, emp, &params, body).await
}

/// A unit, a group with a subgroup, a size, a colour and one product.

#[tokio::test]
async fn settings_need_a_company() {
    let db = db().await;
    let me = caller(client());
    let prod = products::produtos();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    for params in [
        &[][..],
        &[("emp", "")],
        &[("emp", "undefined")],
        &[("emp", "null")],
    ] {
        let e = action(&mut tx, &prod, &me, "config_sem_empresa", params, json!({}))
            .await
            .err();
        assert_eq!(
            e.as_ref().map(|e| (e.http_status(), e.to_string())),
            Some((400, "emp_id não informado.".into()))
        );
    }
    let cfg = action(&mut tx, &prod, &me, "config", &[("emp", "1")], json!({}))
        .await
        .expect("config");
    assert_eq!(cfg["CASAS_DECIMAIS_QUANTIDADE"], json!(4));
    assert_eq!(cfg["CASAS_DECIMAIS_VALOR"], json!(2));
    assert_eq!(cfg["UNIDADE_PADRAO"], json!("UN"));
    assert_eq!(cfg["UNID_ID_PADRAO"], Value::Null);
    assert_eq!(cfg["USA_GRADE"], json!(false));

    base(&mut tx, &me).await;
    create(
        &mut tx,
        &sub_registers::produtosgrade(),
        &me,
        json!({"PRGR_PROD_ID": 1, "PRGR_TAM_ID": 1}),
    )
    .await;
    let cfg = action(&mut tx, &prod, &me, "config", &[("emp", "1")], json!({}))
        .await
        .expect("config");
    assert_eq!(cfg["EMP_ID"], json!(1));
    assert_eq!(cfg["UNID_ID_PADRAO"], json!(1));
    assert_eq!(
        (
            cfg["USA_GRADE"].clone(),
            cfg["USA_TAMANHO"].clone(),
            cfg["USA_COR"].clone()
        ),
        (json!(true), json!(true), json!(true))
    );
    assert_eq!(cfg["USA_MATERIA_PRIMA"], json!(false));
    let other = action(&mut tx, &prod, &me, "config", &[("emp", "2")], json!({}))
        .await
        .expect("config");
    assert_eq!(
        (other["UNID_ID_PADRAO"].clone(), other["USA_GRADE"].clone()),
        (Value::Null, json!(false))
    );
}

#[tokio::test]
async fn duplicate_copies_all_but_barcodes() {
    let db = db().await;
    let me = caller(client());
    let prod = products::produtos();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let original = base(&mut tx, &me).await;
    create(
        &mut tx,
        &sub_registers::produtosinf(),
        &me,
        json!({"PROI_PROD_ID": 1, "PROI_DESCRICAO": "GARANTIA", "PROI_INFORMACAO": "1 ano"}),
    )
    .await;
    create(
        &mut tx,
        &barcodes::produtoscbar(),
        &me,
        json!({"PRCB_PROD_ID": 1, "PRCB_CODIGO": "7891234567895"}),
    )
    .await;
    create(
        &mut tx,
        &sub_registers::produtosfornecedor(),
        &me,
        json!({"PRFR_PROD_ID": 1, "PRFR_FORN_ID": 3, "PRFR_REF_ID": "A-1"}),
    )
    .await;
    create(&mut tx, &sub_registers::produtosgrade(), &me, json!({"PRGR_PROD_ID": 1, "PRGR_TAM_ID": 1, "PRGR_COR_ID": 1, "PRGR_CBAR": "7894900011517"})).await;

    let copy = action(
        &mut tx,
        &prod,
        &me,
        "duplicar",
        &[("prodId", "1"), ("emp", "1"), ("user", "1")],
        json!({}),
    )
    .await
    .expect("duplicate");
    assert_eq!(copy["PROD_ID"], json!(2));
    assert_eq!(copy["PROD_DESCRICAO"], json!("PARAFUSO 1/4 (CÓPIA)"));
    assert_eq!(copy["PROD_CBAR"], Value::Null);
    for same in [
        "PROD_UNID_ID",
        "UNID_ABREVIADA",
        "PROD_GRUP_ID",
        "PROD_GSUB_ID",
        "PROD_VALOR",
        "PROD_SITUACAO",
    ] {
        assert_eq!(copy[same], original[same], "{same}");
    }
    let of_copy = |fk: &str| body(json!({fk: 2}));
    let inf = query::list(
        &mut tx,
        &sub_registers::produtosinf(),
        &me,
        Some(1),
        &of_copy("PROI_PROD_ID"),
    )
    .await
    .expect("list");
    assert_eq!(inf.len(), 1);
    assert_eq!(inf[0]["PROI_INFORMACAO"], json!("1 ano"));
    let forn = query::list(
        &mut tx,
        &sub_registers::produtosfornecedor(),
        &me,
        Some(1),
        &of_copy("PRFR_PROD_ID"),
    )
    .await
    .expect("list");
    assert_eq!(
        (forn.len(), forn[0]["PRFR_REF_ID"].clone()),
        (1, json!("A-1"))
    );
    let grade = query::list(
        &mut tx,
        &sub_registers::produtosgrade(),
        &me,
        Some(1),
        &of_copy("PRGR_PROD_ID"),
    )
    .await
    .expect("list");
    assert_eq!(grade.len(), 1);
    assert_eq!(
        (
            grade[0]["PRGR_DESCRICAO"].clone(),
            grade[0]["PRGR_CBAR"].clone()
        ),
        (json!("GG / AZUL"), Value::Null)
    );
    let cbar = query::list(
        &mut tx,
        &barcodes::produtoscbar(),
        &me,
        Some(1),
        &of_copy("PRCB_PROD_ID"),
    )
    .await
    .expect("list");
    assert!(cbar.is_empty(), "barcodes are unique: the copy has none");

    let e = action(
        &mut tx,
        &prod,
        &me,
        "duplicar",
        &[("prodId", "99"), ("emp", "1"), ("user", "1")],
        json!({}),
    )
    .await;
    assert_eq!(e.err().map(|e| e.http_status()), Some(404));
}

#[test]
fn copy_description_fits_the_field() {
    use erp_catalog::resources::products::copy_description;
    assert_eq!(copy_description("CABO", Some(120)), "CABO (CÓPIA)");
    let long = "Á".repeat(120);
    let c = copy_description(&long, Some(120));
    assert_eq!(c.chars().count(), 120);
    assert!(c.ends_with(" (CÓPIA)"));
}

#[tokio::test]
async fn image_upload_and_delete() {
    let db = db().await;
    let me = caller(client());
    let prod = products::produtos();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    base(&mut tx, &me).await;
    let upload = |name: &str| json!({"arquivo": {"nome": name, "original": "foto.png", "tamanho": 10, "url": format!("/uploads/1/{name}")}});
    let a = action(
        &mut tx,
        &prod,
        &me,
        "imagem",
        &[("id", "1"), ("emp", "1")],
        upload("a1.png"),
    )
    .await
    .expect("upload");
    assert_eq!(
        (a["PROD_IMAGEM"].clone(), a["anterior"].clone()),
        (json!("a1.png"), Value::Null)
    );
    let b = action(
        &mut tx,
        &prod,
        &me,
        "imagem",
        &[("id", "1"), ("emp", "1")],
        upload("b2.png"),
    )
    .await
    .expect("upload");
    assert_eq!(
        (b["PROD_IMAGEM"].clone(), b["anterior"].clone()),
        (json!("b2.png"), json!("a1.png"))
    );
    let e = action(
        &mut tx,
        &prod,
        &me,
        "imagem",
        &[("id", "9"), ("emp", "1")],
        upload("c3.png"),
    )
    .await;
    assert_eq!(e.err().map(|e| e.http_status()), Some(404));
    let e = action(
        &mut tx,
        &prod,
        &me,
        "imagem",
        &[("id", "1"), ("emp", "1")],
        json!({}),
    )
    .await;
    assert_eq!(
        e.err().map(|e| e.to_string()),
        Some("Arquivo é obrigatório!".into())
    );

    let del = |name: &'static str| [("id", "1"), ("emp", "1"), ("name", name)];
    let e = action(
        &mut tx,
        &prod,
        &me,
        "imagem_excluir",
        &del("a1.png"),
        json!({}),
    )
    .await;
    assert_eq!(
        e.err().map(|e| e.to_string()),
        Some("Imagem não encontrada.".into())
    );
    let d = action(
        &mut tx,
        &prod,
        &me,
        "imagem_excluir",
        &del("b2.png"),
        json!({}),
    )
    .await
    .expect("delete");
    assert_eq!(d["PROD_IMAGEM"], Value::Null);
}

#[tokio::test]
async fn barcode_lookup_for_sales() {
    let db = db().await;
    let me = caller(client());
    let cbar = barcodes::produtoscbar();
    let prod = products::produtos();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    base(&mut tx, &me).await;
    create(
        &mut tx,
        &cbar,
        &me,
        json!({"PRCB_PROD_ID": 1, "PRCB_CODIGO": "7891234567895", "PRCB_QTDE": 12}),
    )
    .await;
    create(
        &mut tx,
        &sub_registers::produtosgrade(),
        &me,
        json!({"PRGR_PROD_ID": 1, "PRGR_TAM_ID": 1, "PRGR_CBAR": "7894900011517"}),
    )
    .await;

    for (params, b) in [
        ([("id", "undefined"), ("emp", "1")], json!({})),
        ([("id", "null"), ("emp", "1")], json!({"FILTRO": ""})),
    ] {
        let r = action(&mut tx, &cbar, &me, "vendas", &params, b)
            .await
            .expect("lookup");
        assert_eq!(r, json!([]), "no filter: nothing is looked up");
    }
    let at = [("id", "0"), ("emp", "1")];
    let r = action(
        &mut tx,
        &cbar,
        &me,
        "vendas",
        &at,
        json!({"FILTRO": "7891000315507"}),
    )
    .await
    .expect("lookup");
    assert_eq!(r.as_array().map(Vec::len), Some(1));
    assert_eq!(
        (
            r[0]["PROD_ID"].clone(),
            r[0]["PRCB_QTDE"].clone(),
            r[0]["ORDEM"].clone()
        ),
        (json!(1), json!(1), json!(0))
    );
    let r = action(
        &mut tx,
        &cbar,
        &me,
        "vendas",
        &[("id", "7891234567895"), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("lookup");
    assert_eq!(
        (r[0]["PROD_ID"].clone(), r[0]["PRCB_QTDE"].clone()),
        (json!(1), json!(12))
    );
    let r = action(
        &mut tx,
        &cbar,
        &me,
        "vendas",
        &at,
        json!({"PRCB_CODIGO": "7894900011517"}),
    )
    .await
    .expect("lookup");
    assert_eq!(
        (r[0]["PROD_ID"].clone(), r[0]["PRGR_ID"].clone()),
        (json!(1), json!(1))
    );
    let r = action(
        &mut tx,
        &cbar,
        &me,
        "vendas",
        &at,
        json!({"FILTRO": "12345670"}),
    )
    .await
    .expect("lookup");
    assert_eq!(r, json!([]));
    // Another company's code finds nothing here.
    let r = action(
        &mut tx,
        &cbar,
        &me,
        "vendas",
        &[("id", "7891000315507"), ("emp", "2")],
        json!({}),
    )
    .await
    .expect("lookup");
    assert_eq!(r, json!([]));
    // Deactivated products are not sold.
    query::update(
        &mut tx,
        &prod,
        &me,
        Some(1),
        &["1".into()],
        &body(json!({"PROD_SITUACAO": 0})),
    )
    .await
    .expect("update");
    let r = action(
        &mut tx,
        &cbar,
        &me,
        "vendas",
        &at,
        json!({"FILTRO": "7891000315507"}),
    )
    .await
    .expect("lookup");
    assert_eq!(r, json!([]));
}

#[tokio::test]
async fn raw_material_of_a_product() {
    let db = db().await;
    let me = caller(client());
    let mp = raw_material::materiaprima();
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    base(&mut tx, &me).await;
    create(
        &mut tx,
        &products::produtos(),
        &me,
        json!({"PROD_DESCRICAO": "KIT FIXAÇÃO", "PROD_UNID_ID": 1}),
    )
    .await;
    create(
        &mut tx,
        &products::produtos(),
        &me,
        json!({"PROD_DESCRICAO": "BUCHA 6", "PROD_UNID_ID": 1}),
    )
    .await;
    create(
        &mut tx,
        &mp,
        &me,
        json!({"MATP_PROD_ID": 2, "MATP_COMP_ID": 1, "MATP_QTDE": 4}),
    )
    .await;
    create(
        &mut tx,
        &mp,
        &me,
        json!({"MATP_PROD_ID": 2, "MATP_COMP_ID": 3, "MATP_QTDE": 4}),
    )
    .await;
    create(
        &mut tx,
        &mp,
        &me,
        json!({"MATP_PROD_ID": 3, "MATP_COMP_ID": 1, "MATP_QTDE": 1}),
    )
    .await;
    let r = action(
        &mut tx,
        &mp,
        &me,
        "do_produto",
        &[("prod", "2"), ("emp", "1")],
        json!({"ORDENACAO": "MATP_DESCRICAO"}),
    )
    .await
    .expect("list");
    let names: Vec<Value> = r
        .as_array()
        .into_iter()
        .flatten()
        .map(|row| row["MATP_DESCRICAO"].clone())
        .collect();
    assert_eq!(names, vec![json!("BUCHA 6"), json!("PARAFUSO 1/4")]);
    // A component in use cannot be deleted.
    // Only the status: the platform picks its text from PostgreSQL's primary
    // message, which never says "still referenced" (that is in the detail).
    let e = query::delete(&mut tx, &products::produtos(), &me, Some(1), &["3".into()])
        .await
        .err();
    assert_eq!(e.map(|e| e.http_status()), Some(409));
}
