//! Reading another service's register facts (`erp.v1.RecordChanged`: the row as
//! JSON with the legacy column names) into a local copy: the decoding and field
//! readers every copy uses, and the one copy several services keep alike
//! (catalog's suppliers: id, name, document).

use async_trait::async_trait;
use erp_proto::erp::v1::RecordChanged;
use prost::Message as _;
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
    }
}
