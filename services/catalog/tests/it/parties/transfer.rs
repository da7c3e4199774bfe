//! `PUT /clientesTransf/{transferId}/{emp}`: a customer moved to another company
//! with its sub-records, its refusals with their messages, all or nothing on a
//! failure midway, the facts it writes, and another client's customer out of reach.

use std::sync::Arc;

use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::grpc::ResourceGrpc;
use erp_platform::resource::{query, Registry, Resource};
use erp_proto::erp::v1::resource_service_server::ResourceService;
use erp_proto::erp::v1::{ActionRequest, RecordChanged};
use prost::Message as _;
use serde_json::{json, Value};
use sqlx::{Connection, Executor};

use super::{action, body, caller, client, db, res};

const CNPJ: &str = "11.444.777/0001-61";

/// The failure test adds a trigger to `catalog.contratocliente` (DDL: an
/// exclusive lock) while the others of this file hold transactions on it and
/// also read through other connections: PostgreSQL's lock queue would leave
/// them waiting on each other for ever. They share; the DDL goes alone.
static DDL: tokio::sync::RwLock<()> = tokio::sync::RwLock::const_new(());

async fn make(tx: &mut Tx, r: &Resource, me: &Caller, emp: i64, v: Value) -> Value {
    query::create(tx, r, me, Some(emp), &body(v.clone()))
        .await
        .unwrap_or_else(|e| panic!("{} {v}: {e}", r.name))
}

fn servico() -> Resource {
    erp_catalog::resources::services::all()
        .into_iter()
        .find(|r| r.name == "servico")
        .expect("servico")
}

fn id(v: &Value, k: &str) -> i64 {
    v[k].as_i64().unwrap_or_else(|| panic!("{k} in {v}"))
}

async fn transfer(
    tx: &mut Tx,
    me: &Caller,
    customer: i64,
    emp: i64,
    body: Value,
) -> erp_platform::Result<Value> {
    action(
        tx,
        &res("clientes"),
        me,
        "transferir",
        &[
            ("transferId", &customer.to_string()),
            ("emp", &emp.to_string()),
        ],
        body,
    )
    .await
}

/// Rows of `table` whose `column` is `value` in company `emp`.
async fn count(tx: &mut Tx, table: &str, emp_col: &str, emp: i64, column: &str, value: i64) -> i64 {
    sqlx::query_scalar(&format!(
        "SELECT count(*) FROM catalog.{table} WHERE {emp_col} = $1 AND {column} = $2"
    ))
    .bind(emp)
    .bind(value)
    .fetch_one(&mut **tx)
    .await
    .expect("count")
}

/// The customer's rows in every sub-register, in company `emp`.
async fn sub_rows(tx: &mut Tx, emp: i64, customer: i64) -> Vec<i64> {
    let mut out = Vec::new();
    for (t, e, c) in [
        ("clientescontato", "contato_emp_id", "contato_cli_id"),
        ("clientesc", "ref_emp_id", "ref_cli_id"),
        ("clientesanexo", "clia_fil_id", "clia_cli_id"),
        ("clientesfamiliar", "clif_emp_id", "clif_cli_id"),
        ("clienteshistorico", "clih_emp_id", "clih_cli_id"),
        ("clientesserv", "clis_emp_id", "clis_cli_id"),
        ("contratocliente", "cont_emp_id", "cont_cli_id"),
        ("contratoseqpt", "conte_emp_id", "conte_cli_id"),
    ] {
        out.push(count(tx, t, e, emp, c, customer).await);
    }
    out
}

/// The facts of `clientes` in the outbox: (verb, company, key, row).
async fn facts(tx: &mut Tx, client: i64) -> Vec<(String, i64, Vec<String>, Value)> {
    let rows: Vec<(String, Vec<u8>)> = sqlx::query_as(
        "SELECT subject, payload FROM catalog.outbox
          WHERE client_id = $1 AND subject LIKE 'erp.catalog.cliente.%' ORDER BY created_at, id",
    )
    .bind(client)
    .fetch_all(&mut **tx)
    .await
    .expect("outbox");
    rows.into_iter()
        .map(|(subject, payload)| {
            let ev = RecordChanged::decode(payload.as_slice()).expect("fact");
            let row: Value = serde_json::from_slice(&ev.row_json).expect("row");
            let verb = subject.rsplit('.').next().unwrap_or_default().to_string();
            (verb, ev.emp_id, ev.key, row)
        })
        .collect()
}

