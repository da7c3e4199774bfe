//! Register descriptors of fiscal, one module per group.

use erp_platform::resource::Registry;

pub mod taxes;

pub fn registry() -> Result<Registry, String> {
    Registry::new([taxes::all()].concat())
}
