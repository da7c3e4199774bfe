//! What the engine does for a document on every write, in the writing transaction:
//! lock the header and check it accepts changes, compute and check a line's net
//! value, recompute the header's totals from all its lines.
//!
//! Every identifier comes from the declaration (the registers' fields); values are
//! bound. Key values travel as text and are cast to their column's type so the
//! primary key's index serves the lookup.

use rust_decimal::Decimal;
use serde_json::Value;
use sqlx::Row;

use super::arithmetic::{self, Line, Totals};
use super::{Col, DocumentDef, LineDef};
use crate::db::Tx;
use crate::grpc::Caller;
use crate::resource::field::{Op, Role, Total};
use crate::resource::params;
use crate::{Error, Result};

/// `WHERE client_id = $1 [AND company = $2] AND key = $n::type...`, with the bind
/// order it expects: client, company (when there is one), then the key values.
fn scope(company: Option<&Col>, key: &[Col], first: usize) -> (String, usize) {
    let mut sql = String::from("client_id = $1");
    let mut n = first;
    if let Some(c) = company {
        sql.push_str(&format!(" AND {} = ${n}", c.column));
        n += 1;
    }
    for k in key {
        sql.push_str(&format!(" AND {} = ${n}::{}", k.column, k.cast()));
        n += 1;
    }
    (sql, n)
}

fn bind_scope<'q, O>(
    mut q: sqlx::query::QueryAs<'q, sqlx::Postgres, O, sqlx::postgres::PgArguments>,
    client: i64,
    emp: Option<i64>,
    key: &'q [String],
) -> sqlx::query::QueryAs<'q, sqlx::Postgres, O, sqlx::postgres::PgArguments> {
    q = q.bind(client);
    if let Some(e) = emp {
        q = q.bind(e);
    }
    for k in key {
        q = q.bind(k.as_str());
    }
    q
}

fn company_of(def_company: Option<&Col>, emp: Option<i64>) -> Result<Option<i64>> {
    match def_company {
        Some(_) => params::company(emp).map(Some),
        None => Ok(None),
    }
}

/// Locks the header row for the rest of the transaction; answers its status
/// (empty when the document has none) or the document's "not found" message.
pub async fn lock(
    tx: &mut Tx,
    def: &DocumentDef,
    client: i64,
    emp: Option<i64>,
    key: &[String],
) -> Result<String> {
    let emp = company_of(def.company.as_ref(), emp)?;
    let (cond, _) = scope(def.company.as_ref(), &def.key, 2);
    let status = def
        .status
        .as_ref()
        .map(|s| format!("{}::text", s.col.column))
        .unwrap_or_else(|| "''::text".into());
    let sql = format!(
        "SELECT {status} FROM {}.{} WHERE {cond} FOR UPDATE",
        def.schema, def.table
    );
    let q = sqlx::query_as::<_, (String,)>(&sql);
    bind_scope(q, client, emp, key)
        .fetch_optional(&mut **tx)
        .await?
        .map(|r| r.0)
        .ok_or_else(|| Error::NotFound(def.missing.clone()))
}

/// The header exists (else its "not found" message) and accepts changes (else its
/// "issued" message); it stays locked for the transaction.
pub async fn ensure_open(
    tx: &mut Tx,
    def: &DocumentDef,
    client: i64,
    emp: Option<i64>,
    key: &[String],
) -> Result<()> {
    let status = lock(tx, def, client, emp, key).await?;
    if def.is_open(&status) {
        Ok(())
    } else {
        Err(Error::Conflict(issued(def)))
    }
}

/// A boolean column of the (locked) header.
async fn header_flag(
    tx: &mut Tx,
    def: &DocumentDef,
    col: &Col,
    client: i64,
    emp: Option<i64>,
    key: &[String],
) -> Result<bool> {
    let emp = company_of(def.company.as_ref(), emp)?;
    let (cond, _) = scope(def.company.as_ref(), &def.key, 2);
    let sql = format!(
        "SELECT coalesce({}, false) FROM {}.{} WHERE {cond}",
        col.column, def.schema, def.table
    );
    let q = sqlx::query_as::<_, (bool,)>(&sql);
    Ok(bind_scope(q, client, emp, key)
        .fetch_optional(&mut **tx)
        .await?
        .is_some_and(|r| r.0))
}