struct World {
    customer: i64,
    seller_there: i64,
    service_there: i64,
    equipment_there: i64,
}

/// Company 1 has the customer with one row in every sub-register; company 2 has
/// the same salesperson (CPF), service (reference) and equipment (serial), each
/// after another one so that their ids differ from company 1's, and a customer
/// already (so the moved one is number 2 there).
async fn world(tx: &mut Tx, me: &Caller) -> World {
    let cola = res("colaborador");
    let seller = make(
        tx,
        &cola,
        me,
        1,
        json!({"COLA_NOME": "Carlos", "COLA_CPF": "390.533.447-05"}),
    )
    .await;
    make(
        tx,
        &cola,
        me,
        2,
        json!({"COLA_NOME": "Outro", "COLA_CPF": "111.444.777-35"}),
    )
    .await;
    let seller_there = make(
        tx,
        &cola,
        me,
        2,
        json!({"COLA_NOME": "Carlos", "COLA_CPF": "390.533.447-05"}),
    )
    .await;
    let serv = servico();
    let service = make(
        tx,
        &serv,
        me,
        1,
        json!({"SERV_DESCRICAO": "MANUTENÇÃO", "SERV_REFERENCIA": "MAN-01"}),
    )
    .await;
    make(tx, &serv, me, 2, json!({"SERV_DESCRICAO": "OUTRO"})).await;
    let service_there = make(
        tx,
        &serv,
        me,
        2,
        json!({"SERV_DESCRICAO": "Manutenção mensal", "SERV_REFERENCIA": "man-01"}),
    )
    .await;
    let eqpt = res("equipamento");
    let equipment = make(tx, &eqpt, me, 1, json!({"EQPT_SERIE": "SN-1"})).await;
    make(tx, &eqpt, me, 2, json!({"EQPT_SERIE": "SN-0"})).await;
    let equipment_there = make(tx, &eqpt, me, 2, json!({"EQPT_SERIE": "sn-1"})).await;
    let clientes = res("clientes");
    make(
        tx,
        &clientes,
        me,
        2,
        json!({"CLI_DESCRICAO": "JÁ ESTAVA", "CLI_TIPO_PESSOA": "P"}),
    )
    .await;
    let c = make(
        tx,
        &clientes,
        me,
        1,
        json!({"CLI_DESCRICAO": "CLIENTE QUE MUDA LTDA", "CLI_TIPO_PESSOA": "J", "CLI_CGC": CNPJ,
               "CLI_CIDADE": "Campinas", "CLI_COLA_ID": id(&seller, "COLA_ID"), "CLI_CNDP_ID": 3,
               "CLI_LIMITE_CREDITO": "1500.00"}),
    )
    .await;
    let customer = id(&c, "CLI_ID");
    sqlx::query("UPDATE catalog.clientes SET cli_imagem = 'foto.png', cli_dta_cad = '2020-05-01T10:00:00Z' WHERE cli_emp_id = 1 AND cli_id = $1")
        .bind(customer)
        .execute(&mut **tx)
        .await
        .expect("picture");
    make(
        tx,
        &res("clientescontato"),
        me,
        1,
        json!({"CONTATO_CLI_ID": customer, "CONTATO_NOME": "Rita"}),
    )
    .await;
    make(
        tx,
        &res("clientesc"),
        me,
        1,
        json!({"REF_CLI_ID": customer, "REF_NOME": "Banco X", "REF_TIPO": "B"}),
    )
    .await;
    let att = make(
        tx,
        &res("clientesanexo"),
        me,
        1,
        json!({"CLIA_CLI_ID": customer, "CLIA_DESCRICAO": "Contrato social"}),
    )
    .await;
    sqlx::query("UPDATE catalog.clientesanexo SET clia_anexo = 'contrato.pdf' WHERE clia_fil_id = 1 AND clia_id = $1")
        .bind(id(&att, "CLIA_ID"))
        .execute(&mut **tx)
        .await
        .expect("attachment file");
    make(
        tx,
        &res("clientesfamiliar"),
        me,
        1,
        json!({"CLIF_CLI_ID": customer, "CLIF_NOME": "Ana"}),
    )
    .await;
    make(tx, &res("clienteshistorico"), me, 1, json!({"CLIH_CLI_ID": customer, "CLIH_DESCRICAO": "Visita", "CLIH_DATA_EMIS": "2025-03-04", "CLIH_HORA_EMIS": "09:15"})).await;
    make(
        tx,
        &res("clientesserv"),
        me,
        1,
        json!({"CLIS_CLI_ID": customer, "CLIS_SERV_ID": id(&service, "SERV_ID"), "CLIS_DESCRICAO": "Manutenção", "CLIS_VALOR": "350.00"}),
    )
    .await;
    let contract = make(
        tx,
        &res("contratocliente"),
        me,
        1,
        json!({"CONT_CLI_ID": customer, "CONT_DESCRICAO": "Suporte", "CONT_VALOR": "100", "CONT_DATA_INI": "2026-01-01"}),
    )
    .await;
    make(
        tx,
        &res("contratoseqpt"),
        me,
        1,
        json!({"CONTE_CONT_ID": id(&contract, "CONT_ID"), "CONTE_CLI_ID": customer,
               "CONTE_EQPT_ID": id(&equipment, "EQPT_ID"), "CONTE_VALOR": "150.00"}),
    )
    .await;
    World {
        customer,
        seller_there: id(&seller_there, "COLA_ID"),
        service_there: id(&service_there, "SERV_ID"),
        equipment_there: id(&equipment_there, "EQPT_ID"),
    }
}

