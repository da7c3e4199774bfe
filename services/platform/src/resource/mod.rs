//! The resource engine. A register is declared once as a [`Resource`] (legacy path
//! root, table, key, company column, fields with their rules, default order,
//! owning program); from it the engine provides list, count, get, create, update,
//! delete and search with the legacy conventions, the gRPC `ResourceService`, and
//! the metadata the web client renders screens from.
//!
//! Only declared columns ever reach SQL; every value is a bound parameter.
//!
//! Layout:
//! - `model`: `Resource` (a register's descriptor and its builders) and `Registry`.
//! - `field`: `Field`, its kinds, storage types, document roles and totals.
//! - `hooks`: `Hooks`, a register's behaviour around the generic writes.
//! - `action`: a declared call as the descriptor holds it, and its screen buttons.
//! - `call`: typed declared calls (`Operation`: one `In`, one `Out`, JSON Schemas),
//!   the one parse of their input and their value types.
//! - `meta`: the metadata of a register and of a document header.
//! - `document`: documents (a header and its lines) declared on registers: totals,
//!   status, stamps, duplication.
//! - `values`: JSON <-> typed SQL values, field validation with the pt-BR messages.
//! - `query`: the operations over one tenant transaction.
//! - `images`: image columns replaced or removed by declared upload calls.
//! - `params`: path parameters, body values and written rows read one way, with one
//!   pt-BR message per case.
//! - `record`: a register's rows (and hooks' bodies) read and written as structs.
//! - `read_only`: the hook of registers no generic write may change.
//! - `grpc`: `ResourceService` over a `Registry`.

pub mod action;
pub mod call;
pub mod document;
pub mod field;
pub mod grpc;
pub mod hooks;
pub mod images;
mod meta;
pub mod model;
pub mod params;
pub mod query;
mod read_only;
pub mod record;
pub mod values;

pub use action::{
    file_reply, uploaded_file, Action, ActionHandler, ActionPerm, Button, Call, Source, FILE_REPLY,
};
pub use document::{Document, LineKind, Lines};
pub use field::{DbType, Field, Group, Kind, Op, Role, Total};
pub use hooks::{Hooks, RecordHooks};
pub use model::{Registry, Resource};
pub use read_only::ReadOnly;

/// Creates, for every register, the b-tree index its default list order walks:
/// (client, company, order columns, key). Declared orders need no hand-written
/// index, and a list of the first 20 of a million rows reads 20 index entries.
/// Runs as the owner after the service's migrations; idempotent.
pub async fn ensure_order_indexes(
    cfg: &crate::config::Config,
    registry: &Registry,
) -> crate::Result<()> {
    use sqlx::{ConnectOptions, Connection, Executor};
    use std::str::FromStr;
    let opts = sqlx::postgres::PgConnectOptions::from_str(&cfg.database_url)
        .map_err(crate::Error::internal)?;
    let mut conn = opts.disable_statement_logging().connect().await?;
    for res in registry.all() {
        let order = query::parse_order(res, &res.default_order).map_err(crate::Error::internal)?;
        let mut cols: Vec<String> = Vec::new();
        if res.tenant {
            cols.push("client_id".into());
        }
        if let Some(c) = res.company.as_deref().and_then(|c| res.field(c)) {
            cols.push(c.column.clone());
        }
        for (i, desc) in &order {
            let c = &res.fields[*i].column;
            cols.push(if *desc {
                format!("{c} DESC")
            } else {
                c.clone()
            });
        }
        for k in &res.key {
            if let Some(f) = res.field(k) {
                if !cols
                    .iter()
                    .any(|c| c.split(' ').next() == Some(f.column.as_str()))
                {
                    cols.push(f.column.clone());
                }
            }
        }
        let sql = format!(
            "CREATE INDEX IF NOT EXISTS {t}_erp_order ON {s}.{t} ({c})",
            t = res.table,
            s = res.schema,
            c = cols.join(", ")
        );
        conn.execute(sql.as_str()).await?;
    }
    conn.close().await?;
    Ok(())
}
