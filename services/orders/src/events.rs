//! Facts orders publishes (through its outbox) and the consumers it runs.
//!
//! Publishes (messages in proto/orders/v1/events.proto):
//! - `erp.orders.pedido.faturado` (`PedidoFaturado`): an order was invoiced.
//! - `erp.orders.ordemservico.estoquebaixado` (`OrdemServicoBaixada`): a service
//!   order's parts left stock.
//! - `erp.orders.orcamento.requisicao` (`RequisicaoSolicitada`): a quote asked for a
//!   stock requisition.
//!
//! Consumes catalog's `RecordChanged` of customers, products and services and keeps
//! the copies the documents need (`copies`).

use std::sync::Arc;

use erp_platform::service::ConsumerDef;

pub const PEDIDO_FATURADO: &str = "erp.orders.pedido.faturado";
pub const OS_ESTOQUE_BAIXADO: &str = "erp.orders.ordemservico.estoquebaixado";
pub const REQUISICAO_SOLICITADA: &str = "erp.orders.orcamento.requisicao";

pub fn consumers() -> Vec<ConsumerDef> {
    vec![
        ConsumerDef {
            durable: "orders-clientes",
            filter: "erp.catalog.cliente.>",
            effect: Arc::new(crate::copies::Customers),
        },
        ConsumerDef {
            durable: "orders-produtos",
            filter: "erp.catalog.produto.>",
            effect: Arc::new(crate::copies::Products),
        },
        ConsumerDef {
            durable: "orders-servicos",
            filter: "erp.catalog.servico.>",
            effect: Arc::new(crate::copies::Services),
        },
    ]
}
