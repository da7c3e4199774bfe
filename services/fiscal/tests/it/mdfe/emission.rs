//! Emission of the MDF-e: authorised with the number, key, protocol and
//! files; rejected with the cStat explained and sent again with its number;
//! pending then authorised; two emissions send one request; what is missing
//! blocks it with a pt-BR message and changes nothing; no provider.

use erp_fiscal::nuvemfiscal::MISSING_CREDENTIALS;
use serde_json::json;

use super::super::{client, msg, write, CTX};
use super::{add, complete, emit, env_with, header, next_number, on, seed, status, NFE_KEY};

#[tokio::test]
async fn mdfe_is_authorised_with_its_number_key_protocol_and_files() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = complete(&env.db, c, "73181500").await;
    let next = on(&env, &me, "numerosequencial", 0, json!({}))
        .await
        .expect("next");
    assert_eq!(
        (next["MDFE_SERIE"].as_i64(), next["MDFE_NUMERO"].as_i64()),
        (Some(1), Some(7))
    );
    let doc = emit(&env, &me, id).await.expect("emitted");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    assert_eq!(doc["msg"], "MDF-e autorizado.");
    assert_eq!(
        (doc["MDFE_SERIE"].as_i64(), doc["MDFE_NUMERO"].as_i64()),
        (Some(1), Some(7))
    );
    let key = doc["MDFE_CHAVE"].as_str().expect("key");
    assert_eq!(key.len(), 44);
    assert_eq!(&key[20..22], "58", "model 58: {key}");
    assert_eq!(&key[6..20], "11222333000181");
    assert!(
        doc["MDFE_PROTOCOLO"]
            .as_str()
            .is_some_and(|p| p.len() == 15),
        "{doc}"
    );
    assert!(doc["MDFE_ID_FISCAL"]
        .as_str()
        .is_some_and(|p| p.starts_with("mdfe_") || !p.is_empty()));
    assert_eq!(
        (doc["MDFE_QTD_NFE"].as_i64(), doc["MDFE_QTD_CTE"].as_i64()),
        (Some(1), Some(0))
    );
    assert_eq!(
        (doc["MDFE_XML"].as_bool(), doc["MDFE_PDF"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(next_number(&env.db, c).await, 8);
    assert_eq!(env.fake().requests("POST", "/mdfe"), 1);
    // The call answers the register's row, as the generic get reads it.
    let got = super::get(&env.db, &me, id).await.expect("row");
    for (k, v) in got.as_object().expect("object") {
        assert_eq!(&doc[k], v, "{k}");
    }
    // Emitting again sends nothing.
    let r = emit(&env, &me, id).await;
    assert_eq!(msg(r), "Este MDF-e já foi autorizado.");
    assert_eq!(env.fake().requests("POST", "/mdfe"), 1);
    // Issued: the header and its rows refuse changes and deletion.
    let r = write(&env.db, c, "mdfe", Some(id), json!({"MDFE_OBS": "outra"})).await;
    assert!(msg(r).contains("MDF-e já enviado à SEFAZ"));
    let r = add_err(&env.db, c, id).await;
    assert!(r.contains("MDF-e já enviado à SEFAZ"), "{r}");
    let reg = erp_fiscal::resources::registry().expect("registry");
    let r = CTX
        .delete(
            &env.db,
            reg.get("mdfe").expect("mdfe"),
            &me,
            Some(1),
            &[id.to_string()],
        )
        .await;
    assert!(r.is_err());
    // The files, stored.
    let xml = on(&env, &me, "xml", id, json!({})).await.expect("xml");
    let file = &xml["$arquivo"];
    assert_eq!(file["tipo"], "application/xml");
    assert_eq!(file["nome"], format!("{key}-mdfe.xml"));
    let pdf = on(&env, &me, "damdfe", id, json!({}))
        .await
        .expect("damdfe");
    assert_eq!(pdf["$arquivo"]["tipo"], "application/pdf");
    // Stored, so the downloads asked the provider nothing more.
    let nid = doc["MDFE_ID_FISCAL"].as_str().expect("provider id");
    assert_eq!(env.fake().requests("GET", &format!("/mdfe/{nid}/xml")), 1);
}

async fn add_err(db: &erp_platform::db::Db, c: i64, id: i64) -> String {
    let r = super::super::create(
        db,
        c,
        "mdfelacres",
        json!({"LACRE_MDFE_ID": id, "LACRE_NUMERO": "LC-2"}),
    )
    .await;
    msg(r)
}

#[tokio::test]
async fn a_rejection_answers_the_cstat_explained_and_goes_again_with_its_number() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = complete(&env.db, c, "00000000").await;
    let doc = emit(&env, &me, id).await.expect("answered");
    assert_eq!(status(&doc), "rejeitado", "{doc}");
    assert_eq!(doc["cStat"], "778");
    assert_eq!(doc["MDFE_CSTAT"], 778);
    assert!(
        doc["xMotivo"].as_str().is_some_and(|m| !m.is_empty()),
        "{doc}"
    );
    let explanation = doc["explicacao"].as_str().expect("explanation");
    assert!(!explanation.is_empty());
    assert_eq!(doc["MDFE_EXPLICACAO"].as_str(), Some(explanation));
    assert!(doc["msg"]
        .as_str()
        .is_some_and(|m| m.starts_with("MDF-e rejeitado pela SEFAZ (778)")));
    assert_eq!(doc["MDFE_NUMERO"], 7);
    assert_eq!(next_number(&env.db, c).await, 8);
    // A rejected MDF-e is open: fixed, it goes again with the same number.
    write(
        &env.db,
        c,
        "mdfe",
        Some(id),
        json!({"MDFE_PROD_NCM": "7318.15.00"}),
    )
    .await
    .expect("fixed");
    let doc = emit(&env, &me, id).await.expect("emitted again");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    assert_eq!(
        (doc["MDFE_NUMERO"].as_i64(), doc["MDFE_TENTATIVA"].as_i64()),
        (Some(7), Some(2))
    );
    assert_eq!(next_number(&env.db, c).await, 8);
    assert_eq!(env.fake().requests("POST", "/mdfe"), 2);
}

#[tokio::test]
async fn pending_twice_then_authorised_on_the_third_consult() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = complete(&env.db, c, "73181500").await;
    env.fake().pending_for(2);
    let doc = emit(&env, &me, id).await.expect("emitted");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    let nid = doc["MDFE_ID_FISCAL"].as_str().expect("provider id");
    assert_eq!(env.fake().requests("GET", &format!("/mdfe/{nid}")), 3);
    // The consult of an authorised MDF-e keeps it so.
    let again = on(&env, &me, "consultar", id, json!({}))
        .await
        .expect("consulted");
    assert_eq!(status(&again), "autorizado", "{again}");
    assert_eq!(env.fake().requests("POST", "/mdfe"), 1);
}

