//! `erp-proto`: the messages and gRPC stubs every role shares.
//!
//! Layout:
//! - `erp::v1`: the generic register service (rows travel as JSON with the legacy
//!   column names) and the event envelope.
//! - `identity::v1`: typed identity operations (login, principal, menu) and its facts.
//! - `orders::v1`: the facts of orders' documents (their transitions are typed
//!   calls declared on the documents' registers); `stock::v1`: the facts of the
//!   stock ledger.
//! - `finance::v1`: what other services ask finance (`FinanceService`: credit) and
//!   its facts (`TituloSituacao`).
//! - `fiscal::v1`: the facts of the NF-e of billing orders (`NfeAutorizada`,
//!   `NfeCancelada`).
//! - `messaging::v1`: the providers' webhooks the gateway hands the messaging
//!   service (`MessagingService`).
//! - `subjects`: the subject of every fact, for publishers and consumers alike.

pub mod erp {
    pub mod v1 {
        tonic::include_proto!("erp.v1");
    }
}

pub mod identity {
    pub mod v1 {
        tonic::include_proto!("identity.v1");
    }
}

pub mod orders {
    pub mod v1 {
        tonic::include_proto!("orders.v1");
    }
}

pub mod finance {
    pub mod v1 {
        tonic::include_proto!("finance.v1");
    }
}

pub mod fiscal {
    pub mod v1 {
        tonic::include_proto!("fiscal.v1");
    }
}

pub mod messaging {
    pub mod v1 {
        tonic::include_proto!("messaging.v1");
    }
}

pub mod stock {
    pub mod v1 {
        tonic::include_proto!("stock.v1");
    }
}

/// The subjects of the facts services publish (`erp.<service>.<entity>.<verb>`),
/// named once for publisher and consumers.
pub mod subjects {
    /// `orders::v1::PedidoFaturado`: a billing order was invoiced.
    pub const PEDIDO_FATURADO: &str = "erp.orders.pedido.faturado";
    /// `orders::v1::OrdemServicoBaixada`: a service order's parts left stock.
    pub const OS_ESTOQUE_BAIXADO: &str = "erp.orders.ordemservico.estoquebaixado";
    /// `orders::v1::OrdemServicoFinalizada`: a service order was finished.
    pub const OS_FINALIZADA: &str = "erp.orders.ordemservico.finalizada";
    /// `orders::v1::CondicionalSituacao`: a conditional sale's whole state after a
    /// change.
    pub const CONDICIONAL_SITUACAO: &str = "erp.orders.condicional.situacao";
    /// `orders::v1::RequisicaoSolicitada`: a quote asked stock for a requisition.
    pub const ORCAMENTO_REQUISICAO: &str = "erp.orders.orcamento.requisicao";
    /// `orders::v1::CompraFinalizada`: a purchase was finalized (stock entries at
    /// landed cost, payables).
    pub const COMPRA_FINALIZADA: &str = "erp.orders.compra.finalizada";
    /// `orders::v1::CompraCancelada`: a finalized purchase was cancelled.
    pub const COMPRA_CANCELADA: &str = "erp.orders.compra.cancelada";
    /// `stock::v1::MovimentoRegistrado`: one movement of the stock ledger.
    pub const MOVIMENTO_REGISTRADO: &str = "erp.stock.movimento.registrado";
    /// `erp::v1::RecordChanged` of catalog's customers, products and services.
    pub const CATALOG_CLIENTES: &str = "erp.catalog.cliente.>";
    pub const CATALOG_PRODUTOS: &str = "erp.catalog.produto.>";
    pub const CATALOG_SERVICOS: &str = "erp.catalog.servico.>";
    /// A product's size/colour grid (its variants, PRGR_*) and the sizes and
    /// colours it names (orders keeps copies for the sales grid and sale lines).
    pub const CATALOG_GRADES: &str = "erp.catalog.produtograde.>";
    pub const CATALOG_TAMANHOS: &str = "erp.catalog.tamanho.>";
    pub const CATALOG_CORES: &str = "erp.catalog.cor.>";
    /// Product groups and subgroups, collaborators (the sellers of customers).
    pub const CATALOG_GRUPOS: &str = "erp.catalog.grupo.>";
    pub const CATALOG_SUBGRUPOS: &str = "erp.catalog.subgrupo.>";
    pub const CATALOG_COLABORADORES: &str = "erp.catalog.colaborador.>";
    /// Vehicles and service sectors (the service orders' reports).
    pub const CATALOG_VEICULOS: &str = "erp.catalog.veiculo.>";
    pub const CATALOG_SETORES: &str = "erp.catalog.setorservico.>";
    /// Finance's payment methods.
    pub const FINANCE_FORMAS: &str = "erp.finance.formapagamento.>";
    /// `erp::v1::RecordChanged` of catalog's suppliers and identity's companies
    /// (orders keeps copies for purchases).
    pub const CATALOG_FORNECEDORES: &str = "erp.catalog.fornecedor.>";
    pub const IDENTITY_EMPRESAS: &str = "erp.identity.empresa.>";
    /// Identity's users (the name printed on reports).
    pub const IDENTITY_USUARIOS: &str = "erp.identity.usuario.>";
    /// `finance::v1::TituloSituacao`: a title's settlement changed (settled in part
    /// or in full, offset, or reversed).
    pub const TITULO_SITUACAO: &str = "erp.finance.titulo.situacao";
    /// `fiscal::v1::NfeAutorizada`: the NF-e of a billing order was authorised.
    pub const NFE_AUTORIZADA: &str = "erp.fiscal.nfe.autorizada";
    /// `fiscal::v1::NfeCancelada`: the NF-e of a billing order was cancelled.
    pub const NFE_CANCELADA: &str = "erp.fiscal.nfe.cancelada";
    /// `fiscal::v1::NfeRejeitada`: the SEFAZ rejected or denied the NF-e of a
    /// billing order.
    pub const NFE_REJEITADA: &str = "erp.fiscal.nfe.rejeitada";
    /// `finance::v1::BoletoSituacao`: a bank slip was generated, paid or written off.
    pub const BOLETO_SITUACAO: &str = "erp.finance.boleto.situacao";
    /// `finance::v1::MovimentoBancario`: a bank movement was written, changed or
    /// removed.
    pub const MOVIMENTO_BANCARIO: &str = "erp.finance.movimentobancario.registrado";
    /// `erp::v1::RecordChanged` of finance's bank accounts, cost centres and their
    /// groups.
    pub const FINANCE_BANCOS: &str = "erp.finance.banco.>";
    pub const FINANCE_CENTROS: &str = "erp.finance.centrocusto.>";
    pub const FINANCE_GRUPOS_CENTRO: &str = "erp.finance.grupocentrocusto.>";
    /// `erp::v1::DashboardChanged`: facts the reports service applied moved these
    /// dashboard figures of a company (the gateway pushes it to the open screens).
    pub const PAINEL_ALTERADO: &str = "erp.reports.painel.alterado";
    /// `messaging::v1::QueueChanged`: messages of a company's queue changed
    /// status (the gateway pushes it to the open Mensagens screens).
    pub const FILA_ALTERADA: &str = "erp.messaging.fila.alterada";
    /// `erp::v1::Notification`: a notification for a user, the users of a
    /// company or everyone (the gateway pushes it to their bells).
    pub const NOTIFICACAO_CRIADA: &str = "erp.messaging.notificacao.criada";
}
