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

pub mod conditional;
pub mod finance;
pub mod fiscal;
pub mod purchases;
pub mod sales;
pub mod service_orders;
pub mod stock;

pub use sales::InvoicedOrder;

pub(crate) use erp_platform::bus::facts::{date, dec, decode};

/// An id that is 0 for none.
pub(crate) fn opt(id: i64) -> Option<i64> {
    (id > 0).then_some(id)
}

/// A text that is empty for none.
pub(crate) fn text(s: &str) -> Option<&str> {
    Some(s.trim()).filter(|s| !s.is_empty())
}
