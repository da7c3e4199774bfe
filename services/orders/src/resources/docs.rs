//! What every document shares: a header whose totals follow from its lines, lines
//! that take their description and price from orders' copy of catalog when the
//! screen leaves them out, the customer's name and city kept on the header while the
//! document is open, and the refusal to change an issued document.
//!
//! The specs below name static tables and columns only; values are always bound.

use std::collections::HashMap;
use std::str::FromStr;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{Hooks, Op};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{Map, Value};
use sqlx::Row;

use crate::totals::{self, Line, Totals};

/// Which copy of catalog a line's item comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Product,
    Service,
}

/// A kind of line of a document.
pub struct LineSpec {
    pub table: &'static str,
    pub company: &'static str,
    /// The columns naming the parent document, in the header's key order.
    pub parent: &'static [&'static str],
    pub seq: &'static str,
    pub item: Item,
    pub item_col: &'static str,
    pub desc_col: &'static str,
    pub unit_name_col: Option<&'static str>,
    pub qty: &'static str,
    pub unit: &'static str,
    pub discount: Option<&'static str>,
    pub surcharge: Option<&'static str>,
    pub freight: Option<&'static str>,
    /// Net value of the line (written by the server).
    pub total: &'static str,
}

/// A document header.
pub struct DocSpec {
    pub title: &'static str,
    pub table: &'static str,
    pub company: &'static str,
    pub key: &'static [&'static str],
    pub status: &'static str,
    /// Status values that accept changes.
    pub open: &'static [&'static str],
    pub issued_msg: &'static str,
    /// 'Pedido não encontrado.' (the header does not exist).
    pub missing_msg: &'static str,
    pub customer: &'static str,
    pub customer_name: &'static str,
    pub customer_city: Option<&'static str>,
    pub products: Option<&'static LineSpec>,
    pub services: Option<&'static LineSpec>,
    pub tot_products: &'static str,
    pub tot_services: &'static str,
    pub tot_surcharge: Option<&'static str>,
    pub tot_freight: Option<&'static str>,
    pub tot_discount: Option<&'static str>,
    pub total: &'static str,
    /// A document-level surcharge typed on the header (kept apart from the sums).
    pub extra_surcharge: Option<&'static str>,
}

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

pub fn int(row: &Value, key: &str) -> Result<i64> {
    match &row[key] {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
    .ok_or_else(|| Error::internal(format!("{key} is not an integer")))
}

/// A key value as text (ids and series alike), for binding as `col::text = $n`.
pub fn text(row: &Value, key: &str) -> String {
    match &row[key] {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        v => v.to_string(),
    }
}

/// Key columns are bigint except the series (text); values travel as text and are
/// cast to the column's type so the primary key's index serves the lookup.
fn where_key(cols: &[&str], first: usize) -> String {
    cols.iter()
        .enumerate()
        .map(|(i, c)| {
            let ty = if c.contains("serie") {
                "text"
            } else {
                "bigint"
            };
            format!(" AND {c} = ${}::{ty}", first + i)
        })
        .collect()
}

/// The header's status, locked for the rest of the transaction.
pub async fn lock_status(
    tx: &mut Tx,
    doc: &DocSpec,
    client: i64,
    emp: i64,
    key: &[String],
) -> Result<String> {
    let sql = format!(
        "SELECT {st} FROM orders.{t} WHERE client_id = $1 AND {c} = $2{w} FOR UPDATE",
        st = doc.status,
        t = doc.table,
        c = doc.company,
        w = where_key(doc.key, 3)
    );
    let mut q = sqlx::query_scalar::<_, String>(&sql).bind(client).bind(emp);
    for k in key {
        q = q.bind(k);
    }
    q.fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound(doc.missing_msg.into()))
}

pub async fn ensure_open(
    tx: &mut Tx,
    doc: &DocSpec,
    client: i64,
    emp: i64,
    key: &[String],
) -> Result<()> {
    let status = lock_status(tx, doc, client, emp, key).await?;
    if doc.open.contains(&status.as_str()) {
        Ok(())
    } else {
        Err(Error::Conflict(doc.issued_msg.into()))
    }
}

