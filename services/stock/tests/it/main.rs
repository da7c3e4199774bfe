//! Integration tests of stock's registers and ledger against the real PostgreSQL.

mod card;
mod documents;
mod events;
mod kegs;
mod ledger;
mod purchases;
mod tenancy;
mod variants;

use erp_platform::config::Config;
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Resource};
use erp_platform::testing::TestCtx;
use serde_json::{json, Map, Value};

static CTX: TestCtx = TestCtx::new("stock", |cfg| {
    Box::pin(async move { erp_stock::migrate(&cfg).await })
});

fn config() -> Config {
    CTX.config()
}

async fn db() -> Db {
    CTX.db().await
}

fn client() -> i64 {
    CTX.client()
}

fn caller(client_id: i64) -> Caller {
    CTX.caller(client_id, 1)
}

fn locations() -> Resource {
    erp_stock::resources::locations::localestoque()
}

async fn create(db: &Db, c: i64, v: Value) -> erp_platform::Result<Value> {
    let body = v.as_object().expect("object");
    CTX.create(db, &locations(), &caller(c), None, body).await
}

async fn defaults(db: &Db, c: i64) -> Vec<String> {
    let mut filter = Map::new();
    filter.insert("LOCA_PADRAO".into(), Value::from(true));
    CTX.list(db, &locations(), &caller(c), None, &filter)
        .await
        .expect("list")
        .iter()
        .map(|r| r["LOCA_DESCRICAO"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn every_register_passes_the_table_driven_test() {
    let db = db().await;
    let all = erp_stock::resources::registry().expect("registry");
    // The read-only registers cannot create their sample: they are checked in
    // `card` (lists, and writes refused).
    let writable: Vec<Resource> = all
        .all()
        .iter()
        .filter(|r| !erp_stock::resources::READ_ONLY.contains(&r.name.as_str()))
        .map(|r| (**r).clone())
        .collect();
    assert_eq!(writable.len(), all.all().len() - 3);
    for r in all.all() {
        assert_eq!(
            r.sample.is_none(),
            erp_stock::resources::READ_ONLY.contains(&r.name.as_str()),
            "{}: a sample exactly when writable",
            r.name
        );
    }
    let reg = erp_platform::resource::Registry::new(writable).expect("writable registry");
    let c = client();
    let n = erp_platform::testing::exercise_registry(&db, &reg, c)
        .await
        .expect("exercise_registry");
    assert_eq!(n, reg.all().len());
    // Every sample posted and every delete reversed: product 1 is back at zero
    // everywhere, and the keg is back in.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let b = erp_stock::ledger::balance(&mut tx, c, 1, 1)
        .await
        .expect("balance");
    assert_eq!(b.qty, rust_decimal::Decimal::ZERO);
    let placed: Vec<rust_decimal::Decimal> =
        sqlx::query_scalar("SELECT sall_qtde FROM stock.saldos_local WHERE sall_prod_id = 1")
            .fetch_all(&mut *tx)
            .await
            .expect("locations");
    assert!(placed.iter().all(|q| q.is_zero()), "{placed:?}");
    let moves: i64 = sqlx::query_scalar("SELECT count(*) FROM stock.movimentos")
        .fetch_one(&mut *tx)
        .await
        .expect("moves");
    // Entry, correction, transfer line (out and in), requisition line: 5
    // movements, and 5 more undoing them.
    assert_eq!(moves, 10);
}

#[tokio::test]
async fn the_order_index_of_every_register_builds() {
    // Read-only registers read tables (not views) so this start-up step works.
    let reg = erp_stock::resources::registry().expect("registry");
    erp_platform::resource::ensure_order_indexes(&config(), &reg)
        .await
        .expect("order indexes");
}

// ---------------------------------------------------------------- helpers

pub fn res(name: &str) -> std::sync::Arc<Resource> {
    erp_stock::resources::registry()
        .expect("registry")
        .get(name)
        .cloned()
        .unwrap_or_else(|| panic!("register {name}"))
}

pub fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

pub fn dec(v: &Value) -> rust_decimal::Decimal {
    use std::str::FromStr;
    rust_decimal::Decimal::from_str(&v.to_string().replace('"', ""))
        .unwrap_or_else(|_| panic!("decimal {v}"))
}

pub fn d(s: &str) -> rust_decimal::Decimal {
    use std::str::FromStr;
    rust_decimal::Decimal::from_str(s).expect("decimal")
}

/// Creates a row of register `name` in company 1, in its own transaction.
pub async fn post(db: &Db, c: i64, name: &str, v: Value) -> erp_platform::Result<Value> {
    CTX.create(db, &res(name), &caller(c), Some(1), &body(v))
        .await
}

pub async fn remove(db: &Db, c: i64, name: &str, id: &Value) -> erp_platform::Result<Value> {
    CTX.delete(db, &res(name), &caller(c), Some(1), &[id.to_string()])
        .await
}

pub async fn rows(db: &Db, c: i64, name: &str, filter: Value) -> Vec<Value> {
    CTX.list(db, &res(name), &caller(c), Some(1), &body(filter))
        .await
        .expect("list")
}

/// Runs an action of register `name` in company 1 and commits.
pub async fn run(
    db: &Db,
    c: i64,
    name: &str,
    action: &str,
    params: &[(&str, String)],
) -> erp_platform::Result<Value> {
    let r = res(name);
    let a = r
        .actions
        .iter()
        .find(|a| a.name == action)
        .unwrap_or_else(|| panic!("{name}: action {action}"));
    let params: std::collections::HashMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let mut tx = db.begin_tenant(c).await?;
    let v = a
        .run(&mut tx, &r, &caller(c), Some(1), &params, Value::Null)
        .await?;
    tx.commit().await?;
    Ok(v)
}

/// Company balance, checked against the ledger's sum and the locations' sum when
/// the product has location rows.
pub async fn stock(
    db: &Db,
    c: i64,
    product: i64,
) -> (rust_decimal::Decimal, rust_decimal::Decimal) {
    // One snapshot for both reads: a consumer may commit between them.
    let mut tx = erp_platform::testing::begin_snapshot(db, c)
        .await
        .expect("tx");
    let b = erp_stock::ledger::balance(&mut tx, c, 1, product)
        .await
        .expect("balance");
    let sum: Option<rust_decimal::Decimal> = sqlx::query_scalar(
        "SELECT sum(CASE movi_tipo WHEN 'E' THEN movi_qtde ELSE -movi_qtde END) FROM stock.movimentos
         WHERE movi_emp_id = 1 AND movi_prod_id = $1",
    )
    .bind(product)
    .fetch_one(&mut *tx)
    .await
    .expect("sum");
    assert_eq!(
        sum.unwrap_or_default(),
        b.qty,
        "the ledger's sum is the balance"
    );
    (b.qty, b.avg_cost)
}

pub async fn at(db: &Db, c: i64, product: i64, location: i64) -> rust_decimal::Decimal {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    erp_stock::ledger::balance_at(&mut tx, c, 1, product, location)
        .await
        .expect("at location")
}

#[tokio::test]
async fn only_one_location_is_the_default() {
    let db = db().await;
    let c = client();
    create(
        &db,
        c,
        json!({"LOCA_DESCRICAO": "LOJA", "LOCA_PADRAO": true}),
    )
    .await
    .expect("a");
    let b = create(
        &db,
        c,
        json!({"LOCA_DESCRICAO": "DEPÓSITO", "LOCA_PADRAO": "S"}),
    )
    .await
    .expect("b");
    create(
        &db,
        c,
        json!({"LOCA_DESCRICAO": "AVARIAS", "LOCA_TIPO": "D"}),
    )
    .await
    .expect("c");
    assert_eq!(defaults(&db, c).await, vec!["DEPÓSITO".to_string()]);

    // Marking LOJA again by update moves the default back.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    query::update(
        &mut tx,
        &locations(),
        &caller(c),
        None,
        &["1".into()],
        json!({"LOCA_PADRAO": true}).as_object().expect("o"),
    )
    .await
    .expect("update");
    tx.commit().await.expect("commit");
    assert_eq!(defaults(&db, c).await, vec!["LOJA".to_string()]);
    assert_eq!(b["LOCA_TIPO"], "P");
}

#[tokio::test]
async fn location_validations() {
    let db = db().await;
    let c = client();
    let msg = |r: erp_platform::Result<Value>| r.err().map(|e| e.public_message());
    assert_eq!(
        msg(create(&db, c, json!({"LOCA_TIPO": "P"})).await),
        Some("Descrição é obrigatório!".into())
    );
    assert_eq!(
        msg(create(&db, c, json!({"LOCA_DESCRICAO": "X", "LOCA_TIPO": "Z"})).await),
        Some("Valor inválido para o campo Tipo.".into())
    );
    assert_eq!(
        msg(create(&db, c, json!({"LOCA_DESCRICAO": "X".repeat(101)})).await),
        Some("O campo Descrição deve ter no máximo 100 caracteres.".into())
    );
}
