//! Customers, their sub-registers, suppliers and collaborators against a migrated
//! catalog: the table-driven register test (with the vehicle registers, which point
//! at customers and contracts), the document and date rules with their exact
//! messages, and the customer calls. The sub-register rules are in
//! `parties/sub_registers.rs`, the supplier calls in `parties/suppliers.rs`, the
//! transfer to another company in `parties/transfer.rs`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};

use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Registry, Resource};
use serde_json::{json, Map, Value};

mod sub_registers;
mod suppliers;
mod transfer;

/// Client ids of this module only.
pub(crate) fn client() -> i64 {
    static NEXT: AtomicI64 = AtomicI64::new(10_000);
    NEXT.fetch_add(1, Ordering::SeqCst)
}

pub(crate) async fn db() -> Db {
    Db::connect(&crate::setup().await).await.expect("app pool")
}

pub(crate) fn caller(client_id: i64) -> Caller {
    Caller { client_id, user_id: 7, emp_id: 1, privileged: false }
}

pub(crate) fn registry() -> Registry {
    Registry::new(
        [
            erp_catalog::resources::parties::all(),
            erp_catalog::resources::vehicles::all(),
        ]
        .concat(),
    )
    .expect("registry")
}

pub(crate) fn res(name: &str) -> Resource {
    (**registry().get(name).expect("declared")).clone()
}

pub(crate) fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

fn emp_of(r: &Resource) -> Option<i64> {
    r.company.as_ref().map(|_| 1)
}

pub(crate) async fn create(tx: &mut Tx, r: &Resource, me: &Caller, v: Value) -> Value {
    query::create(tx, r, me, emp_of(r), &body(v.clone()))
        .await
        .unwrap_or_else(|e| panic!("{} {v}: {e}", r.name))
}

/// The message of a create that must fail, in a transaction of its own.
pub(crate) async fn create_err(db: &Db, r: &Resource, me: &Caller, v: Value) -> String {
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    match query::create(&mut tx, r, me, emp_of(r), &body(v)).await {
        Ok(row) => panic!("{} accepted {row}", r.name),
        Err(e) => e.public_message(),
    }
}

/// Runs action `name` of `r` as the gateway does, the company taken from the path.
pub(crate) async fn action(
    tx: &mut Tx,
    r: &Resource,
    me: &Caller,
    name: &str,
    params: &[(&str, &str)],
    body: Value,
) -> erp_platform::Result<Value> {
    let a = r
        .actions
        .iter()
        .find(|a| a.name == name)
        .expect("declared action");
    let params: HashMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let emp = match &r.company {
        Some(_) => params.get("emp").and_then(|e| e.parse().ok()),
        None => None,
    };
    a.run(tx, r, me, emp, &params, body).await
}

fn upload(name: &str, original: &str) -> Value {
    json!({"arquivo": {"nome": name, "original": original, "tamanho": 10, "url": format!("/uploads/1/{name}")}})
}

#[tokio::test]
async fn party_and_vehicle_registers_round_trip() {
    let db = db().await;
    let registry = registry();
    let n = erp_platform::testing::exercise_registry(&db, &registry, client()).await;
    assert_eq!(n, Ok(22));
}

