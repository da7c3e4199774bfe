//! Emission: authorised with its number, key, protocol and files; a rejection
//! explained and sent again with its number; pending until the third
//! consult; a second emission sends nothing; bad data refused in pt-BR with
//! nothing changed; no credentials.

use erp_fiscal::nuvemfiscal::MISSING_CREDENTIALS;
use serde_json::{json, Value};

use super::super::{client, msg, write, CTX};
use super::{env, next_number, seed, typed};

fn status(v: &Value) -> &str {
    v["CTE_SITUACAO"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn cte_is_authorised_with_its_number_key_protocol_and_files() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = typed(&env.db, c, json!({})).await;
    let next = env
        .on(&me, "numerosequencial", id, json!({}))
        .await
        .expect("next number");
    assert_eq!(
        (next["CTE_SERIE"].as_i64(), next["CTE_NUMERO"].as_i64()),
        (Some(1), Some(501))
    );
    let doc = env.emit(&me, id).await.expect("emitted");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    assert_eq!(doc["msg"], "CT-e autorizado.");
    assert_eq!(
        (doc["CTE_SERIE"].as_i64(), doc["CTE_NUMERO"].as_i64()),
        (Some(1), Some(501))
    );
    let key = doc["CTE_CHAVE"].as_str().expect("key");
    assert_eq!(key.len(), 44);
    assert_eq!(&key[20..22], "57", "model 57 in the key: {key}");
    assert!(doc["CTE_PROTOCOLO"].as_str().is_some_and(|p| p.len() == 15));
    assert!(doc["CTE_ID_FISCAL"]
        .as_str()
        .is_some_and(|f| f.starts_with("cte_")));
    // The parties came from the customer copy, the taker is the sender.
    assert_eq!(doc["CTE_REM_NOME"], "REMETENTE TESTE LTDA");
    assert_eq!(doc["CTE_CNPJCPF"], "11444777000161");
    assert_eq!(doc["CTE_MUN_ENV_IBGE"], "3550308");
    // The XML is stored; the number was consumed from the numbering.
    assert!(doc["CTE_NFE_XML"].as_str().is_some_and(|x| x.contains(key)));
    assert_eq!(next_number(&env.db, c).await, 502);
    assert_eq!(env.fake().requests("POST", "/cte"), 1);
    let number = env
        .on(&me, "numerosequencial", id, json!({}))
        .await
        .expect("its number");
    assert_eq!(number["CTE_NUMERO"], 501);
}

#[tokio::test]
async fn cte_rejection_answers_the_cstat_explained_and_goes_again_with_its_number() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    // 12% of 1500.75 is 180.09: the SEFAZ refuses another value.
    let id = typed(&env.db, c, json!({"CTE_VLR_ICMS": "10.00"})).await;
    let doc = env.emit(&me, id).await.expect("answered");
    assert_eq!(status(&doc), "rejeitado", "{doc}");
    assert_eq!(doc["cStat"], "528");
    assert_eq!(
        doc["xMotivo"],
        "Rejeição: Valor do ICMS difere do produto BC e Alíquota"
    );
    let explanation = doc["explicacao"].as_str().expect("explanation");
    assert!(explanation.contains("ICMS do CT-e"), "{explanation}");
    assert_eq!(doc["CTE_EXPLICACAO"].as_str(), Some(explanation));
    assert!(doc["msg"].as_str().is_some_and(|m| m.contains("528")));
    // A rejected CT-e is open again: fixed and sent with its number.
    write(
        &env.db,
        c,
        "cte",
        Some(id),
        json!({"CTE_VLR_ICMS": "180.09"}),
    )
    .await
    .expect("fixed");
    let again = env.emit(&me, id).await.expect("sent again");
    assert_eq!(status(&again), "autorizado", "{again}");
    assert_eq!(
        (
            again["CTE_NUMERO"].as_i64(),
            again["CTE_TENTATIVA"].as_i64()
        ),
        (doc["CTE_NUMERO"].as_i64(), Some(2))
    );
    assert_ne!(again["CTE_REFERENCIA"], doc["CTE_REFERENCIA"]);
    assert_eq!(next_number(&env.db, c).await, 502);
}

