//! What finance consumes, one `Effect` each (run at most once per event, in the
//! tenant transaction that records it in finance's inbox; a batch that fails is
//! applied event by event, and an event refused for good is logged, counted in
//! `erp_events_refused_total` and acknowledged by the platform's consumer).
//!
//! Consumed:
//! - `erp.orders.pedido.faturado` (`finance-pedido-faturado`, [`InvoicedOrder`]):
//!   the order's receivables (origin `PEDIDO`, origin id and serie the order's), one
//!   per instalment of the order total from the issue date. The order's payment
//!   condition (`payment_condition_id`, PEDF_CNDP_ID) decides count and due dates;
//!   without one (0), or with one finance cannot use, the company's default of the
//!   financial parameters decides (`PARF_CNDV_ID`, else `PARF_CNDP_ID`), else one
//!   instalment of the whole total due on the issue date. The remainder cents of
//!   the split go to the first instalment (`instalments::split`). The payment
//!   method is the order's (`payment_method_id`) when finance knows it, else the
//!   condition's, else the parameters'.
//! - `erp.catalog.cliente.*`, `erp.catalog.fornecedor.*`, `erp.identity.empresa.*`
//!   (`finance-clientes`, `finance-fornecedores`, `finance-empresas`): the copies of
//!   `copies` (credit limits, the names and documents receipts print).
//! - `erp.orders.compra.finalizada` (`finance-compra-finalizada`,
//!   [`FinalizedPurchase`]): the purchase's payables, one per instalment it
//!   carries (value, interest as the title's surcharge, due date, account, the
//!   supplier's instalment number), or one of the whole total due on the issue date
//!   when it carries none.
//! - `erp.orders.compra.cancelada` (`finance-compra-cancelada`,
//!   [`CancelledPurchase`]): the purchase's open payables are cancelled; when one of
//!   them was paid (in part or in full) the event is refused for good and nothing is
//!   cancelled.
//!
//! Exactly once: the inbox skips a redelivered event; `finance.documentos` (one row
//! per origin document) skips a second fact about the same document under another
//! event id, and orders a cancellation applied before its finalization (the
//! finalization then makes nothing). An undecodable payload, another tenant's, a
//! total or value that is not a decimal, or a document without company or id is
//! refused for good.

use std::str::FromStr;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::NaiveDate;
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::service::ConsumerDef;
use erp_platform::{Error, Result};
use erp_proto::orders::v1::{CompraCancelada, CompraFinalizada, PedidoFaturado};
use rust_decimal::Decimal;

use crate::copies;
use crate::instalments;
use crate::titles::{self, Claim, NewTitle, Origin, Side};

pub use erp_proto::subjects::{
    CATALOG_CLIENTES, CATALOG_FORNECEDORES, COMPRA_CANCELADA, COMPRA_FINALIZADA, IDENTITY_EMPRESAS,
    PEDIDO_FATURADO,
};

/// The consumers `serve` runs.
pub fn consumers() -> Vec<ConsumerDef> {
    vec![
        ConsumerDef {
            durable: "finance-pedido-faturado",
            filter: PEDIDO_FATURADO,
            effect: Arc::new(InvoicedOrder),
        },
        ConsumerDef {
            durable: "finance-compra-finalizada",
            filter: COMPRA_FINALIZADA,
            effect: Arc::new(FinalizedPurchase),
        },
        ConsumerDef {
            durable: "finance-compra-cancelada",
            filter: COMPRA_CANCELADA,
            effect: Arc::new(CancelledPurchase),
        },
        ConsumerDef {
            durable: "finance-clientes",
            filter: CATALOG_CLIENTES,
            effect: Arc::new(copies::Customers),
        },
        ConsumerDef {
            durable: "finance-fornecedores",
            filter: CATALOG_FORNECEDORES,
            effect: Arc::new(erp_platform::bus::copies::SupplierCopy { schema: crate::SCHEMA }),
        },
        ConsumerDef {
            durable: "finance-empresas",
            filter: IDENTITY_EMPRESAS,
            effect: Arc::new(copies::Companies),
        },
    ]
}

fn decode<M: prost::Message + Default>(msg: &Message) -> Result<M> {
    M::decode(msg.payload.as_ref())
        .map_err(|_| Error::validation(format!("Evento inválido: {}.", msg.subject)))
}

/// The payload's tenant must be the one the event was recorded for.
fn same_tenant(client_id: i64, payload_client: i64) -> Result<()> {
    if payload_client != 0 && payload_client != client_id {
        return Err(Error::validation("Evento de outro cliente."));
    }
    Ok(())
}

