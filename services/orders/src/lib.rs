//! Orders service: quotes (orcamento), billing orders (pedido), conditional sales
//! (condicional), service orders (ordemservico) and purchases (compra).
//!
//! Documents are declared once on the resource engine (header and line registers,
//! totals, status, stamps): the engine recalculates a document's totals in decimals
//! after every line change, refuses changes to an issued document and duplicates
//! one with its lines; what is particular to orders (the customer's name, the
//! items' description and price from orders' copy of the catalog, the stock lines
//! of a fact) is domain code beside the descriptors. The transitions (invoice,
//! convert a quote, duplicate) are the typed `OrdersService`, and write the rows
//! and their fact to the outbox in one transaction (`events`); a purchase's
//! (finalize, cancel) are declared calls of its register that do the same.
//!
//! Purchases come in from the supplier's NF-e XML: the gateway stores the upload in
//! `<data dir>/uploads/<client>/<emp>/` and the import reads it from there, so in a
//! deployment of separate roles the orders role mounts the gateway's data directory.
//!
//! Layout:
//! - `copies`: what orders keeps of catalog's customers, products, services and
//!   suppliers and of identity's companies, from their events; the documents' item
//!   source; what an imported NF-e is matched against.
//! - `events`: the facts orders publishes and the consumers it runs.
//! - `grpc`: `OrdersService` (invoice, duplicate, convert a quote).
//! - `purchases`: the purchase's domain without a database: the NF-e XML parser and
//!   the landed cost.
//! - `resources`: register descriptors, one module per document (the purchase's
//!   calls and XML import in `resources::purchases`).

pub mod copies;
pub mod events;
pub mod grpc;
pub mod purchases;
pub mod resources;

use std::sync::Arc;

use erp_platform::service::ServiceCtx;
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "orders";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

/// Serves the registers and `OrdersService`, with the relay, consumers and jobs.
pub async fn serve(ctx: ServiceCtx, listener: Listener) -> Result<()> {
    let registry = Arc::new(resources::registry_in(&ctx.cfg.data_dir).map_err(Error::internal)?);
    let tasks =
        erp_platform::service::start_background(&ctx, SCHEMA, events::consumers(), Vec::new())
            .await?;
    let routes = tonic::service::Routes::new(
        erp_platform::resource::grpc::ResourceGrpc::new(ctx.db.clone(), registry.clone()).server(),
    )
    .add_service(grpc::OrdersGrpc::new(ctx.db.clone(), registry).server());
    let result = erp_platform::service::serve_grpc(listener, routes).await;
    for t in tasks {
        t.abort();
    }
    result
}
