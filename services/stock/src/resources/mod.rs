//! Register descriptors of stock, one module per group.
//!
//! Order matters to the table-driven tests (each sample may name the rows of the
//! samples before it): locations, manual entries, documents, kegs, then the
//! read-only registers, which have no sample.

use std::borrow::Cow;

use erp_platform::resource::call::input::Problem;
use erp_platform::resource::Registry;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize};

pub mod balances;
pub mod documents;
pub mod kegs;
pub mod locations;
pub mod queries;

pub fn registry() -> Result<Registry, String> {
    Registry::new(
        [
            locations::all(),
            balances::all(),
            documents::all()?,
            kegs::all(),
            queries::all(),
        ]
        .concat(),
    )
}

/// The registers that only read (their writes are refused); they carry no sample.
pub const READ_ONLY: [&str; 3] = ["fichaestoque", "consultaprodutos", "estoqueprodutos"];

/// A record's id in a call's path: a positive integer. Anything else is refused
/// with the field's `x-invalid` message ('Produto inválido.').
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordId(pub i64);

impl RecordId {
    pub fn get(self) -> i64 {
        self.0
    }
}

impl<'de> Deserialize<'de> for RecordId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match i64::deserialize(d)? {
            n if n > 0 => Ok(RecordId(n)),
            _ => Err(Problem::Invalid.error()),
        }
    }
}

impl JsonSchema for RecordId {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "RecordId".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "integer", "format": "int64", "minimum": 1})
    }
}

/// The body view of typed hooks that read nothing of the body.
#[derive(Debug, Default, Deserialize, Serialize)]
pub struct NoBody {}