#[tokio::test]
async fn two_concurrent_emissions_of_one_mdfe_send_one_request() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = complete(&env.db, c, "73181500").await;
    let (a, b) = tokio::join!(emit(&env, &me, id), emit(&env, &me, id));
    assert_eq!(env.fake().requests("POST", "/mdfe"), 1);
    let (ok, refused) = match (a, b) {
        (Ok(doc), Err(e)) | (Err(e), Ok(doc)) => (doc, e.public_message()),
        other => panic!("one emission, one refusal: {other:?}"),
    };
    assert_eq!(status(&ok), "autorizado", "{ok}");
    assert!(
        refused == "Este MDF-e já foi enviado e aguarda a resposta da SEFAZ: consulte-o."
            || refused == "Este MDF-e já foi autorizado.",
        "{refused}"
    );
    assert_eq!(next_number(&env.db, c).await, 8);
}

#[tokio::test]
async fn concurrent_emissions_take_consecutive_numbers() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(complete(&env.db, c, "73181500").await);
    }
    let docs = futures::future::join_all(ids.iter().map(|id| emit(&env, &me, *id))).await;
    let mut numbers: Vec<i64> = docs
        .iter()
        .map(|d| {
            d.as_ref().expect("emitted")["MDFE_NUMERO"]
                .as_i64()
                .expect("number")
        })
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, vec![7, 8, 9]);
    assert_eq!(next_number(&env.db, c).await, 10);
}

