//! The providers' webhooks: statuses move messages forward only, whatever their
//! order; a payload not signed by the tenant's provider changes nothing; the
//! tenant comes from the number or instance, never from the caller.

use std::collections::HashMap;
use std::time::Duration;

use erp_messaging::fake::{self, Fake};
use erp_messaging::providers::cloud;
use erp_messaging::webhooks::Webhooks;
use erp_proto::messaging::v1::WebhookRequest;
use serde_json::json;

use crate::*;

fn cloud_post(body: Vec<u8>, secret: &str) -> WebhookRequest {
    let mut headers = HashMap::new();
    headers.insert(
        "x-hub-signature-256".to_string(),
        cloud::sign(secret.as_bytes(), &body),
    );
    WebhookRequest {
        provider: "cloud".into(),
        method: "POST".into(),
        query: HashMap::new(),
        headers,
        body,
    }
}

async fn hook(w: &Webhooks, r: WebhookRequest) -> (u32, String) {
    let reply = w.handle(r).await.expect("handled");
    (
        reply.status,
        String::from_utf8_lossy(&reply.body).to_string(),
    )
}

/// Sends `n` texts of client `c` through the fake and answers their provider ids.
async fn sent(
    db: &erp_platform::db::Db,
    deps: &std::sync::Arc<erp_messaging::Deps>,
    c: i64,
    n: usize,
) -> Vec<(i64, String)> {
    let mut ids = Vec::new();
    for i in 0..n {
        ids.push(id_of(
            &send(
                db,
                deps,
                c,
                json!({"MENS_DESCRICAO": format!("Webhook {i}"), "MENS_DESTINATARIO": MOBILE}),
            )
            .await
            .expect("queued"),
        ));
    }
    drain(
        &worker(db, deps, test_config(c)),
        db,
        c,
        Duration::from_secs(10),
    )
    .await;
    let mut out = Vec::new();
    for id in ids {
        let r = row(db, c, id).await;
        assert_eq!(r["mens_status"], "E");
        out.push((
            id,
            r["mens_provedor_id"].as_str().expect("wamid").to_string(),
        ));
    }
    out
}

async fn status(db: &erp_platform::db::Db, c: i64, id: i64) -> (String, Option<String>) {
    let r = row(db, c, id).await;
    (
        r["mens_status"].as_str().unwrap_or_default().into(),
        r["mens_erro"].as_str().map(String::from),
    )
}

#[tokio::test]
async fn cloud_statuses_in_any_order_end_right_and_unsigned_ones_change_nothing() {
    let db = db().await;
    let deps = deps();
    let (a, b) = (client(), client());
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, a, &fake, "2001").await;
    cloud_company(&db, &deps, b, &fake, "2002").await;
    let m = sent(&db, &deps, a, 3).await;
    let w = Webhooks::new(db.clone(), deps.clone());
    let (ok_a, ok_b) = ("segredo-2001", "segredo-2002");

    // A bad signature, or another tenant's: 401 and nothing changes.
    let read = fake::cloud_statuses("2001", &[(&m[0].1, "read")]);
    assert_eq!(
        hook(&w, cloud_post(read.clone(), "outro-segredo")).await.0,
        401
    );
    assert_eq!(hook(&w, cloud_post(read.clone(), ok_b)).await.0, 401);
    let mut unsigned = cloud_post(read.clone(), ok_a);
    unsigned.headers.clear();
    assert_eq!(hook(&w, unsigned).await.0, 401);
    let mut tampered = cloud_post(read.clone(), ok_a);
    tampered.body = fake::cloud_statuses("2001", &[(&m[1].1, "read")]);
    assert_eq!(hook(&w, tampered).await.0, 401);
    assert_eq!(status(&db, a, m[0].0).await.0, "E");
    assert_eq!(status(&db, a, m[1].0).await.0, "E");

    // Out of order: read, then a late delivered and sent.
    for s in ["read", "delivered", "sent"] {
        let body = fake::cloud_statuses("2001", &[(&m[0].1, s)]);
        assert_eq!(
            hook(&w, cloud_post(body, ok_a)).await,
            (200, "EVENT_RECEIVED".into())
        );
    }
    assert_eq!(status(&db, a, m[0].0).await.0, "L");
    // Delivered, then a stray failure: still delivered.
    let body = fake::cloud_statuses("2001", &[(&m[1].1, "delivered"), (&m[1].1, "failed")]);
    assert_eq!(hook(&w, cloud_post(body, ok_a)).await.0, 200);
    assert_eq!(status(&db, a, m[1].0).await.0, "T");
    // A failure outside the 24-hour window, explained.
    let body = fake::cloud_statuses("2001", &[(&m[2].1, "failed")]);
    assert_eq!(hook(&w, cloud_post(body, ok_a)).await.0, 200);
    assert_eq!(
        status(&db, a, m[2].0).await,
        ("F".into(), Some(cloud::TEMPLATE_NEEDED.into()))
    );
    // Everything again, in reverse: nothing moves.
    let all = fake::cloud_statuses(
        "2001",
        &[
            (&m[2].1, "sent"),
            (&m[1].1, "sent"),
            (&m[0].1, "delivered"),
            (&m[1].1, "delivered"),
            (&m[0].1, "read"),
        ],
    );
    assert_eq!(hook(&w, cloud_post(all, ok_a)).await.0, 200);
    assert_eq!(status(&db, a, m[0].0).await.0, "L");
    assert_eq!(status(&db, a, m[1].0).await.0, "T");
    assert_eq!(status(&db, a, m[2].0).await.0, "F");

    // Client B's number, signed by B, naming A's message ids: B's tenant is
    // searched (nothing found), A's rows stay as they are.
    let body = fake::cloud_statuses("2002", &[(&m[1].1, "read")]);
    assert_eq!(hook(&w, cloud_post(body, ok_b)).await.0, 200);
    assert_eq!(status(&db, a, m[1].0).await.0, "T");
    // A number no company has: nothing to do, nothing changed.
    let body = fake::cloud_statuses("9999", &[(&m[1].1, "read")]);
    assert_eq!(hook(&w, cloud_post(body, "x")).await.0, 200);
    assert_eq!(status(&db, a, m[1].0).await.0, "T");
    assert_eq!(
        hook(&w, cloud_post(b"{not json".to_vec(), ok_a)).await.0,
        400
    );
}

