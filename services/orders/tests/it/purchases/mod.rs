//! Purchases: the NF-e import (real fixtures, totals to the cent, instalments, item
//! matching, hostile files refused with nothing written), landed cost through
//! finalizing (a hand-computed table, typed totals, freight documents), the facts in
//! the outbox, finalizing once under concurrent calls, cancelling, the calls around
//! the document and tenant isolation.

mod calls;
mod finalize;
mod import;
mod payables;
mod price_update;
mod supplier;

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Registry};
use erp_platform::service::Peers;
use erp_proto::orders::v1::{CompraCancelada, CompraFinalizada};
use erp_proto::subjects::{COMPRA_CANCELADA, COMPRA_FINALIZADA};
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

use crate::{body, caller, s, CTX};

/// The access key of the fixture written for these tests
/// (tests/fixtures/nfe_compra_ipi_frete.xml: three items, IPI, ST with FCP, freight,
/// insurance, discount, other expenses and three instalments).
pub const OWN_KEY: &str = "31250611222333000181550010000044711528391741";
/// The fixture's supplier.
pub const SUPPLIER_DOC: &str = "11222333000181";

pub fn d(v: &Value) -> Decimal {
    Decimal::from_str(&s(v)).unwrap_or_else(|_| panic!("not a decimal: {v}"))
}

pub fn n(x: &str) -> Decimal {
    Decimal::from_str(x).expect("decimal")
}

/// Orders' registers reading uploads from this test binary's data directory.
pub fn registry() -> Registry {
    erp_orders::resources::registry_in(&CTX.config().data_dir).expect("registry")
}

/// The same registers reaching catalog and identity through `peers`.
pub fn registry_with(peers: Peers) -> Registry {
    erp_orders::resources::registry_with(&CTX.config().data_dir, peers).expect("registry")
}

pub fn own_fixture() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/nfe_compra_ipi_frete.xml"
    ))
    .expect("own NF-e fixture")
}

/// The public NF-e examples (copied from the shared fixtures;
/// `tests/fixtures/README.md` says where each comes from).
pub fn shared_fixture_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/nfe"))
}

/// The own fixture under another access key (another invoice number, the check
/// digit recomputed), so it can be imported again.
pub fn own_fixture_as(number: u32) -> (Vec<u8>, String) {
    let xml = String::from_utf8(own_fixture()).expect("utf-8");
    let mut key = format!("{}{number:09}{}", &OWN_KEY[..25], &OWN_KEY[34..43]);
    let digit = (0..10)
        .map(|dv| format!("{key}{dv}"))
        .find(|k| erp_orders::purchases::nfe_xml::key_check_digit_ok(k))
        .expect("a check digit");
    key = digit;
    (xml.replace(OWN_KEY, &key).into_bytes(), key)
}

/// What catalog and identity told orders: products 1..4 of company 1 (product 2
/// with the GTIN of the fixture's second item), the fixture's supplier (1) and a
/// second supplier (2), company 1 with the fixture's recipient document, and a
/// customer with the supplier's document (for returns).
pub async fn seed(db: &Db, c: i64) {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    for sql in [
        "INSERT INTO orders.produtos (client_id, emp_id, prod_id, descricao, unidade, valor, custo, gtin) VALUES
            ($1, 1, 1, 'Parafuso sextavado M8 x 40', 'UN', 0.90, 0.40, NULL),
            ($1, 1, 2, 'Arruela lisa 8 mm', 'UN', 0.20, 0.10, '7891234567895'),
            ($1, 1, 3, 'Chave combinada 17 mm', 'UN', 59.90, 30.00, NULL),
            ($1, 1, 4, 'Caixa organizadora', 'UN', 25.00, 12.00, NULL),
            ($1, 2, 1, 'Parafuso (empresa 2)', 'UN', 0.90, 0.40, NULL)",
        "INSERT INTO orders.fornecedores (client_id, forn_id, descricao, documento) VALUES
            ($1, 1, 'Metalúrgica Fixa Forte Ltda', '11222333000181'), ($1, 2, 'Distribuidora Sul', '99888777000161')",
        "INSERT INTO orders.empresas (client_id, emp_id, documento) VALUES ($1, 1, '44555666000181')",
        "INSERT INTO orders.clientes (client_id, emp_id, cli_id, descricao, documento) VALUES
            ($1, 1, 10, 'Metalúrgica Fixa Forte Ltda', '11222333000181')",
    ] {
        sqlx::query(sql).bind(c).execute(&mut *tx).await.expect("seed");
    }
    tx.commit().await.expect("commit");
}

static UPLOADS: AtomicUsize = AtomicUsize::new(0);

/// Stores `bytes` where the gateway would for client `c`, company 1; answers the
/// stored name.
pub fn store(c: i64, bytes: &[u8]) -> String {
    let dir = CTX
        .config()
        .data_dir
        .join("uploads")
        .join(c.to_string())
        .join("1");
    std::fs::create_dir_all(&dir).expect("uploads dir");
    let name = format!("nfe-{c}-{}.xml", UPLOADS.fetch_add(1, Ordering::SeqCst));
    std::fs::write(dir.join(&name), bytes).expect("stored upload");
    name
}

pub fn stored_exists(c: i64, name: &str) -> bool {
    CTX.config()
        .data_dir
        .join("uploads")
        .join(c.to_string())
        .join("1")
        .join(name)
        .exists()
}

