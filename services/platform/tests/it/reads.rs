//! Read connections: the tenant kept as a session setting between loans, never
//! seen by another client, plans kept only where values do not change them, and
//! connections the server dropped or a request abandoned never lent again.

use erp_platform::config::Config;
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::query;
use erp_platform::resource::{Field, Resource};
use serde_json::{json, Map, Value};
use sqlx::Connection;

use crate::{client, config, db};

fn itens() -> Resource {
    Resource::new("itens", "Itens", "plat_it", "itens", "itens")
        .key(&["ITEM_ID"])
        .company("ITEM_EMP_ID")
        .label("ITEM_DESCRICAO")
        .order("ITEM_DESCRICAO")
        .fields(vec![
            Field::id("ITEM_ID", "Código"),
            Field::int("ITEM_EMP_ID", "Empresa"),
            Field::text("ITEM_DESCRICAO", "Descrição")
                .required()
                .len(60)
                .searchable(),
            Field::date("ITEM_DATA", "Data"),
        ])
}

fn caller(c: i64) -> Caller {
    Caller { client_id: c, user_id: 1, emp_id: 1, privileged: false }
}

fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

async fn seed(db: &Db, c: i64, names: &[&str]) {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    for n in names {
        query::create(
            &mut tx,
            &itens(),
            &caller(c),
            Some(1),
            &body(json!({"ITEM_DESCRICAO": n, "ITEM_DATA": "2026-03-01"})),
        )
        .await
        .expect("create");
    }
    tx.commit().await.expect("commit");
}

fn names(rows: &[Value]) -> Vec<String> {
    rows.iter()
        .map(|r| r["ITEM_DESCRICAO"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Two clients alternate over one read connection: each sees only its rows, the
/// connection's setting follows the caller, and RLS still holds on its own (a
/// statement without the client filter sees the caller's rows only).
#[tokio::test]
async fn one_connection_serves_clients_in_turn_and_never_mixes_them() {
    let (a, b) = (client(), client());
    let setup = db().await;
    seed(&setup, a, &["A1", "A2"]).await;
    seed(&setup, b, &["B1"]).await;
    let db = Db::connect(&Config { db_max_connections: 1, ..config() })
        .await
        .expect("db of 1");
    let res = itens();
    for round in 0..6 {
        let c = if round % 2 == 0 { a } else { b };
        let mut conn = db.read(c).await.expect("read");
        let rows = query::list(&mut conn, &res, &caller(c), Some(1), &Map::new()).await;
        let rows = conn.finish(rows).expect("list");
        let want: Vec<&str> = if c == a { vec!["A1", "A2"] } else { vec!["B1"] };
        assert_eq!(names(&rows), want);
        let mut conn = db.read(c).await.expect("read");
        let seen: Result<Vec<i64>, _> =
            sqlx::query_scalar("SELECT DISTINCT client_id FROM plat_it.itens")
                .fetch_all(&mut *conn)
                .await;
        let seen = conn.finish(seen.map_err(Into::into)).expect("rls");
        assert_eq!(seen, vec![c], "RLS follows the connection's setting");
    }
    assert_eq!(db.reads_idle(), 1, "one connection served every loan");
}

/// Lists without a text pattern or range keep a generic plan on the connection;
/// lists with a pattern are never prepared (planned with their values each time).
#[tokio::test]
async fn only_statements_whose_plan_does_not_depend_on_values_are_kept() {
    let c = client();
    let setup = db().await;
    seed(&setup, c, &["Parafuso", "Porca", "Arruela"]).await;
    let db = Db::connect(&Config { db_max_connections: 1, ..config() })
        .await
        .expect("db of 1");
    let res = itens();
    for _ in 0..8 {
        let mut conn = db.read(c).await.expect("read");
        let plain = query::list(
            &mut conn,
            &res,
            &caller(c),
            Some(1),
            &body(json!({"LIMIT": 20})),
        )
        .await;
        assert_eq!(conn.finish(plain).expect("list").len(), 3);
        let mut conn = db.read(c).await.expect("read");
        let q = body(json!({"LIMIT": 20, "FILTRO": "por"}));
        let found = query::list(&mut conn, &res, &caller(c), Some(1), &q).await;
        assert_eq!(names(&conn.finish(found).expect("filtro")), vec!["Porca"]);
        let mut conn = db.read(c).await.expect("read");
        let q = body(json!({"LIMIT": 20, "ITEM_DATA_INI": "2026-01-01"}));
        let ranged = query::list(&mut conn, &res, &caller(c), Some(1), &q).await;
        assert_eq!(conn.finish(ranged).expect("range").len(), 3);
    }
    let mut conn = db.read(c).await.expect("read");
    let kept: Result<Vec<(String, i64)>, _> = sqlx::query_as(
        "SELECT statement, generic_plans FROM pg_prepared_statements
          WHERE statement LIKE '%FROM plat_it.itens%' AND statement NOT LIKE '%pg_prepared_statements%'",
    )
    .fetch_all(&mut *conn)
    .await;
    let kept = conn.finish(kept.map_err(Into::into)).expect("prepared");
    assert_eq!(kept.len(), 1, "only the plain list is prepared: {kept:?}");
    assert!(!kept[0].0.contains("ILIKE") && !kept[0].0.contains(">="));
    assert!(kept[0].0.contains("LIMIT 20 OFFSET 0"), "{}", kept[0].0);
    assert!(
        kept[0].1 >= 1,
        "the plain list runs on a kept (generic) plan: {kept:?}"
    );
}

/// A loan dropped without `finish` (a request abandoned mid-statement) is closed,
/// not lent again. A connection the server ended a moment after its last use
/// fails the one request that finds it, with the unavailable status, and is never
/// lent again: the next request is answered on a new one.
#[tokio::test]
async fn abandoned_or_dropped_connections_are_never_lent_again() {
    let c = client();
    let setup = db().await;
    seed(&setup, c, &["X"]).await;
    let db = Db::connect(&Config { db_max_connections: 2, ..config() })
        .await
        .expect("db of 2");
    let conn = db.read(c).await.expect("read");
    drop(conn);
    assert_eq!(db.reads_idle(), 0, "an unfinished loan is not kept");

    let mut conn = db.read(c).await.expect("read");
    let pid: Result<i32, _> = sqlx::query_scalar("SELECT pg_backend_pid()")
        .fetch_one(&mut *conn)
        .await;
    let pid = conn.finish(pid.map_err(Into::into)).expect("pid");
    assert_eq!(db.reads_idle(), 1);
    let mut owner = sqlx::PgConnection::connect_with(
        &erp_platform::db::owner_options(&config()).expect("owner"),
    )
    .await
    .expect("owner connection");
    let ended: bool = sqlx::query_scalar("SELECT pg_terminate_backend($1)")
        .bind(pid)
        .fetch_one(&mut owner)
        .await
        .expect("terminate");
    assert!(ended);
    let mut conn = db.read(c).await.expect("loan of the ended connection");
    let rows = query::list(&mut conn, &itens(), &caller(c), Some(1), &Map::new()).await;
    let err = conn
        .finish(rows)
        .expect_err("the ended connection fails its request");
    assert_eq!(err.http_status(), 503, "{err}");
    assert_eq!(db.reads_idle(), 0, "the ended connection is not kept");
    let mut conn = db.read(c).await.expect("read on a new connection");
    let rows = query::list(&mut conn, &itens(), &caller(c), Some(1), &Map::new()).await;
    assert_eq!(names(&conn.finish(rows).expect("list")), vec!["X"]);
}
