//! The calls on an issued MDF-e: cancel (justification checked), closing
//! (only an authorised one), duplicate; the rows' checks; and another
//! client's MDF-e out of reach.

use serde_json::{json, Value};

use super::super::{client, create, msg, CTX};
use super::{
    add, call, complete, emit, env_with, get, header, next_number, on, seed, status, CTE_KEY,
    NFE_KEY,
};

#[tokio::test]
async fn cancel_needs_a_justification_of_15_to_255_characters() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = complete(&env.db, c, "73181500").await;
    // Not authorised yet.
    let r = on(
        &env,
        &me,
        "cancelar",
        id,
        json!({"JUSTIFICATIVA": "Carga não embarcada no veículo"}),
    )
    .await;
    assert_eq!(msg(r), "Só é possível cancelar um MDF-e autorizado.");
    let doc = emit(&env, &me, id).await.expect("emitted");
    assert_eq!(status(&doc), "autorizado");
    let nid = doc["MDFE_ID_FISCAL"]
        .as_str()
        .expect("provider id")
        .to_string();
    let cancel_path = format!("/mdfe/{nid}/cancelamento");
    for short in [
        json!({}),
        json!({"JUSTIFICATIVA": "curta demais"}),
        json!({"JUSTIFICATIVA": "x".repeat(256)}),
    ] {
        let e = on(&env, &me, "cancelar", id, short)
            .await
            .expect_err("refused");
        assert!(
            matches!(e, erp_platform::Error::Validation(_)),
            "400: {e:?}"
        );
        assert_eq!(
            e.public_message(),
            "A justificativa do cancelamento deve ter entre 15 e 255 caracteres."
        );
    }
    let row = get(&env.db, &me, id).await.expect("row");
    assert_eq!(status(&row), "autorizado");
    assert_eq!(env.fake().requests("POST", &cancel_path), 0);
    let done = on(
        &env,
        &me,
        "cancelar",
        id,
        json!({"JUSTIFICATIVA": "Carga não embarcada no veículo"}),
    )
    .await
    .expect("cancelled");
    assert_eq!(status(&done), "cancelado", "{done}");
    assert_eq!(
        done["MDFE_CANCEL_JUSTIFICATIVA"],
        "Carga não embarcada no veículo"
    );
    assert!(done["MDFE_CANCEL_PROTOCOLO"]
        .as_str()
        .is_some_and(|p| p.len() == 15));
    assert_eq!(env.fake().requests("POST", &cancel_path), 1);
    // Cancelled: no closing, no second cancel.
    let r = on(
        &env,
        &me,
        "cancelar",
        id,
        json!({"JUSTIFICATIVA": "Carga não embarcada no veículo"}),
    )
    .await;
    assert_eq!(msg(r), "Só é possível cancelar um MDF-e autorizado.");
}

