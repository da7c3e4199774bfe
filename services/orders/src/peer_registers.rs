//! Another service's registers, asked over its `erp.v1.ResourceService` (rows as
//! JSON with the legacy column names): what orders writes in catalog — the
//! supplier of an imported NF-e, the cost and sale price of a purchase's products —
//! goes through catalog's own register, with its checks, hooks and events, as the
//! register's screen would; what orders reads of stock while the user waits (the
//! quantity of each grid variant, for the sales grid) is one of stock's typed calls
//! (`action`).

use std::time::Duration;

use erp_platform::grpc::Caller;
use erp_platform::service::Peers;
use erp_platform::transport::GrpcLink;
use erp_platform::{Error, Result};
use erp_proto::erp::v1::resource_service_client::ResourceServiceClient;
use erp_proto::erp::v1::{ActionRequest, KeyRequest, SearchRequest, WriteRequest};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

const TIMEOUT: Duration = Duration::from_secs(10);

/// The registers of one peer service, called as `caller`.
pub struct PeerRegisters {
    service: &'static str,
    client: ResourceServiceClient<GrpcLink>,
    caller: Caller,
}

fn unavailable(service: &str) -> Error {
    let area = match service {
        "stock" => "estoque",
        _ => "cadastros",
    };
    Error::Unavailable(format!(
        "O serviço de {area} ({service}) não respondeu. Tente novamente em instantes."
    ))
}

fn row(bytes: &[u8]) -> Result<Value> {
    serde_json::from_slice(bytes).map_err(|e| Error::internal(format!("peer row: {e}")))
}

impl PeerRegisters {
    /// The registers of `service` (503 when orders has no way to reach it).
    pub fn of(peers: &Peers, service: &'static str, caller: &Caller) -> Result<PeerRegisters> {
        let channel = peers.channel(service).map_err(|_| unavailable(service))?;
        Ok(PeerRegisters { service, client: ResourceServiceClient::new(channel), caller: *caller })
    }

    fn request<T>(&self, msg: T) -> tonic::Request<T> {
        let mut req = tonic::Request::new(msg);
        req.set_timeout(TIMEOUT);
        self.caller.attach(&mut req);
        req
    }

    /// A peer's refusal keeps its pt-BR message; its absence is a 503 naming it.
    fn error(&self, status: tonic::Status) -> Error {
        match status.code() {
            tonic::Code::Unavailable | tonic::Code::Unknown | tonic::Code::Unimplemented => {
                tracing::warn!(service = self.service, code = ?status.code(), message = status.message(), "peer registers unavailable");
                unavailable(self.service)
            }
            _ => Error::from(status),
        }
    }

    async fn timed<T>(
        &self,
        fut: impl std::future::Future<Output = std::result::Result<tonic::Response<T>, tonic::Status>>,
    ) -> Result<T> {
        match tokio::time::timeout(TIMEOUT, fut).await {
            Ok(Ok(r)) => Ok(r.into_inner()),
            Ok(Err(status)) => Err(self.error(status)),
            Err(_) => Err(unavailable(self.service)),
        }
    }

    pub async fn get(&self, resource: &str, emp: Option<i64>, key: &[String]) -> Result<Value> {
        let req = self.request(KeyRequest { resource: resource.into(), emp, key: key.to_vec() });
        let mut client = self.client.clone();
        let reply = self.timed(client.get(req)).await?;
        row(&reply.row_json)
    }

    pub async fn create(
        &self,
        resource: &str,
        emp: Option<i64>,
        body: &Map<String, Value>,
    ) -> Result<Value> {
        let req = self.request(WriteRequest {
            resource: resource.into(),
            emp,
            key: Vec::new(),
            body_json: serde_json::to_vec(body)?,
        });
        let mut client = self.client.clone();
        let reply = self.timed(client.create(req)).await?;
        row(&reply.row_json)
    }

    pub async fn update(
        &self,
        resource: &str,
        emp: Option<i64>,
        key: &[String],
        body: &Map<String, Value>,
    ) -> Result<Value> {
        let req = self.request(WriteRequest {
            resource: resource.into(),
            emp,
            key: key.to_vec(),
            body_json: serde_json::to_vec(body)?,
        });
        let mut client = self.client.clone();
        let reply = self.timed(client.update(req)).await?;
        row(&reply.row_json)
    }

    /// The typed call `action` of the peer's register `resource`, in company `emp`
    /// (its `{emp}` path parameter and the caller's company for the call), with
    /// `body`; its answer read as `T` (an empty list, the legacy 204, as `[]`).
    pub async fn action<T: DeserializeOwned>(
        &self,
        resource: &str,
        action: &str,
        emp: i64,
        body: &impl Serialize,
    ) -> Result<T> {
        let req = self.request(ActionRequest {
            resource: resource.into(),
            action: action.into(),
            params: [("emp".to_string(), emp.to_string())].into(),
            body_json: serde_json::to_vec(body)?.into(),
            companies: vec![emp],
        });
        let mut client = self.client.clone();
        let reply = self.timed(client.action(req)).await?;
        let json: &[u8] = if reply.empty { b"[]" } else { &reply.json };
        serde_json::from_slice(json).map_err(|e| Error::internal(format!("peer call answer: {e}")))
    }

    /// The register's search (its searchable fields), at most `limit` rows.
    pub async fn search(
        &self,
        resource: &str,
        emp: Option<i64>,
        filter: &str,
        limit: i32,
    ) -> Result<Vec<Value>> {
        let req = self.request(SearchRequest {
            resource: resource.into(),
            emp,
            filter: filter.into(),
            limit,
        });
        let mut client = self.client.clone();
        let reply = self.timed(client.search(req)).await?;
        match row(&reply.rows_json)? {
            Value::Array(rows) => Ok(rows),
            _ => Err(Error::internal("peer search: not a list")),
        }
    }
}
