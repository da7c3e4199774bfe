//! Register descriptors of fiscal, one module per group.

use std::path::Path;
use std::sync::Arc;

use erp_platform::config::Config;
use erp_platform::db::Db;
use erp_platform::resource::Registry;

use crate::nuvemfiscal::NuvemFiscal;

pub(crate) mod call_body;
pub mod company;
pub mod cte;
pub mod dfe;
pub mod manifest;
pub mod mdfe;
pub mod order_nfe;
pub mod taxes;

/// Every register of fiscal, with the Nuvem Fiscal client, the data dir and
/// the sealing key from the environment (`NUVEMFISCAL_*`, `ERP_DATA_DIR`,
/// `ERP_FISCAL_KEY`), without a database: what the gateway routes and
/// describes.
pub fn registry() -> Result<Registry, String> {
    let client = NuvemFiscal::from_env().map_err(|e| format!("Nuvem Fiscal: {e}"))?;
    registry_in(client, &Config::from_env().data_dir, None)
}

/// Every register of fiscal with this provider client (`None`: the provider's
/// calls answer `MISSING_CREDENTIALS`) and `data_dir`, where the gateway keeps
/// uploaded files (`<data dir>/uploads/...`), without a database.
pub fn registry_with(client: Option<NuvemFiscal>, data_dir: &Path) -> Result<Registry, String> {
    registry_in(client, data_dir, None)
}

/// [`registry_with`] plus the service's pool, which the NF-e emission commits
/// its steps in (`order_nfe::emission`): what the service serves.
pub fn registry_in(
    client: Option<NuvemFiscal>,
    data_dir: &Path,
    db: Option<Db>,
) -> Result<Registry, String> {
    let company = Arc::new(company::Ctx {
        client,
        uploads: data_dir.join("uploads"),
        sealer: crate::crypto::sealer()?,
    });
    let documents = Arc::new(dfe::Ctx { company: company.clone(), db });
    Registry::new(
        [
            taxes::all(),
            company::all(company.clone()),
            order_nfe::all(documents.clone()),
            cte::all(documents.clone())?,
            mdfe::all(documents)?,
            manifest::all(company),
        ]
        .concat(),
    )
}