#[tokio::test]
async fn closing_records_date_state_and_city_of_an_authorised_mdfe_only() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = complete(&env.db, c, "73181500").await;
    let close = |body: Value| call(&env, &me, "mdfe", "encerramento", &[("emp", "1")], body);
    let body = json!({"MDFE_ID": id, "DATA_ENCERRAMENTO": "2026-01-10", "UF": "mg", "CODIGO_MUNICIPIO": "3106200"});
    // Open: refused before anything is asked.
    let e = close(body.clone()).await.expect_err("open");
    assert!(matches!(e, erp_platform::Error::Conflict(_)), "409: {e:?}");
    assert_eq!(
        e.public_message(),
        "Só é possível encerrar um MDF-e autorizado."
    );
    emit(&env, &me, id).await.expect("emitted");
    // Bad input: 400, nothing changed.
    for (bad, expected) in [
        (
            json!({"MDFE_ID": id, "UF": "XX", "CODIGO_MUNICIPIO": "3106200"}),
            "Informe a UF de encerramento (ex.: MG).",
        ),
        (
            json!({"MDFE_ID": id, "UF": "MG", "CODIGO_MUNICIPIO": "31062"}),
            "Informe o código IBGE do município de encerramento (7 dígitos).",
        ),
        (
            json!({"MDFE_ID": id, "UF": "MG", "CODIGO_MUNICIPIO": "3106200", "DATA_ENCERRAMENTO": "10/01/2026"}),
            "Data de encerramento inválida: '10/01/2026' (use AAAA-MM-DD).",
        ),
        (
            json!({"UF": "MG", "CODIGO_MUNICIPIO": "3106200"}),
            "Informe o MDF-e a encerrar (MDFE_ID).",
        ),
    ] {
        let e = close(bad).await.expect_err("bad input");
        assert!(
            matches!(e, erp_platform::Error::Validation(_)),
            "400: {e:?}"
        );
        assert_eq!(e.public_message(), expected);
    }
    let row = get(&env.db, &me, id).await.expect("row");
    assert_eq!(status(&row), "autorizado");
    let done = close(body).await.expect("closed");
    assert_eq!(status(&done), "encerrado", "{done}");
    assert_eq!(done["MDFE_DTA_ENCERRAMENTO"], "2026-01-10");
    assert_eq!(
        (
            done["MDFE_UF_ENCERRAMENTO"].as_str(),
            done["MDFE_MUN_ENCERRAMENTO"].as_str()
        ),
        (Some("MG"), Some("3106200"))
    );
    assert!(done["MDFE_ENC_PROTOCOLO"]
        .as_str()
        .is_some_and(|p| p.len() == 15));
    let nid = done["MDFE_ID_FISCAL"].as_str().expect("provider id");
    assert_eq!(
        env.fake()
            .requests("POST", &format!("/mdfe/{nid}/encerramento")),
        1
    );
    // Closed: it cannot be closed again nor cancelled, and the generic get says so.
    let r = close(json!({"MDFE_ID": id, "UF": "MG", "CODIGO_MUNICIPIO": "3106200"})).await;
    assert_eq!(msg(r), "Só é possível encerrar um MDF-e autorizado.");
    let row = get(&env.db, &me, id).await.expect("row");
    assert_eq!(row["MDFE_DTA_ENCERRAMENTO"], "2026-01-10");
    // The consult of a closed MDF-e keeps it closed.
    let again = on(&env, &me, "consultar", id, json!({}))
        .await
        .expect("consulted");
    assert_eq!(status(&again), "encerrado", "{again}");
}

#[tokio::test]
async fn duplicate_opens_a_new_mdfe_with_the_same_data_and_rows_without_fiscal_fields() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = complete(&env.db, c, "73181500").await;
    emit(&env, &me, id).await.expect("emitted");
    let copy = on(&env, &me, "duplicar", id, json!({}))
        .await
        .expect("duplicated");
    let new_id = copy["MDFE_ID"].as_i64().expect("id");
    assert_ne!(new_id, id);
    assert_eq!(status(&copy), "aberto", "{copy}");
    for k in [
        "MDFE_NUMERO",
        "MDFE_SERIE",
        "MDFE_CHAVE",
        "MDFE_PROTOCOLO",
        "MDFE_ID_FISCAL",
        "MDFE_CSTAT",
    ] {
        assert!(copy[k].is_null(), "{k}: {copy}");
    }
    assert_eq!(
        (copy["MDFE_UF_INI"].as_str(), copy["MDFE_UF_FIM"].as_str()),
        (Some("SP"), Some("MG"))
    );
    assert_eq!(copy["MDFE_PROD_NCM"], "73181500");
    assert_eq!(copy["MDFE_RNTRC"], "12345678");
    let mut tx = env.db.begin_tenant(c).await.expect("tx");
    for (table, p) in [
        ("mdfe_cidades_origem", "mcio"),
        ("mdfe_notas_cidade_destino", "mdnc"),
        ("mdfe_veiculos", "veic"),
        ("mdfe_motoristas", "mdmo"),
        ("mdfe_componentes", "mdpc"),
        ("mdfe_vale_pedagio", "mdvp"),
    ] {
        let counts: (i64, i64) = sqlx::query_as(&format!(
            "SELECT count(*) FILTER (WHERE {p}_mdfe_id = $2), count(*) FILTER (WHERE {p}_mdfe_id = $3)
             FROM fiscal.{table} WHERE client_id = $1"
        ))
        .bind(c)
        .bind(id)
        .bind(new_id)
        .fetch_one(&mut *tx)
        .await
        .expect("count");
        assert!(counts.0 > 0 && counts.0 == counts.1, "{table}: {counts:?}");
    }
    drop(tx);
    // The copy is issued on its own, with the next number.
    let doc = emit(&env, &me, new_id).await.expect("emitted copy");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    assert_eq!(doc["MDFE_NUMERO"], 8);
    assert_eq!(next_number(&env.db, c).await, 9);
}

