//! Reports service: a read model fed by the facts the other services publish —
//! never reading their schemas — and the reports and dashboard over it.
//!
//! The read model (schema `reports`): copies of catalog's products, services,
//! vehicles, service sectors, groups, subgroups, customers, sellers and
//! suppliers, of finance's payment methods, bank accounts, cost centres and
//! their groups and of identity's companies and users (`copies`, from their `RecordChanged` facts); the sales of
//! invoiced orders with rollups per month and item, per day and item, per day,
//! item and customer and per day and payment method; finance's titles,
//! settlements and bank movements; finalized and cancelled purchases; the stock
//! ledger's movements with a daily rollup and each product's latest balance;
//! finished service orders with their lines; the NF-e of invoiced orders;
//! conditional sales as they stand (`facts`). Each fact is applied once per
//! event id (the inbox) and written so that applying it again changes nothing.
//!
//! Rebuilding (`erp reports-rebuild`, `rebuild`): empties the read model and its
//! inbox and deletes the service's durable consumers, so that when the service
//! starts again they are created anew and replay the stream from its oldest
//! retained fact (the `ERP` stream keeps 7 days) — for a new deployment, or
//! after a change of the model.
//!
//! Layout:
//! - `copies`: the table-driven copies of other services' registers.
//! - `facts`: the facts kept (`sales`, `finance`, `stock`, `purchases`,
//!   `service_orders`, `fiscal`, `conditional`).
//! - `engine`: reports declared once (filters, columns, grouping, orientation,
//!   query) answering JSON, PDF and XLSX, their definitions for the web client,
//!   and the ABC classification.
//! - `rows`: query rows as report rows by their PostgreSQL types, running
//!   balances.
//! - `rollup`: where the sales reports read (the item rollups per month and
//!   day, or per day and customer) with their joins and filters.
//! - `sales`: the sales reports (per order, per product, per service, the ABC
//!   curves of products, customers, groups and representatives with their
//!   monthly curve, the commission of the representatives).
//! - `finance`: receivables, payables, receipts, bank movements.
//! - `purchases`: purchases, the suppliers' ledger, suppliers.
//! - `registers`: customers and products with their period's figures.
//! - `stock`: stock movements and the estimate of days of cover.
//! - `billing`: the sales by document series, the accountant's billing (each
//!   invoiced order with its NF-e), the sales by payment method and the goods
//!   out on open conditional sales.
//! - `service_orders`: the finished service orders, their services by sector
//!   and the vehicles' history.
//! - `dashboard`: the dashboard's sales and finance indicators; `live`: the
//!   `DashboardChanged` the facts that move them leave in the outbox.
//! - `resources`: the `vendas` register that carries the calls.
//! - `rebuild`: the rebuild of the read model.

pub mod billing;
pub mod business_metrics;
pub mod copies;
pub mod dashboard;
pub mod engine;
pub mod facts;
pub mod finance;
pub mod live;
pub mod numeric;
pub mod purchases;
pub mod rebuild;
pub mod registers;
pub mod resources;
pub mod rollup;
pub mod rows;
pub mod sales;
pub mod service_orders;
pub mod stock;

use std::sync::Arc;

use erp_platform::service::{ConsumerDef, ServiceCtx};
use erp_platform::transport::Listener;
use erp_platform::{Error, Result};
use erp_proto::subjects;
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "reports";
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// Every report the service answers.
pub fn reports() -> Vec<engine::Report> {
    let mut all = sales::reports();
    all.extend(finance::reports());
    all.extend(purchases::reports());
    all.extend(registers::reports());
    all.extend(stock::reports());
    all.extend(service_orders::reports());
    all.extend(billing::reports());
    all
}

pub async fn migrate(cfg: &erp_platform::config::Config) -> Result<()> {
    erp_platform::db::migrate(cfg, SCHEMA, &MIGRATOR).await
}

