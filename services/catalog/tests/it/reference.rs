//! Reference tables against a migrated catalog: the table-driven register test of
//! the reference registers, the public data loaded by the migrations, the rules of
//! the global tables (operators only write them) and the NCM/CNAE importers on the
//! sample files of services/catalog/data/fixtures.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};

use erp_catalog::resources::reference;
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Registry, Resource};
use serde_json::{json, Map, Value};

/// Client ids of this module only.
fn client() -> i64 {
    static NEXT: AtomicI64 = AtomicI64::new(50_000);
    NEXT.fetch_add(1, Ordering::SeqCst)
}

async fn db() -> Db {
    Db::connect(&crate::setup().await).await.expect("app pool")
}

fn registry() -> Registry {
    Registry::new(reference::all()).expect("registry")
}

fn res(name: &str) -> Resource {
    (**registry().get(name).expect("resource")).clone()
}

fn caller(client_id: i64, privileged: bool) -> Caller {
    Caller { client_id, user_id: 1, emp_id: 1, privileged }
}

async fn create(db: &Db, me: &Caller, name: &str, v: Value) -> erp_platform::Result<Value> {
    let r = res(name);
    let emp = r.company.as_ref().map(|_| 1);
    let mut tx = db.begin_tenant(me.client_id).await?;
    let row = query::create(&mut tx, &r, me, emp, v.as_object().expect("object")).await?;
    tx.commit().await?;
    Ok(row)
}

async fn get(db: &Db, name: &str, key: &str) -> erp_platform::Result<Value> {
    let r = res(name);
    let mut tx = db.begin_tenant(client()).await?;
    query::get(&mut tx, &r, &caller(1, false), None, &[key.to_string()]).await
}

fn msg(r: erp_platform::Result<Value>) -> String {
    match r {
        Ok(v) => format!("unexpected success: {v}"),
        Err(e) => e.public_message(),
    }
}

async fn scalar(db: &Db, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&db.pool)
        .await
        .expect("query")
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/fixtures")
        .join(name)
}

#[tokio::test]
async fn reference_registers_pass_the_table_driven_test() {
    let db = db().await;
    let reg = registry();
    let n = erp_platform::testing::exercise_registry(&db, &reg, client())
        .await
        .expect("exercise_registry");
    assert_eq!(n, 13);
}

#[tokio::test]
async fn public_data_is_loaded_by_the_migrations() {
    let db = db().await;
    // The samples of the table-driven test use codes outside the real ranges.
    assert_eq!(
        scalar(
            &db,
            "SELECT count(*) FROM catalog.estados WHERE est_id <> 99"
        )
        .await,
        27
    );
    assert_eq!(
        scalar(
            &db,
            "SELECT count(*) FROM catalog.cidades WHERE cid_id <> 9999999"
        )
        .await,
        5570
    );
    assert_eq!(
        scalar(
            &db,
            "SELECT count(*) FROM catalog.paises WHERE pais_id <> 999"
        )
        .await,
        250
    );
    assert!(
        scalar(
            &db,
            "SELECT count(*) FROM catalog.bancosbr WHERE bcobr_compe <> '999'"
        )
        .await
            >= 500
    );
    for (id, name, uf) in [
        ("3550308", "São Paulo", "SP"),
        ("4314902", "Porto Alegre", "RS"),
        ("5300108", "Brasília", "DF"),
    ] {
        let city = get(&db, "cidades", id).await.expect("city");
        assert_eq!(
            (city["CID_DESCRICAO"].as_str(), city["EST_SIGLA"].as_str()),
            (Some(name), Some(uf))
        );
    }
    let sp = get(&db, "estados", "35").await.expect("state");
    assert_eq!(
        (sp["EST_SIGLA"].as_str(), sp["EST_REGIAO"].as_str()),
        (Some("SP"), Some("Sudeste"))
    );
    let br = get(&db, "paises", "76").await.expect("country");
    assert_eq!(
        (br["PAIS_DESCRICAO"].as_str(), br["PAIS_SIGLA"].as_str()),
        (Some("Brasil"), Some("BR"))
    );
    let bb = get(&db, "bancosbr", "001").await.expect("bank");
    assert_eq!(bb["BCOBR_ISPB"], "00000000");
    // Cities of a state, as a customer form asks for them.
    let r = res("cidades");
    let mut tx = db.begin_tenant(client()).await.expect("tx");
    let mut filter = Map::new();
    filter.insert("EST_SIGLA".into(), json!("DF"));
    let rows = query::list(&mut tx, &r, &caller(1, false), None, &filter)
        .await
        .expect("list");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["text"], "Brasília");
}

