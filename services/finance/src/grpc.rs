//! `finance.v1.FinanceService`: what other services ask finance. Thin: read the
//! request, answer from one tenant transaction (the caller's client, from the gRPC
//! metadata, so another tenant's rows are never seen).

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::Error;
use erp_proto::finance::v1::finance_service_server::{FinanceService, FinanceServiceServer};
use erp_proto::finance::v1::{CreditReply, CreditRequest};
use rust_decimal::Decimal;
use tonic::{Request, Response, Status};

#[derive(Clone)]
pub struct FinanceGrpc {
    db: Db,
}

impl FinanceGrpc {
    pub fn new(db: Db) -> Self {
        FinanceGrpc { db }
    }

    pub fn server(self) -> FinanceServiceServer<Self> {
        FinanceServiceServer::new(self)
    }
}

/// Money as the messages carry it: a decimal string with 2 places.
fn money(d: Decimal) -> String {
    format!("{:.2}", crate::charges::money(d))
}

#[tonic::async_trait]
impl FinanceService for FinanceGrpc {
    /// The customer's credit in the company (see `credit`): without a limit,
    /// `has_limit` is false and limit and available are "0.00".
    async fn credit_position(
        &self,
        req: Request<CreditRequest>,
    ) -> Result<Response<CreditReply>, Status> {
        let caller = Caller::of(&req)?;
        let r = req.into_inner();
        if r.emp <= 0 || r.customer_id <= 0 {
            return Err(Error::validation("Informe a empresa e o cliente.").into());
        }
        let mut tx = self.db.begin_tenant(caller.client_id).await?;
        let p = crate::credit::position(&mut tx, caller.client_id, r.emp, r.customer_id).await?;
        tx.commit().await.map_err(Error::from)?;
        Ok(Response::new(CreditReply {
            has_limit: p.has_limit(),
            limit: money(if p.has_limit() {
                p.limit_or_zero()
            } else {
                Decimal::ZERO
            }),
            open: money(p.open),
            available: money(p.available()),
        }))
    }
}
