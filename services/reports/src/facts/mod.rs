//! The facts of other services the read model keeps, one effect per fact, each
//! applied in the consumer's transaction (the inbox applies an event id once) and
//! written so that applying a fact again changes nothing (keys, whole states):
//!
//! - `sales`: invoiced orders (`vendas`, `vendasitens`, the `vendasdia` rollup).
//! - `finance`: finance's titles and their settlements (`titulos`, `baixas`) and
//!   bank movements (`movbancario`).
//! - `stock`: the stock ledger's movements (`estoquemov`, the `estoquedia` rollup
//!   and each product's latest balance, `estoquesaldo`).
//! - `purchases`: finalized and cancelled purchases (`compras`).
//! - `fiscal`: the NF-e of invoiced orders (`vendasnfe`).
//! - `conditional`: conditional sales as they stand (`condicionais`,
//!   `condicionaisitens`).
//! - `service_orders`: finished service orders and their lines
//!   (`ordensservico`, `ordensservicoitens`).
//!
//! An undecodable fact, another tenant's, or a value that is not a decimal or a
//! date is refused for good.

use std::str::FromStr;

use chrono::NaiveDate;
use erp_platform::bus::Message;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

pub mod conditional;
pub mod finance;
pub mod fiscal;
pub mod purchases;
pub mod sales;
pub mod service_orders;
pub mod stock;

pub use sales::InvoicedOrder;

/// A decimal of a fact (empty: zero).
pub(crate) fn dec(what: &str, s: &str) -> Result<Decimal> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(Decimal::ZERO);
    }
    Decimal::from_str(s).map_err(|_| Error::validation(format!("{what} inválido: '{s}'.")))
}

/// A yyyy-MM-dd date of a fact.
pub(crate) fn date(what: &str, s: &str) -> Result<NaiveDate> {
    NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d")
        .map_err(|_| Error::validation(format!("{what} inválida: '{s}'.")))
}

/// Decodes a fact and refuses another tenant's.
pub(crate) fn decode<M: prost::Message + Default>(
    msg: &Message,
    client_id: i64,
    client_of: impl Fn(&M) -> i64,
) -> Result<M> {
    let ev = M::decode(msg.payload.as_ref())
        .map_err(|_| Error::validation(format!("Evento inválido: {}.", msg.subject)))?;
    let c = client_of(&ev);
    if c != 0 && c != client_id {
        return Err(Error::validation("Evento de outro cliente."));
    }
    Ok(ev)
}

/// An id that is 0 for none.
pub(crate) fn opt(id: i64) -> Option<i64> {
    (id > 0).then_some(id)
}

/// A text that is empty for none.
pub(crate) fn text(s: &str) -> Option<&str> {
    Some(s.trim()).filter(|s| !s.is_empty())
}
