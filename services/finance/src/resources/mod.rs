//! Register descriptors of finance, one module per group.

use erp_platform::resource::Registry;

pub mod banking;
pub mod costs;
pub mod movements;
pub mod settlement;
pub mod terms;
pub mod titles;

/// Registers that write nothing through the generic calls (no sample): the
/// payables settlement screen's view of the payables.
pub const READ_ONLY: [&str; 1] = ["baixacontaspagar"];

pub fn registry() -> Result<Registry, String> {
    Registry::new(
        [
            banking::all(),
            terms::all(),
            costs::all(),
            movements::all(),
            titles::all(),
        ]
        .concat(),
    )
}
