//! The register operations: reads (list, count, search) on any connection of the
//! tenant (a transaction or a read connection), writes over one tenant
//! transaction. Identifiers come only from the descriptor; every value is bound,
//! but for a list's LIMIT and OFFSET, validated integers written into the
//! statement so that its plan can be kept (see [`Read`]).

use prost::Message as _;
use serde_json::{Map, Value};
use sqlx::{PgConnection, Postgres, QueryBuilder};

use super::document::{ops, Part};
use super::field::{DbType, Field, Op, Role};
use super::model::Resource;
use super::values::{parse_value, push_bind, row_to_json, select_expr, validate, SqlValue};
use crate::db::Tx;
use crate::grpc::Caller;
use crate::{Error, Result};

/// Keys of a list body that are not field filters.
const META_KEYS: [&str; 8] = [
    "ORDENACAO",
    "FILTRO",
    "LIMIT",
    "PAGINATION",
    "OFFSET",
    "EMP_ID",
    "USR_ID",
    "ORDEM",
];
pub const DEFAULT_LIMIT: i64 = 100;
pub const MAX_LIMIT: i64 = 6000;

#[derive(Debug)]
enum Cond {
    Eq(usize, SqlValue),
    In(usize, Vec<SqlValue>),
    Ge(usize, SqlValue),
    Le(usize, SqlValue),
}

#[derive(Debug)]
pub struct ListParams {
    order: Vec<(usize, bool)>,
    filtro: Option<String>,
    limit: i64,
    offset: i64,
    conds: Vec<Cond>,
}

pub use super::model::parse_order;

impl ListParams {
    /// Whether the statement's best plan depends on its values: a text pattern
    /// (a common name walks the order index, a rare one the trigram index) or a
    /// range (a day or ten years). Equality filters and the paging do not.
    fn planned_by_values(&self) -> bool {
        self.filtro.is_some()
            || self
                .conds
                .iter()
                .any(|c| matches!(c, Cond::Ge(..) | Cond::Le(..)))
    }
}

/// A read statement, and whether PostgreSQL must plan it with its values each
/// time (run unnamed) or may keep its plan (a prepared statement, planned once
/// per connection under `plan_cache_mode = auto`).
pub struct Read<'a> {
    pub qb: QueryBuilder<'a, Postgres>,
    pub by_values: bool,
}

impl<'a> Read<'a> {
    pub fn sql(&self) -> &str {
        self.qb.sql()
    }

    async fn fetch_all(&mut self, conn: &mut PgConnection) -> Result<Vec<sqlx::postgres::PgRow>> {
        let keep = !self.by_values;
        Ok(self.qb.build().persistent(keep).fetch_all(conn).await?)
    }
}

fn int_param(body: &Map<String, Value>, key: &str) -> Result<Option<i64>> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_i64()
            .map(Some)
            .ok_or_else(|| Error::validation(format!("{key} inválido."))),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| Error::validation(format!("{key} inválido."))),
        Some(_) => Err(Error::validation(format!("{key} inválido."))),
    }
}

