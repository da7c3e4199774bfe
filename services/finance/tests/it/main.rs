//! Integration tests of finance against the real PostgreSQL (and a NATS JetStream
//! server of the tests' own): the table-driven register test, the declared calls
//! and the validations, the instalment and late-charge tables computed by hand,
//! the consumers of orders' facts, settlement with its bank movements and its
//! facts, customers' credit, advances to suppliers and receipts.

mod advances;
mod banking;
mod credit;
mod events;
mod facts;
mod instalments;
mod receipts;
mod registers;
mod settlement;

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

pub fn config() -> erp_platform::config::Config {
    CTX.config()
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

/// Runs a declared call of `name` as another caller of the same binary would
/// (`action` with the caller's client and the given user).
pub async fn action_as(
    db: &Db,
    client_id: i64,
    user: i64,
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
    let mut tx = db.begin_tenant(client_id).await?;
    let out = a
        .run(
            &mut tx,
            &res,
            &CTX.caller(client_id, user),
            Some(1),
            &params,
            v,
        )
        .await?;
    tx.commit().await?;
    Ok(out)
}

/// The rows of register `name` in company 1 matching `filter`.
pub async fn rows(db: &Db, client_id: i64, name: &str, filter: Value) -> Vec<Value> {
    let res = resource(name);
    CTX.list(db, &res, &caller(client_id), Some(1), &body(filter))
        .await
        .expect("list")
}

pub fn d(s: &str) -> rust_decimal::Decimal {
    use std::str::FromStr;
    rust_decimal::Decimal::from_str(s).expect("decimal")
}

/// A decimal of an answer (numbers or strings); null is zero.
pub fn dec(v: &Value) -> rust_decimal::Decimal {
    use std::str::FromStr;
    match v {
        Value::Null => rust_decimal::Decimal::ZERO,
        Value::String(s) => {
            rust_decimal::Decimal::from_str(s).unwrap_or_else(|_| panic!("decimal {v}"))
        }
        other => rust_decimal::Decimal::from_str(&other.to_string())
            .unwrap_or_else(|_| panic!("decimal {v}")),
    }
}

/// A bank account of company 1 with an initial balance; returns its id.
pub async fn account(db: &Db, client_id: i64, initial: &str) -> i64 {
    let row = create(
        db,
        client_id,
        "banco",
        serde_json::json!({"BCO_DESCRICAO": "CONTA MOVIMENTO", "BCO_SALDO_INICIAL": initial}),
    )
    .await
    .expect("account");
    row["BCO_ID"].as_i64().expect("BCO_ID")
}

/// An account's balance, checked to be its initial balance plus its movements.
pub async fn balance(db: &Db, client_id: i64, bank: i64) -> rust_decimal::Decimal {
    let mut tx = db.begin_tenant(client_id).await.expect("tx");
    let (kept, summed) = erp_finance::bank::balance(&mut tx, client_id, 1, bank)
        .await
        .expect("balance");
    assert_eq!(
        kept, summed,
        "the balance is the initial balance plus the movements"
    );
    kept
}

/// Financial parameters of company 1.
pub async fn parameters(db: &Db, client_id: i64, v: Value) {
    create(db, client_id, "parametrosfinanceiro", v)
        .await
        .expect("parameters");
}

/// The count of a query in the client's transaction.
pub async fn count(db: &Db, client_id: i64, sql: &str) -> i64 {
    let mut tx = db.begin_tenant(client_id).await.expect("tx");
    sqlx::query_scalar(sql)
        .fetch_one(&mut *tx)
        .await
        .expect("count")
}

/// `query::update` of register `res` in company 1, committed.
pub async fn update_row(
    db: &Db,
    client_id: i64,
    res: &Resource,
    id: &str,
    v: Value,
) -> erp_platform::Result<Value> {
    CTX.update(
        db,
        res,
        &caller(client_id),
        Some(1),
        &[id.to_string()],
        &body(v),
    )
    .await
}

/// `query::delete` of register `res` in company 1, committed.
pub async fn delete_row(
    db: &Db,
    client_id: i64,
    res: &Resource,
    id: &str,
) -> erp_platform::Result<Value> {
    CTX.delete(db, res, &caller(client_id), Some(1), &[id.to_string()])
        .await
}
