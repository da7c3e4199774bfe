//! The registers: the settings pass the engine's table-driven test, keep their
//! secrets sealed and never answer them, route a number to one company only;
//! the queue is read-only through the generic writes.

use serde_json::json;

use crate::*;

#[tokio::test]
async fn every_writable_register_passes_the_table_driven_test() {
    let db = db().await;
    let deps = deps();
    let all = registry(&deps);
    let writable: Vec<_> = all
        .all()
        .iter()
        .filter(|r| r.sample.is_some())
        .map(|r| (**r).clone())
        .collect();
    assert_eq!(writable.len(), 2, "the two settings registers");
    let reg = erp_platform::resource::Registry::new(writable).expect("registry");
    let n = erp_platform::testing::exercise_registry(&db, &reg, client())
        .await
        .expect("exercise_registry");
    assert_eq!(n, 2);
}

#[tokio::test]
async fn secrets_are_sealed_at_rest_and_never_answered() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let row = configure(
        &db,
        &deps,
        c,
        "whatsappconfig",
        json!({"WCFG_PROVEDOR": "cloud", "WCFG_NUMERO_ID": "4001", "WCFG_TOKEN": "EAAG-token-secreto",
               "WCFG_APP_SECRET": "app-secreto", "WCFG_VERIFY_TOKEN": "verifica-secreto"}),
    )
    .await;
    let text = row.to_string();
    for secret in ["EAAG-token-secreto", "app-secreto", "verifica-secreto"] {
        assert!(!text.contains(secret), "answered {secret}: {text}");
    }
    assert!(row.get("WCFG_TOKEN").is_none());
    let listed = CTX
        .list(
            &db,
            &res(&deps, "whatsappconfig"),
            &caller(c),
            Some(1),
            &body(json!({})),
        )
        .await
        .expect("list");
    assert!(!serde_json::to_string(&listed)
        .unwrap_or_default()
        .contains("secreto"));
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let (token, app): (String, String) = sqlx::query_as(
        "SELECT wcfg_token, wcfg_app_secret FROM messaging.whatsapp_config WHERE client_id = $1",
    )
    .bind(c)
    .fetch_one(&mut *tx)
    .await
    .expect("stored");
    assert!(
        !token.contains("EAAG") && !app.contains("app-secreto"),
        "sealed"
    );
    let w = erp_messaging::settings::whatsapp(&mut tx, &deps.sealer, c, 1)
        .await
        .expect("open")
        .expect("settings");
    assert_eq!(
        (w.token.as_str(), w.app_secret.as_deref()),
        ("EAAG-token-secreto", Some("app-secreto"))
    );
    drop(tx);
    // A blank secret on an edit keeps the stored one.
    let id = row["WCFG_ID"].to_string();
    CTX.update(
        &db,
        &res(&deps, "whatsappconfig"),
        &caller(c),
        Some(1),
        &[id],
        &body(json!({"WCFG_TOKEN": "", "WCFG_LIMITE_MINUTO": 10})),
    )
    .await
    .expect("edit");
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let w = erp_messaging::settings::whatsapp(&mut tx, &deps.sealer, c, 1)
        .await
        .expect("open")
        .expect("settings");
    assert_eq!(
        (w.token.as_str(), w.per_minute),
        ("EAAG-token-secreto", Some(10))
    );
    // A sealed value copied to another tenant's row does not open there.
    let moved = deps.sealer.open_text(
        &token,
        &erp_messaging::settings::place("whatsapp_config", c + 1, 1, "WCFG_TOKEN"),
    );
    assert!(moved.is_err());
}

