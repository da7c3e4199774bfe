//! Register descriptors of finance, one module per group.

use erp_platform::resource::Registry;

pub mod banking;
pub mod costs;
pub mod terms;

pub fn registry() -> Result<Registry, String> {
    Registry::new([banking::all(), terms::all(), costs::all()].concat())
}