#[tokio::test]
async fn the_customer_document_follows_the_person_type() {
    let db = db().await;
    let me = caller(client());
    let cli = res("clientes");
    let cases = [
        (
            json!({"CLI_DESCRICAO": "JOSÉ", "CLI_TIPO_PESSOA": "F"}),
            "CPF é obrigatório!",
        ),
        (json!({"CLI_DESCRICAO": "JOSÉ"}), "CPF é obrigatório!"),
        (
            json!({"CLI_DESCRICAO": "JOSÉ", "CLI_CPF": "123.456.789-00"}),
            "CPF inválido.",
        ),
        (
            json!({"CLI_DESCRICAO": "JOSÉ", "CLI_CPF": "11.444.777/0001-61"}),
            "CPF inválido.",
        ),
        (
            json!({"CLI_DESCRICAO": "ACME", "CLI_TIPO_PESSOA": "J"}),
            "CNPJ é obrigatório!",
        ),
        (
            json!({"CLI_DESCRICAO": "ACME", "CLI_TIPO_PESSOA": "J", "CLI_CGC": "11.444.777/0001-62"}),
            "CNPJ inválido.",
        ),
        (
            json!({"CLI_DESCRICAO": "ACME", "CLI_TIPO_PESSOA": "J", "CLI_CGC": "529.982.247-25"}),
            "CNPJ inválido.",
        ),
        (
            json!({"CLI_DESCRICAO": "SÍTIO", "CLI_TIPO_PESSOA": "R"}),
            "CPF/CNPJ é obrigatório!",
        ),
        (
            json!({"CLI_TIPO_PESSOA": "P"}),
            "Nome/Razão Social é obrigatório!",
        ),
        (
            json!({"CLI_DESCRICAO": "X", "CLI_TIPO_PESSOA": "Z"}),
            "Valor inválido para o campo Tipo de Pessoa.",
        ),
        (
            json!({"CLI_DESCRICAO": "X", "CLI_TIPO_PESSOA": "P", "CLI_SITUACAO": 3}),
            "Valor inválido para o campo Situação.",
        ),
        (
            json!({"CLI_DESCRICAO": "X", "CLI_TIPO_PESSOA": "P", "CLI_EMAIL": "x@"}),
            "E-mail inválido.",
        ),
        (
            json!({"CLI_DESCRICAO": "X", "CLI_TIPO_PESSOA": "P", "CLI_FONE": "1199"}),
            "Número incompleto",
        ),
        (
            json!({"CLI_DESCRICAO": "X", "CLI_TIPO_PESSOA": "P", "CLI_LIMITE_CREDITO": "10.001"}),
            "O campo Limite de Crédito aceita no máximo 2 casas decimais.",
        ),
    ];
    for (v, msg) in cases {
        assert_eq!(create_err(&db, &cli, &me, v.clone()).await, msg, "{v}");
    }

    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let f = create(
        &mut tx,
        &cli,
        &me,
        json!({"CLI_DESCRICAO": "JOSÉ", "CLI_CPF": " 529.982.247-25 "}),
    )
    .await;
    assert_eq!(f["CLI_CPF"], json!("52998224725"), "stored unmasked");
    assert_eq!(
        f["CLI_TIPO_PESSOA"],
        json!("F"),
        "physical person by default"
    );
    let j = create(
        &mut tx,
        &cli,
        &me,
        json!({"CLI_DESCRICAO": "NOVA LTDA", "CLI_TIPO_PESSOA": "j", "CLI_CGC": "12.abc.345/01de-35"}),
    )
    .await;
    assert_eq!(
        j["CLI_CGC"],
        json!("12ABC34501DE35"),
        "the 2026 alphanumeric CNPJ"
    );
    assert_eq!(j["CLI_TIPO_PESSOA"], json!("J"));
    create(
        &mut tx,
        &cli,
        &me,
        json!({"CLI_DESCRICAO": "IMPORTS INC", "CLI_TIPO_PESSOA": "E"}),
    )
    .await;
    create(&mut tx, &cli, &me, json!({"CLI_DESCRICAO": "SÍTIO BOA VISTA", "CLI_TIPO_PESSOA": "R", "CLI_CPF": "11144477735"})).await;
    let p = create(
        &mut tx,
        &cli,
        &me,
        json!({"CLI_DESCRICAO": "VISITANTE", "CLI_TIPO_PESSOA": "P"}),
    )
    .await;
    tx.commit().await.expect("commit");

    let e = create_err(
        &db,
        &cli,
        &me,
        json!({"CLI_DESCRICAO": "OUTRO JOSÉ", "CLI_CPF": "52998224725"}),
    )
    .await;
    assert_eq!(
        e, "CPF já cadastrado para outro cliente.",
        "one customer per document in a company"
    );

    // The type changes on an edit that sends no document: the written row is checked.
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let key = [p["CLI_ID"].to_string()];
    let e = query::update(
        &mut tx,
        &cli,
        &me,
        Some(1),
        &key,
        &body(json!({"CLI_TIPO_PESSOA": "J"})),
    )
    .await
    .expect_err("no CNPJ");
    assert_eq!(e.public_message(), "CNPJ é obrigatório!");
}

