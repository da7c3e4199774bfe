//! [`Checks`], a hook configured per register for the rules the field kinds cannot
//! express alone (a document that must be a CPF, dates in order, a model that
//! must belong to the chosen brand), and the body normalisation the party and
//! vehicle hooks share.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::int;
use erp_platform::resource::{Hooks, Op};
use erp_platform::validators::Cpf;
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

/// A non-blank text value of a body or row.
pub(crate) fn text_of<'a>(m: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    m.get(name)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// Replaces a non-blank text value of the body by what `parse` makes of it.
pub(crate) fn normalise(
    body: &mut Map<String, Value>,
    name: &str,
    parse: impl Fn(&str) -> Result<String>,
) -> Result<()> {
    if let Some(s) = text_of(body, name) {
        let v = parse(s)?;
        body.insert(name.into(), Value::from(v));
    }
    Ok(())
}

pub(crate) fn cpf(s: &str) -> Result<String> {
    Cpf::parse(s)
        .map(|c| c.as_str().to_string())
        .map_err(|e| Error::validation(e.to_string()))
}

/// `HH:MM` or `HH:MM:SS`, stored with seconds.
pub(crate) fn time_of_day(s: &str) -> Result<String> {
    let bad = || Error::validation("Hora inválida.");
    let parts: Vec<&str> = s.split(':').collect();
    if !(2..=3).contains(&parts.len())
        || parts
            .iter()
            .any(|p| p.len() != 2 || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(bad());
    }
    let n = |i: usize| {
        parts
            .get(i)
            .and_then(|p| p.parse::<u32>().ok())
            .unwrap_or(0)
    };
    if n(0) > 23 || n(1) > 59 || n(2) > 59 {
        return Err(bad());
    }
    Ok(format!("{:02}:{:02}:{:02}", n(0), n(1), n(2)))
}

/// A model that must belong to the brand chosen beside it.
pub(crate) struct ModelOfBrand {
    pub model_field: &'static str,
    pub brand_field: &'static str,
    /// Qualified model table, its key column and its brand column.
    pub table: &'static str,
    pub key_column: &'static str,
    pub brand_column: &'static str,
}

impl ModelOfBrand {
    pub(crate) async fn check(&self, tx: &mut Tx, caller: &Caller, row: &Value) -> Result<()> {
        let (Ok(model), Ok(brand)) = (int(row, self.model_field), int(row, self.brand_field))
        else {
            return Ok(());
        };
        let sql = format!(
            "SELECT {} FROM {} WHERE client_id = $1 AND {} = $2",
            self.brand_column, self.table, self.key_column
        );
        let of_model: Option<i64> = sqlx::query_scalar(&sql)
            .bind(caller.client_id)
            .bind(model)
            .fetch_optional(&mut **tx)
            .await?;
        if of_model.is_some_and(|b| b != brand) {
            return Err(Error::validation(
                "O modelo não pertence à marca informada.",
            ));
        }
        Ok(())
    }
}

/// Per-register rules around the generic writes.
#[derive(Default)]
pub(crate) struct Checks {
    /// Fields holding a CPF: checked, stored unmasked, 'CPF inválido.' otherwise.
    pub cpf: &'static [&'static str],
    /// Time-of-day fields.
    pub times: &'static [&'static str],
    /// (start, end, message): when both dates are set the end may not come first.
    /// Checked on the written row, so an edit that sends only one date is covered.
    pub date_order: &'static [(&'static str, &'static str, &'static str)],
    pub model_of_brand: Option<ModelOfBrand>,
}

#[async_trait]
impl Hooks for Checks {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        for f in self.cpf {
            normalise(body, f, cpf)?;
        }
        for f in self.times {
            normalise(body, f, time_of_day)?;
        }
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        dates_in_order(row, self.date_order)?;
        if let Some(m) = &self.model_of_brand {
            m.check(tx, caller, row).await?;
        }
        Ok(())
    }
}

/// Dates are `yyyy-MM-dd` in rows, so text order is date order.
pub(crate) fn dates_in_order(row: &Value, pairs: &[(&str, &str, &str)]) -> Result<()> {
    for (start, end, msg) in pairs {
        if let (Some(s), Some(e)) = (
            row.get(*start).and_then(Value::as_str),
            row.get(*end).and_then(Value::as_str),
        ) {
            if e < s {
                return Err(Error::validation(*msg));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_of_day_are_checked_and_stored_with_seconds() {
        assert_eq!(time_of_day("08:30").ok(), Some("08:30:00".into()));
        assert_eq!(time_of_day("23:59:59").ok(), Some("23:59:59".into()));
        for bad in ["24:00", "8:30", "08:60", "08h30", "08:30:00:00", ""] {
            assert_eq!(
                time_of_day(bad).err().map(|e| e.to_string()),
                Some("Hora inválida.".into()),
                "{bad}"
            );
        }
    }

    #[test]
    fn date_order_reads_the_written_row() {
        let pairs = [("INI", "FIM", "fim antes do início")];
        let row = serde_json::json!({"INI": "2026-01-10", "FIM": "2026-01-09"});
        assert_eq!(
            dates_in_order(&row, &pairs).err().map(|e| e.to_string()),
            Some("fim antes do início".into())
        );
        assert!(dates_in_order(
            &serde_json::json!({"INI": "2026-01-10", "FIM": "2026-01-10"}),
            &pairs
        )
        .is_ok());
        assert!(dates_in_order(
            &serde_json::json!({"INI": "2026-01-10", "FIM": null}),
            &pairs
        )
        .is_ok());
    }
}
