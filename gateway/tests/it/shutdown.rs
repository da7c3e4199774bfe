//! Stopping the product drains it: requests in flight when the shutdown begins are
//! answered, a request that arrives after it is refused or answered 503 (never left
//! hanging), readiness says so, and the services stop after the gateway.

use std::sync::Arc;
use std::time::Duration;

use sqlx::Connection;

/// 200 requests waiting on a table lock when the shutdown begins: every one is
/// answered 200 once the lock goes, none reset; a new connection meanwhile is
/// refused (or, if the kernel took it before the listener closed, answered 503).
#[tokio::test]
async fn a_shutdown_answers_the_requests_in_flight_and_refuses_new_ones() {
    let cfg = Arc::new(erp_platform::testing::fresh_database("drain").await);
    erp_demo::seed_demo(cfg.clone()).await.expect("seed");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let running = erp_gateway::roles::start_all(cfg.clone(), listener)
        .await
        .expect("start");
    let base = format!("http://{}", running.addr);
    let http = reqwest::Client::new();
    let login: serde_json::Value = http
        .post(format!("{base}/usuarios/sessions"))
        .json(&serde_json::json!({"cpfcnpj": crate::DEMO, "usuario": "admin", "senha": "admin123"}))
        .send()
        .await
        .expect("login")
        .json()
        .await
        .expect("login body");
    let token = login["token"].as_str().unwrap_or_default().to_string();

    // Every list of areas waits on this lock: 200 slow requests.
    let mut owner = sqlx::PgConnection::connect(&cfg.database_url)
        .await
        .expect("owner");
    sqlx::query("BEGIN")
        .execute(&mut owner)
        .await
        .expect("begin");
    sqlx::query("LOCK TABLE catalog.area IN ACCESS EXCLUSIVE MODE")
        .execute(&mut owner)
        .await
        .expect("lock");
    let mut calls = Vec::new();
    for _ in 0..200 {
        let (http, base, token) = (http.clone(), base.clone(), token.clone());
        calls.push(tokio::spawn(async move {
            http.post(format!("{base}/area/1"))
                .bearer_auth(token)
                .json(&serde_json::json!({}))
                .send()
                .await
                .map(|r| r.status().as_u16())
                .map_err(|e| e.to_string())
        }));
    }
    // Wait until the first ones are inside PostgreSQL, blocked on the lock.
    for _ in 0..100 {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(&mut owner)
        .await
        .expect("waiting");
        if waiting >= 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        calls.iter().all(|c| !c.is_finished()),
        "the requests wait on the lock"
    );

    // SIGTERM: `erp run` stops the product this way.
    let addr = running.addr;
    let stopping = tokio::spawn(running.stop(Duration::from_secs(20)));
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A request after the signal: refused or 503, and never a hang.
    let late = tokio::time::timeout(
        Duration::from_secs(5),
        reqwest::Client::new()
            .get(format!("http://{addr}/healthz"))
            .send(),
    )
    .await
    .expect("a late request does not hang");
    match late {
        Err(e) => assert!(e.is_connect(), "refused: {e}"),
        Ok(r) => assert_eq!(r.status().as_u16(), 503, "a late request"),
    }
    assert!(
        !stopping.is_finished(),
        "the shutdown waits for the requests in flight"
    );

    sqlx::query("COMMIT")
        .execute(&mut owner)
        .await
        .expect("unlock");
    let mut statuses = Vec::new();
    for c in calls {
        statuses.push(c.await.expect("task"));
    }
    let failed: Vec<_> = statuses
        .iter()
        .filter(|s| !matches!(s, Ok(200) | Ok(204)))
        .collect();
    assert!(
        failed.is_empty(),
        "every request in flight is answered: {failed:?}"
    );
    tokio::time::timeout(Duration::from_secs(25), stopping)
        .await
        .expect("the shutdown ends within its grace")
        .expect("stop");
}