/// Runs a declared call of `register` in one transaction of client `c`, company 1,
/// committed when it succeeds.
pub async fn call(
    db: &Db,
    c: i64,
    register: &str,
    action: &str,
    params: &[(&str, &str)],
    b: Value,
) -> erp_platform::Result<Value> {
    call_as(db, &caller(c), registry(), register, action, params, b).await
}

/// `call` as `who` with the registers of `reg` (`registry_with` reaches peers).
pub async fn call_as(
    db: &Db,
    who: &Caller,
    reg: Registry,
    register: &str,
    action: &str,
    params: &[(&str, &str)],
    b: Value,
) -> erp_platform::Result<Value> {
    let c = who.client_id;
    let res = reg.get(register).expect("register");
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
    let out = a.run(&mut tx, res, who, Some(1), &params, b).await?;
    tx.commit().await?;
    Ok(out)
}

/// Imports stored bytes as the gateway's upload call would.
pub async fn import(db: &Db, c: i64, bytes: &[u8]) -> erp_platform::Result<Value> {
    let name = store(c, bytes);
    call(
        db,
        c,
        "compra",
        "uploads",
        &[],
        json!({"arquivo": {"nome": name, "original": "nfe.xml"}}),
    )
    .await
}

pub async fn create(db: &Db, c: i64, register: &str, v: Value) -> erp_platform::Result<Value> {
    let reg = registry();
    let res = reg.get(register).expect("register");
    let mut tx = db.begin_tenant(c).await?;
    let row = query::create(&mut tx, res, &caller(c), Some(1), &body(v)).await?;
    tx.commit().await?;
    Ok(row)
}

pub async fn update(
    db: &Db,
    c: i64,
    register: &str,
    key: &[&str],
    v: Value,
) -> erp_platform::Result<Value> {
    let reg = registry();
    let res = reg.get(register).expect("register");
    let key: Vec<String> = key.iter().map(|k| k.to_string()).collect();
    let mut tx = db.begin_tenant(c).await?;
    let row = query::update(&mut tx, res, &caller(c), Some(1), &key, &body(v)).await?;
    tx.commit().await?;
    Ok(row)
}

pub async fn get(db: &Db, c: i64, register: &str, key: &[&str]) -> erp_platform::Result<Value> {
    let reg = registry();
    let res = reg.get(register).expect("register");
    let key: Vec<String> = key.iter().map(|k| k.to_string()).collect();
    let mut tx = db.begin_tenant(c).await?;
    let row = query::get(&mut tx, res, &caller(c), Some(1), &key).await?;
    tx.commit().await?;
    Ok(row)
}

pub async fn list(db: &Db, c: i64, register: &str, filter: Value) -> Vec<Value> {
    let reg = registry();
    let res = reg.get(register).expect("register");
    let mut f: Map<String, Value> = body(filter);
    f.entry("LIMIT").or_insert(json!(6000));
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let rows = query::list(&mut tx, res, &caller(c), Some(1), &f)
        .await
        .expect("list");
    tx.commit().await.expect("commit");
    rows
}

/// Rows of a table of orders for client `c` (a count, to see nothing was written).
pub async fn count(db: &Db, c: i64, table: &str) -> i64 {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let n: i64 = sqlx::query_scalar(&format!(
        "SELECT count(*) FROM orders.{table} WHERE client_id = $1"
    ))
    .bind(c)
    .fetch_one(&mut *tx)
    .await
    .expect("count");
    tx.commit().await.expect("commit");
    n
}

pub async fn finalized_facts(db: &Db, c: i64) -> Vec<CompraFinalizada> {
    payloads(db, c, COMPRA_FINALIZADA)
        .await
        .iter()
        .map(|p| CompraFinalizada::decode(p.as_slice()).expect("decode"))
        .collect()
}

pub async fn cancelled_facts(db: &Db, c: i64) -> Vec<CompraCancelada> {
    payloads(db, c, COMPRA_CANCELADA)
        .await
        .iter()
        .map(|p| CompraCancelada::decode(p.as_slice()).expect("decode"))
        .collect()
}

async fn payloads(db: &Db, c: i64, subject: &str) -> Vec<Vec<u8>> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let rows: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT payload FROM orders.outbox WHERE subject = $1 AND client_id = $2 ORDER BY created_at",
    )
    .bind(subject)
    .bind(c)
    .fetch_all(&mut *tx)
    .await
    .expect("outbox");
    tx.commit().await.expect("commit");
    rows
}

/// The pt-BR message and HTTP status of a refusal.
pub fn refusal(r: erp_platform::Result<Value>) -> (u16, String) {
    match r {
        Ok(v) => panic!("expected a refusal, got {v}"),
        Err(e) => (e.http_status(), e.public_message()),
    }
}

/// Imports the own fixture into client `c` and links its items 1 and 3 (item 2 is
/// matched by GTIN); answers the purchase id.
pub async fn imported_and_linked(db: &Db, c: i64) -> i64 {
    let out = import(db, c, &own_fixture()).await.expect("import");
    let id = out["compra"]["COMP_ID"].as_i64().expect("id");
    let ids = id.to_string();
    update(
        db,
        c,
        "compraproduto",
        &[&ids, "1"],
        json!({"CMPP_PROD_ID": 1}),
    )
    .await
    .expect("link 1");
    update(
        db,
        c,
        "compraproduto",
        &[&ids, "3"],
        json!({"CMPP_PROD_ID": 3}),
    )
    .await
    .expect("link 3");
    id
}