#[tokio::test]
async fn rows_refuse_bad_input_with_a_message() {
    let env = env_with(true).await;
    let c = client();
    seed(&env.db, c).await;
    let id = header(&env.db, c, "73181500").await;
    let cases: [(&str, Value, &str); 12] = [
        (
            "mdfemotorista",
            json!({"MDMO_MDFE_ID": id, "MDMO_NOME": "JOSE", "MDMO_CPF": "123.456.789-00"}),
            "CPF do motorista inválido: '123.456.789-00'.",
        ),
        (
            "mdfeveiculo",
            json!({"VEIC_MDFE_ID": id, "VEIC_PLACA1": "AB-12", "VEIC_TARA": 1, "VEIC_TP_CAR": "02"}),
            "Placa inválida 'AB-12': use o formato ABC1234 ou ABC1D23.",
        ),
        (
            "mdfeufpercurso",
            json!({"MUFP_MDFE_ID": id, "MUFP_UF": "ZZ"}),
            "UF de percurso: UF inválida 'ZZ'.",
        ),
        (
            "mdfecidadedestino",
            json!({"MCID_MDFE_ID": id, "MCID_CID_IBGE": "31062", "MCID_CIDADE": "X"}),
            "Código IBGE do município inválido: informe os 7 dígitos.",
        ),
        (
            "mdfenotascidadedestino",
            json!({"MDNC_MDFE_ID": id, "MDNC_MCID_ID": 99, "MDNC_CHAVE": CTE_KEY}),
            "Município de descarregamento não encontrado neste MDF-e.",
        ),
        (
            "mdfecomponentes",
            json!({"MDPC_MDFE_ID": id, "MDPC_MDPG_ID": 99, "MDPC_TIPO": "04", "MDPC_VLR_COMP": "1"}),
            "Pagamento não encontrado neste MDF-e.",
        ),
        (
            "mdfenotascidadedestino",
            json!({"MDNC_MDFE_ID": id, "MDNC_MCID_ID": 99, "MDNC_CHAVE": "35261111222333000181650010000012341000012348"}),
            "A chave informada não é de NF-e (modelo 55) nem de CT-e (modelo 57).",
        ),
        (
            "mdfe",
            json!({"MDFE_UF_INI": "SP", "MDFE_UF_FIM": "MG", "MDFE_VLR_CARGA": "1", "MDFE_Q_CARGA": "1", "MDFE_HORA_VIAGEM": "25:00"}),
            "Hora do início da viagem inválida: use HH:MM (ex.: 08:30).",
        ),
        (
            "mdfe",
            json!({"MDFE_UF_INI": "SP", "MDFE_UF_FIM": "MG", "MDFE_VLR_CARGA": "1", "MDFE_Q_CARGA": "1", "MDFE_RNTRC": "123"}),
            "RNTRC inválido: informe os 8 dígitos do registro na ANTT.",
        ),
        (
            "mdfe",
            json!({"MDFE_UF_INI": "SP", "MDFE_UF_FIM": "MG", "MDFE_VLR_CARGA": "1", "MDFE_Q_CARGA": "1", "MDFE_CIOT": "12345"}),
            "CIOT inválido: informe os 12 dígitos do código da operação de transporte.",
        ),
        (
            "mdfeseguro",
            json!({"MSEG_MDFE_ID": id, "MSEG_RESP": 2, "MSEG_SEGURADORA": "SEGURADORA SA",
                   "MSEG_SEGURADORA_CNPJ": "11222333000181"}),
            "Informe o CPF/CNPJ do contratante responsável pelo seguro.",
        ),
        (
            "mdfecontratante",
            json!({"MDCO_MDFE_ID": id, "MDCO_NOME": "INDUSTRIA LTDA", "MDCO_CPF_CNPJ": "11.444.777/0001-61",
                   "MDCO_NRO_CONTRATO": "CT-1"}),
            "Informe o número e o valor global do contrato, ou nenhum dos dois.",
        ),
    ];
    for (res, body, expected) in cases {
        let e = create(&env.db, c, res, body).await.expect_err(res);
        // A row of the MDF-e that is not there is not found (404); the rest is
        // bad input (400).
        if expected.contains("não encontrado neste MDF-e") {
            assert!(
                matches!(e, erp_platform::Error::NotFound(_)),
                "{res}: 404: {e:?}"
            );
        } else {
            assert!(
                matches!(e, erp_platform::Error::Validation(_)),
                "{res}: 400: {e:?}"
            );
        }
        assert_eq!(e.public_message(), expected, "{res}");
    }
    // A CT-e key is taken as a CT-e; an own-load MDF-e refuses it at emission.
    let city = create(
        &env.db,
        c,
        "mdfecidadedestino",
        json!({"MCID_MDFE_ID": id, "MCID_CID_IBGE": "3106200", "MCID_CIDADE": "Belo Horizonte"}),
    )
    .await
    .expect("city");
    let doc = create(
        &env.db,
        c,
        "mdfenotascidadedestino",
        json!({"MDNC_MDFE_ID": id, "MDNC_MCID_ID": city["MCID_ID"], "MDNC_CHAVE": CTE_KEY}),
    )
    .await
    .expect("cte");
    assert_eq!(doc["MDNC_MODELO"], "57");
}

