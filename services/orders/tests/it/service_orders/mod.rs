//! Service orders: totals from the lines, surcharge, stock write-off once, the
//! odometer check, closed orders, conversion from a quote, tenant isolation.

use std::str::FromStr;

use erp_platform::db::Db;
use erp_platform::resource::query;
use erp_platform::Error;
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::{
    action, body, caller, client, create, db, delete, get, registry, s, seed_copies, update,
};

pub fn d(v: &Value) -> Decimal {
    Decimal::from_str(&s(v)).unwrap_or_else(|_| panic!("not a decimal: {v}"))
}

pub fn n(x: &str) -> Decimal {
    Decimal::from_str(x).expect("decimal")
}

/// Runs a declared call with a body, as the gateway would.
pub async fn act(
    db: &Db,
    c: i64,
    name: &str,
    action: &str,
    params: &[(&str, &str)],
    b: Value,
) -> erp_platform::Result<Value> {
    let reg = registry();
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
    let out = a.run(&mut tx, res, &caller(c), Some(1), &params, b).await?;
    tx.commit().await?;
    Ok(out)
}

pub async fn list(db: &Db, c: i64, name: &str, filter: Value) -> erp_platform::Result<Vec<Value>> {
    let reg = registry();
    let res = reg.get(name).expect("resource");
    let mut tx = db.begin_tenant(c).await?;
    let rows = query::list(&mut tx, res, &caller(c), Some(1), &body(filter)).await?;
    tx.commit().await?;
    Ok(rows)
}

async fn order(db: &Db, c: i64, cli: i64, vehicle: i64, km: i64) -> String {
    let row = create(db, c, "ordemservico", json!({
        "ORDS_CLI_ID": cli, "ORDS_VEIC_ID": vehicle, "ORDS_KM": km, "ORDS_DTA_ENTRADA": "2026-11-22",
        "ORDS_DEFEITO": "Ruído na suspensão"
    }))
    .await
    .expect("order");
    s(&row["ORDS_ID"])
}

async fn header(db: &Db, c: i64, id: &str) -> Value {
    get(db, c, "ordemservico", &[id, "OS"])
        .await
        .expect("order row")
}

/// [services, parts, surcharges, discounts, total]
fn totals(row: &Value) -> [Decimal; 5] {
    [
        "ORDS_VLR_SERV",
        "ORDS_VLR_PECAS",
        "ORDS_VLR_ACRE",
        "ORDS_VLR_DESC",
        "ORDS_VLR_TOTAL",
    ]
    .map(|k| d(&row[k]))
}

fn t(v: [&str; 5]) -> [Decimal; 5] {
    v.map(n)
}

mod parts;
mod totals;
mod transitions;
