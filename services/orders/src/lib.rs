//! Orders service: quotes (orcamento), billing orders (pedido), conditional sales
//! (condicional), service orders (ordemservico) and purchases (compra).
//!
//! Documents are declared once on the resource engine (header and line registers,
//! totals, status, stamps): the engine recalculates a document's totals in decimals
//! after every line change, refuses changes to an issued document and duplicates
//! one with its lines; what is particular to orders (the customer's name, the
//! items' description and price from orders' copy of the catalog, the stock lines
//! of a fact) is domain code beside the descriptors. The transitions (invoice,
//! convert a quote, duplicate; a purchase's finalize and cancel) are typed calls
//! of their registers (`Operation`s with their own input and answer types), and
//! write the rows and their fact to the outbox in one transaction (`events`); the
//! registers' hooks are typed too (`RecordHooks`).
//!
//! Purchases come in from the supplier's NF-e XML: the gateway stores the upload in
//! `<data dir>/uploads/<client>/<emp>/` and the import reads it from there, so in a
//! deployment of separate roles the orders role mounts the gateway's data directory.
//!
//! Orders asks other services over gRPC (`ServiceCtx.peers`) only where the user
//! waits for their answer: finance for the customer's credit before invoicing
//! (`credit`), identity for a grant in another area (`grants`), stock for the
//! quantity of each size/colour variant of a product in the sales grid
//! (`resources::sales_grid`: the seller chooses from the ledger's current figure,
//! not a copy lagging behind the invoices just made), catalog to register
//! an imported NF-e's unknown supplier and to write a purchase's cost and sale
//! prices into its products (`peer_registers`). Those two are catalog's rows, so
//! they go through catalog's own register (its checks, hooks and events, orders'
//! copies following from the events) rather than as a fact catalog would consume:
//! the user sees at once what was created or changed — or why not — and catalog
//! needs no consumer of orders' facts. Everything else between services travels
//! as facts.
//!
//! Layout:
//! - `copies`: what orders keeps of catalog's customers, products (and their
//!   size/colour grid, sizes and colours), services and suppliers and of identity's
//!   companies, from their events; the documents' item source; what an imported
//!   NF-e is matched against.
//! - `credit`: the customer's credit limit at invoicing (asked of finance), its
//!   release and where the release is recorded.
//! - `events`: the facts orders publishes and the consumers it runs.
//! - `grants`: what the user may do in another area's program (asked of identity).
//! - `money`: amounts as pt-BR messages write them (`R$ 1.234,56`).
//! - `nfe`: the access key of a billing order's NF-e, from fiscal's facts.
//! - `payables`: what finance says of a purchase's instalments (settled or not).
//! - `peer_registers`: another service's registers over its `ResourceService`.
//! - `purchases`: the purchase's domain without a database: the NF-e XML parser and
//!   the landed cost.
//! - `resources`: register descriptors, one module per document (the purchase's
//!   calls and XML import in `resources::purchases`).

pub mod copies;
pub mod credit;
pub mod events;
pub mod grants;
pub mod money;
pub mod nfe;
pub mod payables;
pub mod peer_registers;
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
    let registry = Arc::new(
        resources::registry_with(&ctx.cfg.data_dir, ctx.peers.clone()).map_err(Error::internal)?,
    );
    let background =
        erp_platform::service::start_background(&ctx, SCHEMA, events::consumers(), Vec::new())
            .await?;
    let routes = tonic::service::Routes::new(
        erp_platform::resource::grpc::ResourceGrpc::new(ctx.db.clone(), registry).server(),
    );
    erp_platform::service::serve_then_stop(&ctx, listener, routes, background).await
}
