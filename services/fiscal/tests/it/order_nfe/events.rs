//! After the emission: cancel and correction letter (texts too short refused
//! in pt-BR), the XML and DANFE, the accountant's list, removal, and another
//! tenant's order and NF-e out of reach.

use serde_json::{json, Value};

use super::super::env::file;
use super::super::{client, msg, CTX};
use super::{env, invoiced, seed, Env};

async fn authorised(env: &Env, c: i64, pedido: i64) -> Value {
    seed(&env.db, c).await;
    invoiced(&env.db, c, pedido, 1).await;
    let doc = env.emit(&CTX.caller(c, 1), pedido).await.expect("emitted");
    assert_eq!(doc["PEXM_SITUACAO"], "autorizado", "{doc}");
    doc
}

#[tokio::test]
async fn cancel_needs_a_justification_and_tells_orders() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    let doc = authorised(&env, c, 20).await;
    let r = env
        .on(&me, "cancelar", &doc, json!({"JUSTIFICATIVA": "curta"}))
        .await;
    assert_eq!(
        msg(r),
        "A justificativa do cancelamento deve ter entre 15 e 255 caracteres."
    );
    let done = env
        .on(
            &me,
            "cancelar",
            &doc,
            json!({"JUSTIFICATIVA": "Pedido cancelado pelo cliente."}),
        )
        .await
        .expect("cancelled");
    assert_eq!(done["PEXM_SITUACAO"], "cancelado");
    assert!(done["PEXM_CANCEL_PROTOCOLO"].as_str().is_some());
    let n: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM fiscal.outbox WHERE client_id = $1 AND subject = 'erp.fiscal.nfe.cancelada'",
    )
    .bind(c)
    .fetch_one(&env.db.pool)
    .await
    .expect("outbox");
    assert_eq!(n, 1);
    let r = env
        .on(
            &me,
            "cancelar",
            &doc,
            json!({"JUSTIFICATIVA": "Pedido cancelado pelo cliente."}),
        )
        .await;
    assert_eq!(msg(r), "Só é possível cancelar uma NF-e autorizada.");
    // A cancelled NF-e cannot be removed either.
    let reg = erp_fiscal::resources::registry().expect("registry");
    let id = doc["PEXM_ID"].to_string();
    let r = CTX
        .delete(
            &env.db,
            reg.get("pedidofatxml").expect("res"),
            &me,
            Some(1),
            &[id],
        )
        .await;
    assert_eq!(
        msg(r.map(|_| Value::Null)),
        "Só se exclui uma NF-e rejeitada ou não enviada: uma NF-e autorizada é cancelada."
    );
}

#[tokio::test]
async fn correction_letters_are_numbered() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    let doc = authorised(&env, c, 21).await;
    let r = env
        .on(&me, "cartacorrecao", &doc, json!({"CORRECAO": "curta"}))
        .await;
    assert_eq!(
        msg(r),
        "A correção da carta de correção deve ter entre 15 e 1000 caracteres."
    );
    for n in 1..=2 {
        let out = env
            .on(
                &me,
                "cartacorrecao",
                &doc,
                json!({"CORRECAO": format!("Correção número {n} do endereço de entrega.")}),
            )
            .await
            .expect("registered");
        assert_eq!(out["PEXM_CCE_SEQ"], n);
        assert_eq!(out["msg"], "Carta de correção registrada.");
    }
}

#[tokio::test]
async fn xml_danfe_and_the_accountant_s_list() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    let doc = authorised(&env, c, 22).await;
    let xml = file(
        &env.on(&me, "xml", &doc, json!({})).await.expect("xml"),
        "application/xml",
    );
    let text = String::from_utf8(xml).expect("utf-8");
    let key = doc["PEXM_CHAVE"].as_str().expect("key");
    assert!(text.contains(key), "{text}");
    let pdf = file(
        &env.on(&me, "danfe", &doc, json!({})).await.expect("pdf"),
        "application/pdf",
    );
    assert!(pdf.starts_with(b"%PDF"));
    let today = chrono::Utc::now().date_naive();
    let rows = env
        .call(&me, "filtrocontador", &[("emp", "1")], json!({"DATA_INI": (today - chrono::Days::new(1)).to_string(), "DATA_FIM": (today + chrono::Days::new(1)).to_string()}))
        .await
        .expect("list");
    assert_eq!(rows.as_array().map(Vec::len), Some(1));
    assert_eq!(rows[0]["PEXM_CHAVE"], key);
    let r = env
        .call(
            &me,
            "filtrocontador",
            &[("emp", "1")],
            json!({"DATA_INI": "2026-02-01"}),
        )
        .await;
    assert_eq!(msg(r), "Informe DATA_FIM (AAAA-MM-DD).");
}

#[tokio::test]
async fn another_tenant_reaches_neither_the_order_nor_its_nfe() {
    let env = env(true).await;
    let c = client();
    let doc = authorised(&env, c, 23).await;
    let other = client();
    let them = CTX.caller(other, 1);
    seed(&env.db, other).await;
    let r = env.emit(&them, 23).await;
    assert_eq!(
        msg(r),
        "Pedido faturado não encontrado: a NF-e é emitida de um pedido já faturado."
    );
    let r = env
        .call(
            &them,
            "previa",
            &[("id", "23"), ("emp", "1"), ("serie", "1")],
            json!({}),
        )
        .await;
    assert_eq!(
        msg(r),
        "Pedido faturado não encontrado: a NF-e é emitida de um pedido já faturado."
    );
    for action in ["consultar", "xml"] {
        let r = env.on(&them, action, &doc, json!({})).await;
        assert_eq!(msg(r), "NF-e não encontrada.");
    }
    let r = env
        .on(
            &them,
            "cancelar",
            &doc,
            json!({"JUSTIFICATIVA": "Tentativa de outro cliente."}),
        )
        .await;
    assert_eq!(msg(r), "NF-e não encontrada.");
    assert_eq!(env.fake().emissions(), 1);
}

#[tokio::test]
async fn a_rejected_nfe_is_removed_and_its_number_returns() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    invoiced(&env.db, c, 24, 2).await;
    let doc = env.emit(&me, 24).await.expect("answered");
    assert_eq!(doc["PEXM_SITUACAO"], "rejeitado");
    let consulted = env
        .on(&me, "consultar", &doc, json!({}))
        .await
        .expect("consulted");
    assert_eq!(consulted["cStat"], "778");
    let reg = erp_fiscal::resources::registry().expect("registry");
    CTX.delete(
        &env.db,
        reg.get("pedidofatxml").expect("res"),
        &me,
        Some(1),
        &[doc["PEXM_ID"].to_string()],
    )
    .await
    .expect("removed");
    let next = super::next_number(&env.db, c).await;
    assert_eq!(next, doc["PEXM_NUMERO"].as_i64().expect("number"));
}
