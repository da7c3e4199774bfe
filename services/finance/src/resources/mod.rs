//! Register descriptors of finance, one module per group.

use std::path::Path;

use erp_platform::config::Config;
use erp_platform::resource::Registry;
use schemars::JsonSchema;
use serde::Deserialize;

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