fn issued(def: &DocumentDef) -> String {
    def.status
        .as_ref()
        .map(|s| s.issued.clone())
        .unwrap_or_default()
}

fn role_expr(l: &LineDef, r: Role) -> String {
    l.col(r)
        .map(|c| format!("coalesce({}, 0)::numeric", c.column))
        .unwrap_or_else(|| "0::numeric".into())
}

/// The lines of one kind of line of a document, as the arithmetic takes them.
async fn lines_of(
    tx: &mut Tx,
    l: &LineDef,
    client: i64,
    emp: Option<i64>,
    key: &[String],
) -> Result<Vec<Line>> {
    let (cond, _) = scope(l.company.as_ref(), &l.parent, 2);
    let sql = format!(
        "SELECT {}, {}, {}, {}, {} FROM {}.{} WHERE {cond}",
        role_expr(l, Role::Quantity),
        role_expr(l, Role::UnitPrice),
        role_expr(l, Role::Discount),
        role_expr(l, Role::Surcharge),
        role_expr(l, Role::Freight),
        l.plain.schema,
        l.table
    );
    let q = sqlx::query_as::<_, (Decimal, Decimal, Decimal, Decimal, Decimal)>(&sql);
    let emp = if l.company.is_some() { emp } else { None };
    Ok(bind_scope(q, client, emp, key)
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .map(|(qty, unit, discount, surcharge, freight)| Line {
            qty,
            unit,
            discount,
            surcharge,
            freight,
        })
        .collect())
}

fn total_of(t: &Totals, which: Total) -> Decimal {
    match which {
        Total::Products => t.products,
        Total::Services => t.services,
        Total::Surcharges => t.surcharge,
        Total::Freight => t.freight,
        Total::Discounts => t.discount,
        Total::Grand => t.total,
    }
}

/// Recomputes a document's totals from all its lines (and the header's own
/// surcharge and discount) and writes them; `None` for documents without totals.
pub async fn recalc(
    tx: &mut Tx,
    def: &DocumentDef,
    client: i64,
    emp: Option<i64>,
    key: &[String],
) -> Result<Option<Totals>> {
    if def.totals.is_empty() {
        return Ok(None);
    }
    let emp = company_of(def.company.as_ref(), emp)?;
    let (mut products, mut services) = (Vec::new(), Vec::new());
    for l in &def.lines {
        let lines = lines_of(tx, l, client, emp, key).await?;
        match l.lines.kind {
            super::LineKind::Product => products.extend(lines),
            super::LineKind::Service => services.extend(lines),
        }
    }
    let (mut extra_surcharge, mut extra_discount) = (Decimal::ZERO, Decimal::ZERO);
    if !def.extras.is_empty() {
        let (cond, _) = scope(def.company.as_ref(), &def.key, 2);
        let cols: Vec<String> = def
            .extras
            .iter()
            .map(|(_, c)| format!("coalesce({}, 0)::numeric", c.column))
            .collect();
        let sql = format!(
            "SELECT {} FROM {}.{} WHERE {cond}",
            cols.join(", "),
            def.schema,
            def.table
        );
        let mut q = sqlx::query(&sql).bind(client);
        if let Some(e) = emp {
            q = q.bind(e);
        }
        for k in key {
            q = q.bind(k.as_str());
        }
        if let Some(row) = q.fetch_optional(&mut **tx).await? {
            for (i, (role, _)) in def.extras.iter().enumerate() {
                let v: Decimal = row.try_get(i)?;
                match role {
                    Role::ExtraSurcharge => extra_surcharge += v,
                    Role::ExtraDiscount => extra_discount += v,
                    _ => {}
                }
            }
        }
    }
    let t = arithmetic::document(&products, &services, extra_surcharge, extra_discount);
    let sets: Vec<String> = def
        .totals
        .iter()
        .enumerate()
        .map(|(i, (_, c))| format!("{} = ${}", c.column, i + 1))
        .collect();
    let first = def.totals.len() + 1;
    let (cond, _) = scope(def.company.as_ref(), &def.key, first + 1);
    let cond = cond.replacen("client_id = $1", &format!("client_id = ${first}"), 1);
    let sql = format!(
        "UPDATE {}.{} SET {} WHERE {cond}",
        def.schema,
        def.table,
        sets.join(", ")
    );
    let mut q = sqlx::query(&sql);
    for (which, _) in &def.totals {
        q = q.bind(total_of(&t, *which));
    }
    q = q.bind(client);
    if let Some(e) = emp {
        q = q.bind(e);
    }
    for k in key {
        q = q.bind(k.as_str());
    }
    q.execute(&mut **tx).await?;
    Ok(Some(t))
}

