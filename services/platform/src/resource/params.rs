//! What declared calls read from their path parameters, bodies and the rows the
//! engine wrote — one function per case, one pt-BR message per case, so every
//! service answers a missing company, a bad id or a bad number the same way.

use std::collections::HashMap;
use std::str::FromStr;

use rust_decimal::Decimal;
use serde_json::{Map, Value};

use crate::{Error, Result};

/// The message of a call that needs a company and got none (spec §5).
pub const NO_COMPANY: &str = "emp_id não informado.";

/// The call's company, which the call requires.
pub fn company(emp: Option<i64>) -> Result<i64> {
    emp.ok_or_else(|| Error::validation(NO_COMPANY))
}

/// A path parameter, trimmed and present: 'Parâmetro X não informado.'
pub fn param<'a>(params: &'a HashMap<String, String>, name: &str) -> Result<&'a str> {
    params
        .get(name)
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| Error::validation(format!("Parâmetro {name} não informado.")))
}

/// An integer path parameter: 'Parâmetro X inválido.' when it is not one.
pub fn id_param(params: &HashMap<String, String>, name: &str) -> Result<i64> {
    param(params, name)?
        .parse()
        .map_err(|_| Error::validation(format!("Parâmetro {name} inválido.")))
}

/// A path parameter naming a record by its id (positive): '<what> inválido.'
/// otherwise ('Produto inválido.').
pub fn record_id(params: &HashMap<String, String>, name: &str, what: &str) -> Result<i64> {
    params
        .get(name)
        .and_then(|p| p.trim().parse().ok())
        .filter(|n: &i64| *n > 0)
        .ok_or_else(|| Error::validation(format!("{what} inválido.")))
}

/// A JSON object's map (empty for anything else).
pub fn body_map(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// A decimal from a body value: numbers or strings (a blank is zero).
pub fn dec(v: &Value) -> Result<Decimal> {
    match v {
        Value::Null => Ok(Decimal::ZERO),
        Value::String(s) if s.trim().is_empty() => Ok(Decimal::ZERO),
        Value::String(s) => Decimal::from_str(s.trim())
            .map_err(|_| Error::validation(format!("Valor inválido: {s}."))),
        other => Decimal::from_str(&other.to_string())
            .map_err(|_| Error::validation(format!("Valor inválido: {other}."))),
    }
}

/// A decimal column of a row the engine wrote (`None` when null).
pub fn opt_dec(row: &Value, key: &str) -> Result<Option<Decimal>> {
    match &row[key] {
        Value::Null => Ok(None),
        v => dec(v)
            .map(Some)
            .map_err(|_| Error::internal(format!("{key} is not a decimal"))),
    }
}

/// A decimal column of a row the engine wrote, which must hold one.
pub fn dec_of(row: &Value, key: &str) -> Result<Decimal> {
    opt_dec(row, key)?.ok_or_else(|| Error::internal(format!("{key} is not a decimal")))
}

/// An integer column of a row the engine wrote (numbers or numeric strings).
pub fn int(row: &Value, key: &str) -> Result<i64> {
    match &row[key] {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
    .ok_or_else(|| Error::internal(format!("{key} is not an integer")))
}

/// A column as text (ids and series alike), for keys that travel as text.
pub fn text(row: &Value, key: &str) -> String {
    match &row[key] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        v => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_message_per_case() {
        let p: HashMap<String, String> = [
            ("id".to_string(), " 12 ".to_string()),
            ("x".into(), "a".into()),
        ]
        .into_iter()
        .collect();
        assert_eq!(id_param(&p, "id").ok(), Some(12));
        assert_eq!(
            id_param(&p, "x").err().map(|e| e.to_string()),
            Some("Parâmetro x inválido.".into())
        );
        assert_eq!(
            param(&p, "y").err().map(|e| e.to_string()),
            Some("Parâmetro y não informado.".into())
        );
        assert_eq!(
            company(None).err().map(|e| e.to_string()),
            Some(NO_COMPANY.into())
        );
        assert_eq!(dec(&json!("1.50")).ok(), Decimal::from_str("1.5").ok());
        assert_eq!(dec(&json!(" ")).ok(), Some(Decimal::ZERO));
        assert!(dec(&json!("1,5")).is_err());
        assert_eq!(int(&json!({"A": "7"}), "A").ok(), Some(7));
        assert_eq!(text(&json!({"A": 7}), "A"), "7");
        assert_eq!(opt_dec(&json!({"A": null}), "A").ok(), Some(None));
    }
}