pub fn parse_list(res: &Resource, body: &Map<String, Value>) -> Result<ListParams> {
    let order_src = match body.get("ORDENACAO") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        None | Some(Value::Null) | Some(Value::String(_)) => res.default_order.clone(),
        Some(_) => return Err(Error::validation("Ordenação inválida.")),
    };
    let order = parse_order(res, &order_src).map_err(Error::Validation)?;
    let filtro = match body.get("FILTRO") {
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    let limit = int_param(body, "LIMIT")?.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(Error::validation(format!(
            "LIMIT deve estar entre 1 e {MAX_LIMIT}."
        )));
    }
    let offset = match (int_param(body, "OFFSET")?, int_param(body, "PAGINATION")?) {
        (Some(o), _) => o,
        (None, Some(p)) => p.saturating_mul(limit),
        _ => 0,
    };
    if offset < 0 {
        return Err(Error::validation("Paginação inválida."));
    }
    let mut conds = Vec::new();
    for (k, v) in body {
        // Company keys were checked by the gateway's guard; registers shared by the
        // client's companies (states, brands) have no company column to filter.
        let company_key = k.ends_with("_EMP_ID") && res.field(k).is_none();
        if META_KEYS.contains(&k.as_str())
            || res.company.as_deref() == Some(k.as_str())
            || company_key
        {
            continue;
        }
        let (name, range) = if let Some(n) = k.strip_suffix("_INI") {
            (n, Some(true))
        } else if let Some(n) = k.strip_suffix("_FIM") {
            (n, Some(false))
        } else {
            (k.as_str(), None)
        };
        let idx = res
            .fields
            .iter()
            .position(|f| f.name == name && !f.write_only)
            .ok_or_else(|| Error::validation(format!("Filtro inválido: '{k}'.")))?;
        let f = &res.fields[idx];
        if range.is_some()
            && !matches!(
                f.db,
                DbType::Date | DbType::Timestamp | DbType::Int | DbType::Decimal
            )
        {
            return Err(Error::validation(format!("Filtro inválido: '{k}'.")));
        }
        let parse = |v: &Value| -> Result<SqlValue> {
            parse_value(f, v)
                .map_err(|_| Error::validation(format!("Valor inválido para o filtro {k}.")))
        };
        match (range, v) {
            (_, Value::Null) => {}
            (None, Value::Array(items)) => {
                let vals = items.iter().map(parse).collect::<Result<Vec<_>>>()?;
                if !vals.is_empty() {
                    conds.push(Cond::In(idx, vals));
                }
            }
            (r, v) => match parse(v)? {
                SqlValue::Null => {}
                val => conds.push(match r {
                    None => Cond::Eq(idx, val),
                    Some(true) => Cond::Ge(idx, val),
                    Some(false) => Cond::Le(idx, val),
                }),
            },
        }
    }
    Ok(ListParams { order, filtro, limit, offset, conds })
}

fn selectable(res: &Resource) -> Vec<&Field> {
    res.fields.iter().filter(|f| !f.write_only).collect()
}

fn push_select(qb: &mut QueryBuilder<'_, Postgres>, res: &Resource) {
    qb.push("SELECT ");
    let cols: Vec<String> = selectable(res).iter().map(|f| select_expr(f)).collect();
    qb.push(cols.join(", "));
    qb.push(" FROM ")
        .push(res.qualified_table())
        .push(" WHERE ");
}

/// Client and company conditions; every WHERE starts here.
fn push_scope(
    qb: &mut QueryBuilder<'_, Postgres>,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
) -> Result<()> {
    if res.tenant {
        qb.push("client_id = ").push_bind(caller.client_id);
    } else {
        qb.push("true");
    }
    if let Some(c) = &res.company {
        let emp = emp.ok_or_else(|| Error::validation("emp_id não informado."))?;
        let col = &res.field(c).map(|f| f.column.clone()).unwrap_or_default();
        qb.push(" AND ").push(col).push(" = ").push_bind(emp);
    }
    Ok(())
}

