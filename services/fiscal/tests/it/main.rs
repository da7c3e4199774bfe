//! Integration tests of fiscal's registers against the real PostgreSQL.

mod company;
mod cte;
mod env;
mod manifest;
mod mdfe;
mod order_nfe;

use erp_platform::db::Db;
use erp_platform::testing::TestCtx;
use serde_json::{json, Value};

static CTX: TestCtx = TestCtx::new("fiscal", |cfg| {
    Box::pin(async move { erp_fiscal::migrate(&cfg).await })
});

async fn db() -> Db {
    CTX.db().await
}

fn client() -> i64 {
    CTX.client()
}

async fn write(
    db: &Db,
    c: i64,
    name: &str,
    key: Option<i64>,
    v: Value,
) -> erp_platform::Result<Value> {
    let reg = erp_fiscal::resources::registry().expect("registry");
    let res = reg.get(name).expect("resource");
    let caller = CTX.caller(c, 1);
    let body = v.as_object().cloned().unwrap_or_default();
    match key {
        None => CTX.create(db, res, &caller, Some(1), &body).await,
        Some(k) => {
            CTX.update(db, res, &caller, Some(1), &[k.to_string()], &body)
                .await
        }
    }
}

async fn create(db: &Db, c: i64, name: &str, v: Value) -> erp_platform::Result<Value> {
    write(db, c, name, None, v).await
}

fn msg(r: erp_platform::Result<Value>) -> String {
    match r {
        Ok(v) => format!("unexpected success: {v}"),
        Err(e) => e.public_message(),
    }
}

#[tokio::test]
async fn every_register_passes_the_table_driven_test() {
    let db = db().await;
    // The NF-e of orders, the CT-e's correction letters and the NF-e manifest
    // are written by their calls only (order_nfe's, cte's and manifest's tests).
    let reg = erp_fiscal::resources::registry().expect("registry");
    let reg = erp_platform::resource::Registry::new(
        reg.all()
            .iter()
            .filter(|r| {
                !["pedidofatxml", "ctecartacorrecaogrupo", "manifestonfe"]
                    .contains(&r.name.as_str())
            })
            .map(|r| (**r).clone())
            .collect(),
    )
    .expect("registry");
    let n = erp_platform::testing::exercise_registry(&db, &reg, client())
        .await
        .expect("exercise_registry");
    // numeracao, natureza, tributacao, empresasservicos; cte and its notes,
    // route states and new vehicles; mdfe and its 12 rows.
    assert_eq!(n, 21);
}

/// A stored XML is served with its row (the download calls answer it) but
/// never rendered as a form field: the metadata says so and the web form
/// leaves it out.
#[test]
fn stored_xml_is_kept_out_of_the_forms() {
    let reg = erp_fiscal::resources::registry().expect("registry");
    let in_form = |res: &str, field: &str| {
        let meta = reg.get(res).expect("resource").meta();
        let fields = meta["fields"].as_array().expect("fields");
        let f = fields
            .iter()
            .find(|f| f["name"] == field)
            .unwrap_or_else(|| panic!("{res}.{field} in the metadata"));
        f["inForm"].as_bool().expect("inForm is a boolean")
    };
    assert!(!in_form("cte", "CTE_NFE_XML"));
    assert!(in_form("cte", "CTE_OBS"));
    assert!(in_form("cte", "CTE_CHAVE"));
    // No other register of the service declares its XML as a form field.
    for res in reg.all() {
        for f in &res.fields {
            if f.name.ends_with("_XML") && f.kind == erp_platform::resource::Kind::Textarea {
                assert!(
                    !f.in_form,
                    "{}.{} is a stored XML shown in the form",
                    res.name, f.name
                );
            }
        }
    }
}

/// The CT-e's and the MDF-e's long forms are in titled groups that name
/// every field once, and only fields the register has.
#[test]
fn cte_and_mdfe_forms_group_every_field_once() {
    let reg = erp_fiscal::resources::registry().expect("registry");
    for name in ["cte", "mdfe"] {
        let res = reg.get(name).expect("resource");
        let meta = res.meta();
        let fields: Vec<&str> = meta["fields"]
            .as_array()
            .expect("fields")
            .iter()
            .filter_map(|f| f["name"].as_str())
            .collect();
        let mut grouped: Vec<&str> = Vec::new();
        for g in meta["groups"].as_array().expect("groups") {
            assert!(g["title"].is_string(), "{name}: an untitled group");
            for f in g["fields"].as_array().expect("group fields") {
                let f = f.as_str().expect("a field name");
                assert!(
                    fields.contains(&f),
                    "{name}: group names '{f}', not a field"
                );
                assert!(!grouped.contains(&f), "{name}: '{f}' in two groups");
                grouped.push(f);
            }
        }
        for f in &fields {
            assert!(grouped.contains(f), "{name}: '{f}' in no group");
        }
    }
}

