//! Stock service: stock locations, the movement ledger with balances and average
//! cost, manual entries and exits (transfers, requisitions and kegs come later).
//!
//! Its registers are declared for the resource engine; the gRPC surface is the
//! generic `ResourceService`.
//!
//! Layout:
//! - `resources`: register descriptors, one module per group of registers.

pub mod ledger;
pub mod resources;

use std::sync::Arc;

use erp_platform::service::ServiceCtx;
use erp_platform::{Error, Result};
use sqlx::migrate::Migrator;
use tokio::net::TcpListener;

pub const SCHEMA: &str = "stock";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

pub async fn serve(ctx: ServiceCtx, listener: TcpListener) -> Result<()> {
    let registry = Arc::new(resources::registry().map_err(Error::internal)?);
    erp_platform::service::serve_registers(ctx, listener, SCHEMA, registry).await
}