fn escape_like(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

fn push_filtro(qb: &mut QueryBuilder<'_, Postgres>, res: &Resource, filtro: &str) {
    let mut searchable: Vec<&Field> = res
        .fields
        .iter()
        .filter(|f| f.searchable && f.db == DbType::Text)
        .collect();
    if searchable.is_empty() {
        searchable.extend(res.field(&res.label).filter(|f| f.db == DbType::Text));
    }
    let pattern = format!("%{}%", escape_like(filtro));
    qb.push(" AND (false");
    for f in searchable {
        qb.push(" OR ")
            .push(&f.column)
            .push(" ILIKE ")
            .push_bind(pattern.clone());
    }
    // A number typed in the search box also finds the record with that id.
    if let (1, Some(k)) = (res.key.len(), res.field(&res.key[0])) {
        if k.db == DbType::Int {
            if let Ok(n) = filtro.parse::<i64>() {
                qb.push(" OR ").push(&k.column).push(" = ").push_bind(n);
            }
        }
    }
    qb.push(")");
}

fn push_conds(qb: &mut QueryBuilder<'_, Postgres>, res: &Resource, p: &ListParams) {
    for c in &p.conds {
        let (idx, op) = match c {
            Cond::Eq(i, _) => (*i, " = "),
            Cond::In(i, _) => (*i, " = ANY("),
            Cond::Ge(i, _) => (*i, " >= "),
            Cond::Le(i, _) => (*i, " <= "),
        };
        let f = &res.fields[idx];
        qb.push(" AND ").push(&f.column).push(op);
        match c {
            Cond::Eq(_, v) | Cond::Ge(_, v) | Cond::Le(_, v) => push_bind(qb, v.clone(), f.db),
            Cond::In(_, vals) => {
                match f.db {
                    DbType::Int => qb.push_bind(
                        vals.iter()
                            .filter_map(|v| {
                                if let SqlValue::Int(i) = v {
                                    Some(*i)
                                } else {
                                    None
                                }
                            })
                            .collect::<Vec<i64>>(),
                    ),
                    _ => qb.push_bind(
                        vals.iter()
                            .map(|v| match v {
                                SqlValue::Text(s) => s.clone(),
                                SqlValue::Int(i) => i.to_string(),
                                other => format!("{other:?}"),
                            })
                            .collect::<Vec<String>>(),
                    ),
                };
                if f.db != DbType::Int {
                    qb.push("::text[]");
                }
                qb.push(")");
            }
        }
    }
}

fn push_order(qb: &mut QueryBuilder<'_, Postgres>, res: &Resource, order: &[(usize, bool)]) {
    let mut items: Vec<String> = order
        .iter()
        .map(|(i, desc)| {
            format!(
                "{}{}",
                res.fields[*i].column,
                if *desc { " DESC" } else { "" }
            )
        })
        .collect();
    // Keys last, so paging is stable.
    for k in &res.key {
        if let Some(f) = res.field(k) {
            if !order.iter().any(|(i, _)| res.fields[*i].name == f.name) {
                items.push(f.column.clone());
            }
        }
    }
    qb.push(" ORDER BY ").push(items.join(", "));
}

/// `ORDEM` striping and `id`/`text` for select boxes.
pub fn decorate(res: &Resource, rows: &mut [Value]) {
    for (i, row) in rows.iter_mut().enumerate() {
        if let Value::Object(m) = row {
            let id = res
                .key
                .first()
                .and_then(|k| m.get(k))
                .cloned()
                .unwrap_or(Value::Null);
            let text = m.get(&res.label).cloned().unwrap_or(Value::Null);
            m.insert("ORDEM".into(), Value::from((i % 2) as i64));
            m.insert("id".into(), id);
            m.insert("text".into(), text);
        }
    }
}

async fn fetch_rows(
    conn: &mut PgConnection,
    res: &Resource,
    mut read: Read<'_>,
) -> Result<Vec<Value>> {
    let rows = read.fetch_all(conn).await?;
    let fields = selectable(res);
    rows.iter().map(|r| row_to_json(&fields, r)).collect()
}

/// The list statement (also what `erp bench-sql` shows the benchmark).
pub fn list_query<'a>(
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    body: &Map<String, Value>,
) -> Result<Read<'a>> {
    let p = parse_list(res, body)?;
    let mut qb = QueryBuilder::new("");
    push_select(&mut qb, res);
    push_scope(&mut qb, res, caller, emp)?;
    push_conds(&mut qb, res, &p);
    if let Some(f) = &p.filtro {
        push_filtro(&mut qb, res, f);
    }
    push_order(&mut qb, res, &p.order);
    // Written, not bound: a plan kept for `LIMIT $n` would be made for an unknown
    // (assumed large) number of rows. Both were parsed as integers above.
    qb.push(format_args!(" LIMIT {} OFFSET {}", p.limit, p.offset));
    Ok(Read { qb, by_values: p.planned_by_values() })
}

pub async fn list(
    conn: &mut PgConnection,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    body: &Map<String, Value>,
) -> Result<Vec<Value>> {
    let read = list_query(res, caller, emp, body)?;
    let mut rows = fetch_rows(conn, res, read).await?;
    decorate(res, &mut rows);
    Ok(rows)
}