#[tokio::test]
async fn only_operators_write_the_global_tables() {
    let db = db().await;
    let me = caller(client(), false);
    let r = create(
        &db,
        &me,
        "cidades",
        json!({"CID_ID": 9999998, "CID_DESCRICAO": "X", "EST_SIGLA": "RS"}),
    )
    .await;
    assert_eq!(msg(r), "Acesso negado.");
    let r = create(
        &db,
        &me,
        "ncm",
        json!({"NCM_CODIGO": "99999998", "NCM_DESCRICAO": "X"}),
    )
    .await;
    assert_eq!(msg(r), "Acesso negado.");
    // The per-client tables are written by the client's users.
    create(
        &db,
        &me,
        "motivos",
        json!({"MOT_DESCRICAO": "AVARIA NO TRANSPORTE", "MOT_TIPO": "D"}),
    )
    .await
    .expect("tenant register");
}

#[tokio::test]
async fn codes_are_normalised_and_checked() {
    let db = db().await;
    let op = caller(client(), true);
    let r = create(
        &db,
        &op,
        "ncm",
        json!({"NCM_CODIGO": "1234.56", "NCM_DESCRICAO": "X"}),
    )
    .await;
    assert_eq!(msg(r), "NCM: informe 8 dígitos.");
    let row = create(&db, &op, "cnaes", json!({"CNAE_CODIGO": "4781-4/00", "CNAE_DESCRICAO": "Comércio varejista de artigos do vestuário", "CNAE_SECAO": "Z"}))
        .await
        .expect("cnae");
    let got: Vec<&str> = [
        "CNAE_CODIGO",
        "CNAE_SECAO",
        "CNAE_DIVISAO",
        "CNAE_GRUPO",
        "CNAE_CLASSE",
    ]
    .iter()
    .map(|f| row[*f].as_str().unwrap_or_default())
    .collect();
    assert_eq!(got, vec!["4781400", "G", "47", "478", "47814"]);
    let r = create(
        &db,
        &op,
        "bancosbr",
        json!({"BCOBR_COMPE": "12", "BCOBR_ISPB": "12345678", "BCOBR_DESCRICAO": "X"}),
    )
    .await;
    assert_eq!(msg(r), "Código COMPE: informe 3 dígitos.");
    let r = create(
        &db,
        &op,
        "estados",
        json!({"EST_ID": 98, "EST_SIGLA": "A", "EST_DESCRICAO": "X"}),
    )
    .await;
    assert_eq!(msg(r), "O campo UF deve ter no minimo 2 caracteres.");
    let r = create(
        &db,
        &op,
        "cidades",
        json!({"CID_ID": 123, "CID_DESCRICAO": "X", "EST_SIGLA": "RS"}),
    )
    .await;
    assert_eq!(
        msg(r),
        "O campo Código IBGE deve ser maior ou igual a 1000000 "
    );
    let r = create(
        &db,
        &op,
        "cidades",
        json!({"CID_ID": 9999997, "CID_DESCRICAO": "X", "EST_SIGLA": "zz"}),
    )
    .await;
    assert_eq!(msg(r), "Registro relacionado não encontrado.");

    let me = caller(client(), false);
    let r = create(
        &db,
        &me,
        "funcao",
        json!({"FUNC_DESCRICAO": "X", "FUNC_CBO": "12345"}),
    )
    .await;
    assert_eq!(msg(r), "CBO: informe 6 dígitos.");
    let r = create(&db, &me, "obras", json!({"OBRA_DESCRICAO": "X", "OBRA_DTA_INICIO": "2026-05-10", "OBRA_DTA_FIM": "10/04/2026"})).await;
    assert_eq!(
        msg(r),
        "Término deve ser igual ou posterior à data de início."
    );
    let r = create(
        &db,
        &me,
        "obras",
        json!({"OBRA_DESCRICAO": "X", "OBRA_CNO": "123"}),
    )
    .await;
    assert_eq!(msg(r), "CNO: informe 12 dígitos.");
    let r = create(&db, &me, "observacao", json!({"OBS_DESCRICAO": "X"})).await;
    assert_eq!(msg(r), "Texto é obrigatório!");
    let r = create(
        &db,
        &me,
        "motivos",
        json!({"MOT_DESCRICAO": "X", "MOT_TIPO": "Q"}),
    )
    .await;
    assert_eq!(msg(r), "Valor inválido para o campo Tipo.");
}

