//! Reading another service's register facts (`erp.v1.RecordChanged`: the row as
//! JSON with the legacy column names) into a local copy: the decoding and field
//! readers every copy uses, the table-driven copy ([`Copy`]: which field of the
//! row lands in which column, read how), the companies' copy that a removal
//! deletes ([`company_fact`]) and the one copy several services keep alike
//! (catalog's suppliers: id, name, document).

use std::str::FromStr;

use async_trait::async_trait;
use erp_proto::erp::v1::RecordChanged;
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::Value;

use super::{Effect, Message};
use crate::db::Tx;
use crate::{Error, Result};

/// The fact and its row. An undecodable fact is refused for good (400).
pub fn decode_record(msg: &Message) -> Result<(RecordChanged, Value)> {
    let ev = RecordChanged::decode(msg.payload.as_ref())
        .map_err(|e| Error::validation(format!("Evento inválido: {e}")))?;
    let row: Value = serde_json::from_slice(&ev.row_json)
        .map_err(|e| Error::validation(format!("Evento inválido: {e}")))?;
    Ok((ev, row))
}

/// A positive id (number or numeric text); refused when missing.
pub fn row_id(row: &Value, k: &str) -> Result<i64> {
    match &row[k] {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
    .filter(|id| *id > 0)
    .ok_or_else(|| Error::validation(format!("Evento sem {k}.")))
}

/// A trimmed, non-empty text (numbers as their text).
pub fn row_text(row: &Value, k: &str) -> Option<String> {
    match &row[k] {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
    .filter(|s| !s.is_empty())
}

/// The first of `keys` holding a CPF/CNPJ, without its mask: letters and digits,
/// upper case (the alphanumeric CNPJ keeps its letters).
pub fn row_document(row: &Value, keys: &[&str]) -> Option<String> {
    keys.iter()
        .filter_map(|k| row_text(row, k))
        .map(|s| {
            s.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
                .to_ascii_uppercase()
        })
        .find(|d| !d.is_empty())
}

/// How a field of the row is read into its column of the copy.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Trimmed text; blank is `NULL`.
    Text,
    /// Upper-case text (UF).
    Upper,
    /// An integer (number or numeric text).
    Int,
    /// A decimal (number or numeric text); anything else refuses the fact.
    Decimal,
    /// Only the digits (CEP, NCM, CEST, IBGE code, phone, IE).
    Digits,
    /// A CPF/CNPJ without its mask (the alphanumeric CNPJ keeps its letters).
    Document,
}

/// A copy of another service's register, kept from its facts in
/// `<schema>.<table> (client_id, emp_id, [id,] excluido, columns…)`: the row's
/// company field (the fact's company when it has one; `None` for registers of
/// the whole client, kept under company 0), the id (`None` where the company is
/// the row's own id) and the copied columns. A removed row stays, flagged
/// `excluido`, so what was written with it keeps its names.
pub struct Copy {
    pub schema: &'static str,
    pub table: &'static str,
    pub emp_field: Option<&'static str>,
    pub id: Option<(&'static str, &'static str)>,
    pub columns: &'static [(&'static str, &'static str, Kind)],
}

impl Copy {
    fn upsert_sql(&self) -> String {
        let mut keys = vec!["client_id", "emp_id"];
        if let Some((col, _)) = self.id {
            keys.push(col);
        }
        let cols: Vec<&str> = self.columns.iter().map(|c| c.0).collect();
        let first = keys.len() + 2;
        let key_params: Vec<String> = (1..=keys.len()).map(|i| format!("${i}")).collect();
        let values: Vec<String> = (0..cols.len()).map(|i| format!("${}", i + first)).collect();
        let sets: Vec<String> = cols.iter().map(|c| format!("{c} = EXCLUDED.{c}")).collect();
        format!(
            "INSERT INTO {s}.{t} ({keys}, excluido, {cols})
             VALUES ({key_params}, ${excl}, {values})
             ON CONFLICT ({keys}) DO UPDATE SET excluido = EXCLUDED.excluido, {sets}",
            s = self.schema,
            t = self.table,
            keys = keys.join(", "),
            key_params = key_params.join(", "),
            excl = keys.len() + 1,
            cols = cols.join(", "),
            values = values.join(", "),
            sets = sets.join(", "),
        )
    }
}

fn int_of(row: &Value, k: &str) -> Option<i64> {
    match &row[k] {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
}

fn digits_of(row: &Value, k: &str) -> Option<String> {
    row_text(row, k)
        .map(|s| s.chars().filter(char::is_ascii_digit).collect::<String>())
        .filter(|s| !s.is_empty())
}

fn decimal_of(row: &Value, k: &str) -> Result<Option<Decimal>> {
    let Some(s) = row_text(row, k) else {
        return Ok(None);
    };
    Decimal::from_str(&s)
        .or_else(|_| Decimal::from_scientific(&s))
        .map(Some)
        .map_err(|_| Error::validation(format!("Evento com {k} inválido.")))
}

#[async_trait]
impl Effect for Copy {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, row) = decode_record(msg)?;
        if ev.client_id != 0 && ev.client_id != client_id {
            return Err(Error::validation("Evento de outro cliente."));
        }
        let emp = match (self.emp_field, ev.emp_id) {
            (None, _) => 0,
            (Some(field), 0) => row_id(&row, field)?,
            (Some(_), e) => e,
        };
        let sql = self.upsert_sql();
        let mut q = sqlx::query(&sql).bind(client_id).bind(emp);
        if let Some((_, field)) = self.id {
            q = q.bind(row_id(&row, field)?);
        }
        q = q.bind(ev.op == "excluido");
        for (_, field, kind) in self.columns {
            q = match kind {
                Kind::Text => q.bind(row_text(&row, field)),
                Kind::Upper => q.bind(row_text(&row, field).map(|s| s.to_uppercase())),
                Kind::Int => q.bind(int_of(&row, field)),
                Kind::Decimal => q.bind(decimal_of(&row, field)?),
                Kind::Digits => q.bind(digits_of(&row, field)),
                Kind::Document => q.bind(row_document(&row, &[field])),
            };
        }
        q.execute(&mut **tx).await?;
        Ok(())
    }
}

