//! Integration tests of finance's registers against the real PostgreSQL: the
//! table-driven register test, the declared calls and the validations.

mod registers;

use std::collections::HashMap;
use std::sync::OnceLock;

use erp_platform::config::Config;
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Registry, Resource};
use serde_json::{Map, Value};

/// One migrated database for the whole binary, created on a thread of its own so
/// no test's runtime owns it.
pub fn config() -> Config {
    static CFG: OnceLock<Config> = OnceLock::new();
    CFG.get_or_init(|| {
        std::thread::spawn(|| {
            let rt = tokio::runtime::Runtime::new().expect("runtime");
            rt.block_on(async {
                erp_platform::testing::drop_stale("finance").await;
                let cfg = erp_platform::testing::fresh_database("finance").await;
                erp_platform::db::bootstrap(&cfg).await.expect("bootstrap");
                erp_finance::migrate(&cfg).await.expect("migrate");
                cfg
            })
        })
        .join()
        .expect("setup thread")
    })
    .clone()
}

pub async fn db() -> Db {
    Db::connect(&config()).await.expect("app pool")
}

/// A client id no other test uses.
pub fn client() -> i64 {
    use std::sync::atomic::{AtomicI64, Ordering};
    static NEXT: AtomicI64 = AtomicI64::new(1000);
    NEXT.fetch_add(1, Ordering::SeqCst)
}

pub fn registry() -> Registry {
    erp_finance::resources::registry().expect("registry")
}

pub fn resource(name: &str) -> Resource {
    (**registry().get(name).expect("resource")).clone()
}

pub fn caller(client_id: i64) -> Caller {
    Caller {
        client_id,
        user_id: 1,
        emp_id: 1,
        privileged: false,
    }
}

pub fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// Creates a row of `name` in company 1 and returns it.
pub async fn create(db: &Db, client_id: i64, name: &str, v: Value) -> erp_platform::Result<Value> {
    let res = resource(name);
    let mut tx = db.begin_tenant(client_id).await?;
    let emp = res.company.as_ref().map(|_| 1);
    let row = query::create(&mut tx, &res, &caller(client_id), emp, &body(v)).await?;
    tx.commit().await?;
    Ok(row)
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