#[tokio::test]
async fn cte_pending_twice_then_authorised_on_the_third_consult() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = typed(&env.db, c, json!({})).await;
    env.fake().pending_for(2);
    let doc = env.emit(&me, id).await.expect("emitted");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    let fiscal_id = doc["CTE_ID_FISCAL"].as_str().expect("provider id");
    assert_eq!(env.fake().requests("GET", &format!("/cte/{fiscal_id}")), 3);
}

#[tokio::test]
async fn cte_emitted_twice_sends_one_request() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = typed(&env.db, c, json!({})).await;
    let doc = env.emit(&me, id).await.expect("emitted");
    assert_eq!(status(&doc), "autorizado");
    let r = env.emit(&me, id).await;
    assert_eq!(msg(r), "Este CT-e já foi autorizado.");
    assert_eq!(env.fake().requests("POST", "/cte"), 1);
    // Two at once: one request, the other refused.
    let other = typed(&env.db, c, json!({})).await;
    let (a, b) = tokio::join!(env.emit(&me, other), env.emit(&me, other));
    assert_eq!(env.fake().requests("POST", "/cte"), 2);
    let refused = match (a, b) {
        (Ok(_), Err(e)) | (Err(e), Ok(_)) => e.public_message(),
        other => panic!("one emits, the other is refused: {other:?}"),
    };
    assert!(
        refused == "Este CT-e já foi enviado e aguarda a resposta da SEFAZ: consulte-o."
            || refused == "Este CT-e já foi autorizado.",
        "{refused}"
    );
    assert_eq!(next_number(&env.db, c).await, 503);
}

#[tokio::test]
async fn cte_with_missing_data_is_refused_in_pt_br_and_nothing_changes() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = typed(
        &env.db,
        c,
        json!({"CTE_RNTRC": "", "CTE_PRODUTO_PREDOMINANTE": ""}),
    )
    .await;
    let r = env.emit(&me, id).await;
    let e = r.as_ref().err().map(|e| e.http_status());
    assert_eq!(e, Some(400));
    assert_eq!(msg(r), "Informe o produto predominante da carga do CT-e.");
    write(
        &env.db,
        c,
        "cte",
        Some(id),
        json!({"CTE_PRODUTO_PREDOMINANTE": "ELETRÔNICOS"}),
    )
    .await
    .expect("fixed");
    let r = env.emit(&me, id).await;
    assert_eq!(msg(r), "Informe o RNTRC da empresa no CT-e (8 dígitos).");
    let r = env
        .call(
            &me,
            "emitir",
            &[("id", &id.to_string()), ("emp", "1"), ("type", "3")],
            json!({}),
        )
        .await;
    assert_eq!(
        msg(r),
        "Ambiente inválido: use 1 (produção) ou 2 (homologação)."
    );
    // Nothing numbered, nothing sent, still open.
    assert_eq!(next_number(&env.db, c).await, 501);
    assert_eq!(env.fake().requests("POST", "/cte"), 0);
    let row = super::get(&env.db, &me, id).await.expect("row");
    assert_eq!(status(&row), "aberto");
    assert!(row["CTE_NUMERO"].is_null());
    // The register's own checks, in pt-BR.
    let r = super::super::create(
        &env.db,
        c,
        "cte",
        json!({"CTE_CFOP": "8353", "CTE_NATUREZA": "X"}),
    )
    .await;
    assert_eq!(msg(r), "CFOP: informe 4 dígitos iniciados por 1 a 7.");
    let r = super::super::create(
        &env.db,
        c,
        "cte",
        json!({"CTE_CFOP": "5353", "CTE_NATUREZA": "X", "CTE_MUN_FIM_UF": "XX"}),
    )
    .await;
    assert_eq!(msg(r), "UF de término inválida: XX.");
    let r = super::super::create(
        &env.db,
        c,
        "cte",
        json!({"CTE_CFOP": "5353", "CTE_NATUREZA": "X", "CTE_TIPO_SERVICO": 5}),
    )
    .await;
    assert_eq!(msg(r), "Valor inválido para o campo Tipo do Serviço.");
    let r = super::super::create(
        &env.db,
        c,
        "ctenotas",
        json!({"CTEN_CTE_ID": id, "CTEN_CHAVE": "123"}),
    )
    .await;
    assert_eq!(msg(r), "Número incompleto.");
}

