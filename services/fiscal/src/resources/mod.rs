//! Register descriptors of fiscal, one module per group.

use std::path::Path;
use std::sync::Arc;

use erp_platform::config::Config;
use erp_platform::resource::Registry;

use crate::crypto::Sealer;
use crate::nuvemfiscal::NuvemFiscal;

pub mod company;
pub mod taxes;

/// Every register of fiscal, with the Nuvem Fiscal client, the data dir and
/// the sealing key from the environment (`NUVEMFISCAL_*`, `ERP_DATA_DIR`,
/// `ERP_FISCAL_KEY`).
pub fn registry() -> Result<Registry, String> {
    let client = NuvemFiscal::from_env().map_err(|e| format!("Nuvem Fiscal: {e}"))?;
    registry_with(client, &Config::from_env().data_dir)
}

/// Every register of fiscal with this provider client (`None`: the provider's
/// calls answer `MISSING_CREDENTIALS`) and `data_dir`, where the gateway keeps
/// uploaded files (`<data dir>/uploads/...`).
pub fn registry_with(client: Option<NuvemFiscal>, data_dir: &Path) -> Result<Registry, String> {
    let ctx = Arc::new(company::Ctx {
        client,
        uploads: data_dir.join("uploads"),
        sealer: Sealer::from_env()?,
    });
    Registry::new([taxes::all(), company::all(ctx)].concat())
}
