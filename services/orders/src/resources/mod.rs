//! Register descriptors of orders: each document (quote, billing order,
//! conditional sale, service order) is declared once on the engine — header, lines,
//! totals, status — with the domain hooks and calls beside it.
//!
//! Layout:
//! - `quotes`, `billing`, `conditional`, `service_orders`: one document each.
//! - `conversions`: what a quote becomes (billing order, service order, requisition).
//! - `customer`: the customer's name and city copied onto a document.

use erp_platform::resource::Registry;

pub mod billing;
pub mod conditional;
pub mod conversions;
pub mod customer;
pub mod quotes;
pub mod service_orders;

/// Headers before their lines (the table-driven test deletes in reverse order).
pub fn registry() -> Result<Registry, String> {
    Registry::new(
        [
            quotes::all()?,
            billing::all()?,
            conditional::all()?,
            service_orders::all()?,
        ]
        .concat(),
    )
}
