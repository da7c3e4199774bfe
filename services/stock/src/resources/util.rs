//! Small helpers shared by the stock registers: reading the written row, path
//! parameters, and the hook of the read-only registers.

use std::collections::HashMap;
use std::str::FromStr;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{Hooks, Op};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{Map, Value};

/// A decimal column of a row the engine wrote (numbers or strings).
pub fn dec(row: &Value, key: &str) -> Result<Decimal> {
    let v = &row[key];
    let s = v
        .as_str()
        .map(String::from)
        .unwrap_or_else(|| v.to_string());
    Decimal::from_str(s.trim()).map_err(|_| Error::internal(format!("{key} is not a decimal")))
}

/// An optional decimal column.
pub fn opt_dec(row: &Value, key: &str) -> Result<Option<Decimal>> {
    if row[key].is_null() {
        Ok(None)
    } else {
        dec(row, key).map(Some)
    }
}

/// An integer column of a row the engine wrote.
pub fn int(row: &Value, key: &str) -> Result<i64> {
    row[key]
        .as_i64()
        .ok_or_else(|| Error::internal(format!("{key} is not an integer")))
}

/// A path parameter naming a record id.
pub fn id_param(params: &HashMap<String, String>, name: &str, what: &str) -> Result<i64> {
    params
        .get(name)
        .and_then(|p| p.trim().parse().ok())
        .filter(|n: &i64| *n > 0)
        .ok_or_else(|| Error::validation(format!("{what} inválido.")))
}

pub fn company(emp: Option<i64>) -> Result<i64> {
    emp.ok_or_else(|| Error::validation("emp_id não informado."))
}

/// Drops the posted fields of an edit: they are in the ledger (delete and post
/// again to change them).
pub fn keep_posted(op: Op, body: &mut Map<String, Value>, posted: &[&str]) {
    if op == Op::Update {
        body.retain(|k, _| !posted.contains(&k.as_str()));
    }
}

/// Refuses every write of a read-only register (a view) with its pt-BR text.
pub struct ReadOnly(pub &'static str);

#[async_trait]
impl Hooks for ReadOnly {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        _body: &mut Map<String, Value>,
    ) -> Result<()> {
        Err(Error::validation(self.0))
    }

    // A delete reaches the view (whose trigger does nothing) before any hook runs;
    // refusing here rolls the transaction back with the same text.
    async fn after_write(
        &self,
        _tx: &mut Tx,
        _op: Op,
        _caller: &Caller,
        _row: &Value,
    ) -> Result<()> {
        Err(Error::validation(self.0))
    }
}
