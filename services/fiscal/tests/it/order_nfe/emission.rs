//! Emission: authorised, rejected (explained) and sent again, pending until
//! the third consult, 429 then success, one request for two concurrent
//! emissions of one order, consecutive numbers for concurrent emissions, the
//! preview, and no provider.

use erp_fiscal::nuvemfiscal::types::NfePedidoEmissao;
use erp_fiscal::nuvemfiscal::MISSING_CREDENTIALS;
use serde_json::{json, Value};

use super::super::{client, msg, CTX};
use super::{env, invoiced, record, seed};

fn status(v: &Value) -> &str {
    v["PEXM_SITUACAO"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn an_invoiced_order_is_authorised_with_its_number_key_and_files() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    invoiced(&env.db, c, 10, 1).await;
    let doc = env.emit(&me, 10).await.expect("emitted");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    assert_eq!(doc["PEXM_NUMERO"], 101);
    assert_eq!(doc["PEXM_NFE_SERIE"], 1);
    assert_eq!(doc["PEXM_VALOR"], "95.00");
    let key = doc["PEXM_CHAVE"].as_str().expect("key");
    assert_eq!(key.len(), 44);
    assert!(doc["PEXM_PROTOCOLO"]
        .as_str()
        .is_some_and(|p| p.len() == 15));
    assert_eq!(
        (doc["PEXM_XML"].as_bool(), doc["PEXM_PDF"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(env.fake().emissions(), 1);
    // The fact for orders, once.
    let facts: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT payload FROM fiscal.outbox WHERE client_id = $1 AND subject = 'erp.fiscal.nfe.autorizada'",
    )
    .bind(c)
    .fetch_all(&env.db.pool)
    .await
    .expect("outbox");
    assert_eq!(facts.len(), 1);
    let fact =
        <erp_proto::fiscal::v1::NfeAutorizada as prost::Message>::decode(facts[0].as_slice())
            .expect("fact");
    assert_eq!(
        (fact.pedido_id, fact.serie.as_str(), fact.chave.as_str()),
        (10, "1", key)
    );
    // The numbering moved on; the same order is not issued twice.
    let r = env.emit(&me, 10).await;
    assert_eq!(msg(r), "A NF-e deste pedido já foi autorizada.");
    assert_eq!(env.fake().emissions(), 1);
}

#[tokio::test]
async fn a_rejection_answers_the_cstat_explained_and_the_number_is_sent_again() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    invoiced(&env.db, c, 11, 2).await;
    let doc = env.emit(&me, 11).await.expect("answered");
    assert_eq!(status(&doc), "rejeitado", "{doc}");
    assert_eq!(doc["cStat"], "778");
    assert_eq!(doc["xMotivo"], "Rejeição: Informado NCM inexistente");
    let explanation = doc["explicacao"].as_str().expect("explanation");
    assert!(explanation.contains("NCM"), "{explanation}");
    assert_eq!(doc["PEXM_EXPLICACAO"].as_str(), Some(explanation));
    // The product is fixed at catalog; the NF-e goes again with its number.
    record(
        &env.db,
        c,
        &erp_fiscal::copies::PRODUTOS,
        1,
        json!({"PROD_ID": 2,
        "PROD_DESCRICAO": "PRODUTO 2", "PROD_NCM": "84713012", "UNID_ABREVIADA": "UN"}),
    )
    .await;
    let again = env.emit(&me, 11).await.expect("sent again");
    assert_eq!(status(&again), "autorizado", "{again}");
    assert_eq!(
        (
            again["PEXM_NUMERO"].as_i64(),
            again["PEXM_TENTATIVA"].as_i64()
        ),
        (doc["PEXM_NUMERO"].as_i64(), Some(2))
    );
    assert_ne!(again["PEXM_REFERENCIA"], doc["PEXM_REFERENCIA"]);
}

#[tokio::test]
async fn pending_twice_then_authorised_on_the_third_consult() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    invoiced(&env.db, c, 12, 1).await;
    env.fake().pending_for(2);
    let doc = env.emit(&me, 12).await.expect("emitted");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    let id = doc["PEXM_NUVEM_ID"].as_str().expect("provider id");
    assert_eq!(env.fake().requests("GET", &format!("/nfe/{id}")), 3);
}

#[tokio::test]
async fn a_429_is_waited_out_and_the_emission_goes_once() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    invoiced(&env.db, c, 13, 1).await;
    env.fake().fail_next(1, 429);
    let doc = env.emit(&me, 13).await.expect("emitted");
    assert_eq!(status(&doc), "autorizado", "{doc}");
    // The 429 was not taken: two requests, one document.
    assert_eq!((env.fake().emissions(), env.fake().documents()), (2, 1));
}

