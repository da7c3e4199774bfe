//! Reading the rows of a register from a declared call: one row by its id, and the
//! list filter of the rows that belong to a parent.

use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, Resource};
use erp_platform::Result;
use serde_json::{Map, Value};

/// The row of `res` with the given single key, as the engine reads it.
pub(crate) async fn get_row(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    id: i64,
) -> Result<Value> {
    query::get(tx, res, caller, emp, &[id.to_string()]).await
}

/// A list body for the engine's `list`: rows of one parent, keeping the caller's
/// ordering, search text and paging.
pub(crate) fn children_filter(body: &Value, parent_field: &str, parent: i64) -> Map<String, Value> {
    let mut filter = Map::new();
    if let Value::Object(m) = body {
        for k in ["ORDENACAO", "FILTRO", "LIMIT", "PAGINATION", "OFFSET"] {
            if let Some(v) = m.get(k) {
                filter.insert(k.into(), v.clone());
            }
        }
    }
    filter.insert(parent_field.into(), Value::from(parent));
    filter
}
