//! Orders service: quotes (orcamento), billing orders (pedido), conditional sales
//! (condicional) and service orders (ordemservico).
//!
//! Documents are registers of the resource engine (header and line descriptors) with
//! domain hooks: every line change recalculates its document's totals in decimals in
//! the same transaction (`totals`), an issued document refuses changes, and the
//! transitions (invoice, convert, duplicate, stock write-off) are declared calls that
//! write the rows and an outbox event together (`events`).
//!
//! Layout:
//! - `totals`: line and document arithmetic (pure, unit-tested).
//! - `copies`: what orders keeps of catalog's customers, products and services,
//!   from catalog's events.
//! - `events`: the facts orders publishes and the consumers it runs.
//! - `resources`: register descriptors, one module per document.

pub mod copies;
pub mod events;
pub mod resources;
pub mod totals;

use std::sync::Arc;

use erp_platform::service::ServiceCtx;
use erp_platform::{Error, Result};
use sqlx::migrate::Migrator;
use tokio::net::TcpListener;

pub const SCHEMA: &str = "orders";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

pub async fn serve(ctx: ServiceCtx, listener: TcpListener) -> Result<()> {
    let registry = Arc::new(resources::registry().map_err(Error::internal)?);
    erp_platform::service::serve_with_consumers(
        ctx,
        listener,
        SCHEMA,
        registry,
        events::consumers(),
    )
    .await
}