/// A fact of identity's companies (`erp.identity.empresa.*`) for a copy in
/// `<schema>.empresas (client_id, emp_id, …)`: a removal deletes the copy and
/// answers `None`; otherwise the company's id and row, for the caller's upsert.
pub async fn company_fact(
    tx: &mut Tx,
    schema: &str,
    client_id: i64,
    msg: &Message,
) -> Result<Option<(i64, Value)>> {
    let (ev, row) = decode_record(msg)?;
    let emp = row_id(&row, "EMP_ID")?;
    if ev.op != "excluido" {
        return Ok(Some((emp, row)));
    }
    sqlx::query(&format!(
        "DELETE FROM {schema}.empresas WHERE client_id = $1 AND emp_id = $2"
    ))
    .bind(client_id)
    .bind(emp)
    .execute(&mut **tx)
    .await?;
    Ok(None)
}

/// `erp.catalog.fornecedor.*` into `<schema>.fornecedores (client_id, forn_id,
/// descricao, documento, excluido)`: the supplier's name and document.
pub struct SupplierCopy {
    pub schema: &'static str,
}

#[async_trait]
impl Effect for SupplierCopy {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, row) = decode_record(msg)?;
        sqlx::query(&format!(
            "INSERT INTO {}.fornecedores (client_id, forn_id, descricao, documento, excluido)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (client_id, forn_id) DO UPDATE
             SET descricao = EXCLUDED.descricao, documento = EXCLUDED.documento, excluido = EXCLUDED.excluido",
            self.schema
        ))
        .bind(client_id)
        .bind(row_id(&row, "FORN_ID")?)
        .bind(row_text(&row, "FORN_DESCRICAO").unwrap_or_default())
        .bind(row_document(&row, &["FORN_CGC"]))
        .bind(ev.op == "excluido")
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_read_as_the_copies_need_them() {
        let row = json!({"ID": "12", "ZERO": 0, "N": 3.5, "T": "  x ", "E": " ",
                         "CNPJ": "12.ABC.345/01DE-35", "CPF": "123.456.789-09"});
        assert_eq!(row_id(&row, "ID").ok(), Some(12));
        assert!(row_id(&row, "ZERO").is_err());
        assert!(row_id(&row, "NONE").is_err());
        assert_eq!(row_text(&row, "N").as_deref(), Some("3.5"));
        assert_eq!(row_text(&row, "T").as_deref(), Some("x"));
        assert_eq!(row_text(&row, "E"), None);
        assert_eq!(
            row_document(&row, &["NONE", "CNPJ"]).as_deref(),
            Some("12ABC34501DE35")
        );
        assert_eq!(row_document(&row, &["CPF"]).as_deref(), Some("12345678909"));
        assert_eq!(
            decimal_of(&row, "N").ok().flatten(),
            Decimal::from_str("3.5").ok()
        );
        assert_eq!(decimal_of(&row, "E").ok().flatten(), None);
        assert!(decimal_of(&row, "CNPJ").is_err());
        assert_eq!(digits_of(&row, "CPF").as_deref(), Some("12345678909"));
    }

    #[test]
    fn a_copy_upserts_its_columns_after_its_keys() {
        let with_id = Copy {
            schema: "s",
            table: "t",
            emp_field: None,
            id: Some(("x_id", "X_ID")),
            columns: &[("a", "A", Kind::Text), ("b", "B", Kind::Int)],
        };
        assert_eq!(
            with_id.upsert_sql().split_whitespace().collect::<Vec<_>>().join(" "),
            "INSERT INTO s.t (client_id, emp_id, x_id, excluido, a, b) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (client_id, emp_id, x_id) DO UPDATE SET excluido = EXCLUDED.excluido, a = EXCLUDED.a, b = EXCLUDED.b"
        );
        let company = Copy { id: None, ..with_id };
        let sql = company
            .upsert_sql()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            sql.contains("(client_id, emp_id, excluido, a, b) VALUES ($1, $2, $3, $4, $5)"),
            "{sql}"
        );
    }
}
