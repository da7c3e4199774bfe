//! Messaging through the gateway: the multipart form calls, the queue's GET
//! calls with their query string, the providers' public webhooks (signature
//! checked before anything changes), and another tenant seeing none of it.

use std::time::{Duration, Instant};

use erp_messaging::fake::{self, Fake};
use erp_messaging::providers::cloud;
use reqwest::multipart::{Form, Part};
use reqwest::Method;
use serde_json::{json, Value};

use crate::{admin, app, http, login, read, serial, User, OTHER};

const PHONE_ID: &str = "gw-5554000";
const TO: &str = "5554999876543";
const PDF: &[u8] = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n";

fn whatsapp_form(text: &str, to: &str) -> Form {
    Form::new()
        .text("MENS_DESCRICAO", text.to_string())
        .text("MENS_DESTINATARIO", to.to_string())
        .text("MENS_TIPO", "D")
        .text("MENS_STATUS", "N")
        .text("MENS_PROJETO", "contasreceber")
        .text("MENS_PROGRAMA", "BSWEB")
        .part(
            "file",
            Part::bytes(PDF.to_vec())
                .file_name("boleto 12.pdf")
                .mime_str("application/pdf")
                .expect("mime"),
        )
}

async fn post_form(u: &User, path: &str, form: Form) -> (u16, Value) {
    read(
        u.req(Method::POST, path)
            .multipart(form)
            .send()
            .await
            .expect("send"),
    )
    .await
}