/// Before a line is validated: what it leaves out of its item's description, unit
/// and (when created) price comes from the document's item source; a line whose
/// item is unknown must at least say what it is.
pub async fn fill_from_item(
    tx: &mut Tx,
    def: &DocumentDef,
    i: usize,
    op: Op,
    caller: &Caller,
    emp: Option<i64>,
    body: &mut serde_json::Map<String, Value>,
) -> Result<()> {
    let (Some(source), Some(l)) = (&def.items, def.lines.get(i)) else {
        return Ok(());
    };
    let Some(item_col) = l.col(Role::Item) else {
        return Ok(());
    };
    let Some(item) = body.get(&item_col.name).and_then(|v| {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
    }) else {
        return Ok(());
    };
    let emp = match (&l.company, emp) {
        (_, Some(e)) => e,
        (None, None) => caller.emp_id,
        (Some(_), None) => params::company(None)?,
    };
    let blank = |body: &serde_json::Map<String, Value>, c: Option<&Col>| {
        c.is_some_and(|c| {
            body.get(&c.name)
                .is_none_or(|v| v.is_null() || v.as_str().is_some_and(|s| s.trim().is_empty()))
        })
    };
    let desc = l.col(Role::Description);
    let known = source
        .item(tx, l.lines.kind, caller.client_id, emp, item)
        .await?;
    let Some(info) = known else {
        if op == Op::Create && blank(body, desc) {
            return Err(Error::validation(match l.lines.kind {
                super::LineKind::Product => "Produto não encontrado.",
                super::LineKind::Service => "Serviço não encontrado.",
            }));
        }
        return Ok(());
    };
    if let Some(c) = desc {
        if blank(body, Some(c)) && (op == Op::Create || body.contains_key(&c.name)) {
            body.insert(c.name.clone(), Value::String(info.description.clone()));
        }
    }
    if let (Some(c), Some(u)) = (l.col(Role::UnitName), &info.unit_name) {
        if blank(body, Some(c)) && (op == Op::Create || body.contains_key(&c.name)) {
            body.insert(c.name.clone(), Value::String(u.clone()));
        }
    }
    if let (Some(c), Some(p), Op::Create) = (l.col(Role::UnitPrice), info.price, op) {
        let zero = body
            .get(&c.name)
            .is_none_or(|v| params::dec(v).map(|d| d.is_zero()).unwrap_or(false));
        if zero {
            body.insert(c.name.clone(), Value::String(p.to_string()));
        }
    }
    Ok(())
}

/// Before a line or child row is inserted: the document it names must exist and
/// be open (its "not found" and "issued" messages, not a foreign-key error). The
/// parent fields missing from the body are left to the field validation.
pub async fn before_insert(
    tx: &mut Tx,
    def: &DocumentDef,
    parent: &[Col],
    caller: &Caller,
    emp: Option<i64>,
    body: &serde_json::Map<String, Value>,
) -> Result<()> {
    let row = Value::Object(body.clone());
    let key: Vec<String> = parent.iter().map(|p| params::text(&row, &p.name)).collect();
    if key.iter().any(|k| k.trim().is_empty()) {
        return Ok(());
    }
    ensure_open(tx, def, caller.client_id, emp, &key).await
}

