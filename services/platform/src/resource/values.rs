//! Values between JSON bodies, typed SQL parameters and JSON rows, and the field
//! rules with the pt-BR messages of the spec (screens-and-rules.md §5).

use std::str::FromStr;

use chrono::{DateTime, NaiveDate, Utc};
use rust_decimal::Decimal;
use serde_json::{Number, Value};
use sqlx::postgres::PgRow;
use sqlx::{Postgres, QueryBuilder, Row};

use super::field::{DbType, Field, Kind};
use crate::validators as v;
use crate::{Error, Result};

#[derive(Clone, Debug, PartialEq)]
pub enum SqlValue {
    Null,
    Int(i64),
    Text(String),
    Dec(Decimal),
    Date(NaiveDate),
    Ts(DateTime<Utc>),
    Bool(bool),
    Json(Value),
}

pub fn push_bind(qb: &mut QueryBuilder<'_, Postgres>, value: SqlValue, db: DbType) {
    match value {
        SqlValue::Null => match db {
            DbType::Int => qb.push_bind(None::<i64>),
            DbType::Text => qb.push_bind(None::<String>),
            DbType::Decimal => qb.push_bind(None::<Decimal>),
            DbType::Date => qb.push_bind(None::<NaiveDate>),
            DbType::Timestamp => qb.push_bind(None::<DateTime<Utc>>),
            DbType::Bool => qb.push_bind(None::<bool>),
            DbType::Json => qb.push_bind(None::<Value>),
        },
        SqlValue::Int(i) => qb.push_bind(i),
        SqlValue::Text(s) => qb.push_bind(s),
        SqlValue::Dec(d) => qb.push_bind(d),
        SqlValue::Date(d) => qb.push_bind(d),
        SqlValue::Ts(t) => qb.push_bind(t),
        SqlValue::Bool(b) => qb.push_bind(b),
        SqlValue::Json(j) => qb.push_bind(j),
    };
}

