//! After the emission: cancel (a short justification refused, nothing
//! changed), correction letters recorded, duplicate, the XML and DACTE, the
//! provider's list, an issued CT-e closed to edits, and another tenant's
//! CT-e out of reach.

use serde_json::{json, Value};

use super::super::env::file;
use super::super::{client, msg, write, CTX};
use super::{env, seed, typed, Env, RES};

async fn authorised(env: &Env, c: i64) -> (i64, Value) {
    seed(&env.db, c).await;
    let id = typed(&env.db, c, json!({})).await;
    let doc = env.emit(&CTX.caller(c, 1), id).await.expect("emitted");
    assert_eq!(doc["CTE_SITUACAO"], "autorizado", "{doc}");
    (id, doc)
}

#[tokio::test]
async fn cte_cancel_needs_a_justification_of_15_to_255_characters() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    let (id, doc) = authorised(&env, c).await;
    let fiscal_id = doc["CTE_ID_FISCAL"]
        .as_str()
        .expect("provider id")
        .to_string();
    let r = env
        .call(
            &me,
            "cancelar",
            &[("fiscalId", &fiscal_id)],
            json!({"JUSTIFICATIVA": "curta"}),
        )
        .await;
    assert_eq!(r.as_ref().err().map(|e| e.http_status()), Some(400));
    assert_eq!(
        msg(r),
        "A justificativa do cancelamento deve ter entre 15 e 255 caracteres."
    );
    let cancel_path = format!("/cte/{fiscal_id}/cancelamento");
    assert_eq!(env.fake().requests("POST", &cancel_path), 0);
    let row = super::get(&env.db, &me, id).await.expect("row");
    assert_eq!(row["CTE_SITUACAO"], "autorizado");
    let done = env
        .call(
            &me,
            "cancelar",
            &[("fiscalId", &fiscal_id)],
            json!({"JUSTIFICATIVA": "Frete contratado em duplicidade."}),
        )
        .await
        .expect("cancelled");
    assert_eq!(done["CTE_SITUACAO"], "cancelado");
    assert_eq!(done["msg"], "CT-e cancelado.");
    assert!(done["CTE_CANCEL_PROTOCOLO"].as_str().is_some());
    assert_eq!(
        done["CTE_CANCEL_JUSTIFICATIVA"],
        "Frete contratado em duplicidade."
    );
    assert_eq!(env.fake().requests("POST", &cancel_path), 1);
    let r = env
        .call(
            &me,
            "cancelar",
            &[("fiscalId", &fiscal_id)],
            json!({"JUSTIFICATIVA": "Frete contratado em duplicidade."}),
        )
        .await;
    assert_eq!(msg(r), "Só é possível cancelar um CT-e autorizado.");
}