#[tokio::test]
async fn what_is_missing_blocks_the_emission_and_changes_nothing() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = header(&env.db, c, "73181500").await;
    let steps: [(&str, &str); 5] = [
        (
            "origin",
            "Informe ao menos um município de carregamento (Municípios de Carregamento).",
        ),
        (
            "destination",
            "Informe ao menos um município de descarregamento (Municípios de Descarregamento).",
        ),
        (
            "document",
            "Informe ao menos um documento (NF-e ou CT-e) descarregado (Documentos Descarregados).",
        ),
        (
            "vehicle",
            "Informe o veículo de tração (Veículos, tipo Tração).",
        ),
        ("driver", "Informe ao menos um motorista (Motoristas)."),
    ];
    let mut city = json!(null);
    for (step, expected) in steps {
        let r = emit(&env, &me, id).await;
        let e = r.expect_err("refused");
        assert_eq!(e.public_message(), expected, "before {step}");
        assert!(
            matches!(e, erp_platform::Error::Validation(_)),
            "400: {e:?}"
        );
        match step {
            "origin" => {
                add(
                    &env.db,
                    c,
                    "mdfecidadeorigem",
                    id,
                    "MCIO",
                    json!({"MCIO_CID_IBGE": "3550308", "MCIO_CIDADE": "São Paulo"}),
                )
                .await;
            }
            "destination" => {
                city = add(
                    &env.db,
                    c,
                    "mdfecidadedestino",
                    id,
                    "MCID",
                    json!({"MCID_CID_IBGE": "3106200", "MCID_CIDADE": "Belo Horizonte"}),
                )
                .await;
            }
            "document" => {
                // The city without documents is what blocks the emission.
                let semdoc = super::call(
                    &env,
                    &me,
                    "mdfecidadedestino",
                    "semdoc",
                    &[("id", &id.to_string()), ("emp", "1")],
                    json!({}),
                )
                .await
                .expect("semdoc");
                assert_eq!(semdoc[0]["MCID_CIDADE"], "Belo Horizonte", "{semdoc}");
                add(
                    &env.db,
                    c,
                    "mdfenotascidadedestino",
                    id,
                    "MDNC",
                    json!({"MDNC_MCID_ID": city["MCID_ID"], "MDNC_CHAVE": NFE_KEY}),
                )
                .await;
                let semdoc = super::call(
                    &env,
                    &me,
                    "mdfecidadedestino",
                    "semdoc",
                    &[("id", &id.to_string()), ("emp", "1")],
                    json!({}),
                )
                .await
                .expect("semdoc");
                assert_eq!(semdoc, json!([]));
            }
            "vehicle" => {
                add(
                    &env.db,
                    c,
                    "mdfeveiculo",
                    id,
                    "VEIC",
                    json!({"VEIC_PLACA1": "ABC1234", "VEIC_TARA": 8000,
                    "VEIC_TP_ROD": "02", "VEIC_TP_CAR": "02", "VEIC_UF": "SP"}),
                )
                .await;
            }
            _ => {}
        }
        let row = super::get(&env.db, &me, id).await.expect("row");
        assert_eq!(status(&row), "aberto");
        assert!(row["MDFE_NUMERO"].is_null(), "{row}");
    }
    assert_eq!(next_number(&env.db, c).await, 7);
    assert_eq!(env.fake().requests("POST", "/mdfe"), 0);
    // A destination city with no document left names itself.
    add(
        &env.db,
        c,
        "mdfecidadedestino",
        id,
        "MCID",
        json!({"MCID_CID_IBGE": "3304557", "MCID_CIDADE": "Rio de Janeiro"}),
    )
    .await;
    add(
        &env.db,
        c,
        "mdfemotorista",
        id,
        "MDMO",
        json!({"MDMO_NOME": "JOSE", "MDMO_CPF": "52998224725"}),
    )
    .await;
    let r = emit(&env, &me, id).await;
    assert_eq!(
        msg(r),
        "Município de descarregamento sem documento: Rio de Janeiro. Inclua as NF-e/CT-e descarregadas nele ou remova-o."
    );
    assert_eq!(env.fake().requests("POST", "/mdfe"), 0);
}