fn is_blank(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

/// Parses a JSON value into the field's storage type. Blank becomes `Null`.
pub fn parse_value(f: &Field, value: &Value) -> Result<SqlValue> {
    if is_blank(value) {
        return Ok(SqlValue::Null);
    }
    let bad = || Error::validation(format!("Valor inválido para o campo {}.", f.label));
    Ok(match f.db {
        DbType::Int => match value {
            Value::Number(n) => SqlValue::Int(n.as_i64().ok_or_else(bad)?),
            Value::String(s) => SqlValue::Int(s.trim().parse().map_err(|_| bad())?),
            Value::Bool(b) => SqlValue::Int(i64::from(*b)),
            _ => return Err(bad()),
        },
        DbType::Decimal => SqlValue::Dec(parse_decimal(value).ok_or_else(bad)?),
        DbType::Text => match value {
            // PostgreSQL text cannot hold NUL.
            Value::String(s) if s.contains('\0') => return Err(bad()),
            Value::String(s) => SqlValue::Text(s.trim().to_string()),
            Value::Number(n) => SqlValue::Text(n.to_string()),
            Value::Bool(b) => SqlValue::Text(if *b { "S".into() } else { "N".into() }),
            _ => return Err(bad()),
        },
        DbType::Date => match value {
            Value::String(s) => SqlValue::Date(parse_date(s)?),
            _ => return Err(Error::validation("Data inválida")),
        },
        DbType::Timestamp => match value {
            Value::String(s) => SqlValue::Ts(
                DateTime::parse_from_rfc3339(s.trim())
                    .map(|d| d.with_timezone(&Utc))
                    .map_err(|_| Error::validation("Data inválida"))?,
            ),
            _ => return Err(Error::validation("Data inválida")),
        },
        DbType::Bool => match value {
            Value::Bool(b) => SqlValue::Bool(*b),
            Value::Number(n) => SqlValue::Bool(n.as_i64().ok_or_else(bad)? != 0),
            Value::String(s) => match s.trim().to_ascii_uppercase().as_str() {
                "1" | "S" | "SIM" | "TRUE" | "T" => SqlValue::Bool(true),
                "0" | "N" | "NAO" | "NÃO" | "FALSE" | "F" => SqlValue::Bool(false),
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        },
        DbType::Json => SqlValue::Json(value.clone()),
    })
}

/// API dates are yyyy-MM-dd; an ISO timestamp keeps its date; dd/MM/yyyy is accepted
/// from old clients.
pub fn parse_date(s: &str) -> Result<NaiveDate> {
    let s = s.trim();
    let r = if s.contains('/') {
        v::parse_br_date(s)
    } else {
        v::parse_api_date(s.get(..10).unwrap_or(s))
    };
    r.map_err(|e| Error::validation(e.to_string()))
}

/// Decimals from JSON numbers (exact, thanks to arbitrary precision) or strings in
/// either `1234.56` or pt-BR `1.234,56` form.
pub fn parse_decimal(value: &Value) -> Option<Decimal> {
    match value {
        Value::Number(n) => {
            let s = n.to_string();
            Decimal::from_str(&s)
                .or_else(|_| Decimal::from_scientific(&s))
                .ok()
        }
        Value::String(s) => {
            let s = s.trim().trim_start_matches("R$").trim();
            let normal = if s.contains(',') {
                s.replace('.', "").replace(',', ".")
            } else {
                s.to_string()
            };
            Decimal::from_str(&normal).ok()
        }
        _ => None,
    }
}

/// Applies the field's rules to a parsed value and returns what is stored.
pub fn validate(f: &Field, value: SqlValue) -> Result<SqlValue> {
    let err = |e: v::ValidationError| Error::validation(e.to_string());
    if value == SqlValue::Null {
        if f.required {
            return Err(err(v::required(&f.label)));
        }
        return Ok(value);
    }
    if !f.options.is_empty() {
        let s = match &value {
            SqlValue::Int(i) => i.to_string(),
            SqlValue::Text(t) => t.clone(),
            other => format!("{other:?}"),
        };
        if !f.options.iter().any(|(o, _)| *o == s) {
            return Err(Error::validation(format!(
                "Valor inválido para o campo {}.",
                f.label
            )));
        }
    }
    match &value {
        SqlValue::Text(s) => {
            let stored = match f.kind {
                Kind::CpfCnpj => v::CpfCnpj::parse(s).map_err(err)?.as_str().to_string(),
                Kind::Email => v::Email::parse(s).map_err(err)?.as_str().to_string(),
                Kind::Cep => v::Cep::parse(s).map_err(err)?.as_str().to_string(),
                Kind::Color => v::HexColor::parse(s).map_err(err)?.as_str().to_string(),
                Kind::AccessKey => v::AccessKey::parse(s).map_err(err)?.as_str().to_string(),
                Kind::Phones => {
                    let mut out = Vec::new();
                    for p in s.split([';', ',']).map(str::trim).filter(|p| !p.is_empty()) {
                        out.push(v::Phone::parse(p).map_err(err)?.as_str().to_string());
                    }
                    out.join(";")
                }
                _ => s.clone(),
            };
            let n = stored.chars().count();
            if let Some(max) = f.length {
                if n > max as usize {
                    return Err(Error::validation(format!(
                        "O campo {} deve ter no máximo {max} caracteres.",
                        f.label
                    )));
                }
            }
            if let Some(min) = f.min_length {
                if n < min as usize {
                    return Err(err(v::min_length(&f.label, min as usize)));
                }
            }
            Ok(SqlValue::Text(stored))
        }
        SqlValue::Int(_) | SqlValue::Dec(_) => {
            let d = match &value {
                SqlValue::Int(i) => Decimal::from(*i),
                SqlValue::Dec(d) => *d,
                _ => Decimal::ZERO,
            };
            if let Some(places) = f.scale {
                if d.normalize().scale() > places {
                    return Err(Error::validation(format!(
                        "O campo {} aceita no máximo {places} casas decimais.",
                        f.label
                    )));
                }
            }
            if let Some(max) = f.max {
                if d > max {
                    return Err(err(v::max(max, "")));
                }
            }
            if let Some(min) = f.min {
                if d < min {
                    return Err(err(v::min(&f.label, min)));
                }
            }
            Ok(value)
        }
        _ => Ok(value),
    }
}

/// The SQL expression selecting a field with a type the decoder expects.
pub fn select_expr(f: &Field) -> String {
    let cast = match f.db {
        DbType::Int => "int8",
        DbType::Text => "text",
        DbType::Decimal => "numeric",
        DbType::Date => "date",
        DbType::Timestamp => "timestamptz",
        DbType::Bool => "bool",
        DbType::Json => "jsonb",
    };
    format!("{}::{} AS \"{}\"", f.column, cast, f.name)
}

/// A row as a JSON object keyed by the legacy names; money stays exact.
pub fn row_to_json(fields: &[&Field], row: &PgRow) -> Result<Value> {
    let mut map = serde_json::Map::with_capacity(fields.len() + 3);
    for f in fields {
        let name = f.name.as_str();
        let v = match f.db {
            DbType::Int => row.try_get::<Option<i64>, _>(name)?.map(Value::from),
            DbType::Text => row.try_get::<Option<String>, _>(name)?.map(Value::from),
            DbType::Decimal => row
                .try_get::<Option<Decimal>, _>(name)?
                .and_then(|d| Number::from_str(&d.normalize().to_string()).ok())
                .map(Value::Number),
            DbType::Date => row
                .try_get::<Option<NaiveDate>, _>(name)?
                .map(|d| Value::from(d.format("%Y-%m-%d").to_string())),
            DbType::Timestamp => row
                .try_get::<Option<DateTime<Utc>>, _>(name)?
                .map(|d| Value::from(d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))),
            DbType::Bool => row.try_get::<Option<bool>, _>(name)?.map(Value::from),
            DbType::Json => row.try_get::<Option<Value>, _>(name)?,
        };
        map.insert(f.name.clone(), v.unwrap_or(Value::Null));
    }
    Ok(Value::Object(map))
}

/// Rows written straight to JSON bytes (a list's answer), as [`row_to_json`] and
/// `query::decorate` would make them, without building a `Value` per row: text is
/// borrowed from the row buffer, numbers are written as they are. Each row also
/// carries `ORDEM` (0/1 by position), `id` (its first key) and `text` (its label).
pub fn rows_to_json_bytes(
    fields: &[&Field],
    rows: &[PgRow],
    id: Option<&Field>,
    text: Option<&Field>,
) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(64 + rows.len() * fields.len() * 24);
    // Columns are read by position (the statement selects `fields` in order): a
    // lookup by name costs a hash and a string compare per cell.
    let at = |f: Option<&Field>| f.and_then(|f| fields.iter().position(|x| x.name == f.name));
    let list = RowsSer { fields, rows, id: at(id), text: at(text) };
    serde_json::to_writer(&mut out, &list).map_err(|e| Error::internal(format!("row: {e}")))?;
    Ok(out)
}