/// The header key a line names.
pub fn parent_key(l: &LineDef, row: &Value) -> Vec<String> {
    l.parent
        .iter()
        .map(|p| params::text(row, &p.name))
        .collect()
}

/// The company of a written row (its company column), else the call's.
fn row_company(company: Option<&Col>, row: &Value, emp: Option<i64>) -> Result<Option<i64>> {
    match company {
        Some(c) => params::int(row, &c.name).map(Some),
        None => Ok(emp),
    }
}

/// A line's arithmetic as written: quantity, unit price, discount, surcharge and
/// freight of the row.
fn line_of(l: &LineDef, row: &Value) -> Result<Option<Line>> {
    let value = |r: Role| -> Result<Decimal> {
        match l.col(r) {
            Some(c) => params::dec(&row[&c.name]),
            None => Ok(Decimal::ZERO),
        }
    };
    if l.col(Role::UnitPrice).is_none() {
        return Ok(None);
    }
    Ok(Some(Line {
        qty: value(Role::Quantity)?,
        unit: value(Role::UnitPrice)?,
        discount: value(Role::Discount)?,
        surcharge: value(Role::Surcharge)?,
        freight: value(Role::Freight)?,
    }))
}

/// Writes a line's net value when it differs from the stored one.
async fn store_line_total(
    tx: &mut Tx,
    l: &LineDef,
    client: i64,
    emp: Option<i64>,
    row: &Value,
    net: Decimal,
) -> Result<()> {
    let Some(total) = l.col(Role::LineTotal) else {
        return Ok(());
    };
    if params::dec(&row[&total.name]).ok() == Some(net) && !row[&total.name].is_null() {
        return Ok(());
    }
    let key: Vec<String> = l.key.iter().map(|k| params::text(row, &k.name)).collect();
    let (cond, _) = scope(l.company.as_ref(), &l.key, 3);
    let cond = cond.replacen("client_id = $1", "client_id = $2", 1);
    let sql = format!(
        "UPDATE {}.{} SET {} = $1 WHERE {cond}",
        l.plain.schema, l.table, total.column
    );
    let mut q = sqlx::query(&sql).bind(net).bind(client);
    if let Some(e) = emp.filter(|_| l.company.is_some()) {
        q = q.bind(e);
    }
    for k in &key {
        q = q.bind(k.as_str());
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

/// After a line of `def.lines[i]` was written: its document must be open; its net
/// value is checked and stored; the document's totals follow.
pub async fn after_line(
    tx: &mut Tx,
    def: &DocumentDef,
    i: usize,
    op: Op,
    caller: &Caller,
    emp: Option<i64>,
    row: &Value,
) -> Result<()> {
    let l = def
        .lines
        .get(i)
        .ok_or_else(|| Error::internal("line of a document out of range"))?;
    let emp = row_company(l.company.as_ref(), row, emp)?;
    let key = parent_key(l, row);
    ensure_open(tx, def, caller.client_id, emp, &key).await?;
    if let Some((col, msg)) = &l.locked_by {
        if header_flag(tx, def, col, caller.client_id, emp, &key).await? {
            return Err(Error::Conflict(msg.clone()));
        }
    }
    if op != Op::Delete {
        if let Some(line) = line_of(l, row)? {
            line.check()?;
            store_line_total(tx, l, caller.client_id, emp, row, line.net()).await?;
        } else if params::dec(
            &row[&l
                .col(Role::Quantity)
                .map(|c| c.name.clone())
                .unwrap_or_default()],
        )? <= Decimal::ZERO
        {
            return Err(Error::validation("A quantidade deve ser maior que zero."));
        }
    }
    recalc(tx, def, caller.client_id, emp, &key).await?;
    Ok(())
}

/// After a child row of `def.children[i]` was written: its document must be open.
pub async fn after_child(
    tx: &mut Tx,
    def: &DocumentDef,
    i: usize,
    caller: &Caller,
    emp: Option<i64>,
    row: &Value,
) -> Result<()> {
    let c = def
        .children
        .get(i)
        .ok_or_else(|| Error::internal("child of a document out of range"))?;
    let emp = row_company(c.company.as_ref(), row, emp)?;
    let key: Vec<String> = c
        .parent
        .iter()
        .map(|p| params::text(row, &p.name))
        .collect();
    ensure_open(tx, def, caller.client_id, emp, &key).await
}

/// After the header was written: an issued document refuses changes and deletion;
/// a created or changed one has its totals computed.
pub async fn after_header(
    tx: &mut Tx,
    def: &DocumentDef,
    op: Op,
    caller: &Caller,
    emp: Option<i64>,
    row: &Value,
) -> Result<()> {
    if let Some(s) = &def.status {
        let status = params::text(row, &s.col.name);
        if op != Op::Create && !def.is_open(&status) {
            return Err(Error::Conflict(s.issued.clone()));
        }
    }
    if op != Op::Delete {
        let emp = row_company(def.company.as_ref(), row, emp)?;
        let key: Vec<String> = def.key.iter().map(|k| params::text(row, &k.name)).collect();
        recalc(tx, def, caller.client_id, emp, &key).await?;
    }
    Ok(())
}

/// Recomputes the net value of every line of a document (a copy written without
/// them) and its totals.
pub async fn refresh(
    tx: &mut Tx,
    def: &DocumentDef,
    caller: &Caller,
    emp: Option<i64>,
    key: &[String],
) -> Result<()> {
    for l in &def.lines {
        if l.col(Role::UnitPrice).is_none() || l.col(Role::LineTotal).is_none() {
            continue;
        }
        let (cond, _) = scope(l.company.as_ref(), &l.parent, 2);
        let keys: Vec<String> = l
            .key
            .iter()
            .map(|k| format!("{}::text", k.column))
            .collect();
        let sql = format!(
            "SELECT {}, {}, {}, {}, {}, {} FROM {}.{} WHERE {cond}",
            keys.join(", "),
            role_expr(l, Role::Quantity),
            role_expr(l, Role::UnitPrice),
            role_expr(l, Role::Discount),
            role_expr(l, Role::Surcharge),
            role_expr(l, Role::Freight),
            l.plain.schema,
            l.table
        );
        let mut q = sqlx::query(&sql).bind(caller.client_id);
        let line_emp = emp.filter(|_| l.company.is_some());
        if let Some(e) = line_emp {
            q = q.bind(e);
        }
        for k in key {
            q = q.bind(k.as_str());
        }
        let rows = q.fetch_all(&mut **tx).await?;
        let n = l.key.len();
        for r in rows {
            let mut row = serde_json::Map::new();
            for (i, k) in l.key.iter().enumerate() {
                let v: String = r.try_get(i)?;
                row.insert(k.name.clone(), Value::String(v));
            }
            let line = Line {
                qty: r.try_get(n)?,
                unit: r.try_get(n + 1)?,
                discount: r.try_get(n + 2)?,
                surcharge: r.try_get(n + 3)?,
                freight: r.try_get(n + 4)?,
            };
            store_line_total(
                tx,
                l,
                caller.client_id,
                line_emp,
                &Value::Object(row),
                line.net(),
            )
            .await?;
        }
    }
    recalc(tx, def, caller.client_id, emp, key).await?;
    Ok(())
}

/// Merges a document's lines of one item (of line kind `i`) into the first one:
/// quantities, discounts, surcharges and freight summed, the first line's price;
/// the others deleted; the totals recomputed. Answers how many lines there were
/// and the kept line's key. `item`: the item's id and the message when the
/// document has no line of it.
pub async fn merge(
    tx: &mut Tx,
    def: &DocumentDef,
    i: usize,
    caller: &Caller,
    emp: Option<i64>,
    key: &[String],
    (item, missing): (i64, &str),
) -> Result<(usize, Vec<String>)> {
    let l = def
        .lines
        .get(i)
        .ok_or_else(|| Error::internal("line of a document out of range"))?;
    let item_col = l
        .col(Role::Item)
        .ok_or_else(|| Error::internal("line without an item"))?;
    ensure_open(tx, def, caller.client_id, emp, key).await?;
    let line_emp = emp.filter(|_| l.company.is_some());
    let (cond, next) = scope(l.company.as_ref(), &l.parent, 2);
    let keys: Vec<String> = l
        .key
        .iter()
        .map(|k| format!("{}::text", k.column))
        .collect();
    let order: Vec<String> = l.key.iter().map(|k| k.column.clone()).collect();
    let sql = format!(
        "SELECT {}, {}, {}, {}, {}, {} FROM {}.{} WHERE {cond} AND {} = ${next} ORDER BY {} FOR UPDATE",
        keys.join(", "),
        role_expr(l, Role::Quantity),
        role_expr(l, Role::UnitPrice),
        role_expr(l, Role::Discount),
        role_expr(l, Role::Surcharge),
        role_expr(l, Role::Freight),
        l.plain.schema,
        l.table,
        item_col.column,
        order.join(", ")
    );
    let mut q = sqlx::query(&sql).bind(caller.client_id);
    if let Some(e) = line_emp {
        q = q.bind(e);
    }
    for k in key {
        q = q.bind(k.as_str());
    }
    let rows = q.bind(item).fetch_all(&mut **tx).await?;
    let n = l.key.len();
    let mut lines = Vec::with_capacity(rows.len());
    for r in &rows {
        let mut k = Vec::with_capacity(n);
        for c in 0..n {
            k.push(r.try_get::<String, _>(c)?);
        }
        let line = Line {
            qty: r.try_get(n)?,
            unit: r.try_get(n + 1)?,
            discount: r.try_get(n + 2)?,
            surcharge: r.try_get(n + 3)?,
            freight: r.try_get(n + 4)?,
        };
        lines.push((k, line));
    }
    let Some((first, head)) = lines.first().cloned() else {
        return Err(Error::NotFound(missing.into()));
    };
    let merged = Line {
        qty: lines.iter().map(|(_, l)| l.qty).sum(),
        unit: head.unit,
        discount: lines.iter().map(|(_, l)| l.discount).sum(),
        surcharge: lines.iter().map(|(_, l)| l.surcharge).sum(),
        freight: lines.iter().map(|(_, l)| l.freight).sum(),
    };
    let mut sets = Vec::new();
    let mut values = Vec::new();
    for (role, v) in [
        (Role::Quantity, merged.qty),
        (Role::Discount, merged.discount),
        (Role::Surcharge, merged.surcharge),
        (Role::Freight, merged.freight),
        (Role::LineTotal, merged.net()),
    ] {
        if let Some(c) = l.col(role) {
            values.push(v);
            sets.push(format!("{} = ${}", c.column, values.len()));
        }
    }
    let first_param = values.len() + 1;
    let (kcond, _) = scope(l.company.as_ref(), &l.key, first_param + 1);
    let kcond = kcond.replacen("client_id = $1", &format!("client_id = ${first_param}"), 1);
    let sql = format!(
        "UPDATE {}.{} SET {} WHERE {kcond}",
        l.plain.schema,
        l.table,
        sets.join(", ")
    );
    let mut q = sqlx::query(&sql);
    for v in &values {
        q = q.bind(*v);
    }
    q = q.bind(caller.client_id);
    if let Some(e) = line_emp {
        q = q.bind(e);
    }
    for k in &first {
        q = q.bind(k.as_str());
    }
    q.execute(&mut **tx).await?;
    for (k, _) in lines.iter().skip(1) {
        let (kcond, _) = scope(l.company.as_ref(), &l.key, 2);
        let sql = format!("DELETE FROM {}.{} WHERE {kcond}", l.plain.schema, l.table);
        let mut q = sqlx::query(&sql).bind(caller.client_id);
        if let Some(e) = line_emp {
            q = q.bind(e);
        }
        for v in k {
            q = q.bind(v.as_str());
        }
        q.execute(&mut **tx).await?;
    }
    recalc(tx, def, caller.client_id, emp, key).await?;
    Ok((lines.len(), first))
}