#[tokio::test]
async fn a_customer_moves_with_its_sub_records_and_facts_follow() {
    let _shared = DDL.read().await;
    let db = db().await;
    let me = caller(client());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let w = world(&mut tx, &me).await;
    let before = query::get(
        &mut tx,
        &res("clientes"),
        &me,
        Some(1),
        &[w.customer.to_string()],
    )
    .await
    .expect("customer");
    sqlx::query("DELETE FROM catalog.outbox WHERE client_id = $1")
        .bind(me.client_id)
        .execute(&mut *tx)
        .await
        .expect("outbox");
    tx.commit().await.expect("commit");

    // Another user moves it: who created the history and attachment rows stays.
    let mover = Caller { user_id: 8, ..me };
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let moved = transfer(&mut tx, &mover, w.customer, 1, json!({"DESTINO_EMP_ID": 2}))
        .await
        .expect("transferred");
    tx.commit().await.expect("commit");

    assert_eq!(
        (moved["CLI_EMP_ID"].clone(), moved["CLI_ID"].clone()),
        (json!(2), json!(2))
    );
    let new_id = id(&moved, "CLI_ID");
    for k in [
        "CLI_DESCRICAO",
        "CLI_CGC",
        "CLI_CIDADE",
        "CLI_LIMITE_CREDITO",
        "CLI_IMAGEM",
        "CLI_DTA_CAD",
    ] {
        assert_eq!(moved[k], before[k], "{k}");
    }
    assert_eq!(moved["CLI_IMAGEM"], json!("foto.png"));
    assert_eq!(
        moved["CLI_COLA_ID"],
        json!(w.seller_there),
        "the same CPF there"
    );
    assert_eq!(moved["CLI_CNDP_ID"], Value::Null, "finance's, per company");

    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let gone = query::get(
        &mut tx,
        &res("clientes"),
        &me,
        Some(1),
        &[w.customer.to_string()],
    )
    .await;
    assert_eq!(gone.err().map(|e| e.http_status()), Some(404));
    assert_eq!(
        sub_rows(&mut tx, 1, w.customer).await,
        [0; 8],
        "nothing left in company 1"
    );
    assert_eq!(
        sub_rows(&mut tx, 2, new_id).await,
        [1; 8],
        "one of each in company 2"
    );

    let list = |r: &str, k: &str| {
        let r = res(r);
        let mut filter = serde_json::Map::new();
        filter.insert(k.to_string(), json!(new_id));
        let db = db.clone();
        async move {
            let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
            query::list(&mut tx, &r, &me, Some(2), &filter)
                .await
                .expect("list")
        }
    };
    let att = list("clientesanexo", "CLIA_CLI_ID").await;
    assert_eq!(
        (
            att[0]["CLIA_ANEXO"].clone(),
            att[0]["CLIA_USR_ID"].clone(),
            att[0]["CLIA_DESCRICAO"].clone()
        ),
        (json!("contrato.pdf"), json!(7), json!("Contrato social")),
        "the file stays where it is stored, under its name"
    );
    let hist = list("clienteshistorico", "CLIH_CLI_ID").await;
    assert_eq!(
        (
            hist[0]["CLIH_USR_ID"].clone(),
            hist[0]["CLIH_DATA_EMIS"].clone(),
            hist[0]["CLIH_HORA_EMIS"].clone()
        ),
        (json!(7), json!("2025-03-04"), json!("09:15:00"))
    );
    let serv = list("clientesserv", "CLIS_CLI_ID").await;
    assert_eq!(
        serv[0]["CLIS_SERV_ID"],
        json!(w.service_there),
        "the same reference there"
    );
    let contract = list("contratocliente", "CONT_CLI_ID").await;
    let item = list("contratoseqpt", "CONTE_CLI_ID").await;
    assert_eq!(
        (
            item[0]["CONTE_CONT_ID"].clone(),
            item[0]["CONTE_EQPT_ID"].clone()
        ),
        (contract[0]["CONT_ID"].clone(), json!(w.equipment_there)),
        "the new contract, the same serial there"
    );

    // The facts: it left company 1, it exists in company 2.
    let facts = facts(&mut tx, me.client_id).await;
    let summary: Vec<(String, i64, Vec<String>)> = facts
        .iter()
        .map(|(v, e, k, _)| (v.clone(), *e, k.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            ("criado".to_string(), 2, vec![new_id.to_string()]),
            ("excluido".to_string(), 1, vec![w.customer.to_string()]),
            ("alterado".to_string(), 2, vec![new_id.to_string()]),
        ]
    );
    assert_eq!(facts[1].3["CLI_CGC"], before["CLI_CGC"]);
    assert_eq!(facts[2].3["CLI_IMAGEM"], json!("foto.png"));
}