fn money(what: &str, s: &str) -> Result<Decimal> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(Decimal::ZERO);
    }
    let v =
        Decimal::from_str(s).map_err(|_| Error::validation(format!("{what} inválido: '{s}'.")))?;
    if v < Decimal::ZERO {
        return Err(Error::validation(format!("{what} negativo: '{s}'.")));
    }
    Ok(crate::charges::money(v))
}

fn date(what: &str, s: &str) -> Result<NaiveDate> {
    NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d")
        .map_err(|_| Error::validation(format!("{what} inválida: '{s}'.")))
}

fn document(emp: i64, id: i64) -> Result<()> {
    if emp <= 0 || id <= 0 {
        return Err(Error::validation("Evento sem empresa ou documento."));
    }
    Ok(())
}

fn text(s: &str) -> Option<String> {
    Some(s.trim().to_string()).filter(|s| !s.is_empty())
}

/// The terms of an invoiced order: its own payment condition when it names one,
/// else the company's default (due-date condition, else payment condition), else
/// one instalment on the issue date. An invoice is a fact: a condition that cannot
/// be used (gone, or a due-date condition left without days) falls to the next
/// choice, logged, and the order still gets its receivables.
async fn order_terms(
    tx: &mut Tx,
    client_id: i64,
    ev: &PedidoFaturado,
    default_condition: Option<i64>,
    default_due_condition: Option<i64>,
) -> Result<(instalments::Terms, Option<i64>)> {
    let mut choices = Vec::new();
    if ev.payment_condition_id > 0 {
        choices.push((Some(ev.payment_condition_id), None));
    }
    if default_condition.is_some() || default_due_condition.is_some() {
        choices.push((default_condition, default_due_condition));
    }
    for (condition, due_condition) in choices {
        match titles::terms(tx, client_id, ev.emp_id, condition, due_condition).await {
            Ok(t) => return Ok(t),
            Err(Error::Validation(why)) => {
                tracing::warn!(client_id, emp = ev.emp_id, pedido = ev.pedido_id, why = %why,
                    "condition not usable: trying the next one");
            }
            Err(e) => return Err(e),
        }
    }
    Ok((instalments::Terms::Single { days: 0 }, None))
}

/// `erp.orders.pedido.faturado`: the invoiced order's receivables.
pub struct InvoicedOrder;

#[async_trait]
impl Effect for InvoicedOrder {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: PedidoFaturado = decode(msg)?;
        same_tenant(client_id, ev.client_id)?;
        document(ev.emp_id, ev.pedido_id)?;
        let total = money("Total do pedido", &ev.total)?;
        let issued = date("Data de emissão do pedido", &ev.issued_on)?;
        let serie = ev.serie.trim().to_string();
        let doc = Origin { emp: ev.emp_id, kind: "PEDIDO", id: ev.pedido_id, serie: &serie };
        match titles::claim(tx, client_id, &doc).await? {
            Claim::New => {}
            state => {
                tracing::info!(
                    client_id,
                    emp = ev.emp_id,
                    pedido = ev.pedido_id,
                    serie,
                    ?state,
                    "invoiced order already has its receivables; nothing made"
                );
                return Ok(());
            }
        }
        let params = titles::parameters(tx, client_id, ev.emp_id).await?;
        let (terms, condition_method) =
            order_terms(tx, client_id, &ev, params.condition, params.due_condition).await?;
        let method = match titles::known_method(
            tx,
            client_id,
            (ev.payment_method_id > 0).then_some(ev.payment_method_id),
        )
        .await?
        {
            Some(m) => Some(m),
            None => condition_method.or(params.method),
        };
        let parts = instalments::schedule(total, issued, &terms)?;
        let count = parts.len() as i32;
        let new: Vec<NewTitle> = parts
            .iter()
            .map(|p| NewTitle {
                person: ev.customer_id,
                person_name: text(&ev.customer_name),
                document: Some(format!("{}/{}", ev.pedido_id, serie)),
                origin: "PEDIDO",
                origin_id: Some(ev.pedido_id),
                origin_serie: Some(serie.clone()),
                seq: p.seq,
                count,
                issued,
                due: p.due,
                value: p.amount,
                surcharge: Decimal::ZERO,
                method,
                bank: params.bank_receivable,
                centre: params.centre_receivable,
                remarks: None,
                user: ev.user_id,
            })
            .collect();
        titles::insert(tx, client_id, ev.emp_id, Side::Receivable, &new).await?;
        let sum: Decimal = parts.iter().map(|p| p.amount).sum();
        titles::set_document_total(tx, client_id, &doc, sum, count).await?;
        Ok(())
    }
}

