//! Stock service: where products are (locations), how many and at what cost (the
//! movement ledger: company balance with average cost, per-location balances),
//! and the documents that move them: manual entries and exits, counts
//! (corrections), transfers between locations, requisitions, and the exits of
//! documents issued in orders (invoiced orders, service-order parts, quotes'
//! requisitions, and the entries of finalized purchases at landed cost, undone when
//! the purchase is cancelled) taken from events. Also the stock card, the product stock reads
//! and picker, the copy of the catalog's products, and beer-keg tracking.
//!
//! Its registers are declared for the resource engine (the gRPC surface is the
//! generic `ResourceService`); its consumers run beside it (`serve`).
//!
//! Decisions:
//! - Every quantity change is one `stock.movimentos` row written by
//!   `ledger::record`, which locks the company balance row first; the balance
//!   (`saldos`), the per-location balance (`saldos_local`), the product copy's
//!   balance and the `erp.stock.movimento.registrado` outbox event change in the
//!   same transaction. Deleting a document writes reversing movements.
//! - A purchase item enters at its landed unit cost and moves the average cost by
//!   its landed total exactly (`movi_custo_total`, which the undo and the
//!   recalculation reuse); `stock.compras` makes each purchase enter and leave once
//!   whichever of its two facts is applied first (see `purchases`).
//! - Grid variants (catalog's `produtosgrade`, PRGR_ID): a movement may name one
//!   (`movi_prgr_id`); the ledger then keeps the variant's quantity
//!   (`saldos_grade`, per location) beside the product's balance, in the same
//!   transaction and under the product's lock; the average cost stays the
//!   product's. A purchase's grid enters per variant, an invoiced line's variant
//!   leaves it; `POST /produtosgradeestoque/{emp}` answers the quantities (orders
//!   asks it over gRPC for its sales grid).
//! - Manual documents never take the balance below zero ('Estoque insuficiente.');
//!   exits of documents issued elsewhere (events) may, and the count
//!   (`correcaoestoque`) or `GET /produtosrecalculaestoque` sets things right.
//! - Manual entries accept product ids without a catalog copy (the copy arrives by
//!   event and may lag; data loaded before the copy existed has none).
//! - Read-only registers read tables (`movimentos`, `produtos`), never views: the
//!   engine builds each register's order index on its table.
//!
//! Layout:
//! - `ledger`: the average-cost arithmetic, `record` (the one write path),
//!   balances and the recalculation.
//! - `events`: the consumers' effects and the consumer list.
//! - `payload`: a fact's message, tenant and quantities, read alike by the consumers.
//! - `purchases`: the purchase consumers (entries of a finalized purchase at
//!   landed cost, their undo on cancellation, `stock.compras` ordering the two).
//! - `resources`: register descriptors, one module per group (`locations`,
//!   `balances`, `documents`, `kegs`, `queries`); what a posted document keeps on
//!   an edit is declared with `Resource::create_only`.

pub mod events;
pub mod ledger;
pub mod payload;
pub mod purchases;
pub mod resources;

use std::sync::Arc;

use erp_platform::service::ServiceCtx;
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "stock";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

pub async fn serve(ctx: ServiceCtx, listener: Listener) -> Result<()> {
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