#[tokio::test]
async fn another_client_cannot_read_emit_cancel_or_close_it() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = complete(&env.db, c, "73181500").await;
    let other = CTX.caller(client(), 1);
    seed(&env.db, other.client_id).await;
    assert!(matches!(
        get(&env.db, &other, id).await,
        Err(erp_platform::Error::NotFound(_))
    ));
    let r = emit(&env, &other, id).await;
    assert_eq!(msg(r), "MDF-e não encontrado.");
    assert_eq!(env.fake().requests("POST", "/mdfe"), 0);
    let doc = emit(&env, &me, id).await.expect("emitted");
    assert_eq!(status(&doc), "autorizado");
    for (action, body) in [
        ("consultar", json!({})),
        (
            "cancelar",
            json!({"JUSTIFICATIVA": "Carga não embarcada no veículo"}),
        ),
        ("xml", json!({})),
        ("damdfe", json!({})),
        ("duplicar", json!({})),
    ] {
        let r = on(&env, &other, action, id, body).await;
        assert_eq!(msg(r), "MDF-e não encontrado.", "{action}");
    }
    let r = call(
        &env,
        &other,
        "mdfe",
        "encerramento",
        &[("emp", "1")],
        json!({"MDFE_ID": id, "UF": "MG", "CODIGO_MUNICIPIO": "3106200"}),
    )
    .await;
    assert_eq!(msg(r), "MDF-e não encontrado.");
    let r = call(
        &env,
        &other,
        "mdfecidadedestino",
        "semdoc",
        &[("id", &id.to_string()), ("emp", "1")],
        json!({}),
    )
    .await;
    assert_eq!(msg(r), "MDF-e não encontrado.");
    // Its rows are out of reach too: a row for it is refused.
    let r = create(
        &env.db,
        other.client_id,
        "mdfelacres",
        json!({"LACRE_MDFE_ID": id, "LACRE_NUMERO": "X"}),
    )
    .await;
    assert!(r.is_err());
    // The other client's list is empty (the gateway answers it 204).
    let reg = erp_fiscal::resources::registry().expect("registry");
    let mut tx = env.db.begin_tenant(other.client_id).await.expect("tx");
    let rows = erp_platform::resource::query::list(
        &mut tx,
        reg.get("mdfe").expect("mdfe"),
        &other,
        Some(1),
        &serde_json::Map::new(),
    )
    .await
    .expect("list");
    assert!(rows.is_empty());
    drop(tx);
    let row = get(&env.db, &me, id).await.expect("still mine");
    assert_eq!(status(&row), "autorizado");
}