/// The consumers of the read model.
pub fn consumers() -> Vec<ConsumerDef> {
    vec![
        ConsumerDef {
            durable: "reports-pedido-faturado",
            filter: subjects::PEDIDO_FATURADO,
            effect: Arc::new(facts::InvoicedOrder),
        },
        ConsumerDef {
            durable: "reports-titulos",
            filter: subjects::TITULO_SITUACAO,
            effect: Arc::new(facts::finance::TitleStanding),
        },
        ConsumerDef {
            durable: "reports-movbancario",
            filter: subjects::MOVIMENTO_BANCARIO,
            effect: Arc::new(facts::finance::BankMovement),
        },
        ConsumerDef {
            durable: "reports-estoque",
            filter: subjects::MOVIMENTO_REGISTRADO,
            effect: Arc::new(facts::stock::StockMovement),
        },
        ConsumerDef {
            durable: "reports-compra-finalizada",
            filter: subjects::COMPRA_FINALIZADA,
            effect: Arc::new(facts::purchases::FinalizedPurchase),
        },
        ConsumerDef {
            durable: "reports-compra-cancelada",
            filter: subjects::COMPRA_CANCELADA,
            effect: Arc::new(facts::purchases::CancelledPurchase),
        },
        ConsumerDef {
            durable: "reports-ordemservico-finalizada",
            filter: subjects::OS_FINALIZADA,
            effect: Arc::new(facts::service_orders::FinishedServiceOrder),
        },
        ConsumerDef {
            durable: "reports-condicional",
            filter: subjects::CONDICIONAL_SITUACAO,
            effect: Arc::new(facts::conditional::ConditionalState),
        },
        ConsumerDef {
            durable: "reports-nfe-autorizada",
            filter: subjects::NFE_AUTORIZADA,
            effect: Arc::new(facts::fiscal::NfeIssued),
        },
        ConsumerDef {
            durable: "reports-nfe-cancelada",
            filter: subjects::NFE_CANCELADA,
            effect: Arc::new(facts::fiscal::NfeVoided),
        },
        ConsumerDef {
            durable: "reports-nfe-rejeitada",
            filter: subjects::NFE_REJEITADA,
            effect: Arc::new(facts::fiscal::NfeRefused),
        },
        ConsumerDef {
            durable: "reports-boletos",
            filter: subjects::BOLETO_SITUACAO,
            effect: Arc::new(facts::finance::SlipState),
        },
        ConsumerDef {
            durable: "reports-veiculos",
            filter: subjects::CATALOG_VEICULOS,
            effect: Arc::new(copies::VEICULOS),
        },
        ConsumerDef {
            durable: "reports-setores",
            filter: subjects::CATALOG_SETORES,
            effect: Arc::new(copies::SETORES),
        },
        ConsumerDef {
            durable: "reports-fornecedores",
            filter: subjects::CATALOG_FORNECEDORES,
            effect: Arc::new(copies::FORNECEDORES),
        },
        ConsumerDef {
            durable: "reports-bancos",
            filter: subjects::FINANCE_BANCOS,
            effect: Arc::new(copies::BANCOS),
        },
        ConsumerDef {
            durable: "reports-centroscusto",
            filter: subjects::FINANCE_CENTROS,
            effect: Arc::new(copies::CENTROS),
        },
        ConsumerDef {
            durable: "reports-gruposcentrocusto",
            filter: subjects::FINANCE_GRUPOS_CENTRO,
            effect: Arc::new(copies::GRUPOS_CENTRO),
        },
        ConsumerDef {
            durable: "reports-produtos",
            filter: subjects::CATALOG_PRODUTOS,
            effect: Arc::new(copies::PRODUTOS),
        },
        ConsumerDef {
            durable: "reports-servicos",
            filter: subjects::CATALOG_SERVICOS,
            effect: Arc::new(copies::SERVICOS),
        },
        ConsumerDef {
            durable: "reports-grupos",
            filter: subjects::CATALOG_GRUPOS,
            effect: Arc::new(copies::GRUPOS),
        },
        ConsumerDef {
            durable: "reports-subgrupos",
            filter: subjects::CATALOG_SUBGRUPOS,
            effect: Arc::new(copies::SUBGRUPOS),
        },
        ConsumerDef {
            durable: "reports-clientes",
            filter: subjects::CATALOG_CLIENTES,
            effect: Arc::new(copies::CLIENTES),
        },
        ConsumerDef {
            durable: "reports-colaboradores",
            filter: subjects::CATALOG_COLABORADORES,
            effect: Arc::new(copies::COLABORADORES),
        },
        ConsumerDef {
            durable: "reports-formas",
            filter: subjects::FINANCE_FORMAS,
            effect: Arc::new(copies::FORMAS),
        },
        ConsumerDef {
            durable: "reports-usuarios",
            filter: subjects::IDENTITY_USUARIOS,
            effect: Arc::new(copies::USUARIOS),
        },
        ConsumerDef {
            durable: "reports-empresas",
            filter: subjects::IDENTITY_EMPRESAS,
            effect: Arc::new(copies::EMPRESAS),
        },
    ]
}

/// Serves the reports' register and its calls, with the relay and the consumers.
pub async fn serve(ctx: ServiceCtx, listener: Listener) -> Result<()> {
    let registry = Arc::new(resources::registry_in(&ctx.cfg.data_dir).map_err(Error::internal)?);
    let background =
        erp_platform::service::start_background(&ctx, SCHEMA, consumers(), Vec::new()).await?;
    let routes = tonic::service::Routes::new(
        erp_platform::resource::grpc::ResourceGrpc::new(ctx.db.clone(), registry).server(),
    );
    erp_platform::service::serve_then_stop(&ctx, listener, routes, background).await
}
