//! `orders.v1.OrdersService`: the typed transitions of orders' documents. Thin:
//! read the request, run the domain function in one tenant transaction, map the
//! answer. Invoicing asks finance for the customer's credit between locking the
//! order and writing it (`credit`), so the order cannot change meanwhile.

use std::sync::Arc;

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::document::copy;
use erp_platform::resource::Registry;
use erp_platform::service::Peers;
use erp_platform::Error;
use erp_proto::orders::v1::orders_service_server::{OrdersService, OrdersServiceServer};
use erp_proto::orders::v1::{
    ConvertQuoteRequest, DocumentKind, DocumentReply, DuplicateRequest, InvoiceReply,
    InvoiceRequest, OrderKey, QuoteTarget,
};
use serde_json::Map;
use tonic::{Request, Response, Status};

use crate::resources::billing;
use crate::resources::conversions::{self, Target};

#[derive(Clone)]
pub struct OrdersGrpc {
    db: Db,
    registry: Arc<Registry>,
    peers: Peers,
}

impl OrdersGrpc {
    /// `peers`: where finance (the customer's credit) and identity (the grant to
    /// release it) are reached.
    pub fn new(db: Db, registry: Arc<Registry>, peers: Peers) -> Self {
        OrdersGrpc { db, registry, peers }
    }

    pub fn server(self) -> OrdersServiceServer<Self> {
        OrdersServiceServer::new(self)
    }
}

fn reply(resource: &str, row: &serde_json::Value) -> Result<Response<DocumentReply>, Status> {
    Ok(Response::new(DocumentReply {
        resource: resource.into(),
        row_json: serde_json::to_vec(row).map_err(Error::from)?,
    }))
}

#[tonic::async_trait]
impl OrdersService for OrdersGrpc {
    async fn invoice_order(
        &self,
        req: Request<OrderKey>,
    ) -> Result<Response<InvoiceReply>, Status> {
        self.invoice(req.map(|key| InvoiceRequest { key: Some(key), release_credit: false }))
            .await
    }

    async fn invoice(
        &self,
        req: Request<InvoiceRequest>,
    ) -> Result<Response<InvoiceReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let k = r
            .key
            .ok_or_else(|| Error::validation("Pedido não informado."))?;
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let order = billing::open_order(&mut tx, &caller, k.emp, k.id, &k.serie).await?;
        let release = crate::credit::check(
            &mut tx,
            &self.peers,
            &caller,
            k.emp,
            order.customer(),
            order.total(),
            r.release_credit,
        )
        .await?;
        let out = billing::invoice_open(&mut tx, &caller, order, release.as_ref()).await?;
        tx.commit().await.map_err(Error::from)?;
        Ok(Response::new(out))
    }

    async fn duplicate(
        &self,
        req: Request<DuplicateRequest>,
    ) -> Result<Response<DocumentReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let (name, key) = match DocumentKind::try_from(r.kind) {
            Ok(DocumentKind::Quote) => ("orcamento", vec![r.id.to_string()]),
            Ok(DocumentKind::BillingOrder) => ("pedido", vec![r.id.to_string(), r.serie.clone()]),
            _ => return Err(Error::validation("Tipo de documento inválido.").into()),
        };
        let header = self
            .registry
            .get(name)
            .cloned()
            .ok_or_else(|| Error::internal(format!("register {name} missing")))?;
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let row = copy::duplicate(&mut tx, &header, &caller, Some(r.emp), &key, Map::new()).await?;
        tx.commit().await.map_err(Error::from)?;
        reply(name, &row)
    }

    async fn convert_quote(
        &self,
        req: Request<ConvertQuoteRequest>,
    ) -> Result<Response<DocumentReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        let target = match QuoteTarget::try_from(r.target) {
            Ok(QuoteTarget::BillingOrder) => {
                let need = |v: &str, what: &str| {
                    let v = v.trim();
                    if v.is_empty() {
                        Err(Error::validation(format!(
                            "Parâmetro {what} não informado."
                        )))
                    } else {
                        Ok(v.to_string())
                    }
                };
                Target::Order {
                    serie: need(&r.serie, "serie")?,
                    model: need(&r.model, "model")?,
                    operation: need(&r.operation, "type")?,
                }
            }
            Ok(QuoteTarget::ServiceOrder) => Target::ServiceOrder,
            Ok(QuoteTarget::Requisition) => Target::Requisition,
            _ => return Err(Error::validation("Conversão de orçamento inválida.").into()),
        };
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let (name, row) =
            conversions::convert(&mut tx, &self.registry, &caller, r.emp, r.id, target).await?;
        tx.commit().await.map_err(Error::from)?;
        reply(&name, &row)
    }
}
