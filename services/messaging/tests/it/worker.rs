//! The worker against the fake providers over HTTP: what reaches them, retries
//! and failures, waiting for a provider, sending hours, the rate per minute, and
//! claims taken over when a worker dies.

use std::time::Duration;

use chrono::Utc;
use chrono_tz::America::Sao_Paulo;
use erp_messaging::fake::{Answer, Fake};
use erp_messaging::queue::{self, Key};
use erp_messaging::worker::Outcome;
use serde_json::json;

use crate::*;

fn text(to: &str, t: &str) -> serde_json::Value {
    json!({"MENS_DESCRICAO": t, "MENS_DESTINATARIO": to, "MENS_TIPO": "T"})
}

#[tokio::test]
async fn cloud_api_gets_text_image_document_and_template() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "1001").await;
    let t = id_of(
        &send(&db, &deps, c, text(MOBILE, "Olá, seu pedido saiu."))
            .await
            .expect("t"),
    );
    let i = id_of(
        &send(&db, &deps, c, json!({"MENS_DESCRICAO": "A peça", "MENS_DESTINATARIO": MOBILE, "MENS_TIPO": "I", "arquivos": [file("peca.png", PNG)]}))
            .await
            .expect("i"),
    );
    let (pdf, _, _) = report_files();
    let d = id_of(
        &send(
            &db,
            &deps,
            c,
            json!({"MENS_DESCRICAO": "Sua nota", "MENS_DESTINATARIO": MOBILE, "MENS_TIPO": "D",
            "MENS_DOC_TIPO": "NFE", "MENS_DOC_ID": 55, "arquivos": [file("Nota 55.pdf", &pdf)]}),
        )
        .await
        .expect("d"),
    );
    let p = id_of(
        &send(&db, &deps, c, json!({"MENS_DESTINATARIO": MOBILE, "MENS_TEMPLATE": "pedido_pronto", "MENS_TEMPLATE_PARAMETROS": "[\"12\"]"}))
            .await
            .expect("template"),
    );
    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(20),
    )
    .await;
    let sends = fake.sends();
    assert_eq!(sends.len(), 4, "{sends:?}");
    let by_text = |t: &str| {
        sends
            .iter()
            .find(|s| s.text == t)
            .cloned()
            .unwrap_or_else(|| panic!("{t}: {sends:?}"))
    };
    let s = by_text("Olá, seu pedido saiu.");
    assert_eq!(
        (
            s.provider,
            s.sender.as_str(),
            s.to.as_str(),
            s.kind.as_str()
        ),
        ("cloud", "1001", MOBILE, "text")
    );
    let s = by_text("A peça");
    assert_eq!((s.kind.as_str(), s.file.as_deref()), ("image", Some(PNG)));
    let s = by_text("Sua nota");
    assert_eq!(
        (s.kind.as_str(), s.file_name.as_deref()),
        ("document", Some("Nota_55.pdf"))
    );
    assert_eq!(
        s.file.as_deref(),
        Some(pdf.as_slice()),
        "the document byte for byte"
    );
    assert_eq!(by_text("pedido_pronto").kind, "template");
    for id in [t, i, d, p] {
        let r = row(&db, c, id).await;
        assert_eq!(r["mens_status"], "E", "{r}");
        assert_eq!(r["mens_provedor"], "cloud");
        assert_eq!(r["mens_tentativas"], 1);
        assert!(r["mens_dta_envio"].is_string());
        let pid = r["mens_provedor_id"].as_str().expect("provider id");
        assert!(sends.iter().any(|s| s.id == pid), "{pid}");
    }
    assert_eq!(row(&db, c, d).await["mens_doc_id"], 55);
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM messaging.fila WHERE client_id = $1")
        .bind(c)
        .fetch_one(&db.pool)
        .await
        .expect("fila");
    assert_eq!(left, 0, "nothing left to dispatch");
}

