//! What the calling user may do in a program of another area, asked of identity.
//!
//! The gateway checks the program of each call (invoicing needs ALTERACAO on
//! Pedidos, the purchase's calls on Compras); a call of orders that also acts for
//! another area asks identity (`IdentityService.GetPrincipal`, the grants the
//! gateway itself reads) whether the user may act there too: releasing a
//! customer's credit limit is finance's decision (ALTERACAO on Contas a Receber),
//! changing the products' cost and sale price is catalog's (ALTERACAO on Produtos).
//! A privileged user may always, as in the gateway.

use std::time::Duration;

use erp_platform::grpc::Caller;
use erp_platform::service::Peers;
use erp_platform::{Error, Result};
use erp_proto::identity::v1::identity_service_client::IdentityServiceClient;
use erp_proto::identity::v1::PrincipalRequest;

/// The program of receivables (finance's titles): ALTERACAO there releases a
/// customer's credit limit at invoicing.
pub const RECEIVABLES: &str = "contasareceber";
/// The program of products: ALTERACAO there changes their cost and sale price.
pub const PRODUCTS: &str = "produtos";

const TIMEOUT: Duration = Duration::from_secs(5);

pub const UNREACHABLE: &str =
    "Não foi possível conferir as permissões do usuário agora. Tente novamente em instantes.";

/// Whether the caller has ALTERACAO (update) on `program` in company `emp`.
pub async fn may_update(peers: &Peers, caller: &Caller, emp: i64, program: &str) -> Result<bool> {
    if caller.privileged {
        return Ok(true);
    }
    let channel = peers
        .channel("identity")
        .map_err(|_| Error::Unavailable(UNREACHABLE.into()))?;
    let mut client = IdentityServiceClient::new(channel);
    let mut req = tonic::Request::new(PrincipalRequest {
        client_id: caller.client_id,
        user_id: caller.user_id,
        company_id: emp,
    });
    req.set_timeout(TIMEOUT);
    caller.attach(&mut req);
    let principal = match tokio::time::timeout(TIMEOUT, client.get_principal(req)).await {
        Ok(Ok(p)) => p.into_inner(),
        // A user identity does not know (or no longer lets in) may nothing.
        Ok(Err(status))
            if matches!(
                status.code(),
                tonic::Code::NotFound
                    | tonic::Code::PermissionDenied
                    | tonic::Code::Unauthenticated
            ) =>
        {
            return Ok(false)
        }
        Ok(Err(status)) => {
            tracing::warn!(code = ?status.code(), message = status.message(), "identity did not answer the grants");
            return Err(Error::Unavailable(UNREACHABLE.into()));
        }
        Err(_) => {
            tracing::warn!("identity did not answer the grants in time");
            return Err(Error::Unavailable(UNREACHABLE.into()));
        }
    };
    Ok(principal.active
        && principal
            .programs
            .iter()
            .any(|p| p.name == program && p.can_update))
}
