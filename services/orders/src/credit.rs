//! The customer's credit limit at invoicing.
//!
//! Before a billing order of a customer with a credit limit is invoiced, orders asks
//! finance for the customer's credit position (`finance.v1.FinanceService.
//! CreditPosition`: limit, open receivables, available). One whose open receivables
//! plus this order pass the limit is refused (409) with the limit, what is
//! available and the order's total in reais: 'Limite de crédito excedido: limite
//! R$ 1.000,00, disponível R$ 200,00, pedido R$ 300,00.'
//!
//! Whether the customer has a limit at all is read from orders' copy of catalog's
//! customer (CLI_LIMITE_CREDITO, `copies`): most customers have none (the legacy
//! column holds 0 for them), and their invoices do not wait on finance. Finance's
//! own copy comes from the same catalog events, so neither is fresher: a limit set a
//! moment ago counts once its event arrived, in orders as in finance.
//!
//! When finance cannot answer (not reachable, no answer within 8 s, an answer that
//! is not one) the order is refused with 503 rather than invoiced blindly: a limit
//! is there because someone decided that customer's exposure, and a second attempt
//! is cheap, while an unchecked invoice becomes receivables at once.
//!
//! Either refusal can be overridden by a user with ALTERACAO on Contas a Receber
//! (or a privileged one) who asks for it (`InvoiceRequest.release_credit`); orders
//! asks identity for the grant (`grants`). The release is recorded on the order
//! itself — PEDF_LIBERACAO_USR_ID, PEDF_LIBERACAO_DTA and PEDF_LIBERACAO_OBS (what
//! the limit, the open amount and the order were), read-only fields of the order's
//! screen — and logged (`credit limit released`, warn).
//!
//! Known limit: the open amount is what finance has recorded; an order invoiced a
//! moment ago counts once finance consumed its `erp.orders.pedido.faturado`.

use std::str::FromStr;
use std::time::Duration;

use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::service::Peers;
use erp_platform::{Error, Result};
use erp_proto::finance::v1::finance_service_client::FinanceServiceClient;
use erp_proto::finance::v1::{CreditReply, CreditRequest};
use rust_decimal::Decimal;

use crate::grants;
use crate::money::brl;

/// Within the gateway's 15 s for the whole call, with room for the grant question.
const TIMEOUT: Duration = Duration::from_secs(8);

pub const FINANCE_UNREACHABLE: &str = "Não foi possível consultar o limite de crédito do cliente no financeiro; o pedido não foi faturado. Tente novamente em instantes.";

/// A customer's credit as finance tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub has_limit: bool,
    pub limit: Decimal,
    pub open: Decimal,
    pub available: Decimal,
}

impl Position {
    fn from_reply(r: &CreditReply) -> Result<Position> {
        let dec = |what: &str, s: &str| -> Result<Decimal> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(Decimal::ZERO);
            }
            Decimal::from_str(s).map_err(|_| {
                Error::internal(format!("finance credit {what} is not a decimal: {s}"))
            })
        };
        Ok(Position {
            has_limit: r.has_limit,
            limit: dec("limit", &r.limit)?,
            open: dec("open", &r.open)?,
            available: dec("available", &r.available)?,
        })
    }

    /// Whether invoicing `total` more passes the limit.
    pub fn exceeded_by(&self, total: Decimal) -> bool {
        self.has_limit && self.open + total > self.limit
    }
}

/// The refusal's text: the limit, what is available and the order.
pub fn exceeded_message(p: &Position, total: Decimal) -> String {
    format!(
        "Limite de crédito excedido: limite {}, disponível {}, pedido {}.",
        brl(p.limit),
        brl(p.available),
        brl(total)
    )
}

/// A release of the credit check: who released it and what they saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Release {
    pub user_id: i64,
    pub note: String,
}