#[tokio::test]
async fn refusals_say_why_and_change_nothing() {
    let _shared = DDL.read().await;
    let db = db().await;
    let me = caller(client());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let w = world(&mut tx, &me).await;
    tx.commit().await.expect("commit");

    let attempt = |customer: i64, emp: i64, b: Value| {
        let db = db.clone();
        async move {
            let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
            let e = transfer(&mut tx, &me, customer, emp, b)
                .await
                .expect_err("refused");
            (e.http_status(), e.public_message())
        }
    };
    assert_eq!(
        attempt(w.customer, 1, json!({"DESTINO_EMP_ID": 1})).await,
        (
            400,
            "A empresa de destino deve ser outra que a do cliente.".into()
        )
    );
    assert_eq!(
        attempt(w.customer, 1, json!({})).await,
        (400, "Informe a empresa de destino (DESTINO_EMP_ID).".into())
    );
    assert_eq!(
        attempt(w.customer, 1, json!({"DESTINO_EMP_ID": "dois"})).await,
        (400, "Valor inválido para Empresa de destino.".into())
    );
    assert_eq!(
        attempt(999, 1, json!({"DESTINO_EMP_ID": 2})).await,
        (404, "Cliente não encontrado.".into())
    );
    assert_eq!(
        attempt(w.customer, 5, json!({"DESTINO_EMP_ID": 1})).await,
        (404, "Cliente não encontrado.".into()),
        "no such customer in company 5"
    );

    // A customer with the same CNPJ in the target company.
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let twin = make(
        &mut tx,
        &res("clientes"),
        &me,
        3,
        json!({"CLI_DESCRICAO": "GÊMEO", "CLI_TIPO_PESSOA": "J", "CLI_CGC": CNPJ}),
    )
    .await;
    tx.commit().await.expect("commit");
    assert_eq!(
        attempt(w.customer, 1, json!({"DESTINO_EMP_ID": 3})).await,
        (
            409,
            format!("A empresa 3 já tem um cliente com o mesmo CPF/CNPJ ({} - GÊMEO): o cliente não foi transferido.", id(&twin, "CLI_ID"))
        )
    );

    // Company 4 lacks the contract's equipment, then the service.
    assert_eq!(
        attempt(w.customer, 1, json!({"DESTINO_EMP_ID": 4})).await.1,
        "O serviço MANUTENÇÃO do cliente não está cadastrado na empresa 4: cadastre-o antes de transferir o cliente."
    );
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    make(
        &mut tx,
        &servico(),
        &me,
        4,
        json!({"SERV_DESCRICAO": "Outra coisa", "SERV_REFERENCIA": "MAN-01"}),
    )
    .await;
    tx.commit().await.expect("commit");
    assert_eq!(
        attempt(w.customer, 1, json!({"DESTINO_EMP_ID": 4})).await,
        (
            409,
            "O equipamento de série SN-1 dos contratos do cliente não está cadastrado na empresa 4: cadastre-o antes de transferir o cliente.".into()
        )
    );

    // A vehicle and a work point at it in company 1 and do not move.
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let registry = Registry::new(erp_catalog::resources::vehicles::all()).expect("registry");
    for name in ["marcaveiculo", "modeloveiculo"] {
        let r = registry.get(name).expect("declared");
        let sample = r.sample.clone().expect("sample");
        query::create(&mut tx, r, &me, Some(1), &body(sample))
            .await
            .expect(name);
    }
    make(
        &mut tx,
        &res("veiculo"),
        &me,
        1,
        json!({"VEIC_PLACA1": "ABC1D23", "VEIC_CLI_ID": w.customer, "VEIC_MRCV_ID": 1, "VEIC_MDLV_ID": 1}),
    )
    .await;
    sqlx::query("INSERT INTO catalog.obras (client_id, obra_emp_id, obra_id, obra_descricao, obra_cli_id) VALUES ($1, 1, 1, 'Reforma', $2)")
        .bind(me.client_id)
        .bind(w.customer)
        .execute(&mut *tx)
        .await
        .expect("work");
    tx.commit().await.expect("commit");
    assert_eq!(
        attempt(w.customer, 1, json!({"DESTINO_EMP_ID": 2})).await,
        (
            409,
            "O cliente não pode ser transferido: tem 1 veículo(s) e 1 obra(s) na empresa 1, que não vão com ele. Desvincule-os do cliente antes.".into()
        )
    );

    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    assert_eq!(
        sub_rows(&mut tx, 1, w.customer).await,
        [1; 8],
        "all still in company 1"
    );
    let there: i64 =
        sqlx::query_scalar("SELECT count(*) FROM catalog.clientes WHERE cli_emp_id IN (2, 3, 4)")
            .fetch_one(&mut *tx)
            .await
            .expect("count");
    assert_eq!(there, 2, "only the customers made there");
}