struct RowsSer<'a> {
    fields: &'a [&'a Field],
    rows: &'a [PgRow],
    /// Positions of the first key and the label among `fields`.
    id: Option<usize>,
    text: Option<usize>,
}

struct RowSer<'a> {
    list: &'a RowsSer<'a>,
    row: &'a PgRow,
    position: usize,
}

/// One column of a row, typed as its field is stored.
struct Cell<'a> {
    field: &'a Field,
    /// The column's position in the row.
    idx: usize,
    row: &'a PgRow,
}

impl serde::Serialize for RowsSer<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.rows.len()))?;
        for (position, row) in self.rows.iter().enumerate() {
            seq.serialize_element(&RowSer { list: self, row, position })?;
        }
        seq.end()
    }
}

impl serde::Serialize for RowSer<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        const DECORATION: [&str; 3] = ["ORDEM", "id", "text"];
        let mut m = s.serialize_map(None)?;
        let fields = self.list.fields;
        let cell = |idx: usize| Cell { field: fields[idx], idx, row: self.row };
        for (idx, f) in fields.iter().enumerate() {
            if !DECORATION.contains(&f.name.as_str()) {
                m.serialize_entry(f.name.as_str(), &cell(idx))?;
            }
        }
        m.serialize_entry("ORDEM", &((self.position % 2) as i64))?;
        match self.list.id {
            Some(idx) => m.serialize_entry("id", &cell(idx))?,
            None => m.serialize_entry("id", &())?,
        }
        match self.list.text {
            Some(idx) => m.serialize_entry("text", &cell(idx))?,
            None => m.serialize_entry("text", &())?,
        }
        m.end()
    }
}

