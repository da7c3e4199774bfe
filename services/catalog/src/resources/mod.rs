//! Register descriptors of catalog, one module (or folder) per group, and the
//! pieces the groups' hooks and calls share.

use erp_platform::resource::Registry;

mod checks;
pub mod parties;
pub mod products;
pub mod reference;
mod rows;
pub mod services;
mod uploads;
pub mod vehicles;

pub fn registry() -> Result<Registry, String> {
    Registry::new(
        [
            parties::all(),
            vehicles::all(),
            products::all(),
            products::derived(),
            services::all(),
            reference::all(),
        ]
        .concat(),
    )
}
