//! Register descriptors of orders, one module per document; `docs` holds what the
//! documents share (totals from lines, customer copy, issued documents refuse
//! changes).

use erp_platform::resource::Registry;

pub mod billing;
pub mod conditional;
pub mod docs;
pub mod quotes;
pub mod service_orders;

/// Headers before their lines (the table-driven test deletes in reverse order).
pub fn registry() -> Result<Registry, String> {
    Registry::new(
        [
            quotes::all(),
            billing::all(),
            conditional::all(),
            service_orders::all(),
        ]
        .concat(),
    )
}
