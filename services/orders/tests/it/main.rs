//! Integration tests of orders' documents against the real PostgreSQL (catalog's,
//! finance's, stock's and identity's schemas beside orders', for the services
//! orders asks: `peers`).

mod billing;
mod conditional;
mod credit;
mod peers;
mod printed;
mod purchases;
mod service_orders;
mod variants;

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::Registry;
use erp_platform::testing::TestCtx;
use serde_json::{Map, Value};

static CTX: TestCtx = TestCtx::new("orders", |cfg| {
    Box::pin(async move {
        erp_orders::migrate(&cfg).await?;
        erp_catalog::migrate(&cfg).await?;
        erp_finance::migrate(&cfg).await?;
        erp_stock::migrate(&cfg).await?;
        erp_identity::migrate(&cfg).await
    })
});

pub async fn db() -> Db {
    CTX.db().await
}

/// A fresh tenant per test.
pub fn client() -> i64 {
    CTX.client()
}

pub fn caller(client_id: i64) -> Caller {
    CTX.caller(client_id, 7)
}

pub fn registry() -> Registry {
    erp_orders::resources::registry().expect("registry")
}

pub fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// Catalog's rows as orders knows them (what the copy consumers write): customers
/// 1 and 2, products 1..3, services 1..2 of company 1.
pub async fn seed_copies(db: &Db, client: i64) {
    let mut tx = db.begin_tenant(client).await.expect("tx");
    for sql in [
        "INSERT INTO orders.clientes (client_id, emp_id, cli_id, descricao, cidade, uf) VALUES
            ($1, 1, 1, ' Oficina do Zé Ltda ', ' Porto Alegre ', 'RS'), ($1, 1, 2, 'Transportes Sul', 'Canoas', 'RS')",
        "INSERT INTO orders.produtos (client_id, emp_id, prod_id, descricao, unidade, valor, custo) VALUES
            ($1, 1, 1, 'Filtro de óleo', 'UN', 35.90, 20), ($1, 1, 2, 'Óleo 5W30', 'L', 42.50, 30), ($1, 1, 3, 'Pastilha de freio', 'JG', 180, 100)",
        "INSERT INTO orders.servicos (client_id, emp_id, serv_id, descricao, valor) VALUES
            ($1, 1, 1, 'Troca de óleo', 80), ($1, 1, 2, 'Revisão de freios', 150)",
    ] {
        sqlx::query(sql).bind(client).execute(&mut *tx).await.expect("seed");
    }
    tx.commit().await.expect("commit");
}

pub async fn create(db: &Db, c: i64, name: &str, v: Value) -> erp_platform::Result<Value> {
    let reg = registry();
    let res = reg.get(name).expect("resource");
    CTX.create(db, res, &caller(c), Some(1), &body(v)).await
}

fn key(key: &[&str]) -> Vec<String> {
    key.iter().map(|s| s.to_string()).collect()
}

pub async fn update(
    db: &Db,
    c: i64,
    name: &str,
    k: &[&str],
    v: Value,
) -> erp_platform::Result<Value> {
    let reg = registry();
    let res = reg.get(name).expect("resource");
    CTX.update(db, res, &caller(c), Some(1), &key(k), &body(v))
        .await
}

pub async fn delete(db: &Db, c: i64, name: &str, k: &[&str]) -> erp_platform::Result<Value> {
    let reg = registry();
    let res = reg.get(name).expect("resource");
    CTX.delete(db, res, &caller(c), Some(1), &key(k)).await
}

pub async fn get(db: &Db, c: i64, name: &str, k: &[&str]) -> erp_platform::Result<Value> {
    let reg = registry();
    let res = reg.get(name).expect("resource");
    CTX.get(db, res, &caller(c), Some(1), &key(k)).await
}

/// Runs a declared call as the gateway would, with finance knowing no credit
/// limit for anyone (invoicing goes through; see `credit`).
pub async fn action(
    db: &Db,
    c: i64,
    name: &str,
    action: &str,
    params: &[(&str, &str)],
) -> erp_platform::Result<Value> {
    let finance = peers::Finance::default();
    let reg = erp_orders::resources::registry_with(
        &erp_platform::config::Config::from_env().data_dir,
        peers::peers(db, Some(&finance)),
    )
    .expect("registry");
    let res = reg.get(name).expect("resource");
    let a = res
        .actions
        .iter()
        .find(|a| a.name == action)
        .expect("action")
        .clone();
    let params = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut tx = db.begin_tenant(c).await?;
    let out = a
        .run(
            &mut tx,
            res,
            &caller(c),
            Some(1),
            &params,
            Value::Object(Map::new()),
        )
        .await?;
    tx.commit().await?;
    Ok(out)
}

/// A JSON value as text (ids, decimals).
pub fn s(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[tokio::test]
async fn every_register_passes_the_table_driven_test() {
    let db = db().await;
    let c = client();
    seed_copies(&db, c).await;
    let reg = registry();
    let n = erp_platform::testing::exercise_registry(&db, &reg, c)
        .await
        .expect("exercise_registry");
    assert_eq!(n, reg.all().len());
}