#[tokio::test]
async fn cte_correction_letters_are_recorded() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    let (id, doc) = authorised(&env, c).await;
    let r = env
        .call(
            &me,
            "cartacorrecao",
            &[("emp", "1")],
            json!({"CTE_ID": id, "GRUPO": "compl"}),
        )
        .await;
    assert_eq!(r.as_ref().err().map(|e| e.http_status()), Some(400));
    assert!(msg(r).starts_with("Informe a correção"));
    let out = env
        .call(
            &me,
            "cartacorrecao",
            &[("emp", "1")],
            json!({"CTE_ID": id, "CORRECOES": [
                {"GRUPO": "compl", "CAMPO": "xObs", "VALOR": "Entrega até as 18h."},
                {"GRUPO": "infCarga", "CAMPO": "proPred", "VALOR": "ELETRODOMÉSTICOS"}
            ]}),
        )
        .await
        .expect("registered");
    assert_eq!(out["msg"], "Carta de correção registrada.");
    assert_eq!(out["CTECG_SEQUENCIA"], 1);
    // The second letter through the other path, with one correction.
    let out = env
        .call(
            &me,
            "ctecartacorrecao",
            &[],
            json!({"CTE_ID": id, "CTE_EMP_ID": 1, "GRUPO": "compl", "CAMPO": "xObs", "VALOR": "Entrega até as 17h."}),
        )
        .await
        .expect("registered");
    assert_eq!(out["CTECG_SEQUENCIA"], 2);
    let reg = erp_fiscal::resources::registry().expect("registry");
    let letters = reg.get("ctecartacorrecaogrupo").expect("letters");
    let filter = json!({"CTECG_CTE_ID": id})
        .as_object()
        .cloned()
        .unwrap_or_default();
    let rows = CTX
        .list(&env.db, letters, &me, Some(1), &filter)
        .await
        .expect("letters");
    assert_eq!(rows.len(), 3);
    let last = rows
        .iter()
        .find(|r| r["CTECG_SEQUENCIA"] == 2)
        .expect("second letter");
    assert_eq!(
        (last["CTECG_CAMPO"].as_str(), last["CTECG_VALOR"].as_str()),
        (Some("xObs"), Some("Entrega até as 17h."))
    );
    assert!(last["CTECG_PROTOCOLO"].as_str().is_some());
    let fiscal_id = doc["CTE_ID_FISCAL"].as_str().expect("provider id");
    let path = format!("/cte/{fiscal_id}/carta-correcao");
    assert_eq!(env.fake().requests("POST", &path), 2);
    // Letters are not typed by hand.
    let r = super::super::create(
        &env.db,
        c,
        "ctecartacorrecaogrupo",
        json!({"CTECG_CTE_ID": id}),
    )
    .await;
    assert!(msg(r).starts_with("A carta de correção é registrada pela chamada"));
}

#[tokio::test]
async fn cte_duplicate_opens_a_new_cte_with_its_rows_and_no_fiscal_data() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    let (id, doc) = authorised(&env, c).await;
    let copy = env
        .on(&me, "duplicar", id, json!({}))
        .await
        .expect("duplicated");
    let new_id = copy["CTE_ID"].as_i64().expect("new id");
    assert_ne!(new_id, id);
    assert_eq!(copy["CTE_SITUACAO"], "aberto");
    for fiscal in [
        "CTE_NUMERO",
        "CTE_CHAVE",
        "CTE_PROTOCOLO",
        "CTE_ID_FISCAL",
        "CTE_NFE_XML",
    ] {
        assert!(copy[fiscal].is_null(), "{fiscal}: {}", copy[fiscal]);
    }
    for kept in [
        "CTE_CFOP",
        "CTE_VLR_FRETE",
        "CTE_DEST_NOME",
        "CTE_MUN_FIM_IBGE",
        "CTE_RNTRC",
    ] {
        assert_eq!(copy[kept], doc[kept], "{kept}");
    }
    let mut tx = env.db.begin_tenant(c).await.expect("tx");
    let (notes, route): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM fiscal.cte_notas WHERE client_id = $1 AND cten_cte_id = $2),
                (SELECT count(*) FROM fiscal.cte_uf_percursos WHERE client_id = $1 AND cufp_cte_id = $2)",
    )
    .bind(c)
    .bind(new_id)
    .fetch_one(&mut *tx)
    .await
    .expect("rows");
    drop(tx);
    assert_eq!((notes, route), (1, 1));
    // The copy is issued on its own, with the next number.
    let issued = env.emit(&me, new_id).await.expect("emitted");
    assert_eq!(
        (
            issued["CTE_SITUACAO"].as_str(),
            issued["CTE_NUMERO"].as_i64()
        ),
        (Some("autorizado"), Some(502))
    );
}

