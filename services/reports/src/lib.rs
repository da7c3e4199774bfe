//! Reports service: a read model fed by the facts the other services publish —
//! never reading their schemas — and the reports and dashboard over it.
//!
//! The read model (schema `reports`): copies of catalog's products, services,
//! groups, subgroups, customers and sellers, of finance's payment methods and of
//! identity's companies and users (`copies`, from their `RecordChanged` facts), and the sales
//! of invoiced orders (`facts`: `erp.orders.pedido.faturado` with its sale lines)
//! with a daily rollup per item and customer written in the same transaction.
//! Every report reads the rollup or the order headers, not the lines.
//!
//! Rebuilding (`erp reports-rebuild`, `rebuild`): empties the read model and its
//! inbox and deletes the service's durable consumers, so that when the service
//! starts again they are created anew and replay the stream from its oldest
//! retained fact (the `ERP` stream keeps 7 days) — for a new deployment, or
//! after a change of the model.
//!
//! Layout:
//! - `copies`: the table-driven copies of other services' registers.
//! - `facts`: the sales facts (header, lines, rollup), once per order.
//! - `engine`: reports declared once (filters, columns, grouping, orientation,
//!   query) answering JSON, PDF and XLSX, their definitions for the web client,
//!   and the ABC classification.
//! - `sales`: the sales reports (per order, per product, per service, the ABC
//!   curves of products, customers, groups and representatives with their
//!   monthly curve, the commission of the representatives).
//! - `dashboard`: the dashboard's sales indicators.
//! - `resources`: the `vendas` register that carries the calls.
//! - `rebuild`: the rebuild of the read model.

pub mod copies;
pub mod dashboard;
pub mod engine;
pub mod facts;
pub mod rebuild;
pub mod resources;
pub mod sales;

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
    sales::reports()
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
    let tasks =
        erp_platform::service::start_background(&ctx, SCHEMA, consumers(), Vec::new()).await?;
    let routes = tonic::service::Routes::new(
        erp_platform::resource::grpc::ResourceGrpc::new(ctx.db.clone(), registry).server(),
    );
    let result = erp_platform::service::serve_grpc(listener, routes).await;
    for t in tasks {
        t.abort();
    }
    result
}