/// The customer's position, asked of finance (503 `FINANCE_UNREACHABLE` when it
/// cannot tell).
pub async fn position(peers: &Peers, caller: &Caller, emp: i64, customer: i64) -> Result<Position> {
    let unreachable = || Error::Unavailable(FINANCE_UNREACHABLE.into());
    let channel = peers.channel("finance").map_err(|_| unreachable())?;
    let mut client = FinanceServiceClient::new(channel);
    let mut req = tonic::Request::new(CreditRequest { emp, customer_id: customer });
    req.set_timeout(TIMEOUT);
    caller.attach(&mut req);
    match tokio::time::timeout(TIMEOUT, client.credit_position(req)).await {
        Ok(Ok(reply)) => Position::from_reply(reply.get_ref()).map_err(|e| {
            tracing::error!(error = %e, "finance answered a credit position orders cannot read");
            unreachable()
        }),
        Ok(Err(status)) => {
            tracing::warn!(code = ?status.code(), message = status.message(), customer, "finance did not answer the credit position");
            Err(unreachable())
        }
        Err(_) => {
            tracing::warn!(
                customer,
                "finance did not answer the credit position in time"
            );
            Err(unreachable())
        }
    }
}

/// Whether orders' copy of the customer carries a credit limit.
pub async fn has_limit(tx: &mut Tx, client: i64, emp: i64, customer: i64) -> Result<bool> {
    Ok(sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM orders.clientes
                        WHERE client_id = $1 AND emp_id = $2 AND cli_id = $3 AND limite > 0)",
    )
    .bind(client)
    .bind(emp)
    .bind(customer)
    .fetch_one(&mut **tx)
    .await?)
}

/// Checks that invoicing `total` to `customer` keeps within the customer's limit.
/// `Ok(None)`: within it (or nothing to check: no limit, nothing to invoice);
/// `Ok(Some(release))`: beyond it, or unknown, and released by the caller
/// (`release` asked and granted); otherwise the refusal (409 exceeded, 503 finance
/// unreachable, 403 a release not granted).
pub async fn check(
    tx: &mut Tx,
    peers: &Peers,
    caller: &Caller,
    emp: i64,
    customer: i64,
    total: Decimal,
    release: bool,
) -> Result<Option<Release>> {
    if total <= Decimal::ZERO || !has_limit(tx, caller.client_id, emp, customer).await? {
        return Ok(None);
    }
    let (refusal, note) = match position(peers, caller, emp, customer).await {
        Ok(p) if !p.exceeded_by(total) => return Ok(None),
        Ok(p) => {
            let msg = exceeded_message(&p, total);
            let note = format!(
                "Limite de crédito liberado: limite {}, em aberto {}, disponível {}, pedido {}.",
                brl(p.limit),
                brl(p.open),
                brl(p.available),
                brl(total)
            );
            (Error::Conflict(msg), note)
        }
        Err(e) => (
            e,
            format!(
                "Faturado sem consultar o limite de crédito (financeiro indisponível), pedido {}.",
                brl(total)
            ),
        ),
    };
    if !release {
        return Err(refusal);
    }
    if !grants::may_update(peers, caller, emp, grants::RECEIVABLES).await? {
        return Err(Error::Forbidden(format!(
            "{} Liberar o limite de crédito exige permissão de alteração em Contas a Receber.",
            refusal.public_message()
        )));
    }
    tracing::warn!(
        client = caller.client_id,
        user = caller.user_id,
        emp,
        customer,
        note = %note,
        "credit limit released"
    );
    Ok(Some(Release { user_id: caller.user_id, note }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).expect("decimal")
    }

    #[test]
    fn the_limit_is_passed_only_beyond_it() {
        let p = Position { has_limit: true, limit: d("1000"), open: d("800"), available: d("200") };
        assert!(p.exceeded_by(d("300")));
        assert!(p.exceeded_by(d("200.01")));
        assert!(!p.exceeded_by(d("200")));
        let none = Position { has_limit: false, ..p };
        assert!(!none.exceeded_by(d("1000000")));
        assert_eq!(
            exceeded_message(&p, d("300")),
            "Limite de crédito excedido: limite R$ 1.000,00, disponível R$ 200,00, pedido R$ 300,00."
        );
    }

    #[test]
    fn finance_amounts_are_read_as_decimals() {
        let r = CreditReply {
            has_limit: true,
            limit: "1000.00".into(),
            open: "1200.50".into(),
            available: "-200.50".into(),
        };
        let p = Position::from_reply(&r).expect("position");
        assert_eq!(
            (p.limit, p.open, p.available),
            (d("1000"), d("1200.5"), d("-200.5"))
        );
        let bad = CreditReply { limit: "mil".into(), ..r };
        assert!(Position::from_reply(&bad).is_err());
    }
}
