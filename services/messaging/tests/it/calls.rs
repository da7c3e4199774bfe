//! The queue's reads and the provider calls: `GET /whatsapp/messages`,
//! `GET /whatsapp/status/{id}` (a message, or `conexao`), `POST /whatsapp/auth`.

use std::time::Duration;

use erp_messaging::fake::Fake;
use serde_json::json;

use crate::*;

#[tokio::test]
async fn messages_are_listed_by_period_status_recipient_and_program() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    evolution_company(&db, &deps, c, &fake, "lista").await;
    for i in 0..5 {
        let to = if i % 2 == 0 { MOBILE } else { "551134567890" };
        send(&db, &deps, c, json!({"MENS_DESCRICAO": format!("Lista {i}"), "MENS_DESTINATARIO": to, "MENS_PROGRAMA": if i < 3 { "PEDIDOS" } else { "OS" }}))
            .await
            .expect("queued");
    }
    send(&db, &deps, c, json!({"MENS_DESCRICAO": "Futura", "MENS_DESTINATARIO": MOBILE, "MENS_DATAHORA": "2999-12-31 10:00"}))
        .await
        .expect("future");
    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(10),
    )
    .await;
    let list = |q: serde_json::Value| call(&db, &deps, c, "whatsapp", "messages", &[], q);
    let all = list(json!({})).await.expect("all");
    assert_eq!(all["count"], 6);
    assert_eq!(all["dados"][0]["MENS_DESCRICAO"], "Futura", "latest first");
    assert_eq!(all["dados"][0]["MENS_STATUS_DESCRICAO"], "Na fila");
    let sent = list(json!({"MENS_STATUS": "E"})).await.expect("sent");
    assert_eq!(sent["count"], 5);
    assert!(sent["dados"]
        .as_array()
        .is_some_and(|d| d.iter().all(|r| r["MENS_STATUS_DESCRICAO"] == "Enviada")));
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::America::Sao_Paulo)
        .format("%Y-%m-%d")
        .to_string();
    let period = list(json!({"DATA_INI": today, "DATA_FIM": today}))
        .await
        .expect("today");
    assert_eq!(period["count"], 5, "the scheduled one is not today's");
    // As the legacy query string sends them: texts.
    let page = list(json!({"MENS_PROGRAMA": "PEDIDOS", "LIMIT": "2", "PAGINATION": "1"}))
        .await
        .expect("page");
    assert_eq!(
        (
            page["count"].as_i64(),
            page["dados"].as_array().map(Vec::len)
        ),
        (Some(3), Some(1))
    );
    let landline = list(json!({"MENS_DESTINATARIO": "(11) 3456-7890"}))
        .await
        .expect("by number");
    assert_eq!(landline["count"], 2);
    assert_eq!(
        msg(list(json!({"MENS_STATUS": "Z"})).await),
        Some("Situação inválida (N, P, E, T, L ou F).".into())
    );
    assert_eq!(
        msg(list(json!({"DATA_INI": "2026-13-01"})).await),
        Some("Data inválida".into())
    );
    assert_eq!(
        msg(list(json!({"DATA_INI": "2026-06-10", "DATA_FIM": "2026-06-01"})).await),
        Some("A data final deve ser igual ou posterior à inicial.".into())
    );
    assert_eq!(
        msg(list(json!({"LIMIT": 0})).await),
        Some("LIMIT deve estar entre 1 e 6000.".into())
    );
}

#[tokio::test]
async fn a_messages_status_and_the_numbers_connection() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let st = |id: &str| {
        let (db, deps, id) = (db.clone(), deps.clone(), id.to_string());
        async move {
            call(
                &db,
                &deps,
                c,
                "whatsapp",
                "status",
                &[("id", &id)],
                json!({}),
            )
            .await
        }
    };
    assert_eq!(
        msg(st("conexao").await),
        Some(erp_messaging::settings::NO_WHATSAPP.into())
    );
    assert_eq!(msg(st("abc").await), Some("Mensagem inválida.".into()));
    assert_eq!(st("999").await.err().map(|e| e.http_status()), Some(404));
    let fake = Fake::start().await.expect("fake");
    evolution_company(&db, &deps, c, &fake, "conecta").await;
    let id = id_of(
        &send(
            &db,
            &deps,
            c,
            json!({"MENS_DESCRICAO": "x", "MENS_DESTINATARIO": MOBILE}),
        )
        .await
        .expect("queued"),
    );
    let s = st(&id.to_string()).await.expect("status");
    assert_eq!(
        (
            s["MENS_STATUS"].as_str(),
            s["MENS_STATUS_DESCRICAO"].as_str()
        ),
        (Some("N"), Some("Na fila"))
    );
    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(10),
    )
    .await;
    let s = st(&id.to_string()).await.expect("status");
    assert_eq!(
        (
            s["MENS_STATUS"].as_str(),
            s["MENS_STATUS_DESCRICAO"].as_str()
        ),
        (Some("E"), Some("Enviada"))
    );

    // Evolution: disconnected, then a QR code to read, then connected.
    assert_eq!(st("conexao").await.expect("state")["state"], "close");
    let auth = call(&db, &deps, c, "whatsapp", "auth", &[], json!({}))
        .await
        .expect("auth");
    assert_eq!(auth["state"], "connecting");
    assert!(
        auth["qrcode"]
            .as_str()
            .is_some_and(|q| q.starts_with("data:image/png;base64,iVBOR")),
        "{auth}"
    );
    assert_eq!(st("conexao").await.expect("state")["state"], "connecting");
    fake.set_state("conecta", "open");
    let open = st("conexao").await.expect("state");
    assert_eq!(
        (open["state"].as_str(), open["msg"].as_str()),
        (Some("open"), Some("Conectado."))
    );
    let auth = call(&db, &deps, c, "whatsapp", "auth", &[], json!({}))
        .await
        .expect("auth");
    assert_eq!(
        (auth["state"].as_str(), auth["qrcode"].as_str()),
        (Some("open"), None)
    );
}

#[tokio::test]
async fn the_cloud_api_number_has_a_state_and_no_qr_code() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "6001").await;
    let s = call(
        &db,
        &deps,
        c,
        "whatsapp",
        "status",
        &[("id", "conexao")],
        json!({}),
    )
    .await
    .expect("state");
    assert_eq!(s["state"], "open");
    assert_eq!(s["nome"], "Empresa Demo");
    assert_eq!(s["qualidade"], "GREEN");
    let auth = call(&db, &deps, c, "whatsapp", "auth", &[], json!({})).await;
    assert_eq!(
        msg(auth),
        Some(erp_messaging::providers::cloud::NO_QR.into())
    );
}
