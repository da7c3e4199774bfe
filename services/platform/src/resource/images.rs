//! A register's image column replaced or removed by a declared upload call. The
//! gateway stores the uploaded file and hands the call its stored name; the call
//! writes it to the row and answers the row with the file it replaced
//! (`anterior`), which the gateway then deletes. Removal answers the row naming the
//! removed file as `arquivo`, and only when the row still holds the file named in
//! the path (a stale screen must not remove a newer image).

use std::collections::HashMap;

use async_trait::async_trait;
use serde_json::Value;

use super::action::{ActionHandler, Call};
use super::model::Resource;
use super::{params, query};
use crate::db::Tx;
use crate::grpc::Caller;
use crate::{Error, Result};

/// The row's key from the call's path: `key_params[i]` names the parameter that
/// carries the register's `i`-th key field.
fn key_of(res: &Resource, key_params: &[&str], p: &HashMap<String, String>) -> Result<Vec<String>> {
    if key_params.len() != res.key.len() {
        return Err(Error::internal(format!("{}: image call key", res.name)));
    }
    key_params
        .iter()
        .map(|k| params::param(p, k).map(str::to_string))
        .collect()
}

/// The row an image call works on.
struct Row<'a> {
    res: &'a Resource,
    caller: &'a Caller,
    emp: Option<i64>,
    key: &'a [String],
}

/// `UPDATE ... SET column = $new ... RETURNING` the value it had, for the row of
/// `key` (locked first); with `only_if`, only while the column holds that value.
async fn swap(
    tx: &mut Tx,
    row: Row<'_>,
    column: &str,
    new: Option<&str>,
    only_if: Option<&str>,
) -> Result<Option<Option<String>>> {
    let Row { res, caller, emp, key } = row;
    let f = res
        .field(column)
        .ok_or_else(|| Error::internal(format!("{}: no field {column}", res.name)))?;
    let mut cond = String::from("client_id = $1");
    let mut n = 3;
    if let Some(c) = res.company.as_deref().and_then(|c| res.field(c)) {
        cond.push_str(&format!(" AND {} = ${n}", c.column));
        n += 1;
    }
    for k in &res.key {
        let kf = res.field(k).ok_or_else(|| Error::internal("key field"))?;
        let cast = if kf.db == super::DbType::Int {
            "bigint"
        } else {
            "text"
        };
        cond.push_str(&format!(" AND {} = ${n}::{cast}", kf.column));
        n += 1;
    }
    if only_if.is_some() {
        cond.push_str(&format!(" AND {} = ${n}", f.column));
    }
    let sql = format!(
        "UPDATE {t} x SET {c} = $2 FROM (SELECT {c} AS old FROM {t} WHERE {cond} FOR UPDATE) o
         WHERE {xcond} RETURNING o.old",
        t = res.qualified_table(),
        c = f.column,
        xcond = cond.replace("client_id", "x.client_id")
    );
    let mut q = sqlx::query_scalar::<_, Option<String>>(&sql)
        .bind(caller.client_id)
        .bind(new);
    if res.company.is_some() {
        q = q.bind(params::company(emp)?);
    }
    for k in key {
        q = q.bind(k.as_str());
    }
    if let Some(v) = only_if {
        q = q.bind(v);
    }
    Ok(q.fetch_optional(&mut **tx).await?)
}

/// The upload call: the row's image column takes the stored file.
pub struct ReplaceImage {
    pub field: &'static str,
    pub key_params: &'static [&'static str],
    /// What a call naming no row is answered ('Cliente não encontrado.').
    pub missing: &'static str,
}

#[async_trait]
impl ActionHandler for ReplaceImage {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params: p, body } = call;
        let key = key_of(res, self.key_params, p)?;
        let (name, _) = super::action::uploaded_file(&body)?;
        let row = Row { res, caller, emp, key: &key };
        let previous = swap(tx, row, self.field, Some(name), None)
            .await?
            .ok_or_else(|| Error::NotFound(self.missing.into()))?;
        let mut row = query::get(tx, res, caller, emp, &key).await?;
        if let Value::Object(m) = &mut row {
            m.insert(
                "anterior".into(),
                previous.map(Value::from).unwrap_or(Value::Null),
            );
            let url = body.get("arquivo").and_then(|f| f.get("url")).cloned();
            m.insert("url".into(), url.unwrap_or(Value::Null));
        }
        Ok(row)
    }
}

/// The removal call (`.../{name}`): the image goes when it is still the row's
/// (else 404 'Imagem não encontrada.'); answers the row naming the removed file
/// (`arquivo`).
pub struct RemoveImage {
    pub field: &'static str,
    pub key_params: &'static [&'static str],
    /// The path parameter naming the file.
    pub name_param: &'static str,
}

#[async_trait]
impl ActionHandler for RemoveImage {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params: p, .. } = call;
        let key = key_of(res, self.key_params, p)?;
        let name = params::param(p, self.name_param)?;
        let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let row = Row { res, caller, emp, key: &key };
        if swap(tx, row, self.field, None, Some(file)).await?.is_none() {
            return Err(Error::NotFound("Imagem não encontrada.".into()));
        }
        let mut row = query::get(tx, res, caller, emp, &key).await?;
        if let Value::Object(m) = &mut row {
            m.insert("arquivo".into(), Value::from(file));
        }
        Ok(row)
    }
}
