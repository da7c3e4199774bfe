//! Register descriptors of orders: each document (quote, billing order,
//! conditional sale, service order, purchase) is declared once on the engine —
//! header, lines, totals, status — with the domain hooks and calls beside it.
//!
//! Layout:
//! - `quotes`, `billing`, `conditional`, `service_orders`, `purchases`: one document
//!   each.
//! - `conversions`: what a quote becomes (billing order, service order, requisition).
//! - `customer`: the customer's name and city copied onto a document.
//! - `printed`: one quote's or billing order's PDF (`erp_print::sale`).
//! - `sales_grid`: a product's size/colour grid as a sale sees it (with stock's
//!   quantities), a call of the billing order.
//! - `transitions`: duplication and a quote's conversions, as typed calls.
//!
//! Calls and hooks are typed (`Operation`, `RecordHooks`): their inputs, answers
//! and the rows they read are structs of their own; [`Nothing`] and [`NoBody`] are
//! the input of a call and the body view of a hook that read nothing.

use std::path::Path;

use erp_platform::config::Config;
use erp_platform::resource::record;
use erp_platform::resource::Registry;
use erp_platform::service::Peers;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub mod billing;
pub mod conditional;
pub mod conversions;
pub mod customer;
pub mod printed;
pub mod purchases;
pub mod quotes;
pub mod sales_grid;
pub mod service_orders;
pub mod transitions;

/// Every register of orders, with the data directory of the environment (where the
/// purchase's XML import finds uploaded files) and no peers: what the gateway
/// builds its routes and metadata from.
pub fn registry() -> Result<Registry, String> {
    registry_in(&Config::from_env().data_dir)
}

/// Every register of orders reading uploads from `data_dir`, without peers (calls
/// that ask catalog or identity answer 503, the XML import keeps an unknown supplier
/// on the purchase with a warning).
pub fn registry_in(data_dir: &Path) -> Result<Registry, String> {
    registry_with(data_dir, Peers::default())
}

/// Every register of orders; `data_dir` is where the gateway keeps uploaded files
/// (`<data dir>/uploads/...`), `peers` where catalog and identity are reached (the
/// XML import's new supplier, the purchase's cost and price update). Headers
/// before their lines (the table-driven test deletes in reverse order).
pub fn registry_with(data_dir: &Path, peers: Peers) -> Result<Registry, String> {
    Registry::new(
        [
            quotes::all()?,
            billing::all(peers.clone())?,
            conditional::all()?,
            service_orders::all()?,
            purchases::all(data_dir, peers)?,
        ]
        .concat(),
    )
}

pub use erp_platform::resource::call::Nothing;

/// The body view of hooks that read nothing of the body.
#[derive(Deserialize, Serialize)]
pub struct NoBody {}

/// A body of a register written from `v`'s columns (what a call creates through a
/// register's own create path).
pub(crate) fn register_body<T: Serialize>(v: &T) -> erp_platform::Result<Map<String, Value>> {
    let mut m = Map::new();
    record::into_map(v, &mut m)?;
    Ok(m)
}