#[tokio::test]
async fn customer_search_credit_limit_and_view() {
    let db = db().await;
    let me = caller(client());
    let cli = res("clientes");
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let jose = create(
        &mut tx,
        &cli,
        &me,
        json!({"CLI_DESCRICAO": "JOSÉ DA SILVA", "CLI_CPF": "529.982.247-25", "CLI_LIMITE_CREDITO": "5000.50"}),
    )
    .await;
    create(
        &mut tx,
        &cli,
        &me,
        json!({"CLI_DESCRICAO": "SILVA COMÉRCIO LTDA", "CLI_TIPO_PESSOA": "J", "CLI_CGC": "11.444.777/0001-61"}),
    )
    .await;
    let id = jose["CLI_ID"].to_string();
    create(
        &mut tx,
        &res("clientescontato"),
        &me,
        json!({"CONTATO_CLI_ID": jose["CLI_ID"], "CONTATO_NOME": "Ana"}),
    )
    .await;
    create(
        &mut tx,
        &res("clientesc"),
        &me,
        json!({"REF_CLI_ID": jose["CLI_ID"], "REF_NOME": "Banco X", "REF_TIPO": "B"}),
    )
    .await;

    let search = |filter: &'static str, kind: &'static str| (filter, kind);
    for ((filter, kind), expected) in [
        (
            search("silva", "0"),
            vec!["JOSÉ DA SILVA", "SILVA COMÉRCIO LTDA"],
        ),
        (search("silva", "1"), vec!["JOSÉ DA SILVA"]),
        (search("silva", "2"), vec!["SILVA COMÉRCIO LTDA"]),
        (search("silva", "J"), vec!["SILVA COMÉRCIO LTDA"]),
        (search("529.982.247-25", "0"), vec!["JOSÉ DA SILVA"]),
        (search("11.444.777", "0"), vec!["SILVA COMÉRCIO LTDA"]),
        (search("silva", "5"), vec![]),
    ] {
        let rows = action(
            &mut tx,
            &cli,
            &me,
            "pesquisar_tipo",
            &[("filter", filter), ("emp", "1"), ("personType", kind)],
            json!({}),
        )
        .await
        .expect("search");
        let names: Vec<&str> = rows
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|r| r["CLI_DESCRICAO"].as_str())
            .collect();
        assert_eq!(names, expected, "{filter} / {kind}");
    }
    let e = action(
        &mut tx,
        &cli,
        &me,
        "pesquisar_tipo",
        &[("filter", "x"), ("emp", "1"), ("personType", "9")],
        json!({}),
    )
    .await
    .expect_err("unknown type");
    assert_eq!(e.public_message(), "Tipo de pessoa inválido.");
    let other_company = action(
        &mut tx,
        &cli,
        &me,
        "pesquisar_tipo",
        &[("filter", "silva"), ("emp", "2"), ("personType", "0")],
        json!({}),
    )
    .await
    .expect("search");
    assert_eq!(other_company, json!([]), "customers are per company");

    let view = action(
        &mut tx,
        &cli,
        &me,
        "visualizar",
        &[("id", &id), ("emp", "1")],
        json!({}),
    )
    .await
    .expect("view");
    assert_eq!(view["CLI_DESCRICAO"], json!("JOSÉ DA SILVA"));
    assert_eq!(view["CONTATOS"][0]["CONTATO_NOME"], json!("Ana"));
    assert_eq!(view["REFERENCIAS"][0]["REF_NOME"], json!("Banco X"));
    assert_eq!(view["REFERENCIAS"].as_array().map(Vec::len), Some(1));
}

