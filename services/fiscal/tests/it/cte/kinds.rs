//! CT-e beyond the normal one: a complement of values and a substitute name
//! the CT-e they refer to (`infCteComp`, `infCteSub`), the annulment the 4.00
//! layout dropped is refused with what to do instead, and the shipper or the
//! receiver take the service (toma3 1 and 2) with their own groups. Each
//! request follows the provider's schema and the fake authorises it.

use serde_json::json;

use super::super::{client, msg, write, CTX};
use super::schema::{assert_follows_the_spec, request_of};
use super::{env, next_number, seed, typed};

#[tokio::test]
async fn cte_complement_and_substitute_name_the_cte_they_refer_to() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let original = typed(&env.db, c, json!({})).await;
    let doc = env.emit(&me, original).await.expect("original emitted");
    let key = doc["CTE_CHAVE"].as_str().expect("key").to_string();

    // A complement without the CT-e it complements is refused, unnumbered.
    let id = typed(&env.db, c, json!({"CTE_TIPO_CTE": 2})).await;
    let r = env.emit(&me, id).await;
    assert_eq!(
        msg(r),
        "Informe a chave do CT-e complementado (44 dígitos) em Chave do CT-e Complementado/Substituído."
    );
    assert_eq!(next_number(&env.db, c).await, 502);
    write(&env.db, c, "cte", Some(id), json!({"CTE_CHAVE_REF": key}))
        .await
        .expect("key typed");
    let pedido = request_of(&env, c, id).await;
    assert_follows_the_spec(&pedido);
    let inf = &pedido.infCte;
    assert_eq!(inf.ide.tpCTe, 1);
    assert_eq!(inf.infCteComp[0].chCTe, key);
    assert!(
        inf.infCTeNorm.is_none(),
        "a complement carries no cargo group"
    );
    let done = env.emit(&me, id).await.expect("complement emitted");
    assert_eq!(done["CTE_SITUACAO"], "autorizado", "{done}");

    // A substitute carries the cargo and the CT-e it replaces.
    let id = typed(
        &env.db,
        c,
        json!({"CTE_TIPO_CTE": 4, "CTE_CHAVE_REF": key, "CTE_ALTERA_TOMA": true}),
    )
    .await;
    let pedido = request_of(&env, c, id).await;
    assert_follows_the_spec(&pedido);
    assert_eq!(pedido.infCte.ide.tpCTe, 3);
    let sub = pedido
        .infCte
        .infCTeNorm
        .as_ref()
        .and_then(|n| n.infCteSub.as_ref())
        .expect("infCteSub");
    assert_eq!(
        (sub.chCte.as_str(), sub.indAlteraToma),
        (key.as_str(), Some(1))
    );
    let done = env.emit(&me, id).await.expect("substitute emitted");
    assert_eq!(done["CTE_SITUACAO"], "autorizado", "{done}");
    assert_eq!(next_number(&env.db, c).await, 504);

    // The annulment is no longer a CT-e: what to do instead.
    let id = typed(&env.db, c, json!({"CTE_TIPO_CTE": 3})).await;
    let refused = msg(env.emit(&me, id).await);
    assert!(
        refused.starts_with("O CT-e de anulação não existe no leiaute 4.00 da SEFAZ"),
        "{refused}"
    );
    assert_eq!(env.fake().requests("POST", "/cte"), 3);
}

#[tokio::test]
async fn cte_shipper_or_receiver_take_the_service_with_their_groups() {
    let env = env(true).await;
    let c = client();
    let me = CTX.caller(c, 1);
    seed(&env.db, c).await;
    let id = typed(&env.db, c, json!({"CTE_TOMADOR": 1})).await;
    assert_eq!(
        msg(env.emit(&me, id).await),
        "O tomador do serviço é o expedidor: informe o expedidor do CT-e (cliente ou nome, CPF/CNPJ e endereço)."
    );
    let receiver = json!({"CTE_RECEB_NOME": "RECEBEDOR CAMPINAS LTDA", "CTE_RECEB_CNPJCPF": "45.997.418/0001-53",
        "CTE_RECEB_ENDERECO": "Rua Barão de Jaguara", "CTE_RECEB_NUMERO": "510", "CTE_RECEB_BAIRRO": "Centro",
        "CTE_RECEB_MUN_IBGE": "3509502", "CTE_RECEB_MUNICIPIO": "Campinas", "CTE_RECEB_UF": "SP"});
    // The shipper from the customer copy (7, with its IE) takes the service.
    let mut body = receiver.clone();
    body["CTE_TOMADOR"] = json!(1);
    body["CTE_EXPED_CLI_ID"] = json!(7);
    let id = typed(&env.db, c, body).await;
    let pedido = request_of(&env, c, id).await;
    assert_follows_the_spec(&pedido);
    let inf = &pedido.infCte;
    assert_eq!(inf.ide.toma3.as_ref().map(|t| t.toma), Some(1));
    assert_eq!(inf.ide.indIEToma, 1);
    assert_eq!(
        inf.exped.as_ref().and_then(|e| e.CNPJ.as_deref()),
        Some("11444777000161")
    );
    assert_eq!(
        inf.receb.as_ref().map(|r| r.enderReceb.cMun.as_str()),
        Some("3509502")
    );
    let done = env.emit(&me, id).await.expect("emitted");
    assert_eq!(done["CTE_SITUACAO"], "autorizado", "{done}");
    assert_eq!(
        done["CTE_CNPJCPF"], "11444777000161",
        "the taker's document is the shipper's"
    );
    // The receiver takes it: no IE, so a non-contributor taker (9).
    let mut body = receiver;
    body["CTE_TOMADOR"] = json!(2);
    let id = typed(&env.db, c, body).await;
    let pedido = request_of(&env, c, id).await;
    assert_follows_the_spec(&pedido);
    assert_eq!(pedido.infCte.ide.toma3.as_ref().map(|t| t.toma), Some(2));
    assert_eq!(pedido.infCte.ide.indIEToma, 9);
    assert!(pedido.infCte.exped.is_none());
    let done = env.emit(&me, id).await.expect("emitted");
    assert_eq!(done["CTE_SITUACAO"], "autorizado", "{done}");
}
