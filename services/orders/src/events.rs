//! Facts orders publishes (through its outbox) and the consumers it runs.
//!
//! Publishes (messages in proto/orders/v1/events.proto):
//! - `erp.orders.pedido.faturado` (`PedidoFaturado`): an order was invoiced (each
//!   product line's stock line names its grid variant, when it has one).
//! - `erp.orders.ordemservico.estoquebaixado` (`OrdemServicoBaixada`): a service
//!   order's parts left stock.
//! - `erp.orders.ordemservico.finalizada` (`OrdemServicoFinalizada`): a service
//!   order was finished, with its totals and lines (the reports' facts).
//! - `erp.orders.condicional.situacao` (`CondicionalSituacao`): a conditional
//!   sale's whole state after any change (the reports' open-goods report).
//! - `erp.orders.orcamento.requisicao` (`RequisicaoSolicitada`): a quote asked for a
//!   stock requisition.
//! - `erp.orders.compra.finalizada` (`CompraFinalizada`): a purchase was finalized:
//!   its items at landed cost in the stock unit (with their grid's quantities per
//!   catalog variant), its instalments and its apportionment to stock locations
//!   and cost centres.
//! - `erp.orders.compra.cancelada` (`CompraCancelada`): a finalized purchase was
//!   cancelled (the same items, for stock to reverse).
//!
//! Consumes catalog's `RecordChanged` of customers, products, services, suppliers,
//! the products' size/colour grid and the sizes and colours, and identity's of
//! companies, and keeps the copies the documents need (`copies`);
//! finance's `TituloSituacao` of the payables of purchases, which settle (or reopen)
//! their instalments (`payables`); fiscal's `NfeAutorizada` and `NfeCancelada`,
//! which set or clear the access key of a billing order's NF-e (`nfe`).

use std::sync::Arc;

use erp_platform::service::ConsumerDef;

use erp_proto::subjects;

pub fn consumers() -> Vec<ConsumerDef> {
    vec![
        ConsumerDef {
            durable: "orders-clientes",
            filter: subjects::CATALOG_CLIENTES,
            effect: Arc::new(crate::copies::Customers),
        },
        ConsumerDef {
            durable: "orders-produtos",
            filter: subjects::CATALOG_PRODUTOS,
            effect: Arc::new(crate::copies::Products),
        },
        ConsumerDef {
            durable: "orders-servicos",
            filter: subjects::CATALOG_SERVICOS,
            effect: Arc::new(crate::copies::Services),
        },
        ConsumerDef {
            durable: "orders-fornecedores",
            filter: subjects::CATALOG_FORNECEDORES,
            effect: Arc::new(erp_platform::bus::copies::SupplierCopy { schema: crate::SCHEMA }),
        },
        ConsumerDef {
            durable: "orders-produtosgrade",
            filter: subjects::CATALOG_GRADES,
            effect: Arc::new(crate::copies::GRID),
        },
        ConsumerDef {
            durable: "orders-tamanhos",
            filter: subjects::CATALOG_TAMANHOS,
            effect: Arc::new(crate::copies::SIZES),
        },
        ConsumerDef {
            durable: "orders-cores",
            filter: subjects::CATALOG_CORES,
            effect: Arc::new(crate::copies::COLOURS),
        },
        ConsumerDef {
            durable: "orders-empresas",
            filter: subjects::IDENTITY_EMPRESAS,
            effect: Arc::new(crate::copies::Companies),
        },
        ConsumerDef {
            durable: "orders-titulos-compra",
            filter: subjects::TITULO_SITUACAO,
            effect: Arc::new(crate::payables::PurchasePayables),
        },
        ConsumerDef {
            durable: "orders-nfe-autorizada",
            filter: subjects::NFE_AUTORIZADA,
            effect: Arc::new(crate::nfe::NfeAuthorised),
        },
        ConsumerDef {
            durable: "orders-nfe-cancelada",
            filter: subjects::NFE_CANCELADA,
            effect: Arc::new(crate::nfe::NfeCancelled),
        },
    ]
}
