//! Waiting for the SEFAZ. The Nuvem Fiscal has no webhooks: an emission
//! answers `pendente` and the document is consulted until its status is final
//! (`autorizado`, `rejeitado`, `denegado`, `encerrado`, `cancelado`, `erro`).

use std::time::Duration;

use tokio::time::Instant;

use super::client::NuvemFiscal;
use super::error::Result;
use super::paths::{DocPaths, CTE, MDFE, NFE};
use super::types::Dfe;

/// First wait between consults; doubled up to [`POLL_MAX`].
pub const POLL_FIRST: Duration = Duration::from_millis(500);
pub const POLL_MAX: Duration = Duration::from_secs(5);
/// After this many consults still `pendente`, the provider is asked once to
/// synchronise with the SEFAZ (a lost answer from the SEFAZ is then found).
const SYNC_AFTER: u32 = 3;

impl NuvemFiscal {
    /// Consults the NF-e until its status is final or `max_wait` has passed,
    /// and returns the last answer: still `pendente` when time ran out (the
    /// caller keeps it pending and looks again later).
    pub async fn aguardar_nfe(&self, id: &str, max_wait: Duration) -> Result<Dfe> {
        self.aguardar(&NFE, id, max_wait).await
    }

    /// [`NuvemFiscal::aguardar_nfe`] for a CT-e.
    pub async fn aguardar_cte(&self, id: &str, max_wait: Duration) -> Result<Dfe> {
        self.aguardar(&CTE, id, max_wait).await
    }

    /// [`NuvemFiscal::aguardar_nfe`] for an MDF-e.
    pub async fn aguardar_mdfe(&self, id: &str, max_wait: Duration) -> Result<Dfe> {
        self.aguardar(&MDFE, id, max_wait).await
    }

    /// Waits for a final status of any document type.
    pub(crate) async fn aguardar(&self, p: &DocPaths, id: &str, max_wait: Duration) -> Result<Dfe> {
        let deadline = Instant::now() + max_wait;
        let mut wait = POLL_FIRST;
        let mut consults = 0;
        loop {
            let dfe = self.consultar(p, id).await?;
            consults += 1;
            let now = Instant::now();
            if dfe.status.is_final() || now >= deadline {
                return Ok(dfe);
            }
            if consults == SYNC_AFTER {
                if let Err(e) = self.sincronizar(p, id).await {
                    // Only a nudge: the consults go on either way.
                    tracing::warn!(id, error = %e, "nuvemfiscal: synchronisation failed");
                }
            }
            tokio::time::sleep(wait.min(deadline - now)).await;
            wait = (wait * 2).min(POLL_MAX);
        }
    }
}
