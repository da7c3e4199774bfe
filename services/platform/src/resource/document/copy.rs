//! Duplicating a document: a new open document with what the user typed on the
//! header and every line, numbered as a new one, written through the registers'
//! own create path (so numbering, checks and domain hooks apply), then its line
//! values and totals computed.

use serde_json::{Map, Value};

use super::{ops, Part};
use crate::db::Tx;
use crate::grpc::Caller;
use crate::resource::model::Resource;
use crate::resource::{params, query};
use crate::{Error, Result};

/// Today in the companies' time zone, as the API writes dates.
async fn today(tx: &mut Tx) -> Result<String> {
    Ok(
        sqlx::query_scalar("SELECT ((now() AT TIME ZONE 'America/Sao_Paulo')::date)::text")
            .fetch_one(&mut **tx)
            .await?,
    )
}

/// Copies the document of `header` keyed by `key`; `overrides` replace header
/// fields of the copy (a conversion's customer, a serie). The copy's date field,
/// when the document has one, is today. Answers the new header row.
pub async fn duplicate(
    tx: &mut Tx,
    header: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    key: &[String],
    overrides: Map<String, Value>,
) -> Result<Value> {
    let doc = header
        .document
        .as_ref()
        .filter(|d| d.part == Part::Header)
        .ok_or_else(|| Error::internal(format!("{} is not a document header", header.name)))?;
    let def = doc.def.clone();
    let source = query::get(tx, header, caller, emp, key)
        .await
        .map_err(|e| match e {
            Error::NotFound(_) => Error::NotFound(def.missing.clone()),
            other => other,
        })?;
    let mut body = Map::new();
    for name in &def.copied {
        if let Some(v) = source.get(name) {
            body.insert(name.clone(), v.clone());
        }
    }
    // Key columns the server does not number (a serie) are the user's.
    for k in &header.key {
        if header.generated_column() != Some(k.as_str()) {
            if let Some(v) = source.get(k) {
                body.insert(k.clone(), v.clone());
            }
        }
    }
    if let Some(d) = &def.date_field {
        body.insert(d.clone(), Value::String(today(tx).await?));
    }
    body.extend(overrides);
    let copy = query::create(tx, header, caller, emp, &body).await?;
    let new_key: Vec<String> = header.key.iter().map(|k| params::text(&copy, k)).collect();
    for l in &def.lines {
        let mut filter = Map::new();
        for (p, v) in l.parent.iter().zip(key) {
            filter.insert(p.name.clone(), Value::String(v.clone()));
        }
        filter.insert("LIMIT".into(), Value::from(query::MAX_LIMIT));
        let rows = query::list(tx, &l.plain, caller, emp, &filter).await?;
        for row in rows {
            let mut line = Map::new();
            for f in &l.plain.fields {
                let server_kept = f.read_only
                    || l.plain.is_company(&f.name)
                    || l.plain.generated_column() == Some(f.name.as_str());
                if server_kept {
                    continue;
                }
                if let Some(v) = row.get(&f.name).filter(|v| !v.is_null()) {
                    line.insert(f.name.clone(), v.clone());
                }
            }
            for (p, v) in l.parent.iter().zip(&new_key) {
                line.insert(p.name.clone(), Value::String(v.clone()));
            }
            query::create(tx, &l.plain, caller, emp, &line).await?;
        }
    }
    ops::refresh(tx, &def, caller, emp, &new_key).await?;
    query::get(tx, header, caller, emp, &new_key).await
}
