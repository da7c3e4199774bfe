//! The customer's sub-registers: their rules and what happens to them when the
//! customer goes.

use erp_platform::resource::query;
use serde_json::json;

use super::{body, caller, client, create, create_err, db, res};

#[tokio::test]
async fn sub_register_rules_and_deletion() {
    let db = db().await;
    let me = caller(client());
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let c = create(
        &mut tx,
        &res("clientes"),
        &me,
        json!({"CLI_DESCRICAO": "PEDRO", "CLI_TIPO_PESSOA": "P"}),
    )
    .await;
    let cli_id = c["CLI_ID"].clone();
    let contract = create(
        &mut tx,
        &res("contratocliente"),
        &me,
        json!({"CONT_CLI_ID": cli_id, "CONT_DESCRICAO": "Suporte", "CONT_VALOR": "100", "CONT_DATA_INI": "2026-01-01"}),
    )
    .await;
    let hist = create(
        &mut tx,
        &res("clienteshistorico"),
        &me,
        json!({"CLIH_CLI_ID": cli_id, "CLIH_DESCRICAO": "Visita"}),
    )
    .await;
    create(
        &mut tx,
        &res("clientescontato"),
        &me,
        json!({"CONTATO_CLI_ID": cli_id, "CONTATO_NOME": "Rita"}),
    )
    .await;
    tx.commit().await.expect("commit");
    assert!(
        hist["CLIH_DATA_EMIS"]
            .as_str()
            .is_some_and(|d| d.len() == 10),
        "today by default: {hist}"
    );
    assert!(
        hist["CLIH_HORA_EMIS"]
            .as_str()
            .is_some_and(|h| h.len() == 8),
        "now by default: {hist}"
    );
    assert_eq!(hist["CLIH_USR_ID"], json!(7));

    let cases = [
        (
            "contratocliente",
            json!({"CONT_CLI_ID": cli_id, "CONT_DESCRICAO": "X", "CONT_VALOR": "1", "CONT_DATA_INI": "2026-02-01", "CONT_DATA_FIM": "2026-01-31"}),
            "A data final do contrato deve ser maior ou igual à data inicial.",
        ),
        (
            "contratocliente",
            json!({"CONT_CLI_ID": cli_id, "CONT_DESCRICAO": "X", "CONT_VALOR": "1"}),
            "Data Inicial é obrigatório!",
        ),
        (
            "contratocliente",
            json!({"CONT_CLI_ID": cli_id, "CONT_DESCRICAO": "X", "CONT_VALOR": "1", "CONT_DATA_INI": "2026-01-01", "CONT_DIA_VENCIMENTO": 32}),
            "Valor Máximo permitido para o campo: 31",
        ),
        (
            "clienteshistorico",
            json!({"CLIH_CLI_ID": cli_id, "CLIH_DESCRICAO": "X", "CLIH_HORA_EMIS": "25:00"}),
            "Hora inválida.",
        ),
        (
            "clientesfamiliar",
            json!({"CLIF_CLI_ID": cli_id, "CLIF_NOME": "Filho", "CLIF_CPF": "11.444.777/0001-61"}),
            "CPF inválido.",
        ),
        (
            "clientescontato",
            json!({"CONTATO_NOME": "Sem cliente"}),
            "Cliente é obrigatório!",
        ),
        (
            "clientescontato",
            json!({"CONTATO_CLI_ID": 999, "CONTATO_NOME": "X"}),
            "Registro relacionado não encontrado.",
        ),
        (
            "colaborador",
            json!({"COLA_NOME": "Z", "COLA_CPF": "123.456.789-00"}),
            "CPF inválido.",
        ),
        (
            "colaborador",
            json!({"COLA_NOME": "Z", "COLA_DTA_ADMISSAO": "2026-05-01", "COLA_DTA_DEMISSAO": "2026-04-30"}),
            "A data de demissão deve ser maior ou igual à data de admissão.",
        ),
        (
            "colaborador",
            json!({"COLA_NOME": "Z", "COLA_PERC_COMISSAO": "100.5"}),
            "Valor Máximo permitido para o campo: 100",
        ),
        (
            "colaboradoreqp",
            json!({"COLAE_COLA_ID": 999, "COLAE_EQP_DESCRICAO": "Capacete"}),
            "Registro relacionado não encontrado.",
        ),
    ];
    for (name, v, msg) in cases {
        assert_eq!(
            create_err(&db, &res(name), &me, v.clone()).await,
            msg,
            "{name} {v}"
        );
    }

    // An edit sending only the end date is checked against the stored start.
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let key = [contract["CONT_ID"].to_string()];
    let e = query::update(
        &mut tx,
        &res("contratocliente"),
        &me,
        Some(1),
        &key,
        &body(json!({"CONT_DATA_FIM": "2025-12-31"})),
    )
    .await
    .expect_err("end before start");
    assert_eq!(
        e.public_message(),
        "A data final do contrato deve ser maior ou igual à data inicial."
    );
    drop(tx);

    // A contract keeps its customer; contacts and history go with it.
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    let cli_key = [cli_id.to_string()];
    let e = query::delete(&mut tx, &res("clientes"), &me, Some(1), &cli_key)
        .await
        .expect_err("in use");
    // The text is the platform's (it tells a row in use from a missing reference).
    assert_eq!(e.http_status(), 409);
    drop(tx);
    let mut tx = db.begin_tenant(me.client_id).await.expect("tx");
    query::delete(&mut tx, &res("contratocliente"), &me, Some(1), &key)
        .await
        .expect("contract");
    query::delete(&mut tx, &res("clientes"), &me, Some(1), &cli_key)
        .await
        .expect("customer");
    let left: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM catalog.clientescontato WHERE contato_cli_id = $1",
    )
    .bind(cli_id.as_i64())
    .fetch_one(&mut *tx)
    .await
    .expect("count");
    assert_eq!(left, 0);
}
