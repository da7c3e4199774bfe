//! Writing a whole purchase at once: `compra/completa` (header, items and
//! instalments from one body) and `comprareplicar` (a copy in another company).
//! Every row goes through its register's create path, so numbering, validation, the
//! hooks and the engine's totals are the same as row by row.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::document::ops;
use erp_platform::resource::{params, query, ActionHandler, Call, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::hooks::int_of;
use super::totals::header_components;
use super::transitions::def_of;
use super::{instalments_of, items_of, MISSING};
use crate::copies;

/// An error of the n-th row of a list, said so.
fn at(what: &str, n: usize, e: Error) -> Error {
    match e {
        Error::Validation(m) => Error::Validation(format!("{what} {n}: {m}")),
        other => other,
    }
}

fn rows_of(body: &Map<String, Value>, key: &str) -> Result<Vec<Map<String, Value>>> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(rows)) => rows
            .iter()
            .map(|r| {
                r.as_object().cloned().ok_or_else(|| {
                    Error::validation(format!("{key}: cada linha deve ser um objeto."))
                })
            })
            .collect(),
        Some(_) => Err(Error::validation(format!("{key} deve ser uma lista."))),
    }
}

/// The items and instalments of a purchase as the registers list them.
pub(super) async fn lines(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
    parent: &str,
) -> Result<Vec<Value>> {
    let mut filter = Map::new();
    filter.insert(parent.into(), Value::from(id));
    filter.insert("LIMIT".into(), Value::from(query::MAX_LIMIT));
    query::list(tx, res, caller, Some(emp), &filter).await
}

/// `POST /compra/completa`.
pub(super) struct Complete;

#[async_trait]
impl ActionHandler for Complete {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, body, .. } = call;
        let body = params::body_map(body);
        let itens = rows_of(&body, "itens")?;
        let pagamentos = rows_of(&body, "pagamentos")?;
        let header = match body.get("compra") {
            Some(Value::Object(h)) => h.clone(),
            Some(_) => return Err(Error::validation("compra deve ser um objeto.")),
            None => {
                let mut h = body.clone();
                h.remove("itens");
                h.remove("pagamentos");
                h
            }
        };
        // The gateway authorised every company the body names.
        let emp = params::company(int_of(header.get("COMP_EMP_ID")).or(emp))?;
        let client = caller.client_id;
        let items_res = items_of(res)?;
        let instalments_res = instalments_of(res)?;
        let id = match int_of(header.get("COMP_ID")) {
            Some(id) => {
                let def = def_of(res)?;
                ops::ensure_open(tx, &def, client, Some(emp), &[id.to_string()]).await?;
                query::update(tx, res, caller, Some(emp), &[id.to_string()], &header).await?;
                for sql in [
                    "DELETE FROM orders.compra_produtos WHERE client_id = $1 AND cmpp_emp_id = $2 AND cmpp_comp_id = $3",
                    "DELETE FROM orders.compra_pagamentos WHERE client_id = $1 AND cmpd_emp_id = $2 AND cmpd_comp_id = $3",
                ] {
                    sqlx::query(sql)
                        .bind(client)
                        .bind(emp)
                        .bind(id)
                        .execute(&mut **tx)
                        .await?;
                }
                id
            }
            None => {
                let row = query::create(tx, res, caller, Some(emp), &header).await?;
                params::int(&row, "COMP_ID")?
            }
        };
        for (n, mut item) in itens.into_iter().enumerate() {
            item.insert("CMPP_COMP_ID".into(), Value::from(id));
            query::create(tx, &items_res, caller, Some(emp), &item)
                .await
                .map_err(|e| at("Item", n + 1, e))?;
        }
        for (n, mut p) in pagamentos.into_iter().enumerate() {
            p.insert("CMPD_COMP_ID".into(), Value::from(id));
            query::create(tx, &instalments_res, caller, Some(emp), &p)
                .await
                .map_err(|e| at("Parcela", n + 1, e))?;
        }
        let def = def_of(res)?;
        ops::recalc(tx, &def, client, Some(emp), &[id.to_string()]).await?;
        header_components(tx, client, emp, id).await?;
        Ok(json!({
            "compra": query::get(tx, res, caller, Some(emp), &[id.to_string()]).await?,
            "itens": lines(tx, &items_res, caller, emp, id, "CMPP_COMP_ID").await?,
            "pagamentos": lines(tx, &instalments_res, caller, emp, id, "CMPD_COMP_ID").await?,
        }))
    }
}

