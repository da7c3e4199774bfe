//! Another service's declared calls, asked as the caller: a service that needs
//! what another one produces (a slip's PDF, an NF-e's XML) runs that service's
//! own call over its `erp.v1.ResourceService` `Action` ([`PeerCalls`]), with the
//! caller's client, user and company in the metadata, so the owner applies its
//! tenancy, its company guard and its checks exactly as for a screen; nothing is
//! read around it.
//!
//! The program's permission of a call is checked by the gateway, which a call
//! between services does not cross: [`require_grant`] makes the same check
//! (identity's grants of the caller, `GetPrincipal`) before a service acts in
//! another area's program for its caller.
//!
//! A peer's refusal keeps its status and pt-BR message (its 404 is a 404); a peer
//! that cannot be reached, is not configured or does not answer within the
//! timeout is a 503 'O serviço … não respondeu. Tente novamente em instantes.'.

use std::collections::HashMap;
use std::time::Duration;

use erp_proto::erp::v1::resource_service_client::ResourceServiceClient;
use erp_proto::erp::v1::{ActionReply, ActionRequest, FileReply};
use erp_proto::identity::v1::identity_service_client::IdentityServiceClient;
use erp_proto::identity::v1::{PrincipalRequest, UserProgram};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::grpc::Caller;
use crate::service::Peers;
use crate::transport::GrpcLink;
use crate::{Error, Result};

/// How long a peer's call may take.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// The declared calls of one peer service, run as `caller`.
#[derive(Clone)]
pub struct PeerCalls {
    service: String,
    area: Option<String>,
    /// None: no link to the service (every call answers 503).
    client: Option<ResourceServiceClient<GrpcLink>>,
    caller: Caller,
    companies: Vec<i64>,
    timeout: Duration,
}

impl PeerCalls {
    /// The calls of `service` (`"finance"`), as `caller`, allowed in the caller's
    /// current company. A service the peers do not know is not an error here: its
    /// calls answer 503.
    pub fn of(peers: &Peers, service: &str, caller: &Caller) -> PeerCalls {
        PeerCalls {
            service: service.to_string(),
            area: None,
            client: peers.channel(service).ok().map(ResourceServiceClient::new),
            caller: *caller,
            companies: vec![caller.emp_id],
            timeout: TIMEOUT,
        }
    }

    /// What the user calls the service, for the 503's message ('finanças':
    /// 'O serviço de finanças (finance) não respondeu…').
    pub fn area(mut self, area: &str) -> Self {
        self.area = Some(area.to_string());
        self
    }

    /// The companies the calls may work in (the peer refuses any other). The
    /// caller's right to each was checked where the request came in.
    pub fn companies(mut self, companies: Vec<i64>) -> Self {
        self.companies = companies;
        self
    }

    /// Another limit than [`TIMEOUT`].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The 503 of a peer out of reach.
    pub fn unavailable(&self) -> Error {
        unavailable(&self.service, self.area.as_deref())
    }

    /// A refusal of the peer as this service's error: its message and status kept,
    /// but a transport failure (or a service without registers) is the 503 naming
    /// it.
    fn error(&self, status: tonic::Status) -> Error {
        let reached = match status.code() {
            tonic::Code::Unknown | tonic::Code::Unimplemented => false,
            tonic::Code::Unavailable => crate::error::is_public_unavailable(&status),
            _ => true,
        };
        if reached {
            return Error::from(status);
        }
        tracing::warn!(service = %self.service, code = ?status.code(), message = status.message(), "peer call unavailable");
        self.unavailable()
    }