async fn lines(
    tx: &mut Tx,
    spec: &LineSpec,
    client: i64,
    emp: i64,
    key: &[String],
) -> Result<Vec<Line>> {
    let opt = |c: Option<&str>| c.map(String::from).unwrap_or_else(|| "0::numeric".into());
    let sql = format!(
        "SELECT {q}, {u}, {d}, {s}, {f} FROM orders.{t} WHERE client_id = $1 AND {c} = $2{w}",
        q = spec.qty,
        u = spec.unit,
        d = opt(spec.discount),
        s = opt(spec.surcharge),
        f = opt(spec.freight),
        t = spec.table,
        c = spec.company,
        w = where_key(spec.parent, 3)
    );
    let mut q = sqlx::query(&sql).bind(client).bind(emp);
    for k in key {
        q = q.bind(k);
    }
    q.fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|r| {
            Ok(Line {
                qty: r.try_get(0)?,
                unit: r.try_get(1)?,
                discount: r.try_get(2)?,
                surcharge: r.try_get(3)?,
                freight: r.try_get(4)?,
            })
        })
        .collect()
}

/// Recomputes a document's totals from its lines and writes them.
pub async fn recalc(
    tx: &mut Tx,
    doc: &DocSpec,
    client: i64,
    emp: i64,
    key: &[String],
) -> Result<Totals> {
    let products = match doc.products {
        Some(s) => lines(tx, s, client, emp, key).await?,
        None => vec![],
    };
    let services = match doc.services {
        Some(s) => lines(tx, s, client, emp, key).await?,
        None => vec![],
    };
    let extra = match doc.extra_surcharge {
        Some(col) => {
            let sql = format!(
                "SELECT {col} FROM orders.{t} WHERE client_id = $1 AND {c} = $2{w}",
                t = doc.table,
                c = doc.company,
                w = where_key(doc.key, 3)
            );
            let mut q = sqlx::query_scalar::<_, Decimal>(&sql)
                .bind(client)
                .bind(emp);
            for k in key {
                q = q.bind(k);
            }
            q.fetch_optional(&mut **tx).await?.unwrap_or_default()
        }
        None => Decimal::ZERO,
    };
    let t = totals::document(&products, &services, extra, Decimal::ZERO);
    // Surcharges on the header are line surcharges only when there is no column for
    // the document-level one; the total includes both.
    let mut sets = vec![
        format!("{} = $3", doc.tot_products),
        format!("{} = $4", doc.tot_services),
        format!("{} = $8", doc.total),
    ];
    if let Some(c) = doc.tot_surcharge {
        sets.push(format!("{c} = $5"));
    }
    if let Some(c) = doc.tot_freight {
        sets.push(format!("{c} = $6"));
    }
    if let Some(c) = doc.tot_discount {
        sets.push(format!("{c} = $7"));
    }
    let sql = format!(
        "UPDATE orders.{t} SET {s} WHERE client_id = $1 AND {c} = $2{w}",
        t = doc.table,
        s = sets.join(", "),
        c = doc.company,
        w = where_key(doc.key, 9)
    );
    let mut q = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(t.products)
        .bind(t.services)
        .bind(t.surcharge)
        .bind(t.freight)
        .bind(t.discount)
        .bind(t.total);
    for k in key {
        q = q.bind(k);
    }
    q.execute(&mut **tx).await?;
    Ok(t)
}

