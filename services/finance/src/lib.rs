//! Finance service: banks, payment conditions and methods, due-date conditions, card acquirers, cost centres and histories (receivables, payables and reconciliation come later).
//!
//! Its registers are declared for the resource engine; the gRPC surface is the
//! generic `ResourceService`.
//!
//! Layout:
//! - `resources`: register descriptors, one module per group of registers:
//!   - `banking`: bank accounts and the upload of their certificate and key;
//!   - `terms`: card acquirers, payment methods, payment and due-date conditions;
//!   - `costs`: cost-centre groups, cost centres (with their structure) and
//!     histories.

pub mod resources;

use std::sync::Arc;

use erp_platform::service::ServiceCtx;
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "finance";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

pub async fn serve(ctx: ServiceCtx, listener: Listener) -> Result<()> {
    let registry = Arc::new(resources::registry().map_err(Error::internal)?);
    erp_platform::service::serve_registers(ctx, listener, SCHEMA, registry).await
}