#[tokio::test]
async fn ncm_import_upserts_the_eight_digit_codes() {
    let db = db().await;
    let n = erp_catalog::import::import_ncm(&db, &fixture("ncm_sample.csv"))
        .await
        .expect("import");
    assert_eq!(n, 4);
    let row = get(&db, "ncm", "01012100").await.expect("ncm");
    assert_eq!(row["NCM_DESCRICAO"], "Reprodutores de raça pura");
    assert_eq!(row["NCM_DATA_INICIO"], "2022-04-01");
    assert_eq!(row["NCM_DATA_FIM"], Value::Null);
    assert_eq!(row["NCM_ATO_LEGAL"], "Res Camex 272/2021");
    assert!(
        get(&db, "ncm", "01010000").await.is_err(),
        "positions are not NCM codes"
    );
    // A second import of a newer table updates in place.
    sqlx::query("UPDATE catalog.ncm SET ncm_descricao = 'antiga' WHERE ncm_codigo = '84713012'")
        .execute(&db.pool)
        .await
        .expect("update");
    assert_eq!(
        erp_catalog::import::import_ncm(&db, &fixture("ncm_sample.csv"))
            .await
            .expect("again"),
        4
    );
    let row = get(&db, "ncm", "84713012").await.expect("ncm");
    assert_eq!(
        row["NCM_DESCRICAO"],
        "Portáteis, com peso inferior a 3,5 kg, com teclado"
    );
    // The legacy search without a company finds a code typed with its dots.
    let r = res("ncm");
    let search = r
        .actions
        .iter()
        .find(|a| a.name == "pesquisar")
        .expect("declared");
    let params = std::collections::HashMap::from([("filter".to_string(), "0101.21".to_string())]);
    let mut tx = db.begin_tenant(client()).await.expect("tx");
    let found = search
        .run(&mut tx, &r, &caller(1, false), None, &params, json!({}))
        .await
        .expect("search");
    assert_eq!(found[0]["NCM_CODIGO"], "01012100");
    drop(tx);
    let missing = erp_catalog::import::import_ncm(&db, &fixture("nao_existe.csv")).await;
    assert!(msg(missing.map(Value::from)).starts_with("Não foi possível ler o arquivo"));
    let wrong = erp_catalog::import::import_ncm(&db, &fixture("cnae_sample.csv")).await;
    assert_eq!(
        msg(wrong.map(Value::from)),
        "Nenhum NCM de 8 dígitos encontrado no arquivo: confira o formato (Código;Descrição)."
    );
}

#[tokio::test]
async fn cnae_import_reads_ibge_structure_in_windows_1252() {
    let db = db().await;
    let n = erp_catalog::import::import_cnae(&db, &fixture("cnae_sample.csv"))
        .await
        .expect("import");
    assert_eq!(n, 4);
    let row = get(&db, "cnaes", "4711302").await.expect("cnae");
    assert_eq!(
        row["CNAE_DESCRICAO"],
        "Comércio varejista de mercadorias em geral, com predominância de produtos alimentícios - supermercados"
    );
    assert_eq!(
        (row["CNAE_SECAO"].as_str(), row["CNAE_CLASSE"].as_str()),
        (Some("G"), Some("47113"))
    );
    let arroz = get(&db, "cnaes", "0111301").await.expect("cnae");
    assert_eq!(arroz["CNAE_SECAO"], "A");
    // A search by the printed code finds it too (codes are stored as digits).
    let r = res("cnaes");
    let mut tx = db.begin_tenant(client()).await.expect("tx");
    let found = query::search(&mut tx, &r, &caller(1, false), None, "6201501", 0)
        .await
        .expect("search");
    assert_eq!(
        found[0]["CNAE_DESCRICAO"],
        "Desenvolvimento de programas de computador sob encomenda"
    );
}
