//! Writing a whole purchase at once: `compra/completa` (header, items and
//! instalments from one body) and `comprareplicar` (a copy in another company).
//! Every row goes through its register's create path, so numbering, validation, the
//! hooks and the engine's totals are the same as row by row.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Operation, Register, Row, RowOf};
use erp_platform::resource::document::ops;
use erp_platform::resource::{params, query, record, Resource};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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

/// The items and instalments of a purchase as the registers list them.
pub(super) async fn lines(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
    parent: &str,
) -> Result<Vec<Value>> {
    // The engine's list of the purchase's rows (a list filter, as a screen sends it).
    let filter = Map::from_iter([
        (parent.to_string(), Value::from(id)),
        ("LIMIT".to_string(), Value::from(query::MAX_LIMIT)),
    ]);
    query::list(tx, res, caller, Some(emp), &filter).await
}

/// The item register, named in answers.
pub enum CompraProduto {}
impl Register for CompraProduto {
    const NAME: &'static str = "compraproduto";
}

/// The instalment register, named in answers.
pub enum CompraPagamentos {}
impl Register for CompraPagamentos {
    const NAME: &'static str = "comprapagamentos";
}

/// A body of a register (free-form: the register's own fields, which its create
/// path parses, validates and refuses field by field).
pub type Body = Map<String, Value>;

/// `POST /compra/completa`: the header (in `compra`, or its fields at the top), the
/// items and the instalments.
#[derive(Deserialize, JsonSchema)]
pub struct CompleteIn {
    /// The header; without it, the header's fields come at the top of the body.
    #[serde(default)]
    #[schemars(extend("x-invalid" = "compra deve ser um objeto."))]
    pub compra: Option<Body>,
    #[serde(default)]
    #[schemars(extend("x-invalid" = "itens deve ser uma lista."))]
    pub itens: Option<Vec<Body>>,
    #[serde(default)]
    #[schemars(extend("x-invalid" = "pagamentos deve ser uma lista."))]
    pub pagamentos: Option<Vec<Body>>,
    /// The header's fields, when the body has no `compra`.
    #[serde(flatten)]
    pub top: Body,
}

/// What a header names of itself: the purchase to replace (none: a new one) and its
/// company.
#[derive(Deserialize)]
struct HeaderKey {
    #[serde(rename = "COMP_ID", default)]
    id: Option<i64>,
    #[serde(rename = "COMP_EMP_ID", default)]
    emp: Option<i64>,
}

/// The purchase the engine wrote.
#[derive(Deserialize)]
struct Written {
    #[serde(rename = "COMP_ID")]
    id: i64,
}

/// A whole purchase: its header, items and instalments as the registers answer them.
#[derive(Serialize, JsonSchema)]
pub struct WholePurchase {
    pub compra: Row,
    pub itens: Vec<RowOf<CompraProduto>>,
    pub pagamentos: Vec<RowOf<CompraPagamentos>>,
}

/// `POST /compra/completa`.
pub(super) struct Complete;