    /// Runs `action` of the peer's register `resource` with the path parameters
    /// `params` (by the names the call's path declares: `id`, `emp`, …) and the JSON
    /// `body`, and answers what the call answered (JSON, or a file).
    pub async fn action(
        &self,
        resource: &str,
        action: &str,
        params: &[(&str, String)],
        body: &impl Serialize,
    ) -> Result<ActionReply> {
        let Some(client) = &self.client else {
            tracing::warn!(service = %self.service, "peer call: no link to the service");
            return Err(self.unavailable());
        };
        let params: HashMap<String, String> = params
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        let mut req = tonic::Request::new(ActionRequest {
            resource: resource.into(),
            action: action.into(),
            params,
            body_json: serde_json::to_vec(body)?.into(),
            companies: self.companies.clone(),
        });
        req.set_timeout(self.timeout);
        self.caller.attach(&mut req);
        for (k, v) in crate::telemetry::current_trace_headers() {
            if let (Ok(k), Ok(v)) = (
                tonic::metadata::MetadataKey::from_bytes(k.as_bytes()),
                tonic::metadata::MetadataValue::try_from(v.as_str()),
            ) {
                req.metadata_mut().insert(k, v);
            }
        }
        let mut client = client.clone();
        match tokio::time::timeout(self.timeout, client.action(req)).await {
            Ok(Ok(reply)) => Ok(reply.into_inner()),
            Ok(Err(status)) => Err(self.error(status)),
            Err(_) => {
                tracing::warn!(service = %self.service, resource, action, "peer call timed out");
                Err(self.unavailable())
            }
        }
    }

    /// [`PeerCalls::action`] whose answer is JSON, read as `T` (the legacy empty
    /// answer as `[]`).
    pub async fn json<T: DeserializeOwned>(
        &self,
        resource: &str,
        action: &str,
        params: &[(&str, String)],
        body: &impl Serialize,
    ) -> Result<T> {
        let reply = self.action(resource, action, params, body).await?;
        let json: &[u8] = if reply.empty { b"[]" } else { &reply.json };
        serde_json::from_slice(json).map_err(|e| {
            Error::internal(format!(
                "{}: {resource}.{action} answered: {e}",
                self.service
            ))
        })
    }

    /// [`PeerCalls::action`] whose answer is a file.
    pub async fn file(
        &self,
        resource: &str,
        action: &str,
        params: &[(&str, String)],
        body: &impl Serialize,
    ) -> Result<FileReply> {
        self.action(resource, action, params, body)
            .await?
            .file
            .ok_or_else(|| {
                Error::internal(format!(
                    "{}: {resource}.{action} answered no file",
                    self.service
                ))
            })
    }
}

/// The 503 of `service` out of reach ('O serviço de finanças (finance) não
/// respondeu…').
fn unavailable(service: &str, area: Option<&str>) -> Error {
    Error::Unavailable(match area {
        Some(area) => {
            format!("O serviço de {area} ({service}) não respondeu. Tente novamente em instantes.")
        }
        None => format!("O serviço {service} não respondeu. Tente novamente em instantes."),
    })
}

/// What a caller does in a program, as the gateway checks a call of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grant {
    View,
    Create,
    Update,
    Delete,
}

impl Grant {
    fn verb(self) -> &'static str {
        match self {
            Grant::View => "consultar",
            Grant::Create => "incluir",
            Grant::Update => "alterar",
            Grant::Delete => "excluir",
        }
    }

    fn held(self, p: &UserProgram) -> bool {
        match self {
            Grant::View => p.can_view,
            Grant::Create => p.can_create,
            Grant::Update => p.can_update,
            Grant::Delete => p.can_delete,
        }
    }
}

