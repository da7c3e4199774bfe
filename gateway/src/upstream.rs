//! gRPC clients of the services, and the one way the gateway calls them: caller
//! and trace context in metadata, a 15 s deadline that becomes the legacy 408.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use erp_platform::error::TIMEOUT_MSG;
use erp_platform::grpc::Caller;
use erp_platform::transport::{link_channel, GrpcLink};
use erp_platform::{Error, Result};
use erp_proto::erp::v1::resource_service_client::ResourceServiceClient;
use erp_proto::identity::v1::identity_service_client::IdentityServiceClient;
use erp_proto::messaging::v1::messaging_service_client::MessagingServiceClient;
use tonic::transport::Endpoint;

pub const UPSTREAM_TIMEOUT: Duration = Duration::from_secs(15);

/// Where the gateway reaches a service: its gRPC URL (`erp gateway`), or the
/// routes the service handed over in the same process (`erp run`).
#[derive(Clone)]
pub enum Target {
    Url(String),
    Link(GrpcLink),
}

impl Target {
    /// The link to the service (a lazily connected channel for a URL).
    pub fn channel(&self) -> Result<GrpcLink> {
        Ok(match self {
            Target::Url(url) => link_channel(
                Endpoint::from_shared(url.clone())
                    .map_err(|e| Error::internal(format!("{url}: {e}")))?
                    .connect_timeout(Duration::from_secs(5))
                    .tcp_nodelay(true)
                    .http2_keep_alive_interval(Duration::from_secs(30))
                    .connect_lazy(),
            ),
            Target::Link(l) => l.clone(),
        })
    }
}

#[derive(Clone)]
pub struct Upstreams {
    pub identity: IdentityServiceClient<GrpcLink>,
    /// The providers' webhooks (none when messaging is not among the targets).
    messaging: Option<MessagingServiceClient<GrpcLink>>,
    resources: HashMap<String, ResourceServiceClient<GrpcLink>>,
}

impl Upstreams {
    /// `targets`: service name -> where it is.
    pub fn new(targets: &HashMap<String, Target>) -> Result<Upstreams> {
        let mut channels = HashMap::new();
        for (name, target) in targets {
            channels.insert(name.clone(), target.channel()?);
        }
        let identity = channels
            .get("identity")
            .cloned()
            .ok_or_else(|| Error::internal("identity URL missing"))?;
        let big = 64 * 1024 * 1024;
        Ok(Upstreams {
            identity: IdentityServiceClient::new(identity).max_decoding_message_size(big),
            messaging: channels
                .get("messaging")
                .cloned()
                .map(MessagingServiceClient::new),
            resources: channels
                .into_iter()
                .map(|(k, ch)| {
                    (
                        k,
                        ResourceServiceClient::new(ch)
                            .max_decoding_message_size(big)
                            .max_encoding_message_size(big),
                    )
                })
                .collect(),
        })
    }

    pub fn messaging(&self) -> Result<MessagingServiceClient<GrpcLink>> {
        self.messaging
            .clone()
            .ok_or_else(|| Error::Unavailable("Serviço messaging indisponível.".into()))
    }

    pub fn resources(&self, service: &str) -> Result<ResourceServiceClient<GrpcLink>> {
        self.resources
            .get(service)
            .cloned()
            .ok_or_else(|| Error::Unavailable(format!("Serviço {service} indisponível.")))
    }
}

/// A request carrying the caller, the trace context and the deadline.
pub fn request<T>(caller: &Caller, msg: T) -> tonic::Request<T> {
    let mut req = tonic::Request::new(msg);
    caller.attach(&mut req);
    for (k, v) in erp_platform::telemetry::current_trace_headers() {
        if let (Ok(k), Ok(v)) = (
            tonic::metadata::MetadataKey::from_bytes(k.as_bytes()),
            tonic::metadata::MetadataValue::try_from(v.as_str()),
        ) {
            req.metadata_mut().insert(k, v);
        }
    }
    req.set_timeout(UPSTREAM_TIMEOUT);
    req
}

/// Awaits an upstream call; past 15 s the caller gets 408 'Tempo de Solicitação Esgotado'.
pub async fn call<T>(
    fut: impl Future<Output = std::result::Result<tonic::Response<T>, tonic::Status>>,
) -> Result<T> {
    match tokio::time::timeout(UPSTREAM_TIMEOUT, fut).await {
        Ok(Ok(r)) => Ok(r.into_inner()),
        Ok(Err(s)) => Err(Error::from(s)),
        Err(_) => Err(Error::Timeout(TIMEOUT_MSG.into())),
    }
}