/// [`list`] answered as JSON bytes, written straight from the fetched rows (the
/// list call's answer: no `Value` per row).
pub async fn list_json(
    conn: &mut PgConnection,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    body: &Map<String, Value>,
) -> Result<Vec<u8>> {
    let rows = list_query(res, caller, emp, body)?.fetch_all(conn).await?;
    let fields = selectable(res);
    let id = res
        .key
        .first()
        .and_then(|k| res.field(k))
        .filter(|f| !f.write_only);
    let text = res.field(&res.label).filter(|f| !f.write_only);
    super::values::rows_to_json_bytes(&fields, &rows, id, text)
}

pub fn count_query<'a>(
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    body: &Map<String, Value>,
) -> Result<Read<'a>> {
    let p = parse_list(res, body)?;
    let mut qb = QueryBuilder::new("SELECT count(*) FROM ");
    qb.push(res.qualified_table()).push(" WHERE ");
    push_scope(&mut qb, res, caller, emp)?;
    push_conds(&mut qb, res, &p);
    if let Some(f) = &p.filtro {
        push_filtro(&mut qb, res, f);
    }
    Ok(Read { qb, by_values: p.planned_by_values() })
}

pub async fn count(
    conn: &mut PgConnection,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    body: &Map<String, Value>,
) -> Result<i64> {
    let mut read = count_query(res, caller, emp, body)?;
    let keep = !read.by_values;
    Ok(read
        .qb
        .build_query_scalar::<i64>()
        .persistent(keep)
        .fetch_one(conn)
        .await?)
}

pub fn search_query<'a>(
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    filter: &str,
    limit: i64,
) -> Result<Read<'a>> {
    let limit = if limit <= 0 {
        res.search_limit
    } else {
        limit.min(MAX_LIMIT)
    };
    let mut qb = QueryBuilder::new("");
    push_select(&mut qb, res);
    push_scope(&mut qb, res, caller, emp)?;
    let filter = filter.trim();
    if !filter.is_empty() {
        push_filtro(&mut qb, res, filter);
    }
    let order = parse_order(res, &res.default_order).map_err(Error::Validation)?;
    push_order(&mut qb, res, &order);
    qb.push(format_args!(" LIMIT {limit}"));
    Ok(Read { qb, by_values: !filter.is_empty() })
}

pub async fn search(
    conn: &mut PgConnection,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    filter: &str,
    limit: i64,
) -> Result<Vec<Value>> {
    let read = search_query(res, caller, emp, filter, limit)?;
    let mut rows = fetch_rows(conn, res, read).await?;
    decorate(res, &mut rows);
    Ok(rows)
}

fn push_key(qb: &mut QueryBuilder<'_, Postgres>, res: &Resource, key: &[String]) -> Result<()> {
    if key.len() != res.key.len() {
        return Err(Error::validation("Chave do registro inválida."));
    }
    for (name, raw) in res.key.iter().zip(key) {
        let f = res
            .field(name)
            .ok_or_else(|| Error::internal("key not declared"))?;
        let v = parse_value(f, &Value::from(raw.clone())).map_err(|_| Error::not_found())?;
        if v == SqlValue::Null {
            return Err(Error::not_found());
        }
        qb.push(" AND ").push(&f.column).push(" = ");
        push_bind(qb, v, f.db);
    }
    Ok(())
}

pub async fn get(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    key: &[String],
) -> Result<Value> {
    let mut qb = QueryBuilder::new("");
    push_select(&mut qb, res);
    push_scope(&mut qb, res, caller, emp)?;
    push_key(&mut qb, res, key)?;
    fetch_rows(tx, res, Read { qb, by_values: false })
        .await?
        .into_iter()
        .next()
        .ok_or_else(Error::not_found)
}