/// Refuses unless `caller` holds `grant` on `program` (its screen `title`), as
/// identity's grants for the caller's current company say: the gateway's check
/// of a call of that program, made by a service that acts there for its caller
/// through the program's service. A privileged caller always may (as at the
/// gateway); a user identity does not know, or no longer lets in, may nothing:
/// 403 'Usuário sem permissão para consultar em Contas a Receber.'. Identity out
/// of reach is a 503.
pub async fn require_grant(
    peers: &Peers,
    caller: &Caller,
    grant: Grant,
    program: &str,
    title: &str,
) -> Result<()> {
    if caller.privileged {
        return Ok(());
    }
    let refused = |name: &str| {
        Error::Forbidden(format!(
            "Usuário sem permissão para {} em {name}.",
            grant.verb()
        ))
    };
    let identity = || unavailable("identity", Some("usuários"));
    let channel = peers.channel("identity").map_err(|_| identity())?;
    let mut req = tonic::Request::new(PrincipalRequest {
        client_id: caller.client_id,
        user_id: caller.user_id,
        company_id: caller.emp_id,
    });
    req.set_timeout(TIMEOUT);
    caller.attach(&mut req);
    let mut client = IdentityServiceClient::new(channel);
    let principal = match tokio::time::timeout(TIMEOUT, client.get_principal(req)).await {
        Ok(Ok(p)) => p.into_inner(),
        Ok(Err(status))
            if matches!(
                status.code(),
                tonic::Code::NotFound
                    | tonic::Code::PermissionDenied
                    | tonic::Code::Unauthenticated
            ) =>
        {
            return Err(refused(title))
        }
        Ok(Err(status)) => {
            tracing::warn!(code = ?status.code(), message = status.message(), "identity did not answer the grants");
            return Err(identity());
        }
        Err(_) => {
            tracing::warn!("identity did not answer the grants in time");
            return Err(identity());
        }
    };
    let p = principal.programs.iter().find(|p| p.name == program);
    if principal.active && p.is_some_and(|p| grant.held(p)) {
        return Ok(());
    }
    Err(refused(
        p.map(|p| p.description.as_str())
            .filter(|d| !d.trim().is_empty())
            .unwrap_or(title),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_service_without_a_link_answers_503_naming_it() {
        let caller = Caller { client_id: 1, user_id: 2, emp_id: 3, privileged: false };
        let calls = PeerCalls::of(&Peers::default(), "finance", &caller).area("finanças");
        let e = calls
            .action("boletos", "pdf", &[], &serde_json::json!({}))
            .await
            .err()
            .map(|e| (e.http_status(), e.public_message()));
        assert_eq!(
            e,
            Some((
                503,
                "O serviço de finanças (finance) não respondeu. Tente novamente em instantes."
                    .into()
            ))
        );
    }

    #[tokio::test]
    async fn grants_are_identitys_and_a_privileged_caller_needs_none() {
        let user = Caller { client_id: 1, user_id: 2, emp_id: 3, privileged: false };
        let e = require_grant(&Peers::default(), &user, Grant::View, "pedidos", "Pedidos")
            .await
            .err()
            .map(|e| (e.http_status(), e.public_message()));
        assert_eq!(
            e,
            Some((
                503,
                "O serviço de usuários (identity) não respondeu. Tente novamente em instantes."
                    .into()
            ))
        );
        let operator = Caller { privileged: true, ..user };
        assert!(require_grant(
            &Peers::default(),
            &operator,
            Grant::Update,
            "pedidos",
            "Pedidos"
        )
        .await
        .is_ok());
    }

    #[test]
    fn a_peers_refusal_keeps_its_status_and_message_and_a_transport_failure_is_503() {
        let caller = Caller { client_id: 1, user_id: 2, emp_id: 3, privileged: false };
        let calls = PeerCalls::of(&Peers::default(), "fiscal", &caller);
        let e = calls.error(tonic::Status::not_found("NF-e não encontrada."));
        assert_eq!(
            (e.http_status(), e.public_message()),
            (404, "NF-e não encontrada.".into())
        );
        let own: tonic::Status = Error::Unavailable("A Nuvem Fiscal não respondeu.".into()).into();
        let e = calls.error(own);
        assert_eq!(
            (e.http_status(), e.public_message()),
            (503, "A Nuvem Fiscal não respondeu.".into())
        );
        for transport in [
            tonic::Status::unavailable("tcp connect error"),
            tonic::Status::unknown("h2 protocol error"),
            tonic::Status::unimplemented(""),
        ] {
            let e = calls.error(transport);
            assert_eq!(
                (e.http_status(), e.public_message()),
                (
                    503,
                    "O serviço fiscal não respondeu. Tente novamente em instantes.".into()
                )
            );
        }
    }
}