#[tokio::test]
async fn tax_rule_needs_cst_or_csosn_and_a_valid_cfop() {
    let db = db().await;
    let c = client();
    let r = create(&db, c, "tributacao", json!({"TICM_DESCRICAO": "X"})).await;
    assert_eq!(msg(r), "Informe o CST ou o CSOSN.");
    let r = create(
        &db,
        c,
        "tributacao",
        json!({"TICM_DESCRICAO": "X", "TICM_CST": "00", "TICM_CFOP": "8102"}),
    )
    .await;
    assert_eq!(msg(r), "CFOP: informe 4 dígitos iniciados por 1 a 7.");
    let r = create(
        &db,
        c,
        "tributacao",
        json!({"TICM_DESCRICAO": "X", "TICM_CST": "11"}),
    )
    .await;
    assert_eq!(msg(r), "Valor inválido para o campo CST ICMS.");
    let r = create(
        &db,
        c,
        "tributacao",
        json!({"TICM_DESCRICAO": "X", "TICM_CST": "00", "TICM_PERC_ICMS": "100.5"}),
    )
    .await;
    assert_eq!(msg(r), "Valor Máximo permitido para o campo: 100");
    let row = create(&db, c, "tributacao", json!({"TICM_DESCRICAO": "NORMAL 18%", "TICM_CST": "00", "TICM_CFOP": "5.102", "TICM_PERC_ICMS": "18"}))
        .await
        .expect("valid");
    assert_eq!(row["TICM_CFOP"], "5102");
    let id = row["TICM_ID"].as_i64().expect("id");
    let r = write(
        &db,
        c,
        "tributacao",
        Some(id),
        json!({"TICM_CST": "", "TICM_CSOSN": ""}),
    )
    .await;
    assert_eq!(msg(r), "Informe o CST ou o CSOSN.");
}

#[tokio::test]
async fn nature_cfops_must_fit_the_operation() {
    let db = db().await;
    let c = client();
    let r = create(
        &db,
        c,
        "natureza",
        json!({"NATO_DESCRICAO": "VENDA", "NATO_TIPO": "S", "NATO_CFOP_ESTADUAL": "1102"}),
    )
    .await;
    assert_eq!(
        msg(r),
        "CFOP Dentro do Estado: para Saída o CFOP deve começar com 5."
    );
    let r = create(
        &db,
        c,
        "natureza",
        json!({"NATO_DESCRICAO": "COMPRA", "NATO_TIPO": "E", "NATO_CFOP_INTERESTADUAL": "1102"}),
    )
    .await;
    assert_eq!(
        msg(r),
        "CFOP Fora do Estado: para Entrada o CFOP deve começar com 2."
    );
    let r = create(
        &db,
        c,
        "natureza",
        json!({"NATO_DESCRICAO": "X", "NATO_TIPO": "S", "NATO_FINALIDADE": 5}),
    )
    .await;
    assert_eq!(msg(r), "Valor inválido para o campo Finalidade.");
    let r = create(&db, c, "natureza", json!({"NATO_DESCRICAO": "X"})).await;
    assert_eq!(msg(r), "Tipo é obrigatório!");
    let row = create(&db, c, "natureza", json!({"NATO_DESCRICAO": "DEVOLUÇÃO DE COMPRA", "NATO_TIPO": "S", "NATO_FINALIDADE": 4, "NATO_CFOP_ESTADUAL": "5.202", "NATO_CFOP_INTERESTADUAL": "6.202"}))
        .await
        .expect("valid");
    assert_eq!(
        (
            row["NATO_CFOP_ESTADUAL"].as_str(),
            row["NATO_MOVIMENTA_ESTOQUE"].as_bool()
        ),
        (Some("5202"), Some(true))
    );
}

#[tokio::test]
async fn numbering_is_unique_per_model_and_series() {
    let db = db().await;
    let c = client();
    let row = create(
        &db,
        c,
        "numeracao",
        json!({"NUM_MODELO": "65", "NUM_SERIE": 2}),
    )
    .await
    .expect("nfce");
    assert_eq!(row["NUM_DESCRICAO"], "NFC-e série 2");
    assert_eq!(
        (row["NUM_PROXIMO"].as_i64(), row["NUM_AMBIENTE"].as_i64()),
        (Some(1), Some(2))
    );
    let r = create(
        &db,
        c,
        "numeracao",
        json!({"NUM_MODELO": "65", "NUM_SERIE": 2}),
    )
    .await;
    // The register's own message (its constraint), not the generic one.
    assert_eq!(msg(r), "Série já cadastrada para este modelo de documento.");
    create(
        &db,
        c,
        "numeracao",
        json!({"NUM_MODELO": "55", "NUM_SERIE": 2}),
    )
    .await
    .expect("other model");
    let r = create(
        &db,
        c,
        "numeracao",
        json!({"NUM_MODELO": "55", "NUM_SERIE": 3, "NUM_PROXIMO": 0}),
    )
    .await;
    assert_eq!(
        msg(r),
        "O campo Próximo Número deve ser maior ou igual a 1 "
    );
    let r = create(
        &db,
        c,
        "numeracao",
        json!({"NUM_MODELO": "55", "NUM_SERIE": 3, "NUM_AMBIENTE": 3}),
    )
    .await;
    assert_eq!(msg(r), "Valor inválido para o campo Ambiente.");
    let id = row["NUM_ID"].as_i64().expect("id");
    let updated = write(
        &db,
        c,
        "numeracao",
        Some(id),
        json!({"NUM_DESCRICAO": "", "NUM_PROXIMO": 150}),
    )
    .await
    .expect("update");
    assert_eq!(
        (
            updated["NUM_DESCRICAO"].as_str(),
            updated["NUM_PROXIMO"].as_i64()
        ),
        (Some("NFC-e série 2"), Some(150))
    );
}