#[tokio::test]
async fn evolution_api_gets_text_and_media() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    evolution_company(&db, &deps, c, &fake, "loja1").await;
    let t = id_of(
        &send(&db, &deps, c, text("551134567890", "Bom dia"))
            .await
            .expect("t"),
    );
    let d = id_of(
        &send(&db, &deps, c, json!({"MENS_DESCRICAO": "Boleto", "MENS_DESTINATARIO": MOBILE, "MENS_TIPO": "D", "arquivos": [file("boleto.pdf", b"%PDF-1.4 boleto")]}))
            .await
            .expect("d"),
    );
    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(20),
    )
    .await;
    let sends = fake.sends();
    assert_eq!(sends.len(), 2, "{sends:?}");
    assert!(sends
        .iter()
        .all(|s| s.provider == "evolution" && s.sender == "loja1"));
    let doc = sends.iter().find(|s| s.text == "Boleto").expect("doc");
    assert_eq!(
        (doc.kind.as_str(), doc.file.as_deref()),
        ("document", Some(&b"%PDF-1.4 boleto"[..]))
    );
    for id in [t, d] {
        assert_eq!(row(&db, c, id).await["mens_status"], "E");
    }
}

#[tokio::test]
async fn without_a_provider_a_message_waits_with_the_reason_and_goes_once_configured() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let id = id_of(
        &send(&db, &deps, c, text(MOBILE, "Aguardando"))
            .await
            .expect("queued"),
    );
    let w = worker(&db, &deps, test_config(c));
    w.round(&erp_platform::shutdown::Shutdown::new())
        .await
        .expect("round");
    let r = row(&db, c, id).await;
    assert_eq!(r["mens_status"], "N", "never lost, still queued");
    assert_eq!(
        r["mens_erro"],
        "Nenhum provedor de WhatsApp configurado para a empresa."
    );
    assert_eq!(r["mens_tentativas"], 0);
    let later: bool = sqlx::query_scalar("SELECT due_at > now() + interval '5 minutes' FROM messaging.fila WHERE client_id = $1 AND mens_id = $2")
        .bind(c)
        .bind(id)
        .fetch_one(&db.pool)
        .await
        .expect("due");
    assert!(later, "looked at again later");
    // Saving the settings wakes it.
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "1002").await;
    drain(&w, &db, c, Duration::from_secs(10)).await;
    let r = row(&db, c, id).await;
    assert_eq!(r["mens_status"], "E");
    assert_eq!(r["mens_erro"], serde_json::Value::Null);
    assert_eq!(fake.sends().len(), 1);
}

#[tokio::test]
async fn busy_or_broken_answers_are_retried_with_backoff() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "1003").await;
    fake.script([Answer::Status(429), Answer::Status(503)]);
    let id = id_of(
        &send(&db, &deps, c, text(MOBILE, "Tente de novo"))
            .await
            .expect("queued"),
    );
    let w = worker(&db, &deps, test_config(c));
    let stop = erp_platform::shutdown::Shutdown::new();
    w.round(&stop).await.expect("first");
    let r = row(&db, c, id).await;
    assert_eq!(r["mens_status"], "P");
    assert!(
        r["mens_erro"]
            .as_str()
            .is_some_and(|e| e.contains("Nova tentativa às")),
        "{r}"
    );
    drain(&w, &db, c, Duration::from_secs(10)).await;
    let r = row(&db, c, id).await;
    assert_eq!(r["mens_status"], "E");
    assert_eq!(r["mens_tentativas"], 3);
    assert_eq!(fake.requests(), 3);
    assert_eq!(fake.sends().len(), 1, "accepted once");
}

