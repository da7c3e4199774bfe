//! Integration tests of finance's registers against the real PostgreSQL: the
//! table-driven register test, the declared calls and the validations.

mod registers;

use std::collections::HashMap;

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::{Registry, Resource};
use erp_platform::testing::TestCtx;
use serde_json::{Map, Value};

/// One migrated database for the whole binary.
static CTX: TestCtx = TestCtx::new("finance", |cfg| {
    Box::pin(async move { erp_finance::migrate(&cfg).await })
});

pub async fn db() -> Db {
    CTX.db().await
}

/// A client id no other test uses.
pub fn client() -> i64 {
    CTX.client()
}

pub fn registry() -> Registry {
    erp_finance::resources::registry().expect("registry")
}

pub fn resource(name: &str) -> Resource {
    (**registry().get(name).expect("resource")).clone()
}

pub fn caller(client_id: i64) -> Caller {
    CTX.caller(client_id, 1)
}

pub fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// Creates a row of `name` in company 1 and returns it.
pub async fn create(db: &Db, client_id: i64, name: &str, v: Value) -> erp_platform::Result<Value> {
    let res = resource(name);
    let emp = res.company.as_ref().map(|_| 1);
    CTX.create(db, &res, &caller(client_id), emp, &body(v))
        .await
}

/// Runs a declared call of `name` as the gateway would.
pub async fn action(
    db: &Db,
    client_id: i64,
    name: &str,
    action: &str,
    params: &[(&str, &str)],
    v: Value,
) -> erp_platform::Result<Value> {
    let res = resource(name);
    let a = res
        .actions
        .iter()
        .find(|a| a.name == action)
        .expect("action declared")
        .clone();
    let params: HashMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let emp = res.company.as_ref().map(|_| 1);
    let mut tx = db.begin_tenant(client_id).await?;
    let out = a
        .run(&mut tx, &res, &caller(client_id), emp, &params, v)
        .await?;
    tx.commit().await?;
    Ok(out)
}

pub fn message(r: erp_platform::Result<Value>) -> String {
    match r {
        Ok(v) => format!("unexpected success: {v}"),
        Err(e) => e.public_message(),
    }
}