async fn reread(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    row: &Value,
) -> Result<Value> {
    let key: Vec<String> = res
        .key
        .iter()
        .map(|k| match &row[k] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    get(tx, res, caller, emp, &key).await
}

fn returning(res: &Resource) -> String {
    let cols: Vec<String> = selectable(res).iter().map(|f| select_expr(f)).collect();
    format!(" RETURNING {}", cols.join(", "))
}

async fn next_id(tx: &mut Tx, res: &Resource, caller: &Caller, emp: Option<i64>) -> Result<i64> {
    let key = res
        .field(&res.key[0])
        .ok_or_else(|| Error::internal("key"))?;
    let company = if res.ids_per_client {
        None
    } else {
        res.company.as_deref().and_then(|c| res.field(c))
    };
    let emp = if res.ids_per_client { None } else { emp };
    // The counter row serialises concurrent inserts of one company; starting from
    // max(id) keeps it right after rows were loaded by other means.
    let max_sql = match company {
        Some(c) => format!(
            "SELECT coalesce(max({k}), 0) + 1 FROM {t} WHERE client_id = $1 AND {c} = $2",
            k = key.column,
            t = res.qualified_table(),
            c = c.column
        ),
        None => format!(
            "SELECT coalesce(max({k}), 0) + 1 FROM {t} WHERE client_id = $1 AND $2 = $2",
            k = key.column,
            t = res.qualified_table()
        ),
    };
    let sql = format!(
        "INSERT INTO {s}.id_counters (client_id, emp_id, resource, last_id) VALUES ($1, $2, $3, ({max_sql})) \
         ON CONFLICT (client_id, emp_id, resource) DO UPDATE \
         SET last_id = greatest({s}.id_counters.last_id + 1, EXCLUDED.last_id) RETURNING last_id",
        s = res.schema
    );
    Ok(sqlx::query_scalar(&sql)
        .bind(caller.client_id)
        .bind(emp.unwrap_or(0))
        .bind(&res.table)
        .fetch_one(&mut **tx)
        .await?)
}

/// The next line number within a parent (the other key columns, which the body
/// must carry). The counter row serialises concurrent inserts of one parent.
async fn next_seq(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    cols: &[(&Field, SqlValue)],
) -> Result<i64> {
    let seq_name = res
        .generated_column()
        .ok_or_else(|| Error::internal("key"))?;
    let parents: Vec<&String> = res.key.iter().filter(|k| k.as_str() != seq_name).collect();
    let mut parts = vec![res.table.clone()];
    let mut conds = Vec::new();
    let mut binds = Vec::new();
    for k in parents {
        let (f, v) = cols
            .iter()
            .find(|(f, _)| &f.name == k)
            .ok_or_else(|| Error::validation(format!("{k} é obrigatório.")))?;
        let text = match v {
            SqlValue::Int(i) => i.to_string(),
            SqlValue::Text(t) => t.clone(),
            _ => return Err(Error::validation(format!("{k} inválido."))),
        };
        parts.push(text.clone());
        binds.push(text);
        conds.push(format!("{}::text = ${}", f.column, binds.len() + 2));
    }
    let seq = res.field(seq_name).ok_or_else(|| Error::internal("key"))?;
    let company = res
        .company
        .as_deref()
        .and_then(|c| res.field(c))
        .map(|c| format!(" AND {} = $2", c.column))
        .unwrap_or_else(|| " AND $2 = $2".into());
    let max_sql = format!(
        "SELECT coalesce(max({k}), 0) + 1 FROM {t} WHERE client_id = $1{company} AND {conds}",
        k = seq.column,
        t = res.qualified_table(),
        conds = conds.join(" AND ")
    );
    let sql = format!(
        "INSERT INTO {s}.id_counters (client_id, emp_id, resource, last_id) VALUES ($1, $2, ${n}, ({max_sql})) \
         ON CONFLICT (client_id, emp_id, resource) DO UPDATE \
         SET last_id = greatest({s}.id_counters.last_id + 1, EXCLUDED.last_id) RETURNING last_id",
        s = res.schema,
        n = binds.len() + 3
    );
    let mut q = sqlx::query_scalar(&sql)
        .bind(caller.client_id)
        .bind(emp.unwrap_or(0));
    for b in &binds {
        q = q.bind(b);
    }
    Ok(q.bind(parts.join(":")).fetch_one(&mut **tx).await?)
}

/// Writes the `RecordChanged` fact of `row` to the outbox in `tx` (what every
/// engine write does; seeds that write rows themselves call it too).
pub async fn publish(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    op: Op,
    row: &Value,
) -> Result<()> {
    let Some(entity) = &res.events else {
        return Ok(());
    };
    let verb = match op {
        Op::Create => "criado",
        Op::Update => "alterado",
        Op::Delete => "excluido",
    };
    let key: Vec<String> = res
        .key
        .iter()
        .map(|k| match row.get(k) {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        })
        .collect();
    let event = erp_proto::erp::v1::RecordChanged {
        resource: res.name.clone(),
        op: verb.into(),
        client_id: caller.client_id,
        emp_id: emp.unwrap_or(0),
        key,
        row_json: serde_json::to_vec(row)?,
    };
    let subject = format!("erp.{}.{}.{}", res.schema, entity, verb);
    crate::bus::outbox_insert(
        tx,
        &res.schema,
        &subject,
        caller.client_id,
        &event.encode_to_vec(),
    )
    .await?;
    Ok(())
}

/// A client's body without the fields the server writes (hooks fill them).
fn client_body(res: &Resource, body: &Map<String, Value>) -> Map<String, Value> {
    let mut body = body.clone();
    for f in res.fields.iter().filter(|f| f.server) {
        body.remove(&f.name);
    }
    body
}

/// A document line's item fills what the body leaves out.
async fn fill_from_item(
    tx: &mut Tx,
    res: &Resource,
    op: Op,
    caller: &Caller,
    emp: Option<i64>,
    body: &mut Map<String, Value>,
) -> Result<()> {
    match &res.document {
        Some(d) => match d.part {
            Part::Line(i) => ops::fill_from_item(tx, &d.def, i, op, caller, emp, body).await,
            Part::Header | Part::Child(_) => Ok(()),
        },
        None => Ok(()),
    }
}

/// What follows a write in its transaction: the document's work (its header open,
/// line values, totals), then the register's hooks. Answers the row as stored.
async fn after_write(
    tx: &mut Tx,
    res: &Resource,
    op: Op,
    caller: &Caller,
    emp: Option<i64>,
    row: Value,
) -> Result<Value> {
    if let Some(d) = &res.document {
        match d.part {
            Part::Header => ops::after_header(tx, &d.def, op, caller, emp, &row).await?,
            Part::Line(i) => ops::after_line(tx, &d.def, i, op, caller, emp, &row).await?,
            Part::Child(i) => ops::after_child(tx, &d.def, i, caller, emp, &row).await?,
        }
    }
    if let Some(h) = &res.hooks {
        h.after_write(tx, op, caller, &row).await?;
    }
    if op == Op::Delete || (res.document.is_none() && res.hooks.is_none()) {
        Ok(row)
    } else {
        reread(tx, res, caller, emp, &row).await
    }
}

/// Global registers are shared by every client: only support operators change them.
fn check_write(res: &Resource, caller: &Caller) -> Result<()> {
    if res.tenant || caller.privileged {
        Ok(())
    } else {
        Err(Error::forbidden())
    }
}

/// Fields a body may write.
fn writable(res: &Resource) -> impl Iterator<Item = &Field> {
    res.fields.iter().filter(move |f| {
        !(f.read_only || res.is_company(&f.name) || res.generated_column() == Some(f.name.as_str()))
    })
}

pub async fn create(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    body: &Map<String, Value>,
) -> Result<Value> {
    let body = prepare_body(tx, res, Op::Create, caller, emp, body).await?;
    if let Some(d) = &res.document {
        let parent = match d.part {
            Part::Line(i) => d.def.lines.get(i).map(|l| &l.parent),
            Part::Child(i) => d.def.children.get(i).map(|c| &c.parent),
            Part::Header => None,
        };
        if let Some(parent) = parent {
            ops::before_insert(tx, &d.def, parent, caller, emp, &body).await?;
        }
    }
    let mut cols: Vec<(&Field, SqlValue)> = Vec::new();
    // The creating user, stamped by the engine (none for a system caller).
    if let Some(f) = res.fields.iter().find(|f| f.role == Some(Role::CreatedBy)) {
        if caller.user_id > 0 {
            cols.push((f, SqlValue::Int(caller.user_id)));
        }
    }
    for f in writable(res) {
        let raw = body
            .get(&f.name)
            .cloned()
            .or_else(|| f.default.clone())
            .unwrap_or(Value::Null);
        let v = validate(f, parse_value(f, &raw)?)?;
        if v != SqlValue::Null {
            cols.push((f, v));
        }
    }
    let mut qb = QueryBuilder::new("INSERT INTO ");
    qb.push(res.qualified_table()).push(" (");
    let mut cols_sql: Vec<String> = Vec::new();
    if res.tenant {
        cols_sql.push("client_id".into());
    }
    if let Some(c) = res.company.as_deref().and_then(|c| res.field(c)) {
        cols_sql.push(c.column.clone());
    }
    let generated = if res.generated_key {
        Some(next_id(tx, res, caller, emp).await?)
    } else if res.seq_key.is_some() {
        Some(next_seq(tx, res, caller, emp, &cols).await?)
    } else {
        None
    };
    if generated.is_some() {
        let k = res
            .generated_column()
            .ok_or_else(|| Error::internal("key"))?;
        cols_sql.push(
            res.field(k)
                .ok_or_else(|| Error::internal("key"))?
                .column
                .clone(),
        );
    }
    cols_sql.extend(cols.iter().map(|(f, _)| f.column.clone()));
    qb.push(cols_sql.join(", ")).push(") VALUES (");
    let mut sep = qb.separated(", ");
    if res.tenant {
        sep.push_bind(caller.client_id);
    }
    if res.company.is_some() {
        sep.push_bind(emp.ok_or_else(|| Error::validation("emp_id não informado."))?);
    }
    if let Some(id) = generated {
        sep.push_bind(id);
    }
    for (_, v) in cols {
        match v {
            SqlValue::Int(i) => sep.push_bind(i),
            SqlValue::Text(t) => sep.push_bind(t),
            SqlValue::Dec(d) => sep.push_bind(d),
            SqlValue::Date(d) => sep.push_bind(d),
            SqlValue::Ts(t) => sep.push_bind(t),
            SqlValue::Bool(b) => sep.push_bind(b),
            SqlValue::Json(j) => sep.push_bind(j),
            SqlValue::Null => sep.push_bind(None::<String>),
        };
    }
    qb.push(")").push(returning(res));
    let row = qb
        .build()
        .fetch_one(&mut **tx)
        .await
        .map_err(|e| res.constraint_error(e))?;
    written(tx, res, Op::Create, caller, emp, &row).await
}

pub async fn update(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    key: &[String],
    body: &Map<String, Value>,
) -> Result<Value> {
    let body = prepare_body(tx, res, Op::Update, caller, emp, body).await?;
    let mut sets: Vec<(&Field, SqlValue)> = Vec::new();
    for f in writable(res).filter(|f| !res.is_key(&f.name)) {
        if let Some(raw) = body.get(&f.name) {
            // A write-only field left blank on an edit form keeps its value.
            if f.write_only && super::values::parse_value(f, raw)? == SqlValue::Null {
                continue;
            }
            sets.push((f, validate(f, parse_value(f, raw)?)?));
        }
    }
    if sets.is_empty() {
        return get(tx, res, caller, emp, key).await;
    }
    let mut qb = QueryBuilder::new("UPDATE ");
    qb.push(res.qualified_table()).push(" SET ");
    for (i, (f, v)) in sets.into_iter().enumerate() {
        if i > 0 {
            qb.push(", ");
        }
        qb.push(&f.column).push(" = ");
        push_bind(&mut qb, v, f.db);
    }
    qb.push(" WHERE ");
    push_scope(&mut qb, res, caller, emp)?;
    push_key(&mut qb, res, key)?;
    qb.push(returning(res));
    let row = qb
        .build()
        .fetch_optional(&mut **tx)
        .await
        .map_err(|e| res.constraint_error(e))?
        .ok_or_else(Error::not_found)?;
    written(tx, res, Op::Update, caller, emp, &row).await
}

/// What a write path runs before its SQL: the caller may write, the body holds
/// only this client's declared fields, the hooks have seen it and a line has its
/// item's description, unit and price.
async fn prepare_body(
    tx: &mut Tx,
    res: &Resource,
    op: Op,
    caller: &Caller,
    emp: Option<i64>,
    body: &Map<String, Value>,
) -> Result<Map<String, Value>> {
    check_write(res, caller)?;
    let mut body = client_body(res, body);
    if op == Op::Update {
        // What a document already posted elsewhere (a stock movement's product and
        // quantity) is kept as created: the old screens send the whole row back
        // on an edit, so the fields are dropped, not refused.
        for f in res.fields.iter().filter(|f| f.create_only) {
            body.remove(&f.name);
        }
    }
    if let Some(h) = &res.hooks {
        h.before_write(op, caller, &mut body).await?;
        h.prepare(tx, op, caller, emp, &mut body).await?;
    }
    fill_from_item(tx, res, op, caller, emp, &mut body).await?;
    Ok(body)
}

/// The row a create or update wrote, completed by the document and the hooks
/// (line values, derived columns): what is answered and published is what is
/// stored.
async fn written(
    tx: &mut Tx,
    res: &Resource,
    op: Op,
    caller: &Caller,
    emp: Option<i64>,
    row: &sqlx::postgres::PgRow,
) -> Result<Value> {
    let row = row_to_json(&selectable(res), row)?;
    let row = after_write(tx, res, op, caller, emp, row).await?;
    publish(tx, res, caller, emp, op, &row).await?;
    Ok(row)
}

pub async fn delete(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    key: &[String],
) -> Result<Value> {
    check_write(res, caller)?;
    let mut qb = QueryBuilder::new("DELETE FROM ");
    qb.push(res.qualified_table()).push(" WHERE ");
    push_scope(&mut qb, res, caller, emp)?;
    push_key(&mut qb, res, key)?;
    qb.push(returning(res));
    let row = qb
        .build()
        .fetch_optional(&mut **tx)
        .await
        .map_err(|e| res.constraint_error(e))?
        .ok_or_else(Error::not_found)?;
    let row = row_to_json(&selectable(res), &row)?;
    let row = after_write(tx, res, Op::Delete, caller, emp, row).await?;
    publish(tx, res, caller, emp, Op::Delete, &row).await?;
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::field::Field;

    fn res() -> Resource {
        Resource::new("clientes", "Clientes", "catalog", "clientes", "clientes")
            .key(&["CLI_ID"])
            .company("CLI_EMP_ID")
            .label("CLI_DESCRICAO")
            .order("CLI_DESCRICAO")
            .fields(vec![
                Field::id("CLI_ID", "Código"),
                Field::int("CLI_EMP_ID", "Empresa"),
                Field::text("CLI_DESCRICAO", "Nome").required().searchable(),
                Field::date("CLI_DTA_CAD", "Cadastro"),
                Field::password("CLI_SENHA", "Senha"),
            ])
    }

    fn body(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn order_accepts_only_declared_fields() {
        let r = res();
        assert!(parse_order(&r, "CLI_DESCRICAO desc, CLI_ID").is_ok());
        for bad in [
            "1; DROP TABLE x",
            "pg_sleep(5)",
            "\"CLI_ID\"",
            "CLI_ID ASC; --",
            "CLI_SENHA",
            "CLI_ID DESC NULLS",
        ] {
            assert!(parse_order(&r, bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn unknown_filter_keys_are_refused() {
        let r = res();
        let e = parse_list(&r, &body(serde_json::json!({"x; DROP TABLE": 1}))).err();
        assert_eq!(e.map(|e| e.http_status()), Some(400));
        assert!(parse_list(
            &r,
            &body(serde_json::json!({"CLI_DTA_CAD_INI": "2026-01-01", "FILTRO": "a", "LIMIT": 20, "PAGINATION": 2}))
        )
        .is_ok());
        assert!(parse_list(&r, &body(serde_json::json!({"LIMIT": 0}))).is_err());
        assert!(parse_list(&r, &body(serde_json::json!({"CLI_DESCRICAO_INI": "a"}))).is_err());
    }

    #[test]
    fn like_patterns_are_escaped() {
        assert_eq!(escape_like("50%_a\\"), "50\\%\\_a\\\\");
    }
}