/// A document or a component that names no city or payment takes the
/// MDF-e's only one; with none the message says what to add first, with
/// several it lists them to choose from; nothing is written when refused.
#[tokio::test]
async fn an_unnamed_city_or_payment_is_the_only_one_else_the_choices() {
    let env = env_with(true).await;
    let c = client();
    seed(&env.db, c).await;
    let id = header(&env.db, c, "73181500").await;
    let doc = json!({"MDNC_MDFE_ID": id, "MDNC_CHAVE": NFE_KEY});
    let r = create(&env.db, c, "mdfenotascidadedestino", doc.clone()).await;
    assert_eq!(
        msg(r),
        "Inclua antes o município de descarregamento em Municípios de Descarregamento."
    );
    let bh = add(
        &env.db,
        c,
        "mdfecidadedestino",
        id,
        "MCID",
        json!({"MCID_CID_IBGE": "3106200", "MCID_CIDADE": "Belo Horizonte"}),
    )
    .await;
    let row = create(&env.db, c, "mdfenotascidadedestino", doc.clone())
        .await
        .expect("the only city taken");
    assert_eq!(row["MDNC_MCID_ID"], bh["MCID_ID"]);
    add(
        &env.db,
        c,
        "mdfecidadedestino",
        id,
        "MCID",
        json!({"MCID_CID_IBGE": "3118601", "MCID_CIDADE": "Contagem"}),
    )
    .await;
    let other = json!({"MDNC_MDFE_ID": id, "MDNC_CHAVE": CTE_KEY});
    let r = create(&env.db, c, "mdfenotascidadedestino", other).await;
    assert_eq!(
        msg(r),
        "Informe o município de descarregamento (a sequência em Municípios de Descarregamento): \
         1 - Belo Horizonte, 2 - Contagem."
    );
    let payment = add(
        &env.db,
        c,
        "mdfepagamentos",
        id,
        "MDPG",
        json!({"MDPG_NOME": "CONTRATANTE LTDA", "MDPG_CPF_CNPJ": "11222333000181",
               "MDPG_VLR_CONTRATO": "900.00", "MDPG_IND_PAG": 0}),
    )
    .await;
    let comp = create(
        &env.db,
        c,
        "mdfecomponentes",
        json!({"MDPC_MDFE_ID": id, "MDPC_TIPO": "04", "MDPC_VLR_COMP": "900.00"}),
    )
    .await
    .expect("the only payment taken");
    assert_eq!(comp["MDPC_MDPG_ID"], payment["MDPG_ID"]);
    let mut tx = env.db.begin_tenant(c).await.expect("tx");
    let documents: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM fiscal.mdfe_notas_cidade_destino WHERE client_id = $1 AND mdnc_mdfe_id = $2",
    )
    .bind(c)
    .bind(id)
    .fetch_one(&mut *tx)
    .await
    .expect("count");
    assert_eq!(documents, 1, "the refused documents were not written");
}
