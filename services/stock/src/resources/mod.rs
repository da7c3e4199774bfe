//! Register descriptors of stock, one module per group.

use erp_platform::resource::Registry;

pub mod balances;
pub mod locations;

pub fn registry() -> Result<Registry, String> {
    Registry::new([locations::all(), balances::all()].concat())
}