#[tokio::test]
async fn without_credentials_the_emission_asks_for_them() {
    let env = env_with(false).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = complete(&env.db, c, "73181500").await;
    let e = emit(&env, &me, id).await.expect_err("no provider");
    assert!(matches!(e, erp_platform::Error::Conflict(_)), "409: {e:?}");
    assert_eq!(e.public_message(), MISSING_CREDENTIALS);
    assert_eq!(
        e.public_message(),
        "Configure as credenciais da Nuvem Fiscal em Empresas › Serviços fiscais."
    );
    let row = super::get(&env.db, &me, id).await.expect("row");
    assert_eq!(status(&row), "aberto");
    assert_eq!(next_number(&env.db, c).await, 7);
}

#[tokio::test]
async fn an_earlier_mdfe_not_closed_is_explained_as_such() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    env.fake().reject_ncm(
        "84314910",
        611,
        "Rejeição: Existe MDF-e não encerrado para esta placa, tipo de emitente e UF de descarregamento",
    );
    let id = complete(&env.db, c, "84314910").await;
    let doc = emit(&env, &me, id).await.expect("answered");
    assert_eq!(status(&doc), "rejeitado", "{doc}");
    assert_eq!(doc["cStat"], "611");
    assert_eq!(doc["campo"], "Placa do veículo");
    let explanation = doc["explicacao"].as_str().expect("explanation");
    assert!(
        explanation.contains("Encerre o MDF-e da viagem"),
        "{explanation}"
    );
    assert_eq!(doc["MDFE_EXPLICACAO"].as_str(), Some(explanation));
}

#[tokio::test]
async fn a_lost_answer_is_recovered_by_its_reference_without_sending_again() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = complete(&env.db, c, "73181500").await;
    // The provider creates the document, then the answer is lost.
    env.fake().fail_after_handling(1, 502);
    let e = emit(&env, &me, id).await.expect_err("answer lost");
    assert!(matches!(e, erp_platform::Error::Unavailable(_)), "{e:?}");
    assert_eq!(
        e.public_message(),
        "A Nuvem Fiscal não confirmou o recebimento do MDF-e: consulte-o antes de emitir de novo."
    );
    let row = super::get(&env.db, &me, id).await.expect("row");
    assert_eq!(status(&row), "enviando");
    assert_eq!(row["MDFE_NUMERO"], 7);
    // Sent and unanswered: emitting again sends nothing.
    let r = emit(&env, &me, id).await;
    assert_eq!(
        msg(r),
        "Este MDF-e já foi enviado e aguarda a resposta da SEFAZ: consulte-o."
    );
    // The consult finds it by its reference and settles it.
    let doc = on(&env, &me, "consultar", id, json!({}))
        .await
        .expect("consulted");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    assert_eq!(doc["MDFE_NUMERO"], 7);
    assert_eq!(env.fake().requests("POST", "/mdfe"), 1);
    assert_eq!(env.fake().documents(), 1);
}

#[tokio::test]
async fn a_rejected_mdfe_is_removed_with_its_rows_and_its_number_returns() {
    let env = env_with(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let reg = erp_fiscal::resources::registry().expect("registry");
    let res = reg.get("mdfe").expect("mdfe");
    // An authorised one is not removed: it is cancelled or closed.
    let ok = complete(&env.db, c, "73181500").await;
    emit(&env, &me, ok).await.expect("emitted");
    let e = CTX
        .delete(&env.db, res, &me, Some(1), &[ok.to_string()])
        .await
        .expect_err("issued");
    assert!(
        e.public_message().contains("MDF-e"),
        "{}",
        e.public_message()
    );
    // A rejected one goes, and so does its number (the last one taken).
    let id = complete(&env.db, c, "00000000").await;
    let doc = emit(&env, &me, id).await.expect("answered");
    assert_eq!(
        (status(&doc), doc["MDFE_NUMERO"].as_i64()),
        ("rejeitado", Some(8))
    );
    assert_eq!(next_number(&env.db, c).await, 9);
    CTX.delete(&env.db, res, &me, Some(1), &[id.to_string()])
        .await
        .expect("removed");
    assert_eq!(next_number(&env.db, c).await, 8);
    let mut tx = env.db.begin_tenant(c).await.expect("tx");
    let rows: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM fiscal.mdfe_veiculos WHERE client_id = $1 AND veic_mdfe_id = $2",
    )
    .bind(c)
    .bind(id)
    .fetch_one(&mut *tx)
    .await
    .expect("count");
    assert_eq!(rows, 0);
}