/// The tenant guard of the body: a target company the user does not have is
/// refused before anything runs.
#[tokio::test]
async fn a_company_the_user_does_not_have_is_refused() {
    let _shared = DDL.read().await;
    let db = db().await;
    let me = caller(client());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let w = world(&mut tx, &me).await;
    tx.commit().await.expect("commit");
    let registry = Arc::new(erp_catalog::resources::registry().expect("registry"));
    let grpc = ResourceGrpc::new(db.clone(), registry);
    let call = |target: i64| {
        let mut req = tonic::Request::new(ActionRequest {
            resource: "clientes".into(),
            action: "transferir".into(),
            params: [("transferId", w.customer.to_string()), ("emp", "1".into())]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            body_json: serde_json::to_vec(&json!({"DESTINO_EMP_ID": target}))
                .expect("json")
                .into(),
            companies: vec![1, 2],
        });
        me.attach(&mut req);
        req
    };
    let refused = grpc.action(call(9)).await.expect_err("refused");
    assert_eq!(
        (refused.code(), refused.message()),
        (tonic::Code::PermissionDenied, "Acesso negado à empresa 9.")
    );
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    assert_eq!(sub_rows(&mut tx, 1, w.customer).await, [1; 8]);
    tx.commit().await.expect("commit");

    let moved = grpc.action(call(2)).await.expect("moved").into_inner();
    let row: Value = serde_json::from_slice(&moved.json).expect("row");
    assert_eq!(row["CLI_EMP_ID"], json!(2));
}

