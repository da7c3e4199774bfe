//! Register descriptors of catalog, one module per group.

use erp_platform::resource::Registry;

pub mod parties;
pub mod products;
pub mod reference;
pub mod services;
pub mod vehicles;

pub fn registry() -> Result<Registry, String> {
    Registry::new(
        [
            parties::all(),
            vehicles::all(),
            products::all(),
            services::all(),
            reference::all(),
        ]
        .concat(),
    )
}
