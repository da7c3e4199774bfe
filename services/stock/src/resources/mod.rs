//! Register descriptors of stock, one module per group.
//!
//! Order matters to the table-driven tests (each sample may name the rows of the
//! samples before it): locations, manual entries, documents, kegs, then the
//! read-only registers, which have no sample.

use erp_platform::resource::Registry;

pub mod balances;
pub mod documents;
pub mod kegs;
pub mod locations;
pub mod posted;
pub mod queries;

pub fn registry() -> Result<Registry, String> {
    Registry::new(
        [
            locations::all(),
            balances::all(),
            documents::all()?,
            kegs::all(),
            queries::all(),
        ]
        .concat(),
    )
}

/// The registers that only read (their writes are refused); they carry no sample.
pub const READ_ONLY: [&str; 3] = ["fichaestoque", "consultaprodutos", "estoqueprodutos"];
