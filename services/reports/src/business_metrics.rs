//! The ERP's business figures on `/metrics`, from one place: every business
//! fact reaches this service, so its consumers count them (the dashboard
//! `deploy/grafana/dashboards/business.json` reads these series).
//!
//! Counted from [`Effect::committed`](erp_platform::bus::Effect::committed):
//! after the batch's transaction commits, for the facts that were new to the
//! inbox. A redelivered fact counts once; a batch that rolled back counts
//! nothing (its facts count when applied again, one by one or redelivered).
//! An invoiced order counts when its fact recorded it ([`order_recorded`]): a
//! second fact about an order already recorded, under another event id,
//! changes nothing in the read model and counts nothing either.
//!
//! Labels `client` and `emp` (companies are numbered per client). The counters
//! live in the process: replicas each count the facts they applied (sum them),
//! a restart starts them over (`increase()` takes that in its stride), and a
//! replay of the stream (`erp reports-rebuild`) counts its facts again. Money
//! in cents, integer counters.
//!
//! - `erp_business_invoices_total`, `erp_business_sales_cents_total`: invoiced
//!   orders and their totals.
//! - `erp_business_receivables_issued_cents_total`: receivables created, their
//!   value; `erp_business_receipts_cents_total`: the money their settlements
//!   took in (value, interest and fine less discount; an offset moves none);
//!   `erp_business_receipts_reversed_cents_total`: settlements reversed.
//! - `erp_business_fiscal_documents_total{kind="nfe", status="autorizada" |
//!   "cancelada" | "rejeitada"}`: the NF-e of invoiced orders (rejeitada: the
//!   SEFAZ rejected or denied an emission).
//! - `erp_business_slips_generated_total`, `erp_business_slips_paid_total` and
//!   `erp_business_slips_paid_cents_total`, `erp_business_slips_written_off_total`:
//!   bank slips (`erp.finance.boleto.situacao`).

use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

use erp_platform::bus::facts::invoiced_order;
use erp_platform::bus::Message;
use erp_proto::finance::v1::{BoletoSituacao, TituloSituacao};
use erp_proto::fiscal::v1::{NfeAutorizada, NfeCancelada, NfeRejeitada};
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};

use crate::facts::decode;

/// A fact's money (a decimal text) in whole cents; 0 when it is not a
/// positive amount.
fn cents(text: &str) -> u64 {
    text.trim()
        .parse::<Decimal>()
        .ok()
        .and_then(|d| {
            (d * Decimal::ONE_HUNDRED)
                .round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero)
                .to_u64()
        })
        .unwrap_or(0)
}

