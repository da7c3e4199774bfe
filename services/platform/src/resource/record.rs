//! A register's rows as structs: hooks and declared calls read a record (or a
//! document's header and lines) into a type of their own that names the columns
//! it needs by their legacy names (serde renames), and write typed values back,
//! instead of picking fields out of a JSON map by name.
//!
//! ```ignore
//! #[derive(Deserialize)]
//! struct Head {
//!     #[serde(rename = "PEDF_CLI_ID")]
//!     customer: i64,
//!     #[serde(rename = "PEDF_DTA_EMISSAO")]
//!     issued: Date,
//! }
//! let head: Head = record::get(tx, res, caller, Some(emp), &key).await?;
//! ```
//!
//! Values are read as leniently as a call's input (`call::input::Lenient`): the
//! engine writes decimals as exact JSON numbers and keys may travel as text.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use super::call::input::Lenient;
use super::model::Resource;
use super::query;
use crate::db::Tx;
use crate::grpc::Caller;
use crate::{Error, Result};

/// A row the engine wrote (or a hook's body) read as `T`.
pub fn from_row<T: DeserializeOwned>(row: &Value) -> Result<T> {
    T::deserialize(Lenient(row)).map_err(|e| Error::internal(format!("row: {e}")))
}

/// A body map read as `T` (a hook's view of the record being written).
pub fn from_map<T: DeserializeOwned>(map: &Map<String, Value>) -> Result<T> {
    let v = Value::Object(map.clone());
    from_row(&v)
}

/// `T`'s values written into a body map (the columns `T` names; `None`s are
/// skipped when `T` says so with `skip_serializing_if`).
pub fn into_map<T: Serialize>(v: &T, map: &mut Map<String, Value>) -> Result<()> {
    match serde_json::to_value(v)? {
        Value::Object(m) => {
            map.extend(m);
            Ok(())
        }
        _ => Err(Error::internal("a record is written from a struct")),
    }
}

/// The record of `res` at `key` as `T` ('Registro não encontrado.' when none).
pub async fn get<T: DeserializeOwned>(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: Option<i64>,
    key: &[String],
) -> Result<T> {
    let row = query::get(tx, res, caller, emp, key).await?;
    from_row(&row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::call::{Date, Dec};
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Deserialize, Serialize, Debug, PartialEq)]
    struct Head {
        #[serde(rename = "PEDF_ID")]
        id: i64,
        #[serde(rename = "PEDF_VLR_TOTAL")]
        total: Dec,
        #[serde(rename = "PEDF_DTA_EMISSAO")]
        issued: Date,
        #[serde(rename = "PEDF_CLI_DESC")]
        name: Option<String>,
    }

    #[test]
    fn rows_read_as_structs_and_write_back() {
        let row = json!({"PEDF_ID": "7", "PEDF_VLR_TOTAL": 12.5, "PEDF_DTA_EMISSAO": "2026-12-07", "PEDF_CLI_DESC": null, "OTHER": 1});
        let h: Head = from_row(&row).expect("reads");
        assert_eq!(h.id, 7);
        assert_eq!(h.total.0.to_string(), "12.5");
        assert_eq!(h.name, None);
        let mut m = Map::new();
        into_map(&h, &mut m).expect("writes");
        assert_eq!(m["PEDF_VLR_TOTAL"], json!(12.5));
        assert_eq!(m["PEDF_DTA_EMISSAO"], json!("2026-12-07"));
    }
}