#[tokio::test]
async fn two_concurrent_emissions_of_one_order_send_one_request() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    invoiced(&env.db, c, 14, 1).await;
    let (a, b) = tokio::join!(env.emit(&me, 14), env.emit(&me, 14));
    assert_eq!(env.fake().emissions(), 1);
    let (ok, refused) = match (a, b) {
        (Ok(doc), Err(e)) | (Err(e), Ok(doc)) => (doc, e.public_message()),
        other => panic!("one emits, the other is refused: {other:?}"),
    };
    assert_eq!(status(&ok), "autorizado");
    assert!(
        refused == "A NF-e deste pedido já foi enviada e aguarda a resposta da SEFAZ: consulte-a."
            || refused == "A NF-e deste pedido já foi autorizada.",
        "{refused}"
    );
}

#[tokio::test]
async fn concurrent_emissions_in_one_series_take_consecutive_numbers() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    const N: i64 = 100;
    for id in 1..=N {
        invoiced(&env.db, c, 100 + id, 1).await;
    }
    let calls = (1..=N).map(|id| env.emit(&me, 100 + id));
    let docs = futures::future::join_all(calls).await;
    let mut numbers: Vec<i64> = docs
        .iter()
        .map(|d| {
            d.as_ref().expect("emitted")["PEXM_NUMERO"]
                .as_i64()
                .expect("number")
        })
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (101..101 + N).collect::<Vec<_>>());
    assert_eq!(env.fake().emissions(), N as usize);
    let next = super::next_number(&env.db, c).await;
    assert_eq!(next, 101 + N);
}

#[tokio::test]
async fn the_preview_is_the_request_that_would_go() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    invoiced(&env.db, c, 15, 1).await;
    let preview = env
        .call(
            &me,
            "previa",
            &[("id", "15"), ("emp", "1"), ("serie", "1")],
            json!({}),
        )
        .await
        .expect("preview");
    // It reads back as the spec's NfePedidoEmissao and writes out the same.
    let typed: NfePedidoEmissao =
        serde_json::from_value(preview.clone()).expect("NfePedidoEmissao");
    assert_eq!(serde_json::to_value(&typed).expect("json"), preview);
    let inf = &typed.infNFe;
    assert_eq!(
        (inf.ide.serie, inf.ide.nNF, inf.ide.cUF, inf.ide.idDest),
        (1, 101, 35, 1)
    );
    assert_eq!(inf.emit.CNPJ.as_deref(), Some("11222333000181"));
    assert_eq!(inf.emit.CRT, Some(1));
    let dest = inf.dest.as_ref().expect("dest");
    assert_eq!(dest.CNPJ.as_deref(), Some("11444777000161"));
    assert_eq!(
        dest.enderDest.as_ref().map(|e| e.cMun.as_str()),
        Some("3550308")
    );
    // One item: the service line is not an NF-e item.
    assert_eq!(inf.det.len(), 1);
    let p = &inf.det[0].prod;
    assert_eq!(
        (p.NCM.as_str(), p.CFOP.as_str(), p.uCom.as_str()),
        ("73181500", "5102", "UN")
    );
    let icms = inf.det[0]
        .imposto
        .ICMS
        .as_ref()
        .and_then(|i| i.ICMSSN102.as_ref())
        .expect("CSOSN 102");
    assert_eq!(icms.CSOSN, "102");
    let t = &inf.total.ICMSTot;
    assert_eq!(
        (
            t.vProd.to_string(),
            t.vDesc.to_string(),
            t.vFrete.to_string(),
            t.vNF.to_string()
        ),
        (
            "100.00".into(),
            "10.00".into(),
            "5.00".into(),
            "95.00".into()
        )
    );
    assert_eq!(inf.pag.detPag[0].tPag, "15");
    // Nothing was numbered or sent.
    assert_eq!(env.fake().emissions(), 0);
    let again = env
        .call(
            &me,
            "previa",
            &[("id", "15"), ("emp", "1"), ("serie", "1")],
            json!({}),
        )
        .await
        .expect("preview");
    assert_eq!(again["infNFe"]["ide"]["nNF"], 101);
}

#[tokio::test]
async fn without_credentials_the_emission_says_where_to_set_them() {
    let env = env(false).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    invoiced(&env.db, c, 16, 1).await;
    let r = env.emit(&me, 16).await;
    assert_eq!(msg(r), MISSING_CREDENTIALS);
}