/// What a user typed on a row (what a copy carries): not keys the server numbers,
/// the company, read-only or server-kept columns.
fn typed(res: &Resource, row: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    for f in &res.fields {
        let kept = f.read_only
            || f.server
            || res.is_company(&f.name)
            || res.generated_column() == Some(f.name.as_str());
        if kept {
            continue;
        }
        if let Some(v) = row.get(&f.name).filter(|v| !v.is_null()) {
            out.insert(f.name.clone(), v.clone());
        }
    }
    out
}

/// `POST /comprareplicar` (body COMP_ID, COMP_EMP_ID, DESTINO_EMP_ID): an open copy
/// of the purchase in another company of the user, with its items and instalments.
/// An item keeps its product only where the destination company has it (else it is
/// left to be linked, and said so in `avisos`).
pub(super) struct Replicate;

#[async_trait]
impl ActionHandler for Replicate {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, body, .. } = call;
        let source_emp = params::company(int_of(body.get("COMP_EMP_ID")).or(emp))?;
        let id = int_of(body.get("COMP_ID"))
            .ok_or_else(|| Error::validation("Informe a compra a replicar (COMP_ID)."))?;
        let target = int_of(body.get("DESTINO_EMP_ID"))
            .ok_or_else(|| Error::validation("Informe a empresa de destino (DESTINO_EMP_ID)."))?;
        if target == source_emp {
            return Err(Error::validation(
                "A empresa de destino deve ser outra que a da compra.",
            ));
        }
        let def = def_of(res)?;
        let source = query::get(tx, res, caller, Some(source_emp), &[id.to_string()])
            .await
            .map_err(|e| match e {
                Error::NotFound(_) => Error::NotFound(MISSING.into()),
                other => other,
            })?;
        let mut header = Map::new();
        for name in &def.copied {
            if let Some(v) = source.get(name).filter(|v| !v.is_null()) {
                header.insert(name.clone(), v.clone());
            }
        }
        let copy = query::create(tx, res, caller, Some(target), &header).await?;
        let new_id = params::int(&copy, "COMP_ID")?;
        let items_res = items_of(res)?;
        let instalments_res = instalments_of(res)?;
        let mut avisos = Vec::new();
        for row in lines(tx, &items_res, caller, source_emp, id, "CMPP_COMP_ID").await? {
            let mut item = typed(&items_res, &row);
            item.insert("CMPP_COMP_ID".into(), Value::from(new_id));
            if let Some(prod) = row["CMPP_PROD_ID"].as_i64() {
                let known =
                    copies::product_for_purchase(tx, caller.client_id, target, prod).await?;
                if known.is_none() {
                    item.remove("CMPP_PROD_ID");
                    avisos.push(format!(
                        "Item {}: o produto {prod} não existe na empresa {target}; vincule-o.",
                        params::text(&row, "CMPP_ID")
                    ));
                }
            }
            query::create(tx, &items_res, caller, Some(target), &item).await?;
        }
        for row in lines(tx, &instalments_res, caller, source_emp, id, "CMPD_COMP_ID").await? {
            let mut p = typed(&instalments_res, &row);
            p.insert("CMPD_COMP_ID".into(), Value::from(new_id));
            query::create(tx, &instalments_res, caller, Some(target), &p).await?;
        }
        Ok(json!({
            "compra": query::get(tx, res, caller, Some(target), &[new_id.to_string()]).await?,
            "avisos": avisos,
        }))
    }
}