#[tokio::test]
async fn cte_without_credentials_says_where_to_set_them() {
    let env = env(false).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = typed(&env.db, c, json!({})).await;
    let r = env.emit(&me, id).await;
    assert_eq!(r.as_ref().err().map(|e| e.http_status()), Some(409));
    assert_eq!(msg(r), MISSING_CREDENTIALS);
    assert_eq!(
        MISSING_CREDENTIALS,
        "Configure as credenciais da Nuvem Fiscal em Empresas › Serviços fiscais."
    );
    assert_eq!(next_number(&env.db, c).await, 501);
}

#[tokio::test]
async fn cte_concurrent_emissions_take_consecutive_numbers() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    const N: i64 = 20;
    let mut ids = Vec::new();
    for _ in 0..N {
        ids.push(typed(&env.db, c, json!({})).await);
    }
    let docs = futures::future::join_all(ids.iter().map(|id| env.emit(&me, *id))).await;
    let mut numbers: Vec<i64> = docs
        .iter()
        .map(|d| {
            let d = d.as_ref().expect("emitted");
            assert_eq!(status(d), "autorizado", "{d}");
            d["CTE_NUMERO"].as_i64().expect("number")
        })
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (501..501 + N).collect::<Vec<_>>());
    assert_eq!(next_number(&env.db, c).await, 501 + N);
    assert_eq!(env.fake().requests("POST", "/cte"), N as usize);
}

#[tokio::test]
async fn cte_rejected_is_removed_and_its_number_returns() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = typed(&env.db, c, json!({"CTE_VLR_ICMS": "1.00"})).await;
    let doc = env.emit(&me, id).await.expect("answered");
    assert_eq!(status(&doc), "rejeitado");
    assert_eq!(next_number(&env.db, c).await, 502);
    let reg = erp_fiscal::resources::registry().expect("registry");
    CTX.delete(
        &env.db,
        reg.get("cte").expect("cte"),
        &me,
        Some(1),
        &[id.to_string()],
    )
    .await
    .expect("removed");
    assert_eq!(next_number(&env.db, c).await, 501);
    assert!(super::get(&env.db, &me, id).await.is_err());
}

#[tokio::test]
async fn cte_whose_answer_was_lost_is_found_by_its_reference_and_not_sent_again() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = typed(&env.db, c, json!({})).await;
    // The provider creates the CT-e but its answer is lost.
    env.fake().fail_after_handling(1, 503);
    let r = env.emit(&me, id).await;
    assert_eq!(r.as_ref().err().map(|e| e.http_status()), Some(503));
    let row = super::get(&env.db, &me, id).await.expect("row");
    assert_eq!(status(&row), "enviando");
    let r = env.emit(&me, id).await;
    assert_eq!(
        msg(r),
        "Este CT-e já foi enviado e aguarda a resposta da SEFAZ: consulte-o."
    );
    assert_eq!(env.fake().requests("POST", "/cte"), 1);
    let doc = env
        .on(&me, "consultar", id, json!({}))
        .await
        .expect("consulted");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    assert_eq!(doc["CTE_NUMERO"], 501);
    assert_eq!(env.fake().requests("POST", "/cte"), 1);
    assert_eq!(env.fake().documents(), 1);
}