/// The customer's current name and city from orders' copy (trimmed).
pub async fn customer(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
) -> Result<Option<(String, Option<String>)>> {
    let row: Option<(String, Option<String>)> = sqlx::query_as(
        "SELECT btrim(descricao), nullif(btrim(coalesce(cidade, '')), '') FROM orders.clientes
         WHERE client_id = $1 AND emp_id = $2 AND cli_id = $3 AND NOT excluido",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row)
}

/// An item's description, unit and price from orders' copy.
pub async fn item(
    tx: &mut Tx,
    kind: Item,
    client: i64,
    emp: i64,
    id: i64,
) -> Result<Option<(String, Option<String>, Option<Decimal>)>> {
    let sql = match kind {
        Item::Product => {
            "SELECT btrim(descricao), unidade, valor FROM orders.produtos
             WHERE client_id = $1 AND emp_id = $2 AND prod_id = $3 AND NOT excluido"
        }
        Item::Service => {
            "SELECT btrim(descricao), NULL::text, valor FROM orders.servicos
             WHERE client_id = $1 AND emp_id = $2 AND serv_id = $3 AND NOT excluido"
        }
    };
    Ok(sqlx::query_as(sql)
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?)
}

/// Writes the customer's current name (and city) on an open document.
pub async fn copy_customer(
    tx: &mut Tx,
    doc: &DocSpec,
    client: i64,
    emp: i64,
    cli: i64,
    key: &[String],
) -> Result<()> {
    let (name, city) = customer(tx, client, emp, cli)
        .await?
        .ok_or_else(|| Error::validation("Cliente não encontrado."))?;
    let mut sets = vec![format!("{} = $3", doc.customer_name)];
    if let Some(c) = doc.customer_city {
        sets.push(format!("{c} = $4"));
    }
    let sql = format!(
        "UPDATE orders.{t} SET {s} WHERE client_id = $1 AND {c} = $2{w}",
        t = doc.table,
        s = sets.join(", "),
        c = doc.company,
        w = where_key(doc.key, 5)
    );
    let mut q = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(&name)
        .bind(&city);
    for k in key {
        q = q.bind(k);
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

/// Header hooks: the customer's name and city while open; no change once issued.
pub struct HeaderHooks(pub &'static DocSpec);

fn key_values(doc: &DocSpec, row: &Value) -> Vec<String> {
    doc.key
        .iter()
        .map(|k| text(row, &k.to_ascii_uppercase()))
        .collect()
}

#[async_trait]
impl Hooks for HeaderHooks {
    async fn before_write(
        &self,
        op: Op,
        caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let doc = self.0;
        // Totals, the customer's copied name and the status are the server's.
        for c in [
            Some(doc.tot_products),
            Some(doc.tot_services),
            doc.tot_surcharge,
            doc.tot_freight,
            doc.tot_discount,
            Some(doc.total),
            Some(doc.customer_name),
            doc.customer_city,
            Some(doc.status),
        ]
        .into_iter()
        .flatten()
        {
            body.remove(&c.to_ascii_uppercase());
        }
        let _ = (op, caller);
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let doc = self.0;
        let up = |c: &str| c.to_ascii_uppercase();
        let status = row[up(doc.status)].as_str().unwrap_or_default().to_string();
        let open = doc.open.contains(&status.as_str());
        let emp = int(row, &up(doc.company))?;
        let key = key_values(doc, row);
        match op {
            Op::Delete => {
                if !open {
                    return Err(Error::Conflict(doc.issued_msg.into()));
                }
                Ok(())
            }
            Op::Update if !open => Err(Error::Conflict(doc.issued_msg.into())),
            _ => {
                let cli = int(row, &up(doc.customer))?;
                copy_customer(tx, doc, caller.client_id, emp, cli, &key).await?;
                recalc(tx, doc, caller.client_id, emp, &key).await?;
                Ok(())
            }
        }
    }
}

/// Line hooks: defaults from the copy, the line's own check and net value, the
/// parent open, and the parent's totals again.
pub struct LineHooks {
    pub doc: &'static DocSpec,
    pub line: &'static LineSpec,
}

#[async_trait]
impl Hooks for LineHooks {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        body.remove(&self.line.total.to_ascii_uppercase());
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let (doc, spec) = (self.doc, self.line);
        let up = |c: &str| c.to_ascii_uppercase();
        let emp = int(row, &up(spec.company))?;
        let parent: Vec<String> = spec.parent.iter().map(|c| text(row, &up(c))).collect();
        ensure_open(tx, doc, caller.client_id, emp, &parent).await?;
        if op != Op::Delete {
            let item_id = int(row, &up(spec.item_col))?;
            let known = item(tx, spec.item, caller.client_id, emp, item_id).await?;
            let mut desc = row[up(spec.desc_col)]
                .as_str()
                .unwrap_or_default()
                .trim()
                .to_string();
            let mut unit = dec(&row[up(spec.unit)])?;
            let mut unit_name = spec
                .unit_name_col
                .and_then(|c| row[up(c)].as_str().map(String::from));
            match known {
                Some((d, u, price)) => {
                    if desc.is_empty() {
                        desc = d;
                    }
                    if unit.is_zero() && op == Op::Create {
                        unit = price.unwrap_or_default();
                    }
                    if unit_name.as_deref().unwrap_or("").is_empty() {
                        unit_name = u;
                    }
                }
                None if desc.is_empty() => {
                    return Err(Error::validation(match spec.item {
                        Item::Product => "Produto não encontrado.",
                        Item::Service => "Serviço não encontrado.",
                    }))
                }
                None => {}
            }
            let get = |c: Option<&str>| -> Result<Decimal> {
                match c {
                    Some(c) => dec(&row[up(c)]),
                    None => Ok(Decimal::ZERO),
                }
            };
            let line = Line {
                qty: dec(&row[up(spec.qty)])?,
                unit,
                discount: get(spec.discount)?,
                surcharge: get(spec.surcharge)?,
                freight: get(spec.freight)?,
            };
            line.check()?;
            let mut sets = vec![
                format!("{} = $3", spec.desc_col),
                format!("{} = $4", spec.unit),
                format!("{} = $5", spec.total),
            ];
            if let Some(c) = spec.unit_name_col {
                sets.push(format!("{c} = $6"));
            }
            let mut key_cols: Vec<&str> = spec.parent.to_vec();
            key_cols.push(spec.seq);
            let sql = format!(
                "UPDATE orders.{t} SET {s} WHERE client_id = $1 AND {c} = $2{w}",
                t = spec.table,
                s = sets.join(", "),
                c = spec.company,
                w = where_key(&key_cols, 7)
            );
            let mut q = sqlx::query(&sql)
                .bind(caller.client_id)
                .bind(emp)
                .bind(&desc)
                .bind(unit)
                .bind(line.net())
                .bind(&unit_name);
            for k in &key_cols {
                q = q.bind(text(row, &up(k)));
            }
            q.execute(&mut **tx).await?;
        }
        recalc(tx, doc, caller.client_id, emp, &parent).await?;
        Ok(())
    }
}

/// Money as the API shows it (2 places).
pub fn money_json(d: Decimal) -> Value {
    Value::String(totals::money(d).to_string())
}

/// A path parameter of a declared call, trimmed and present.
pub fn param<'a>(params: &'a HashMap<String, String>, k: &str) -> Result<&'a str> {
    params
        .get(k)
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| Error::validation(format!("Parâmetro {k} não informado.")))
}