impl serde::Serialize for Cell<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::Error as _;
        let name = self.field.name.as_str();
        let bad = |e: sqlx::Error| S::Error::custom(format!("{name}: {e}"));
        // Unchecked: `select_expr` casts every column to the type read here.
        match self.field.db {
            DbType::Int => self
                .row
                .try_get_unchecked::<Option<i64>, _>(self.idx)
                .map_err(bad)?
                .serialize(s),
            DbType::Text => self
                .row
                .try_get_unchecked::<Option<&str>, _>(self.idx)
                .map_err(bad)?
                .serialize(s),
            DbType::Decimal => match self
                .row
                .try_get_unchecked::<Option<Decimal>, _>(self.idx)
                .map_err(bad)?
            {
                Some(d) => Number::from_str(&d.normalize().to_string())
                    .map_err(S::Error::custom)?
                    .serialize(s),
                None => s.serialize_none(),
            },
            DbType::Date => match self
                .row
                .try_get_unchecked::<Option<NaiveDate>, _>(self.idx)
                .map_err(bad)?
            {
                Some(d) => s.collect_str(&d.format("%Y-%m-%d")),
                None => s.serialize_none(),
            },
            DbType::Timestamp => {
                match self
                    .row
                    .try_get_unchecked::<Option<DateTime<Utc>>, _>(self.idx)
                    .map_err(bad)?
                {
                    Some(d) => {
                        s.serialize_str(&d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
                    }
                    None => s.serialize_none(),
                }
            }
            DbType::Bool => self
                .row
                .try_get_unchecked::<Option<bool>, _>(self.idx)
                .map_err(bad)?
                .serialize(s),
            DbType::Json => self
                .row
                .try_get_unchecked::<Option<Value>, _>(self.idx)
                .map_err(bad)?
                .serialize(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_exact_in_both_notations() {
        let d =
            parse_decimal(&serde_json::from_str::<Value>("1234.567890123456789").expect("json"));
        assert_eq!(
            d.map(|d| d.to_string()),
            Some("1234.567890123456789".into())
        );
        assert_eq!(
            parse_decimal(&Value::from("1.234,56")),
            Decimal::from_str("1234.56").ok()
        );
        assert_eq!(
            parse_decimal(&Value::from("R$ 10,5")),
            Decimal::from_str("10.5").ok()
        );
        assert_eq!(parse_decimal(&Value::from("abc")), None);
    }

    #[test]
    fn dates_accept_api_iso_and_br_forms() {
        let d = NaiveDate::from_ymd_opt(2026, 2, 28);
        assert_eq!(parse_date("2026-02-28").ok(), d);
        assert_eq!(parse_date("2026-02-28T03:00:00.000Z").ok(), d);
        assert_eq!(parse_date("28/02/2026").ok(), d);
        assert_eq!(
            parse_date("2026-02-30").err().map(|e| e.to_string()),
            Some("Data inválida".into())
        );
    }

    #[test]
    fn required_and_bounds_use_the_spec_messages() {
        let f = Field::text("CLI_DESCRICAO", "Nome").required().len(5);
        assert_eq!(
            validate(&f, SqlValue::Null).err().map(|e| e.to_string()),
            Some("Nome é obrigatório!".into())
        );
        assert!(validate(&f, SqlValue::Text("abcdef".into())).is_err());
        let m = Field::money("VLR", "Valor").max("100");
        assert_eq!(
            validate(&m, SqlValue::Dec(Decimal::from(101)))
                .err()
                .map(|e| e.to_string()),
            Some("Valor Máximo permitido para o campo: 100".into())
        );
        assert_eq!(
            validate(&m, SqlValue::Dec(Decimal::from(-1)))
                .err()
                .map(|e| e.to_string()),
            Some("O campo Valor deve ser maior ou igual a 0 ".into())
        );
        let t = Field::textarea("OBS", "Observação").min_len(3);
        assert_eq!(
            validate(&t, SqlValue::Text("ab".into()))
                .err()
                .map(|e| e.to_string()),
            Some("O campo Observação deve ter no minimo 3 caracteres.".into())
        );
    }

    #[test]
    fn kinds_normalise_what_is_stored() {
        let c = Field::cpf_cnpj("CLI_CGC", "CNPJ");
        assert_eq!(
            validate(&c, SqlValue::Text("00.000.000/0001-91".into())).ok(),
            Some(SqlValue::Text("00000000000191".into()))
        );
        let p = Field::phones("CLI_FONE", "Telefones");
        assert_eq!(
            validate(&p, SqlValue::Text("(11) 98765-4321; 21987654321".into())).ok(),
            Some(SqlValue::Text("11987654321;21987654321".into()))
        );
        assert_eq!(
            validate(&p, SqlValue::Text("1199".into()))
                .err()
                .map(|e| e.to_string()),
            Some("Número incompleto".into())
        );
        let e = Field::email("CLI_EMAIL", "E-mail");
        assert_eq!(
            validate(&e, SqlValue::Text("x@".into()))
                .err()
                .map(|e| e.to_string()),
            Some("E-mail inválido.".into())
        );
        let h = Field::color("COR_HEX", "Cor");
        assert_eq!(
            validate(&h, SqlValue::Text("GG0000".into()))
                .err()
                .map(|e| e.to_string()),
            Some("Valor hexadecimal inválido.".into())
        );
    }
}
