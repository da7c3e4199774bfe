//! A thousand messages queued by 16 callers at once reach the provider exactly
//! once each, with two workers claiming side by side, one of them stopped in the
//! middle and a new one started, while the provider answers every message's
//! first send with 429.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use erp_messaging::fake::Fake;
use erp_platform::shutdown::Shutdown;
use serde_json::json;

use crate::*;

const MESSAGES: usize = 1000;
const CALLERS: usize = 16;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thousand_messages_from_sixteen_callers_are_delivered_exactly_once() {
    let db = big_db().await;
    let deps = deps();
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "3001").await;
    fake.refuse_first_attempt(true);

    let cfg = || erp_messaging::worker::Config { batch: 25, concurrency: 6, ..test_config(c) };
    let first = Shutdown::new();
    let second = Shutdown::new();
    let a = tokio::spawn(worker(&db, &deps, cfg()).run(first.clone()));
    let b = tokio::spawn(worker(&db, &deps, cfg()).run(second.clone()));

    let started = Instant::now();
    let mut callers = Vec::new();
    for k in 0..CALLERS {
        let (db, deps) = (db.clone(), deps.clone());
        callers.push(tokio::spawn(async move {
            let mut ids = Vec::new();
            for i in (k..MESSAGES).step_by(CALLERS) {
                let body = json!({"MENS_DESCRICAO": format!("Mensagem {i:04}"), "MENS_DESTINATARIO": MOBILE, "MENS_PROGRAMA": "CARGA"});
                let v = send(&db, &deps, c, body).await.expect("queued");
                ids.push((i, id_of(&v)));
            }
            ids
        }));
    }
    let mut ids: HashMap<usize, i64> = HashMap::new();
    for t in callers {
        ids.extend(t.await.expect("caller"));
    }
    assert_eq!(ids.len(), MESSAGES);
    let mut distinct: Vec<i64> = ids.values().copied().collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), MESSAGES, "every call got its own id");

    // Stop the first worker in the middle; start another in its place.
    while fake.sends().len() < 300 && started.elapsed() < Duration::from_secs(120) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    first.stop();
    tokio::time::timeout(Duration::from_secs(30), a)
        .await
        .expect("first worker stops")
        .expect("joined");
    let third = Shutdown::new();
    let cw = tokio::spawn(worker(&db, &deps, cfg()).run(third.clone()));

    let done = loop {
        let mut tx = db.begin_tenant(c).await.expect("tx");
        let sent: i64 =
            sqlx::query_scalar("SELECT count(*) FROM messaging.mensagens WHERE mens_status = 'E'")
                .fetch_one(&mut *tx)
                .await
                .expect("count");
        drop(tx);
        if sent as usize == MESSAGES || started.elapsed() > Duration::from_secs(300) {
            break sent;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    second.stop();
    third.stop();
    let _ = tokio::join!(b, cw);
    assert_eq!(done as usize, MESSAGES, "all sent");

    let sends = fake.sends();
    let mut per_text: HashMap<&str, usize> = HashMap::new();
    for s in &sends {
        *per_text.entry(s.text.as_str()).or_default() += 1;
    }
    assert_eq!(per_text.len(), MESSAGES);
    let twice: Vec<_> = per_text.iter().filter(|(_, n)| **n != 1).collect();
    assert!(twice.is_empty(), "delivered more than once: {twice:?}");
    assert_eq!(sends.len(), MESSAGES);
    // Every message was refused once (429) and retried: two requests each.
    assert_eq!(fake.requests() as usize, 2 * MESSAGES);

    // Each row carries the id the provider gave that very message.
    let by_id: HashMap<&str, &str> = sends
        .iter()
        .map(|s| (s.id.as_str(), s.text.as_str()))
        .collect();
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let rows: Vec<(i64, String, String, i32)> = sqlx::query_as(
        "SELECT mens_id, mens_descricao, mens_provedor_id, mens_tentativas FROM messaging.mensagens WHERE mens_programa = 'CARGA'",
    )
    .fetch_all(&mut *tx)
    .await
    .expect("rows");
    assert_eq!(rows.len(), MESSAGES);
    for (_, text, pid, attempts) in &rows {
        assert_eq!(by_id.get(pid.as_str()), Some(&text.as_str()));
        assert_eq!(*attempts, 2);
    }
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM messaging.fila WHERE client_id = $1")
        .bind(c)
        .fetch_one(&db.pool)
        .await
        .expect("fila");
    assert_eq!(left, 0);
}
