//! A document's lines read as structs, for the transitions that work on a whole
//! document (invoicing reads every line of an order once, after `ops::lock`):
//! the line type names the columns it needs by their legacy names.

use serde::de::DeserializeOwned;

use super::{DocumentDef, LineKind};
use crate::db::Tx;
use crate::resource::record;
use crate::resource::values::{row_to_json, select_expr};
use crate::{Error, Result};

/// Every line of kind `kind` of the document at `key`, in the lines' key order.
pub async fn lines<L: DeserializeOwned>(
    tx: &mut Tx,
    def: &DocumentDef,
    kind: LineKind,
    client: i64,
    emp: Option<i64>,
    key: &[String],
) -> Result<Vec<L>> {
    let mut out = Vec::new();
    for l in def.lines.iter().filter(|l| l.lines.kind == kind) {
        let fields: Vec<_> = l.plain.fields.iter().filter(|f| !f.write_only).collect();
        let cols: Vec<String> = fields.iter().map(|f| select_expr(f)).collect();
        let mut cond = String::from("client_id = $1");
        let mut n = 2;
        let line_emp = if l.company.is_some() { emp } else { None };
        if let (Some(c), Some(_)) = (&l.company, line_emp) {
            cond.push_str(&format!(" AND {} = ${n}", c.column));
            n += 1;
        }
        if l.parent.len() != key.len() {
            return Err(Error::internal("document key and line parent differ"));
        }
        for p in &l.parent {
            cond.push_str(&format!(" AND {} = ${n}::{}", p.column, p.cast()));
            n += 1;
        }
        let order: Vec<&str> = l.key.iter().map(|k| k.column.as_str()).collect();
        let sql = format!(
            "SELECT {} FROM {}.{} WHERE {cond} ORDER BY {}",
            cols.join(", "),
            l.plain.schema,
            l.table,
            order.join(", ")
        );
        let mut q = sqlx::query(&sql).bind(client);
        if let Some(e) = line_emp {
            q = q.bind(e);
        }
        for k in key {
            q = q.bind(k.as_str());
        }
        for row in q.fetch_all(&mut **tx).await? {
            out.push(record::from_row(&row_to_json(&fields, &row)?)?);
        }
    }
    Ok(out)
}
