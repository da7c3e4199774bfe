//! Register descriptors of finance, one module per group, with their declared
//! calls (typed `Operation`s: an `…In` of path parameters and body, an answer
//! type) and their hooks (`RecordHooks` over typed views of the body and the
//! written row).
//!
//! Shared here: [`IdIn`] (a call on the path's `{id}`), [`Nothing`] (a call that
//! takes only its company), [`Untouched`] (a hook that reads nothing of the body)
//! and [`Loose`] (a hook's value left for the engine to refuse); `items` reads the
//! body lists whose elements are an id or an object (`TITULOS`), `title_names`
//! holds the title registers' legacy names.

use std::path::Path;

use erp_platform::config::Config;
use erp_platform::resource::call::input::Lenient;
use erp_platform::resource::Registry;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

pub mod accounting;
pub mod banking;
pub mod collection;
pub mod costs;
pub mod credit;
pub mod items;
pub mod movements;
pub mod receipts;
pub mod reconciliation;
pub mod settlement;
pub mod terms;
pub mod title_names;
pub mod titles;

/// The input of a call on one record named by the path's `{id}` (a title, a
/// settlement, a receipt, a statement line, a customer).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct IdIn {
    pub id: i64,
}

pub use erp_platform::resource::call::Nothing;

/// The body view of a register hook that reads and writes nothing of the body
/// (it works on the written row).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize)]
pub struct Untouched {}

/// A value of a hook's view of a body, read when it can be: one it cannot read
/// (a date that is no date) is left for the engine's validation after the hooks,
/// which refuses it with the field's label, as the register's other fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loose<T>(pub Option<T>);

impl<T> Default for Loose<T> {
    fn default() -> Self {
        Loose(None)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Loose<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Ok(Loose(Option::<T>::deserialize(Lenient(&v)).ok().flatten()))
    }
}

/// Registers that write nothing through the generic calls (no sample): the
/// payables settlement screen's view of the payables, the customers' credit and
/// the receipts issued.
pub const READ_ONLY: [&str; 6] = [
    "baixacontaspagar",
    "clientescredito",
    "recibos",
    "boletos",
    "conciliacaobancaria",
    "movdiario",
];

/// Every register of finance, with `data_dir` from the environment.
pub fn registry() -> std::result::Result<Registry, String> {
    registry_in(&Config::from_env().data_dir)
}

/// Every register of finance; `data_dir` is where the gateway keeps uploaded
/// files (`<data dir>/uploads/...`), where receipts find the company's logo.
pub fn registry_in(data_dir: &Path) -> std::result::Result<Registry, String> {
    let uploads = data_dir.join("uploads");
    Registry::new(
        [
            banking::all(),
            terms::all(),
            costs::all(),
            movements::all(),
            titles::all(&uploads),
            credit::all(),
            collection::all(uploads.clone()),
            accounting::all(),
            reconciliation::all(uploads.clone()),
            receipts::all(uploads),
        ]
        .concat(),
    )
}