fn company(client_id: i64, emp_id: i64) -> [(&'static str, String); 2] {
    [
        ("client", client_id.to_string()),
        ("emp", emp_id.to_string()),
    ]
}

/// The event ids of the invoiced orders applied and not committed yet. An id
/// stays behind only when its batch rolled back and the event was then refused
/// or never delivered again: the set is emptied when it grows past
/// [`PENDING_AT_MOST`] (what was in flight then is not counted).
static RECORDED: Mutex<Option<HashSet<String>>> = Mutex::new(None);
const PENDING_AT_MOST: usize = 100_000;

/// The fact `event_id` recorded its order (in the transaction not committed yet).
pub fn order_recorded(event_id: &str) {
    let mut pending = RECORDED.lock().unwrap_or_else(PoisonError::into_inner);
    let pending = pending.get_or_insert_with(HashSet::new);
    if pending.len() >= PENDING_AT_MOST {
        pending.clear();
    }
    pending.insert(event_id.to_string());
}

/// Invoiced orders (`erp.orders.pedido.faturado`) whose facts recorded them.
pub fn invoiced(client_id: i64, msgs: &[&Message]) {
    let recorded: Vec<&Message> = {
        let mut pending = RECORDED.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(pending) = pending.as_mut() else {
            return;
        };
        msgs.iter()
            .copied()
            .filter(|m| pending.remove(&m.id))
            .collect()
    };
    for msg in recorded {
        let Ok((ev, _)) = invoiced_order(msg, client_id) else {
            continue;
        };
        let labels = company(client_id, ev.emp_id);
        metrics::counter!("erp_business_invoices_total", &labels).increment(1);
        metrics::counter!("erp_business_sales_cents_total", &labels).increment(cents(&ev.total));
    }
}

/// Finance's titles (`erp.finance.titulo.situacao`): receivables created,
/// their settlements and reversals.
pub fn titles(client_id: i64, msgs: &[&Message]) {
    for msg in msgs {
        let Ok(ev) = decode(msg, client_id, |e: &TituloSituacao| e.client_id) else {
            continue;
        };
        if ev.kind != "R" {
            continue;
        }
        let labels = company(client_id, ev.emp_id);
        let settled = ev.settlement.as_ref().filter(|_| ev.settlement_id > 0);
        match (ev.change.as_str(), settled) {
            ("criado", _) => {
                metrics::counter!("erp_business_receivables_issued_cents_total", &labels)
                    .increment(cents(&ev.value));
            }
            ("baixa", Some(s)) => {
                metrics::counter!("erp_business_receipts_cents_total", &labels)
                    .increment(cents(&s.total));
            }
            ("estorno", Some(s)) => {
                metrics::counter!("erp_business_receipts_reversed_cents_total", &labels)
                    .increment(cents(&s.total));
            }
            _ => {}
        }
    }
}

fn fiscal_document(client_id: i64, emp_id: i64, status: &'static str) {
    let [client, emp] = company(client_id, emp_id);
    metrics::counter!(
        "erp_business_fiscal_documents_total",
        &[
            client,
            emp,
            ("kind", "nfe".to_string()),
            ("status", status.to_string())
        ]
    )
    .increment(1);
}

/// NF-e authorised (`erp.fiscal.nfe.autorizada`).
pub fn nfe_authorised(client_id: i64, msgs: &[&Message]) {
    for msg in msgs {
        if let Ok(ev) = decode(msg, client_id, |e: &NfeAutorizada| e.client_id) {
            fiscal_document(client_id, ev.emp_id, "autorizada");
        }
    }
}

/// NF-e cancelled (`erp.fiscal.nfe.cancelada`).
pub fn nfe_cancelled(client_id: i64, msgs: &[&Message]) {
    for msg in msgs {
        if let Ok(ev) = decode(msg, client_id, |e: &NfeCancelada| e.client_id) {
            fiscal_document(client_id, ev.emp_id, "cancelada");
        }
    }
}

/// NF-e rejected or denied (`erp.fiscal.nfe.rejeitada`).
pub fn nfe_rejected(client_id: i64, msgs: &[&Message]) {
    for msg in msgs {
        if let Ok(ev) = decode(msg, client_id, |e: &NfeRejeitada| e.client_id) {
            fiscal_document(client_id, ev.emp_id, "rejeitada");
        }
    }
}

/// Bank slips generated, paid and written off (`erp.finance.boleto.situacao`).
pub fn slips(client_id: i64, msgs: &[&Message]) {
    for msg in msgs {
        let Ok(ev) = decode(msg, client_id, |e: &BoletoSituacao| e.client_id) else {
            continue;
        };
        let labels = company(client_id, ev.emp_id);
        match ev.change.as_str() {
            "gerado" => {
                metrics::counter!("erp_business_slips_generated_total", &labels).increment(1)
            }
            "pago" => {
                metrics::counter!("erp_business_slips_paid_total", &labels).increment(1);
                metrics::counter!("erp_business_slips_paid_cents_total", &labels)
                    .increment(cents(&ev.value));
            }
            "baixado" => {
                metrics::counter!("erp_business_slips_written_off_total", &labels).increment(1)
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cents_of_decimal_texts() {
        assert_eq!(cents("1234.56"), 123_456);
        assert_eq!(cents(" 10 "), 1_000);
        assert_eq!(cents("0.005"), 1);
        assert_eq!(cents("-5.00"), 0);
        assert_eq!(cents(""), 0);
        assert_eq!(cents("abc"), 0);
    }
}