#[tokio::test]
async fn a_final_refusal_fails_the_message_with_its_reason_and_it_can_be_resent() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "1004").await;
    fake.script([Answer::GraphError(131047)]);
    let id = id_of(
        &send(&db, &deps, c, text(MOBILE, "Fora da janela"))
            .await
            .expect("queued"),
    );
    let w = worker(&db, &deps, test_config(c));
    drain(&w, &db, c, Duration::from_secs(10)).await;
    let r = row(&db, c, id).await;
    assert_eq!(r["mens_status"], "F");
    assert_eq!(
        r["mens_erro"],
        erp_messaging::providers::cloud::TEMPLATE_NEEDED
    );
    assert_eq!(r["mens_tentativas"], 1, "not retried");
    // Only a failed message is resent; it goes to the queue and out.
    let r2 = call(
        &db,
        &deps,
        c,
        "whatsapp",
        "reenviar",
        &[("id", &id.to_string())],
        json!({}),
    )
    .await
    .expect("resend");
    assert_eq!(r2["msg"], "Mensagem colocada de novo na fila.");
    assert_eq!(row(&db, c, id).await["mens_status"], "N");
    drain(&w, &db, c, Duration::from_secs(10)).await;
    assert_eq!(row(&db, c, id).await["mens_status"], "E");
    let again = call(
        &db,
        &deps,
        c,
        "whatsapp",
        "reenviar",
        &[("id", &id.to_string())],
        json!({}),
    )
    .await;
    assert_eq!(
        msg(again),
        Some("Só mensagens que falharam podem ser reenviadas.".into())
    );
    // An expired token is a final failure too, said plainly.
    configure_token(&db, &deps, c, "expirado").await;
    let id = id_of(
        &send(&db, &deps, c, text(MOBILE, "Token vencido"))
            .await
            .expect("queued"),
    );
    drain(&w, &db, c, Duration::from_secs(10)).await;
    let r = row(&db, c, id).await;
    assert_eq!(
        (r["mens_status"].as_str(), r["mens_erro"].as_str()),
        (
            Some("F"),
            Some(erp_messaging::providers::cloud::TOKEN_INVALID)
        )
    );
}

async fn configure_token(
    db: &erp_platform::db::Db,
    deps: &std::sync::Arc<erp_messaging::Deps>,
    c: i64,
    token: &str,
) {
    let r = res(deps, "whatsappconfig");
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let id: i64 =
        sqlx::query_scalar("SELECT wcfg_id FROM messaging.whatsapp_config WHERE client_id = $1")
            .bind(c)
            .fetch_one(&mut *tx)
            .await
            .expect("id");
    erp_platform::resource::query::update(
        &mut tx,
        &r,
        &caller(c),
        Some(1),
        &[id.to_string()],
        &body(json!({"WCFG_TOKEN": token})),
    )
    .await
    .expect("update");
    tx.commit().await.expect("commit");
}

#[tokio::test]
async fn retries_end_after_the_last_attempt() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    evolution_company(&db, &deps, c, &fake, "loja-falha").await;
    fake.script((0..4).map(|_| Answer::Status(502)));
    let id = id_of(
        &send(&db, &deps, c, text(MOBILE, "Nunca vai"))
            .await
            .expect("queued"),
    );
    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(10),
    )
    .await;
    let r = row(&db, c, id).await;
    assert_eq!(r["mens_status"], "F");
    assert_eq!(r["mens_tentativas"], 4);
    assert_eq!(
        r["mens_erro"],
        "A Evolution API respondeu 502; nova tentativa em instantes."
    );
    assert_eq!(fake.sends().len(), 0);
}

#[tokio::test]
async fn a_send_whose_answer_never_came_is_retried() {
    // The provider accepted the message but its answer came after our timeout:
    // the worker cannot know, and tries again. Neither the Cloud API nor the
    // Evolution API documents an idempotency key, so the provider may deliver
    // twice: what the fake records shows it.
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "1005").await;
    fake.script([Answer::AcceptThenHang(Duration::from_secs(3))]);
    let id = id_of(
        &send(&db, &deps, c, text(MOBILE, "Demorou"))
            .await
            .expect("queued"),
    );
    let cfg =
        erp_messaging::worker::Config { timeout: Duration::from_millis(500), ..test_config(c) };
    let w = worker(&db, &deps, cfg);
    let stop = erp_platform::shutdown::Shutdown::new();
    w.round(&stop).await.expect("round");
    let r = row(&db, c, id).await;
    assert_eq!(r["mens_status"], "P");
    assert!(
        r["mens_erro"]
            .as_str()
            .is_some_and(|e| e.starts_with("a API do WhatsApp (Cloud API) não respondeu a tempo.")),
        "{r}"
    );
    drain(&w, &db, c, Duration::from_secs(10)).await;
    let r = row(&db, c, id).await;
    assert_eq!(
        (r["mens_status"].as_str(), r["mens_tentativas"].as_i64()),
        (Some("E"), Some(2))
    );
    assert_eq!(
        fake.sends().len(),
        2,
        "accepted twice: the first answer was lost"
    );
}

