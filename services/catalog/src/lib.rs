//! Catalog service: customers, suppliers, products, services, vehicles, equipment, collaborators and the reference tables (states, cities, countries, NCM, CNAE, ...).
//!
//! Its registers are declared for the resource engine; the gRPC surface is the
//! generic `ResourceService`.
//!
//! Layout:
//! - `resources`: register descriptors, one folder per group of registers:
//!   - `parties/`: customers (`customers`, `sub_registers`,
//!     `customer_attachments`, `transfer` to another company), `suppliers` and
//!     `collaborators`;
//!   - `vehicles/`: `vehicle_models`, `vehicle`, `vehicle_documents`,
//!     `equipment_models`, `equipment_types`, `equipment`, `equipment_images`,
//!     `contract_equipment`;
//!   - `products/`: `product`, `product_hooks`, `history`, `classification`,
//!     `sub_registers`, `barcodes`, `raw_material`, `settings`, `duplicate`,
//!     `replicate`, `path_company`, `field_rules`;
//!   - `services`: services with their groups, types and sectors;
//!   - `reference/`: `places`, `fiscal_codes`, `banks`, `client_tables`,
//!     `normalize`;
//!   - shared by the groups: `checks` (the configurable rules hook and body
//!     normalisation), `rows` (a row by id, the rows of a parent), `uploads`.
//! - `import`: importers of the official NCM and CNAE tables (CSV, upsert by code).

pub mod import;
pub mod resources;

use std::sync::Arc;

use erp_platform::service::ServiceCtx;
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "catalog";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

pub async fn serve(ctx: ServiceCtx, listener: Listener) -> Result<()> {
    let registry = Arc::new(resources::registry().map_err(Error::internal)?);
    erp_platform::service::serve_registers(ctx, listener, SCHEMA, registry).await
}
