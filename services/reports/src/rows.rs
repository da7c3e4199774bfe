//! Query rows as report rows: each column of a query, named by its alias (the
//! report column's field, quoted upper case), becomes a JSON value by its
//! PostgreSQL type — numeric as an exact number, dates as yyyy-MM-dd, integers,
//! text, booleans — so a report's query is its whole description of the rows.

use chrono::NaiveDate;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{Map, Value};
use sqlx::postgres::PgRow;
use sqlx::{Column, Row, TypeInfo};

use crate::engine::num;

/// One query row as a report row.
pub fn to_map(r: &PgRow) -> Result<Map<String, Value>> {
    let mut out = Map::new();
    for (i, c) in r.columns().iter().enumerate() {
        let v = match c.type_info().name() {
            "NUMERIC" => r.try_get::<Option<Decimal>, _>(i)?.map(num),
            "INT8" => r.try_get::<Option<i64>, _>(i)?.map(Value::from),
            "INT4" => r.try_get::<Option<i32>, _>(i)?.map(Value::from),
            "INT2" => r.try_get::<Option<i16>, _>(i)?.map(Value::from),
            "BOOL" => r.try_get::<Option<bool>, _>(i)?.map(Value::from),
            "DATE" => r
                .try_get::<Option<NaiveDate>, _>(i)?
                .map(|d| Value::from(d.format("%Y-%m-%d").to_string())),
            "TEXT" | "VARCHAR" | "BPCHAR" | "NAME" => {
                r.try_get::<Option<String>, _>(i)?.map(Value::from)
            }
            other => {
                return Err(Error::internal(format!(
                    "report column {} of type {other}",
                    c.name()
                )))
            }
        };
        out.insert(c.name().to_uppercase(), v.unwrap_or(Value::Null));
    }
    Ok(out)
}

/// Every row of a query.
pub fn all(rows: &[PgRow]) -> Result<Vec<Map<String, Value>>> {
    rows.iter().map(to_map).collect()
}

/// A running balance: `SALDO` of each row is `opening` of its group (`key`)
/// plus what `plus` minus what `minus` fields added up to so far in it.
pub fn running(rows: &mut [Map<String, Value>], key: &str, plus: &str, minus: &str) {
    let mut current: Option<(Value, Decimal)> = None;
    for r in rows.iter_mut() {
        let k = r.get(key).cloned().unwrap_or(Value::Null);
        let before = match &current {
            Some((ck, b)) if *ck == k => *b,
            _ => Decimal::ZERO,
        };
        let opening = crate::engine::decimal(r.get("SALDO_ANTERIOR"));
        let after = before + opening + crate::engine::decimal(r.get(plus))
            - crate::engine::decimal(r.get(minus));
        r.remove("SALDO_ANTERIOR");
        r.insert("SALDO".into(), num(after));
        current = Some((k, after));
    }
}