/// 'HH:MM' of Brasília `minutes` from now.
fn hhmm(minutes: i64) -> String {
    (Utc::now() + chrono::Duration::minutes(minutes))
        .with_timezone(&Sao_Paulo)
        .format("%H:%M")
        .to_string()
}

#[tokio::test]
async fn outside_sending_hours_only_messages_asked_for_now_go() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    configure(
        &db,
        &deps,
        c,
        "whatsappconfig",
        json!({"WCFG_PROVEDOR": "cloud", "WCFG_URL": fake.cloud_url(), "WCFG_NUMERO_ID": "1006", "WCFG_TOKEN": "t",
               "WCFG_HORA_INICIO": hhmm(120), "WCFG_HORA_FIM": hhmm(180)}),
    )
    .await;
    let now = id_of(
        &send(&db, &deps, c, text(MOBILE, "Agora"))
            .await
            .expect("now"),
    );
    let due = Utc::now() + chrono::Duration::milliseconds(300);
    let soon = due.to_rfc3339();
    let scheduled = id_of(&send(&db, &deps, c, json!({"MENS_DESCRICAO": "Agendada", "MENS_DESTINATARIO": MOBILE, "MENS_DATAHORA": soon})).await.expect("scheduled"));
    // Until the scheduled time has passed (a clock condition, not a fixed pause).
    while Utc::now() <= due {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(10),
    )
    .await;
    assert_eq!(row(&db, c, now).await["mens_status"], "E");
    assert_eq!(row(&db, c, scheduled).await["mens_status"], "N");
    let wait: f64 = sqlx::query_scalar("SELECT extract(epoch FROM due_at - now())::float8 FROM messaging.fila WHERE client_id = $1 AND mens_id = $2")
        .bind(c)
        .bind(scheduled)
        .fetch_one(&db.pool)
        .await
        .expect("due");
    // Due at the window's start, about two hours from now (the minute rounded).
    assert!((7000.0..=7300.0).contains(&wait), "{wait}");
    assert_eq!(fake.sends().len(), 1);
}