/// An integer path parameter.
pub fn id_param(params: &HashMap<String, String>, k: &str) -> Result<i64> {
    param(params, k)?
        .parse()
        .map_err(|_| Error::validation(format!("Parâmetro {k} inválido.")))
}

/// The call's company, which document calls require.
pub fn emp_of(emp: Option<i64>) -> Result<i64> {
    emp.ok_or_else(|| Error::validation("emp_id não informado."))
}

/// A JSON object's map (empty for anything else).
pub fn body_map(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// A document's product lines as the stock event carries them (`location` is the
/// line's stock-location column).
pub async fn stock_lines(
    tx: &mut Tx,
    spec: &LineSpec,
    location: &str,
    client: i64,
    emp: i64,
    key: &[String],
) -> Result<Vec<erp_proto::orders::v1::StockLine>> {
    let sql = format!(
        "SELECT {p}, {q}, {seq}, {location} FROM orders.{t} WHERE client_id = $1 AND {c} = $2{w} ORDER BY {seq}",
        p = spec.item_col,
        q = spec.qty,
        seq = spec.seq,
        t = spec.table,
        c = spec.company,
        w = where_key(spec.parent, 3)
    );
    let mut q = sqlx::query_as::<_, (i64, Decimal, i64, Option<i64>)>(&sql)
        .bind(client)
        .bind(emp);
    for k in key {
        q = q.bind(k);
    }
    Ok(q.fetch_all(&mut **tx)
        .await?
        .into_iter()
        .map(|(p, q, item, loc)| erp_proto::orders::v1::StockLine {
            product_id: p,
            product_emp_id: emp,
            quantity: q.normalize().to_string(),
            item,
            location_id: loc.unwrap_or(0),
        })
        .collect())
}
