//! Fiscal service: tax rules, operation natures, document numbering, and the
//! Nuvem Fiscal provider through which NF-e, CT-e and MDF-e are issued.
//!
//! Its registers are declared for the resource engine; the gRPC surface is the
//! generic `ResourceService`.
//!
//! Layout:
//! - `resources`: register descriptors, one folder per group of registers:
//!   - `taxes/`: `tax_rules`, `operation_natures`, `numbering`, with the NF-e
//!     `codes`, the `cfop` field and `body` readers they share.
//! - `nuvemfiscal/`: the provider's client (OAuth2, retries, polling), the
//!   request and answer types from its OpenAPI description, and a fake server
//!   of the same API for demos and tests.
//! - `rejections`: the SEFAZ rejection codes (cStat) explained in plain pt-BR,
//!   with the field to fix and the screen that holds it.

pub mod nuvemfiscal;
pub mod rejections;
pub mod resources;

use std::sync::Arc;

use erp_platform::service::ServiceCtx;
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "fiscal";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

pub async fn serve(ctx: ServiceCtx, listener: Listener) -> Result<()> {
    let registry = Arc::new(resources::registry().map_err(Error::internal)?);
    erp_platform::service::serve_registers(ctx, listener, SCHEMA, registry).await
}