#[tokio::test]
async fn a_number_belongs_to_one_company_and_settings_say_what_they_miss() {
    let db = db().await;
    let deps = deps();
    let (a, b) = (client(), client());
    let r = res(&deps, "whatsappconfig");
    let create = |c: i64, v: serde_json::Value| {
        let (db, r) = (db.clone(), r.clone());
        async move { CTX.create(&db, &r, &caller(c), Some(1), &body(v)).await }
    };
    create(
        a,
        json!({"WCFG_PROVEDOR": "cloud", "WCFG_NUMERO_ID": "4100", "WCFG_TOKEN": "t"}),
    )
    .await
    .expect("a");
    let taken = create(
        b,
        json!({"WCFG_PROVEDOR": "cloud", "WCFG_NUMERO_ID": "4100", "WCFG_TOKEN": "t"}),
    )
    .await;
    assert_eq!(
        msg(taken),
        Some(erp_messaging::resources::settings::TAKEN.into())
    );
    let again = create(
        a,
        json!({"WCFG_PROVEDOR": "cloud", "WCFG_NUMERO_ID": "4101", "WCFG_TOKEN": "t"}),
    )
    .await;
    assert_eq!(
        msg(again),
        Some("A empresa já tem configuração de WhatsApp.".into())
    );
    for (v, m) in [
        (
            json!({"WCFG_PROVEDOR": "cloud", "WCFG_TOKEN": "t"}),
            "Informe o ID do número (Cloud API).",
        ),
        (
            json!({"WCFG_PROVEDOR": "cloud", "WCFG_NUMERO_ID": "4102"}),
            "Informe o token de acesso (ou apikey) do provedor.",
        ),
        (
            json!({"WCFG_PROVEDOR": "evolution", "WCFG_INSTANCIA": "x", "WCFG_TOKEN": "t"}),
            "Informe o endereço da Evolution API.",
        ),
        (
            json!({"WCFG_PROVEDOR": "evolution", "WCFG_URL": "ftp://x", "WCFG_INSTANCIA": "x", "WCFG_TOKEN": "t"}),
            "Endereço da API inválido (http:// ou https://).",
        ),
        (
            json!({"WCFG_PROVEDOR": "cloud", "WCFG_NUMERO_ID": "4103", "WCFG_TOKEN": "t", "WCFG_HORA_INICIO": "25:00", "WCFG_HORA_FIM": "18:00"}),
            "Horário inválido (use HH:MM).",
        ),
        (
            json!({"WCFG_PROVEDOR": "cloud", "WCFG_NUMERO_ID": "4104", "WCFG_TOKEN": "t", "WCFG_HORA_INICIO": "08:00"}),
            "Informe o início e o fim do horário de envio.",
        ),
        (
            json!({"WCFG_PROVEDOR": "sms", "WCFG_TOKEN": "t"}),
            "Valor inválido para o campo Provedor.",
        ),
    ] {
        assert_eq!(msg(create(b, v.clone()).await), Some(m.into()), "{v}");
    }
    // Once A's settings go, the number is free.
    let mut tx = db.begin_tenant(a).await.expect("tx");
    let id: i64 = sqlx::query_scalar("SELECT wcfg_id FROM messaging.whatsapp_config")
        .fetch_one(&mut *tx)
        .await
        .expect("id");
    drop(tx);
    CTX.delete(&db, &r, &caller(a), Some(1), &[id.to_string()])
        .await
        .expect("delete");
    create(
        b,
        json!({"WCFG_PROVEDOR": "cloud", "WCFG_NUMERO_ID": "4100", "WCFG_TOKEN": "t"}),
    )
    .await
    .expect("b takes it");
    let route: (i64,) = sqlx::query_as(
        "SELECT client_id FROM messaging.rotas WHERE provedor = 'cloud' AND chave = '4100'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("route");
    assert_eq!(route.0, b);
}

#[tokio::test]
async fn the_queue_is_read_only_through_the_generic_writes() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let v = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESCRICAO": "x", "MENS_DESTINATARIO": MOBILE}),
    )
    .await
    .expect("queued");
    let r = res(&deps, "whatsapp");
    let refused = CTX
        .create(
            &db,
            &r,
            &caller(c),
            Some(1),
            &body(json!({"MENS_DESTINATARIO": MOBILE})),
        )
        .await;
    assert_eq!(
        msg(refused),
        Some(erp_messaging::resources::messages::READ_ONLY.into())
    );
    let key = [id_of(&v).to_string()];
    let refused = CTX
        .update(
            &db,
            &r,
            &caller(c),
            Some(1),
            &key,
            &body(json!({"MENS_STATUS": "L"})),
        )
        .await;
    assert_eq!(
        msg(refused),
        Some(erp_messaging::resources::messages::READ_ONLY.into())
    );
    let refused = CTX.delete(&db, &r, &caller(c), Some(1), &key).await;
    assert_eq!(
        msg(refused),
        Some(erp_messaging::resources::messages::READ_ONLY.into())
    );
    let got = CTX
        .get(&db, &r, &caller(c), Some(1), &key)
        .await
        .expect("get");
    assert_eq!(
        (
            got["MENS_STATUS"].as_str(),
            got["MENS_DESTINATARIO"].as_str()
        ),
        (Some("N"), Some(MOBILE))
    );
}