/// `erp.orders.compra.finalizada`: the purchase's payables.
pub struct FinalizedPurchase;

#[async_trait]
impl Effect for FinalizedPurchase {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: CompraFinalizada = decode(msg)?;
        same_tenant(client_id, ev.client_id)?;
        document(ev.emp_id, ev.compra_id)?;
        let total = money("Total da compra", &ev.total)?;
        let issued = date("Data de emissão da compra", &ev.issued_on)?;
        let doc = Origin { emp: ev.emp_id, kind: "COMPRA", id: ev.compra_id, serie: "" };
        match titles::claim(tx, client_id, &doc).await? {
            Claim::New => {}
            Claim::Cancelled => {
                tracing::warn!(
                    client_id,
                    emp = ev.emp_id,
                    compra = ev.compra_id,
                    "finalized purchase was cancelled before: no payables made"
                );
                return Ok(());
            }
            Claim::Made => {
                tracing::info!(
                    client_id,
                    emp = ev.emp_id,
                    compra = ev.compra_id,
                    "finalized purchase already has its payables; nothing made"
                );
                return Ok(());
            }
        }
        let params = titles::parameters(tx, client_id, ev.emp_id).await?;
        let invoice = match (text(&ev.number), text(&ev.serie)) {
            (Some(n), Some(s)) => Some(format!("NF {n}/{s}")),
            (Some(n), None) => Some(format!("NF {n}")),
            _ => None,
        };
        let centre = match titles::known_centre(
            tx,
            client_id,
            ev.emp_id,
            (ev.cost_centre_id > 0).then_some(ev.cost_centre_id),
        )
        .await?
        {
            Some(c) => Some(c),
            None => params.centre_payable,
        };
        let mut parts: Vec<(NaiveDate, Decimal, Decimal, Option<i64>, Option<String>)> = Vec::new();
        let mut instalments = ev.instalments.clone();
        instalments.sort_by_key(|i| i.seq);
        for i in &instalments {
            let what = format!("Parcela {} da compra", i.seq);
            let value = money(&format!("{what}: valor"), &i.amount)?;
            let interest = money(&format!("{what}: juros"), &i.interest)?;
            let due = date(&format!("{what}: vencimento"), &i.due_on)?;
            if value.is_zero() {
                continue;
            }
            let account = titles::known_account(
                tx,
                client_id,
                ev.emp_id,
                (i.bank_id > 0).then_some(i.bank_id),
            )
            .await?;
            parts.push((due, value, interest, account, text(&i.number)));
        }
        if parts.is_empty() && total > Decimal::ZERO {
            parts.push((issued, total, Decimal::ZERO, None, None));
        }
        let count = parts.len() as i32;
        let sum: Decimal = parts.iter().map(|p| p.1).sum();
        let new: Vec<NewTitle> = parts
            .into_iter()
            .enumerate()
            .map(|(k, (due, value, surcharge, account, number))| NewTitle {
                person: ev.supplier_id,
                person_name: text(&ev.supplier_name),
                document: match (&invoice, number) {
                    (Some(inv), Some(n)) => Some(format!("{inv} - {n}")),
                    (Some(inv), None) => Some(inv.clone()),
                    (None, n) => n,
                },
                origin: "COMPRA",
                origin_id: Some(ev.compra_id),
                origin_serie: Some(String::new()),
                seq: k as i32 + 1,
                count,
                issued,
                due,
                value,
                surcharge,
                method: params.method,
                bank: account.or(params.bank_payable),
                centre,
                remarks: None,
                user: ev.user_id,
            })
            .collect();
        titles::insert(tx, client_id, ev.emp_id, Side::Payable, &new).await?;
        titles::set_document_total(tx, client_id, &doc, sum, count).await?;
        Ok(())
    }
}

/// `erp.orders.compra.cancelada`: the purchase's open payables are cancelled.
pub struct CancelledPurchase;

#[async_trait]
impl Effect for CancelledPurchase {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: CompraCancelada = decode(msg)?;
        same_tenant(client_id, ev.client_id)?;
        document(ev.emp_id, ev.compra_id)?;
        let doc = Origin { emp: ev.emp_id, kind: "COMPRA", id: ev.compra_id, serie: "" };
        let n = titles::cancel_document(tx, client_id, Side::Payable, &doc).await?;
        tracing::info!(
            client_id,
            emp = ev.emp_id,
            compra = ev.compra_id,
            cancelled = n,
            "purchase payables cancelled"
        );
        Ok(())
    }
}