#[tokio::test]
async fn a_status_that_arrives_before_the_send_is_recorded_is_applied_then() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "2003").await;
    let id = id_of(
        &send(
            &db,
            &deps,
            c,
            json!({"MENS_DESCRICAO": "Rápida", "MENS_DESTINATARIO": MOBILE}),
        )
        .await
        .expect("queued"),
    );
    // The fake numbers its first message so; its webhook comes first.
    let wamid = "wamid.FAKE0000000000000001";
    let w = Webhooks::new(db.clone(), deps.clone());
    let body = fake::cloud_statuses("2003", &[(wamid, "delivered")]);
    assert_eq!(hook(&w, cloud_post(body, "segredo-2003")).await.0, 200);
    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(10),
    )
    .await;
    let r = row(&db, c, id).await;
    assert_eq!(
        (r["mens_provedor_id"].as_str(), r["mens_status"].as_str()),
        (Some(wamid), Some("T"))
    );
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM messaging.status_pendentes")
        .fetch_one(&mut *tx)
        .await
        .expect("pending");
    assert_eq!(left, 0);
}

#[tokio::test]
async fn the_verification_handshake_answers_only_a_known_token() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "2004").await;
    let w = Webhooks::new(db.clone(), deps.clone());
    let get = |mode: &str, token: &str| WebhookRequest {
        provider: "cloud".into(),
        method: "GET".into(),
        query: [
            ("hub.mode", mode),
            ("hub.verify_token", token),
            ("hub.challenge", "1158201444"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect(),
        headers: HashMap::new(),
        body: Vec::new(),
    };
    assert_eq!(
        hook(&w, get("subscribe", "verifica-2004")).await,
        (200, "1158201444".into())
    );
    assert_eq!(hook(&w, get("subscribe", "outro")).await.0, 403);
    assert_eq!(hook(&w, get("unsubscribe", "verifica-2004")).await.0, 403);
    assert_eq!(hook(&w, get("subscribe", "")).await.0, 403);
}

#[tokio::test]
async fn evolution_webhooks_need_the_instances_apikey() {
    let db = db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    evolution_company(&db, &deps, c, &fake, "loja-hook").await;
    let id = id_of(
        &send(
            &db,
            &deps,
            c,
            json!({"MENS_DESCRICAO": "Evo", "MENS_DESTINATARIO": MOBILE}),
        )
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
    let key = row(&db, c, id).await["mens_provedor_id"]
        .as_str()
        .expect("key")
        .to_string();
    let w = Webhooks::new(db.clone(), deps.clone());
    let post = |body: Vec<u8>| WebhookRequest {
        provider: "evolution".into(),
        method: "POST".into(),
        query: HashMap::new(),
        headers: HashMap::new(),
        body,
    };
    let read = fake::evolution_update("loja-hook", "apikey-errada", &key, "READ");
    assert_eq!(hook(&w, post(read)).await.0, 401);
    let unknown = fake::evolution_update("outra-loja", "apikey-loja-hook", &key, "READ");
    assert_eq!(hook(&w, post(unknown)).await.0, 401);
    assert_eq!(status(&db, c, id).await.0, "E");
    for s in ["READ", "DELIVERY_ACK", "SERVER_ACK"] {
        let body = fake::evolution_update("loja-hook", "apikey-loja-hook", &key, s);
        assert_eq!(hook(&w, post(body)).await, (200, "OK".into()));
    }
    assert_eq!(status(&db, c, id).await.0, "L");
}