/// The message's status as `GET /whatsapp/status/{id}` answers it, once `done`
/// says it is there (at most 15 s).
async fn status_until(u: &User, id: i64, done: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (code, body) = u
            .call(Method::GET, &format!("/whatsapp/status/{id}"), None)
            .await;
        assert_eq!(code, 200, "{body}");
        if done(&body) || started.elapsed() > Duration::from_secs(15) {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn webhook(body: Vec<u8>, signature: Option<String>) -> (u16, Value) {
    let mut r = http()
        .post(format!("{}/whatsapp/webhook", app().base))
        .header("content-type", "application/json")
        .body(body);
    if let Some(s) = signature {
        r = r.header("x-hub-signature-256", s);
    }
    read(r.send().await.expect("webhook")).await
}

#[tokio::test]
async fn a_whatsapp_message_is_queued_sent_and_followed_through_the_gateway() {
    let _turn = serial().await;
    let fake = Fake::start().await.expect("fake provider");
    let a = admin().await;
    let (code, cfg) = a
        .call(
            Method::POST,
            "/whatsappconfig",
            Some(
                json!({"WCFG_EMP_ID": 1, "WCFG_PROVEDOR": "cloud", "WCFG_URL": fake.cloud_url(),
                        "WCFG_NUMERO_ID": PHONE_ID, "WCFG_TOKEN": "token-de-teste",
                        "WCFG_APP_SECRET": "segredo-gw", "WCFG_VERIFY_TOKEN": "verifica-gw"}),
            ),
        )
        .await;
    assert_eq!(code, 200, "{cfg}");
    assert!(
        cfg.get("WCFG_TOKEN").is_none_or(|t| t != "token-de-teste"),
        "the token is never answered: {cfg}"
    );

    // A number that is not Brazilian: 400, nothing queued.
    let (code, body) = post_form(&a, "/whatsapp/send", whatsapp_form("Olá", "5512345")).await;
    assert_eq!(code, 400, "{body}");
    assert_eq!(body["msg"], "Número Inválido ou não encontrado!");

    // Queued: the answer comes once committed, with the message's id.
    let (code, body) = post_form(&a, "/whatsapp/send", whatsapp_form("Seu boleto", TO)).await;
    assert_eq!(code, 200, "{body}");
    assert_eq!(body["msg"], "Whatsapp Agendado com sucesso!");
    assert!(
        body.get("aviso").is_none(),
        "configured: no warning: {body}"
    );
    let id = body["MENS_ID"].as_i64().expect("MENS_ID");

    // The worker sends it to the provider, once, with the PDF byte for byte.
    let sent = status_until(&a, id, |s| s["MENS_STATUS"] == "E").await;
    assert_eq!(sent["MENS_STATUS"], "E", "{sent}");
    let wamid = sent["MENS_PROVEDOR_ID"]
        .as_str()
        .expect("provider id")
        .to_string();
    let sends: Vec<_> = fake
        .sends()
        .into_iter()
        .filter(|s| s.sender == PHONE_ID)
        .collect();
    assert_eq!(sends.len(), 1);
    assert_eq!(sends[0].to, TO);
    assert_eq!(sends[0].kind, "document");
    assert_eq!(sends[0].file.as_deref(), Some(PDF));

    // The queue's list, filtered by its query string.
    let (code, list) = a
        .call(
            Method::GET,
            &format!("/whatsapp/messages?MENS_DESTINATARIO={TO}&MENS_CANAL=W&LIMIT=50"),
            None,
        )
        .await;
    assert_eq!(code, 200, "{list}");
    let rows = list["dados"].as_array().expect("dados");
    assert!(
        rows.iter()
            .any(|r| r["MENS_ID"] == id && r["MENS_ANEXO_NOME"].is_string()),
        "{list}"
    );

    // The Cloud API's handshake answers the challenge only to the right token.
    let (code, body) = read(
        http()
            .get(format!(
                "{}/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=verifica-gw&hub.challenge=4711",
                app().base
            ))
            .send()
            .await
            .expect("verify"),
    )
    .await;
    assert_eq!((code, body), (200, json!(4711)));
    let (code, _) = read(
        http()
            .get(format!(
                "{}/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=outro&hub.challenge=4711",
                app().base
            ))
            .send()
            .await
            .expect("verify"),
    )
    .await;
    assert_eq!(code, 403);

    // A webhook signed with another secret: 401, nothing changes.
    let read_event = fake::cloud_statuses(PHONE_ID, &[(&wamid, "read")]);
    let forged = cloud::sign(b"outro-segredo", &read_event);
    let (code, _) = webhook(read_event.clone(), Some(forged)).await;
    assert_eq!(code, 401);
    let (code, _) = webhook(read_event.clone(), None).await;
    assert_eq!(code, 401);
    let now = status_until(&a, id, |_| true).await;
    assert_eq!(now["MENS_STATUS"], "E");

    // Signed: read; a late 'delivered' does not move it back.
    let (code, body) = webhook(
        read_event.clone(),
        Some(cloud::sign(b"segredo-gw", &read_event)),
    )
    .await;
    assert_eq!(code, 200, "{body}");
    let late = fake::cloud_statuses(PHONE_ID, &[(&wamid, "delivered")]);
    let (code, _) = webhook(late.clone(), Some(cloud::sign(b"segredo-gw", &late))).await;
    assert_eq!(code, 200);
    let now = status_until(&a, id, |_| true).await;
    assert_eq!(now["MENS_STATUS"], "L", "{now}");

    // Another tenant sees none of it.
    let b = login(OTHER, "admin", "senhaB123").await;
    let (code, _) = b
        .call(Method::GET, &format!("/whatsapp/status/{id}"), None)
        .await;
    assert_eq!(code, 404);
    let (code, list) = b
        .call(Method::GET, "/whatsapp/messages?LIMIT=500", None)
        .await;
    assert!(
        code == 204
            || list["dados"]
                .as_array()
                .is_some_and(|d| d.iter().all(|r| r["MENS_ID"] != id)),
        "{code} {list}"
    );
}

#[tokio::test]
async fn an_email_takes_several_files_and_refuses_a_header_injection() {
    let _turn = serial().await;
    let a = admin().await;
    let form = |subject: &str| {
        Form::new()
            .text("MENS_EMP_ID", "1")
            .text("MENS_DESTINATARIO", "cliente@example.com")
            .text("MENS_DESTINATARIO_OCULTO", "arquivo@example.com")
            .text("MENS_ASSUNTO", subject.to_string())
            .text("MENS_DESCRICAO", "<p>Segue o boleto.</p>")
            .part("file", Part::bytes(PDF.to_vec()).file_name("boleto.pdf"))
            .part("file", Part::bytes(PDF.to_vec()).file_name("danfe.pdf"))
    };
    let (code, body) = post_form(&a, "/email/send", form("Boleto\r\nBcc: x@example.com")).await;
    assert_eq!(code, 400, "{body}");
    let (code, body) = post_form(&a, "/email/send", form("Boleto de dezembro")).await;
    assert_eq!(code, 200, "{body}");
    assert!(body["msg"].is_string());
    // No SMTP for the company nor the instance: queued, and the answer says so.
    assert_eq!(
        body["aviso"],
        "Nenhum servidor de e-mail (SMTP) configurado para a empresa. A mensagem fica na fila e será enviada quando a configuração for feita."
    );
    let id = body["MENS_ID"].as_i64().expect("MENS_ID");
    let (code, list) = a
        .call(
            Method::GET,
            "/whatsapp/messages?MENS_CANAL=E&LIMIT=50",
            None,
        )
        .await;
    assert_eq!(code, 200, "{list}");
    assert!(
        list["dados"]
            .as_array()
            .is_some_and(|d| d.iter().any(|r| r["MENS_ID"] == id)),
        "{list}"
    );
    // Without a body the form call is refused with a message, not a crash.
    let (code, body) = a.call(Method::POST, "/email/send", Some(json!({}))).await;
    assert_eq!(code, 400, "{body}");
}

#[tokio::test]
async fn the_open_messages_screen_hears_its_company_queue_move() {
    use futures::StreamExt;
    let _turn = serial().await;
    let a = admin().await;
    let mut ws =
        crate::notices::subscribed(&a.token, "subscription { messagesChanged(emp: 1) }").await;
    // Until the subscription is in place a send may pass unheard: send again, once
    // a second, until one is heard.
    let heard = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let form = Form::new()
                .text("MENS_DESCRICAO", "Aviso de vencimento")
                .text("MENS_DESTINATARIO", TO)
                .text("MENS_TIPO", "T");
            let (code, body) = post_form(&a, "/whatsapp/send", form).await;
            assert_eq!(code, 200, "{body}");
            let round = tokio::time::Instant::now() + Duration::from_secs(1);
            while let Ok(Some(Ok(m))) = tokio::time::timeout_at(round, ws.next()).await {
                if let Some(v) = crate::notices::next_json(m) {
                    if v["type"] == json!("next") {
                        return v["payload"]["data"].clone();
                    }
                }
            }
        }
    })
    .await
    .expect("the queue's move heard in time");
    assert_eq!(heard["messagesChanged"], json!(true));

    // Another company's screen is refused.
    let mut other =
        crate::notices::subscribed(&a.token, "subscription { messagesChanged(emp: 77) }").await;
    let refused = tokio::time::timeout(Duration::from_secs(10), other.next())
        .await
        .expect("an answer")
        .and_then(|m| m.ok())
        .and_then(crate::notices::next_json)
        .expect("json");
    assert!(
        refused.to_string().contains("Acesso negado à empresa 77"),
        "{refused}"
    );
}