#[tokio::test]
async fn sends_keep_the_companys_pace_evenly_and_each_slot_serves_once() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    // 3 a minute: one send every 20 s, whatever the clock's minute.
    configure(
        &db,
        &deps,
        c,
        "whatsappconfig",
        json!({"WCFG_PROVEDOR": "evolution", "WCFG_URL": fake.evolution_url(), "WCFG_INSTANCIA": "ritmo", "WCFG_TOKEN": "k",
               "WCFG_LIMITE_MINUTO": 3}),
    )
    .await;
    for i in 0..5 {
        send(&db, &deps, c, text(MOBILE, &format!("Ritmo {i}")))
            .await
            .expect("queued");
    }
    let w = worker(&db, &deps, test_config(c));
    let stop = erp_platform::shutdown::Shutdown::new();
    w.round(&stop).await.expect("round");
    assert_eq!(fake.sends().len(), 1, "one slot now");
    // The other four hold the next slots, 20 s apart, and are due then.
    let waits: Vec<f64> = sqlx::query_scalar(
        "SELECT extract(epoch FROM vez - now())::float8 FROM messaging.fila
         WHERE client_id = $1 AND vez = due_at ORDER BY vez",
    )
    .bind(c)
    .fetch_all(&db.pool)
    .await
    .expect("fila");
    assert_eq!(waits.len(), 4, "{waits:?}");
    for (i, w) in waits.iter().enumerate() {
        let expected = 20.0 * (i as f64 + 1.0);
        assert!(
            (w - expected).abs() < 2.0,
            "slot {i}: {w} s, not {expected}: {waits:?}"
        );
    }
    // Another round before any slot: nothing goes out, nothing takes a new slot.
    w.round(&stop).await.expect("round");
    assert_eq!(fake.sends().len(), 1);
    let last: f64 = sqlx::query_scalar(
        "SELECT extract(epoch FROM proximo - now())::float8 FROM messaging.compasso WHERE client_id = $1",
    )
    .bind(c)
    .fetch_one(&db.pool)
    .await
    .expect("compasso");
    assert!(
        (last - 100.0).abs() < 2.0,
        "the next free slot is after the fourth: {last}"
    );
    // The first waiting slot arrives (moved to now rather than waited for): that
    // message goes out on it, without taking another.
    sqlx::query(
        "UPDATE messaging.fila SET vez = now(), due_at = now()
         WHERE client_id = $1 AND vez = (SELECT min(vez) FROM messaging.fila WHERE client_id = $1)",
    )
    .bind(c)
    .execute(&db.pool)
    .await
    .expect("slot now");
    w.round(&stop).await.expect("round");
    assert_eq!(fake.sends().len(), 2);
    let (waiting, after): (i64, f64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM messaging.fila WHERE client_id = $1),
                (SELECT extract(epoch FROM proximo - now())::float8 FROM messaging.compasso WHERE client_id = $1)",
    )
    .bind(c)
    .fetch_one(&db.pool)
    .await
    .expect("left");
    assert_eq!(waiting, 3);
    assert!((after - 100.0).abs() < 2.0, "no slot taken: {after}");
}

#[tokio::test]
async fn a_dead_workers_claim_is_taken_over_when_its_lease_ends() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "1007").await;
    let id = id_of(
        &send(&db, &deps, c, text(MOBILE, "Órfã"))
            .await
            .expect("queued"),
    );
    // A worker claims it for a second and dies before doing anything.
    let dead = uuid::Uuid::now_v7();
    let claims = queue::claim(&db, dead, 1000, Duration::from_secs(1), Some(&[c]))
        .await
        .expect("claim");
    assert_eq!(
        claims.iter().map(|k| k.key).collect::<Vec<_>>(),
        vec![Key { client: c, emp: 1, id }]
    );
    let w = worker(&db, &deps, test_config(c));
    let stop = erp_platform::shutdown::Shutdown::new();
    w.round(&stop).await.expect("round");
    assert_eq!(fake.sends().len(), 0, "held by the lease");
    // The dead worker's lease ends (moved to the past rather than waited for).
    sqlx::query("UPDATE messaging.fila SET lease_until = now() - interval '1 second' WHERE client_id = $1 AND mens_id = $2")
        .bind(c)
        .bind(id)
        .execute(&db.pool)
        .await
        .expect("lease ended");
    drain(&w, &db, c, Duration::from_secs(10)).await;
    assert_eq!(fake.sends().len(), 1);
    assert_eq!(row(&db, c, id).await["mens_status"], "E");
    // A stray dispatch row of a message already sent sends nothing again.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    queue::dispatch(
        &mut tx,
        Key { client: c, emp: 1, id },
        queue::Channel::Whatsapp,
        Utc::now(),
    )
    .await
    .expect("stray");
    tx.commit().await.expect("commit");
    let claimed = queue::claim(
        &db,
        uuid::Uuid::now_v7(),
        1000,
        Duration::from_secs(5),
        Some(&[c]),
    )
    .await
    .expect("claim")
    .pop()
    .expect("the stray row");
    assert_eq!(w.handle(claimed).await.expect("handled"), Outcome::Waiting);
    assert_eq!(fake.sends().len(), 1, "never sent twice");
}