#[tokio::test]
async fn cte_xml_dacte_list_and_an_issued_cte_closed_to_changes() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    let (id, doc) = authorised(&env, c).await;
    let key = doc["CTE_CHAVE"].as_str().expect("key");
    let xml = file(
        &env.on(&me, "xml", id, json!({})).await.expect("xml"),
        "application/xml",
    );
    assert!(String::from_utf8(xml).expect("utf-8").contains(key));
    let xml = file(
        &env.call(&me, "xmlcorpo", &[("emp", "1")], json!({"CTE_ID": id}))
            .await
            .expect("xml"),
        "application/xml",
    );
    assert!(!xml.is_empty());
    let pdf = file(
        &env.on(&me, "dacte", id, json!({})).await.expect("pdf"),
        "application/pdf",
    );
    assert!(pdf.starts_with(b"%PDF"));
    let list = env
        .call(
            &me,
            "listarcte",
            &[
                ("cnpjcpf", "11.222.333/0001-81"),
                ("key", "0"),
                ("skip", "0"),
                ("type", "2"),
            ],
            json!({}),
        )
        .await
        .expect("listed");
    assert_eq!(list["count"], 1);
    assert_eq!(list["dados"][0]["CTE_CHAVE"], key);
    let by_key = env
        .call(
            &me,
            "listarcte",
            &[
                ("cnpjcpf", "11222333000181"),
                ("key", key),
                ("skip", "0"),
                ("type", "homologacao"),
            ],
            json!({}),
        )
        .await
        .expect("listed");
    assert_eq!(by_key["count"], 1);
    // Issued: no edits, no deletion, no new rows.
    let r = write(&env.db, c, RES, Some(id), json!({"CTE_OBS": "outra"})).await;
    assert_eq!(
        msg(r),
        "CT-e já enviado à SEFAZ: não pode ser alterado nem excluído."
    );
    let reg = erp_fiscal::resources::registry().expect("registry");
    let r = CTX
        .delete(
            &env.db,
            reg.get(RES).expect("cte"),
            &me,
            Some(1),
            &[id.to_string()],
        )
        .await;
    assert!(r.is_err(), "an issued CT-e is not removed");
    let r = super::super::create(
        &env.db,
        c,
        "ctenotas",
        json!({"CTEN_CTE_ID": id, "CTEN_CHAVE": "35250512345678000195550010000012351000012343"}),
    )
    .await;
    assert_eq!(
        msg(r),
        "CT-e já enviado à SEFAZ: não pode ser alterado nem excluído."
    );
}

#[tokio::test]
async fn cte_of_another_tenant_is_out_of_reach() {
    let env = env(true).await;
    let c = client();
    let (id, doc) = authorised(&env, c).await;
    let other = client();
    let them = CTX.caller(other, 1);
    seed(&env.db, other).await;
    for action in [
        "numerosequencial",
        "emitir",
        "consultar",
        "xml",
        "dacte",
        "duplicar",
    ] {
        let r = if action == "emitir" {
            env.emit(&them, id).await
        } else {
            env.on(&them, action, id, json!({})).await
        };
        assert_eq!(msg(r), "CT-e não encontrado.", "{action}");
    }
    let r = env
        .call(&them, "cartacorrecao", &[("emp", "1")], json!({"CTE_ID": id, "GRUPO": "compl", "CAMPO": "xObs", "VALOR": "Tentativa de outro cliente."}))
        .await;
    assert_eq!(msg(r), "CT-e não encontrado.");
    let fiscal_id = doc["CTE_ID_FISCAL"].as_str().expect("provider id");
    let r = env
        .call(
            &them,
            "cancelar",
            &[("fiscalId", fiscal_id)],
            json!({"JUSTIFICATIVA": "Tentativa de outro cliente."}),
        )
        .await;
    assert_eq!(msg(r), "CT-e não encontrado.");
    // The other client's CNPJ list is not this company's documents.
    let r = env
        .call(
            &them,
            "listarcte",
            &[
                ("cnpjcpf", "99.999.999/0001-91"),
                ("key", "0"),
                ("skip", "0"),
                ("type", "2"),
            ],
            json!({}),
        )
        .await;
    assert_eq!(msg(r), "Empresa não encontrada com este CPF/CNPJ.");
    assert!(super::get(&env.db, &them, id).await.is_err());
    // Still one emission, still authorised, nothing cancelled.
    assert_eq!(env.fake().requests("POST", "/cte"), 1);
    let row = super::get(&env.db, &CTX.caller(c, 1), id)
        .await
        .expect("row");
    assert_eq!(row["CTE_SITUACAO"], "autorizado");
}