#[tokio::test]
async fn customer_image_and_attachments() {
    let db = db().await;
    let me = caller(client());
    let (cli, anexo) = (res("clientes"), res("clientesanexo"));
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let c = create(
        &mut tx,
        &cli,
        &me,
        json!({"CLI_DESCRICAO": "MARIA", "CLI_TIPO_PESSOA": "P"}),
    )
    .await;
    let id = c["CLI_ID"].to_string();

    let first = action(
        &mut tx,
        &cli,
        &me,
        "imagem",
        &[("id", &id), ("emp", "1")],
        upload("a1.png", "foto.png"),
    )
    .await
    .expect("image");
    assert_eq!(first["CLI_IMAGEM"], json!("a1.png"));
    assert_eq!(first["anterior"], Value::Null);
    let second = action(
        &mut tx,
        &cli,
        &me,
        "imagem",
        &[("id", &id), ("emp", "1")],
        upload("b2.jpg", "nova.jpg"),
    )
    .await
    .expect("image");
    assert_eq!(
        second["anterior"],
        json!("a1.png"),
        "the old file is named for removal"
    );
    let e = action(
        &mut tx,
        &cli,
        &me,
        "imagem",
        &[("id", "999"), ("emp", "1")],
        upload("c.png", "c.png"),
    )
    .await
    .expect_err("unknown customer");
    assert_eq!(e.public_message(), "Cliente não encontrado.");

    let att = action(
        &mut tx,
        &anexo,
        &me,
        "enviar",
        &[("id", &id), ("emp", "1")],
        upload("0190f.pdf", "contrato.pdf"),
    )
    .await
    .expect("attachment");
    assert_eq!(att["CLIA_ANEXO"], json!("0190f.pdf"));
    assert_eq!(
        att["CLIA_DESCRICAO"],
        json!("contrato.pdf"),
        "described by the original name"
    );
    assert_eq!(att["CLIA_USR_ID"], json!(7), "stamped with the caller");
    let mut described = upload("0190g.pdf", "x.pdf");
    described["CLIA_DESCRICAO"] = json!("Comprovante de endereço");
    let att2 = action(
        &mut tx,
        &anexo,
        &me,
        "enviar",
        &[("id", &id), ("emp", "1")],
        described,
    )
    .await
    .expect("attachment");
    assert_eq!(att2["CLIA_DESCRICAO"], json!("Comprovante de endereço"));

    let att_id = att["CLIA_ID"].to_string();
    let e = action(
        &mut tx,
        &anexo,
        &me,
        "excluir_arquivo",
        &[("id", &att_id), ("emp", "1"), ("anexo", "outro.pdf")],
        json!({}),
    )
    .await
    .expect_err("wrong file");
    assert_eq!(e.public_message(), "Anexo não encontrado.");
    let gone = action(
        &mut tx,
        &anexo,
        &me,
        "excluir_arquivo",
        &[
            ("id", &att_id),
            ("emp", "1"),
            ("anexo", "Clientes/0190f.pdf"),
        ],
        json!({}),
    )
    .await
    .expect("delete with the legacy folder prefix");
    assert_eq!(gone["arquivo"], json!("0190f.pdf"));
    assert_eq!(
        query::get(&mut tx, &anexo, &me, Some(1), &[att_id])
            .await
            .err()
            .map(|e| e.http_status()),
        Some(404)
    );

    // A body never names the user who wrote the row.
    let row = create(
        &mut tx,
        &anexo,
        &me,
        json!({"CLIA_CLI_ID": c["CLI_ID"], "CLIA_DESCRICAO": "RG", "CLIA_USR_ID": 99}),
    )
    .await;
    assert_eq!(row["CLIA_USR_ID"], json!(7));
    assert_eq!(
        row["CLIA_ANEXO"],
        Value::Null,
        "the file comes only from an upload"
    );
}
