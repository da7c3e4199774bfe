//! Finance service: bank accounts and their movements, payment conditions and
//! methods, due-date conditions, card acquirers, cost centres and histories, the
//! financial parameters of each company, and receivables and payables with their
//! settlements (baixas) and reversals (estornos).
//!
//! Its registers are declared for the resource engine (the generic
//! `ResourceService`; the settlement calls are declared calls of the title
//! registers); other services ask it over `finance.v1.FinanceService` (a
//! customer's credit, `grpc`); its consumers run beside them (`serve`).
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
//!   (refused for good when one was paid). An invoiced order's payment condition
//!   decides its instalments; without one, the company's default condition of the
//!   financial parameters, else one instalment of the total due on the issue date.
//! - Every title made, changed, cancelled or removed and every change of its
//!   settlement (a settlement, an offset, a reversal) writes
//!   `erp.finance.titulo.situacao` (`TituloSituacao`, the title's whole standing
//!   and the settlement) through the outbox in its transaction, so orders learns
//!   which instalments were paid and the reports keep receivables and payables;
//!   every bank movement written, changed or removed writes
//!   `erp.finance.movimentobancario.registrado` (`facts`).
//! - Credit is per company (customers are registered per company): the limit of
//!   finance's copy of the customer against its open receivables, kept per
//!   customer by a trigger on the receivables (`credit`).
//! - Advances to suppliers are payables flagged `tit_adiantamento`; what they paid
//!   settles the supplier's other payables without moving money again (`titles`).
//! - Receipts (of a settlement, or free-form) and bank slips are PDFs drawn by
//!   `erp-print` (`receipts`, `slips::print`).
//! - A 'nosso número' is taken from the account's sequence under the account's
//!   row lock and never reused; a return file's occurrences are claimed once per
//!   (account, nosso número, code, date), so reprocessing settles nothing twice;
//!   a statement line is imported once per (account, FITID).
//! - Late charges (interest per day and a fine, after the grace days) are computed
//!   on the settlement date for the part settled, from the financial parameters,
//!   and can be overridden per settlement (`charges`).
//!
//! Layout:
//! - `instalments`: splitting a total into instalments by a payment condition or a
//!   due-date condition (pure).
//! - `charges`: late interest and fine of a settlement (pure).
//! - `bank`: bank movements and account balances (the one write path), transfers
//!   between accounts and balances over a period.
//! - `collection`: boleto barcodes and linha digitável, PIX BR Codes, CNAB 240/400
//!   remittance and return files (layouts as field tables), OFX statements (pure).
//! - `slips`: bank slips over the database — generation under the account's
//!   'nosso número' sequence, payment and write-off, changes (`slips`), the
//!   account's collection settings (`slips::account`), remittance and return
//!   files (`slips::files`) and the slip PDF (`slips::print`).
//! - `reconciliation`: OFX statement lines, matching suggestions, confirmed
//!   matches, lines turned into movements, the statement's balance against the
//!   system's.
//! - `daily`: the day's cash by payment method, closing and reopening a day (a
//!   closed day refuses movements).
//! - `accounting`: the Domínio export of invoices and settlements (the layout
//!   decision is in its doc).
//! - `titles`: titles over the database: parameters, titles made from documents,
//!   settlement, reversal, offsets against advances, cancellation of a document's
//!   titles, and the facts of settlement changes.
//! - `credit`: customers' credit positions and the re-derivation of their open
//!   balances.
//! - `copies`: finance's copies of catalog's customers and suppliers and of
//!   identity's companies (consumers and reads).
//! - `receipts`: the receipt PDFs (a settlement's, free-form ones).
//! - `facts`: the facts of titles and bank movements, read back from the
//!   database in the transaction of the change.
//! - `events`: the consumers of orders' facts (invoiced orders, finalized and
//!   cancelled purchases) and of the copied registers.
//! - `grpc`: `finance.v1.FinanceService` (credit position).
//! - `resources`: register descriptors, one module per group of registers, with
//!   their typed calls and hooks (`items`: body lists of ids or objects;
//!   `title_names`: the title registers' legacy names):
//!   - `banking`: bank accounts and the upload of their certificate and key;
//!   - `terms`: card acquirers, payment methods, payment and due-date conditions;
//!   - `costs`: cost-centre groups, cost centres (with their structure) and
//!     histories;
//!   - `movements`: the financial parameters and bank movements;
//!   - `titles`: receivables, payables and the payables settlement screen's
//!     register;
//!   - `settlement`: the title registers' declared calls (settle, reverse, check,
//!     preview, lists, advances and their offset);
//!   - `credit`: the customers' credit register and its calls
//!     (`/clientes/limitecredito`, `/clientes/alinhacontasreceber`);
//!   - `receipts`: the free-form receipts register (`/reciboavulso`) and the
//!     settlement receipt call;
//!   - `collection`: the bank slips register (`boletos`) and its calls (generate,
//!     PDF, settle or write off, check, change, remittance, return);
//!   - `reconciliation`: bank reconciliation (`conciliacaobancaria`: OFX import,
//!     suggestions, match, undo, post, balance) and daily movement (`movdiario`);
//!   - `accounting`: the Domínio export's configuration (`integracaodominio`) and
//!     its files.

pub mod accounting;
pub mod bank;
pub mod charges;
pub mod collection;
pub mod copies;
pub mod credit;
pub mod daily;
pub mod events;
pub mod facts;
pub mod grpc;
pub mod instalments;
pub mod receipts;
pub mod reconciliation;
pub mod resources;
pub mod slips;
pub mod titles;

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

/// Serves the registers and their calls and `FinanceService`, with the relay, the
/// consumers and jobs.
pub async fn serve(ctx: ServiceCtx, listener: Listener) -> Result<()> {
    let registry = Arc::new(resources::registry_in(&ctx.cfg.data_dir).map_err(Error::internal)?);
    let background =
        erp_platform::service::start_background(&ctx, SCHEMA, events::consumers(), Vec::new())
            .await?;
    let routes = tonic::service::Routes::new(
        erp_platform::resource::grpc::ResourceGrpc::new(ctx.db.clone(), registry).server(),
    )
    .add_service(grpc::FinanceGrpc::new(ctx.db.clone()).server());
    erp_platform::service::serve_then_stop(&ctx, listener, routes, background).await
}