#[async_trait]
impl Operation for Complete {
    type In = CompleteIn;
    type Out = WholePurchase;
    async fn run(&self, cx: &mut Ctx<'_>, i: CompleteIn) -> Result<WholePurchase> {
        let (res, caller) = (cx.res, cx.caller);
        let itens = i.itens.unwrap_or_default();
        let pagamentos = i.pagamentos.unwrap_or_default();
        let header = i.compra.unwrap_or_else(|| {
            // The path's company is the call's, not a field of the header.
            let mut top = i.top;
            top.remove("emp");
            top
        });
        let key: HeaderKey = record::from_map(&header)
            .map_err(|_| Error::validation("Valor inválido para COMP_ID."))?;
        // The gateway authorised every company the body names.
        let emp = params::company(key.emp.or(cx.emp))?;
        let tx = &mut *cx.tx;
        let client = caller.client_id;
        let items_res = items_of(res)?;
        let instalments_res = instalments_of(res)?;
        let id = match key.id {
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
                record::from_row::<Written>(&row)?.id
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
        let compra = query::get(tx, res, caller, Some(emp), &[id.to_string()]).await?;
        let itens = lines(tx, &items_res, caller, emp, id, "CMPP_COMP_ID").await?;
        let pagamentos = lines(tx, &instalments_res, caller, emp, id, "CMPD_COMP_ID").await?;
        Ok(WholePurchase {
            compra: Row(compra),
            itens: itens.into_iter().map(RowOf::new).collect(),
            pagamentos: pagamentos.into_iter().map(RowOf::new).collect(),
        })
    }
}

/// What a user typed on a row (what a copy carries): not keys the server numbers,
/// the company, read-only or server-kept columns. A copy of any register's row: the
/// register's declared fields say which.
fn typed(res: &Resource, row: &Value) -> Body {
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

/// `POST /comprareplicar`: the purchase and the company to copy it to.
#[derive(Deserialize, JsonSchema)]
#[schemars(rename = "PurchaseReplicateIn")]
pub struct ReplicateIn {
    /// The purchase's company (else the call's).
    #[serde(rename = "COMP_EMP_ID", default)]
    pub emp: Option<i64>,
    #[serde(rename = "COMP_ID")]
    #[schemars(extend(
        "x-missing" = "Informe a compra a replicar (COMP_ID).",
        "x-invalid" = "Informe a compra a replicar (COMP_ID)."
    ))]
    pub id: i64,
    #[serde(rename = "DESTINO_EMP_ID")]
    #[schemars(extend(
        "x-missing" = "Informe a empresa de destino (DESTINO_EMP_ID).",
        "x-invalid" = "Informe a empresa de destino (DESTINO_EMP_ID)."
    ))]
    pub target: i64,
}

/// An item of the purchase copied, as the copy reads it.
#[derive(Deserialize)]
struct CopiedItem {
    #[serde(rename = "CMPP_ID")]
    id: i64,
    #[serde(rename = "CMPP_PROD_ID")]
    product: Option<i64>,
}

/// The copy of a purchase and what a person should know of it.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "PurchaseReplicated")]
pub struct Replicated {
    pub compra: Row,
    /// Items whose product the destination company does not have (left to link).
    pub avisos: Vec<String>,
}

/// `POST /comprareplicar` (body COMP_ID, COMP_EMP_ID, DESTINO_EMP_ID): an open copy
/// of the purchase in another company of the user, with its items and instalments.
/// An item keeps its product only where the destination company has it (else it is
/// left to be linked, and said so in `avisos`).
pub(super) struct Replicate;

#[async_trait]
impl Operation for Replicate {
    type In = ReplicateIn;
    type Out = Replicated;
    async fn run(&self, cx: &mut Ctx<'_>, i: ReplicateIn) -> Result<Replicated> {
        let source_emp = params::company(i.emp.or(cx.emp))?;
        let (res, caller) = (cx.res, cx.caller);
        let tx = &mut *cx.tx;
        let (id, target) = (i.id, i.target);
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
        // The header's fields a copy takes, as the document declares them.
        let mut header = Map::new();
        for name in &def.copied {
            if let Some(v) = source.get(name).filter(|v| !v.is_null()) {
                header.insert(name.clone(), v.clone());
            }
        }
        let copy = query::create(tx, res, caller, Some(target), &header).await?;
        let new_id = record::from_row::<Written>(&copy)?.id;
        let items_res = items_of(res)?;
        let instalments_res = instalments_of(res)?;
        let mut avisos = Vec::new();
        for row in lines(tx, &items_res, caller, source_emp, id, "CMPP_COMP_ID").await? {
            let mut item = typed(&items_res, &row);
            item.insert("CMPP_COMP_ID".into(), Value::from(new_id));
            let copied: CopiedItem = record::from_row(&row)?;
            if let Some(prod) = copied.product {
                let known =
                    copies::product_for_purchase(tx, caller.client_id, target, prod).await?;
                if known.is_none() {
                    item.remove("CMPP_PROD_ID");
                    avisos.push(format!(
                        "Item {}: o produto {prod} não existe na empresa {target}; vincule-o.",
                        copied.id
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
        Ok(Replicated {
            compra: Row(query::get(tx, res, caller, Some(target), &[new_id.to_string()]).await?),
            avisos,
        })
    }
}
