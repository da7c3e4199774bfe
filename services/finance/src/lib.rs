//! Finance service: bank accounts and their movements, payment conditions and
//! methods, due-date conditions, card acquirers, cost centres and histories, the
//! financial parameters of each company, and receivables and payables with their
//! settlements (baixas) and reversals (estornos).
//!
//! Its registers are declared for the resource engine (the gRPC surface is the
//! generic `ResourceService`, the settlement calls are declared calls of the title
//! registers); its consumers run beside it (`serve`).
//!
//! Decisions:
//! - Money is `Decimal`, two places, rounded half away from zero. An instalment
//!   split gives the remainder cents to the **first** instalment (`instalments`).
//! - A title's balance and status are derived by the database from its values and
//!   what its settlements took, so they cannot disagree; the database also refuses
//!   a title paid beyond its value.
//! - A settlement locks its titles, writes its rows and the bank movement in one
//!   transaction: concurrent settlements of one title never take more than its
//!   balance (the second waits, sees what is left and is refused in pt-BR). A bank
//!   account's balance is its initial balance plus the sum of its movements, moved
//!   under the account's lock by every movement write (`bank`).
//! - Titles come from other services' facts exactly once (inbox, and one
//!   `documentos` row per origin document): invoiced orders make receivables,
//!   finalized purchases payables, cancelled purchases cancel their open payables
//!   (refused for good when one was paid). `PedidoFaturado` carries no payment
//!   condition yet: the company's default condition of the financial parameters
//!   decides, else one instalment of the total due on the issue date.
//! - Late charges (interest per day and a fine, after the grace days) are computed
//!   on the settlement date for the part settled, from the financial parameters,
//!   and can be overridden per settlement (`charges`).
//!
//! Layout:
//! - `instalments`: splitting a total into instalments by a payment condition or a
//!   due-date condition (pure).
//! - `charges`: late interest and fine of a settlement (pure).
//! - `bank`: bank movements and account balances (the one write path).
//! - `collection`: boleto barcodes and linha digitável, PIX BR Codes, CNAB 240/400
//!   remittance and return files, OFX statements (pure; the banking issue serves
//!   them).
//! - `titles`: titles over the database: parameters, titles made from documents,
//!   settlement, reversal, cancellation of a document's titles.
//! - `events`: the consumers of orders' facts (invoiced orders, finalized and
//!   cancelled purchases).
//! - `resources`: register descriptors, one module per group of registers:
//!   - `banking`: bank accounts and the upload of their certificate and key;
//!   - `terms`: card acquirers, payment methods, payment and due-date conditions;
//!   - `costs`: cost-centre groups, cost centres (with their structure) and
//!     histories;
//!   - `movements`: the financial parameters and bank movements;
//!   - `titles`: receivables, payables and the payables settlement screen's
//!     register;
//!   - `settlement`: the title registers' declared calls (settle, reverse, check,
//!     preview, lists).

pub mod bank;
pub mod charges;
pub mod collection;
pub mod events;
pub mod instalments;
pub mod resources;
pub mod titles;

use std::str::FromStr;
use std::sync::Arc;

use erp_platform::service::ServiceCtx;
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::Value;
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "finance";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

/// Serves the registers and their calls, with the relay, the consumers and jobs.
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

/// Money in an answer as a JSON number, exact (as the engine answers decimals).
pub(crate) fn num(d: Decimal) -> Value {
    serde_json::Number::from_str(&d.normalize().to_string())
        .map(Value::Number)
        .unwrap_or(Value::Null)
}