#[tokio::test]
async fn a_failure_midway_leaves_everything_as_it_was() {
    let _alone = DDL.write().await;
    let db = db().await;
    let me = caller(client());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let w = world(&mut tx, &me).await;
    sqlx::query("DELETE FROM catalog.outbox WHERE client_id = $1")
        .bind(me.client_id)
        .execute(&mut *tx)
        .await
        .expect("outbox");
    tx.commit().await.expect("commit");

    // The contracts are created after the customer, its contacts, references,
    // attachments, family, history and services: fail there, for this client only.
    let cfg = crate::setup().await;
    let mut admin = sqlx::PgConnection::connect(&cfg.database_url)
        .await
        .expect("admin");
    let trigger = format!("it_fail_contract_{}", me.client_id);
    admin
        .execute(
            format!(
                "CREATE FUNCTION catalog.{trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN RAISE EXCEPTION 'falha injetada' USING ERRCODE = '23514'; END $$;
                 CREATE TRIGGER {trigger} BEFORE INSERT ON catalog.contratocliente FOR EACH ROW
                   WHEN (NEW.client_id = {c} AND NEW.cont_emp_id = 2) EXECUTE FUNCTION catalog.{trigger}();",
                c = me.client_id
            )
            .as_str(),
        )
        .await
        .expect("trigger");

    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let e = transfer(&mut tx, &me, w.customer, 1, json!({"DESTINO_EMP_ID": 2}))
        .await
        .expect_err("failed midway");
    drop(tx);
    admin
        .execute(format!("DROP TRIGGER {trigger} ON catalog.contratocliente; DROP FUNCTION catalog.{trigger}();").as_str())
        .await
        .expect("drop trigger");
    assert_eq!(
        (e.http_status(), e.public_message()),
        (400, "Valor não permitido para o campo.".into()),
        "the injected failure: {e}"
    );

    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let still = query::get(
        &mut tx,
        &res("clientes"),
        &me,
        Some(1),
        &[w.customer.to_string()],
    )
    .await;
    assert!(still.is_ok(), "the customer is still in company 1");
    assert_eq!(sub_rows(&mut tx, 1, w.customer).await, [1; 8]);
    assert_eq!(
        sub_rows(&mut tx, 2, 2).await,
        [0; 8],
        "nothing reached company 2"
    );
    let in_two: i64 =
        sqlx::query_scalar("SELECT count(*) FROM catalog.clientes WHERE cli_emp_id = 2")
            .fetch_one(&mut *tx)
            .await
            .expect("count");
    assert_eq!(in_two, 1, "only the one that was there");
    assert!(
        facts(&mut tx, me.client_id).await.is_empty(),
        "no fact written"
    );
}

#[tokio::test]
async fn another_clients_customer_is_out_of_reach() {
    let _shared = DDL.read().await;
    let db = db().await;
    let owner = caller(client());
    let mut tx = db.begin_tenant(owner.client_id).await.expect("tx");
    let w = world(&mut tx, &owner).await;
    tx.commit().await.expect("commit");

    let stranger = caller(client());
    let mut tx = db.begin_tenant(stranger.client_id).await.expect("tx");
    let e = transfer(
        &mut tx,
        &stranger,
        w.customer,
        1,
        json!({"DESTINO_EMP_ID": 2}),
    )
    .await
    .expect_err("not theirs");
    assert_eq!(
        (e.http_status(), e.public_message()),
        (404, "Cliente não encontrado.".into())
    );
    drop(tx);

    let mut tx = db.begin_tenant(owner.client_id).await.expect("tx");
    assert_eq!(sub_rows(&mut tx, 1, w.customer).await, [1; 8]);
    let c = query::get(
        &mut tx,
        &res("clientes"),
        &owner,
        Some(1),
        &[w.customer.to_string()],
    )
    .await
    .expect("still the owner's");
    assert_eq!(c["CLI_DESCRICAO"], json!("CLIENTE QUE MUDA LTDA"));
}
