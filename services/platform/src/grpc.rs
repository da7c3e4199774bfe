//! The caller of a gRPC request. The gateway verifies the token and the tenant
//! guard, then sends who is calling in metadata; services trust only the gateway
//! (the network policy lets nothing else reach their gRPC port).

use std::task::{Context, Poll};
use std::time::Instant;

use tonic::metadata::MetadataMap;

use crate::{Error, Result};

pub const CLIENT_HEADER: &str = "x-erp-client-id";
pub const USER_HEADER: &str = "x-erp-user-id";
pub const EMP_HEADER: &str = "x-erp-emp-id";
pub const PRIVILEGED_HEADER: &str = "x-erp-privileged";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caller {
    pub client_id: i64,
    pub user_id: i64,
    /// The user's current company.
    pub emp_id: i64,
    pub privileged: bool,
}

impl Caller {
    pub fn from_metadata(md: &MetadataMap) -> Result<Caller> {
        let get = |k: &str| -> Option<i64> { md.get(k)?.to_str().ok()?.parse().ok() };
        let missing = || Error::Unauthenticated("Sessão inválida.".into());
        Ok(Caller {
            client_id: get(CLIENT_HEADER).ok_or_else(missing)?,
            user_id: get(USER_HEADER).unwrap_or(0),
            emp_id: get(EMP_HEADER).unwrap_or(0),
            privileged: md.get(PRIVILEGED_HEADER).and_then(|v| v.to_str().ok()) == Some("1"),
        })
    }

    pub fn of<T>(req: &tonic::Request<T>) -> Result<Caller> {
        Self::from_metadata(req.metadata())
    }

    pub fn attach<T>(&self, req: &mut tonic::Request<T>) {
        let md = req.metadata_mut();
        for (k, v) in [
            (CLIENT_HEADER, self.client_id.to_string()),
            (USER_HEADER, self.user_id.to_string()),
            (EMP_HEADER, self.emp_id.to_string()),
            (
                PRIVILEGED_HEADER,
                if self.privileged {
                    "1".into()
                } else {
                    "0".into()
                },
            ),
        ] {
            if let Ok(v) = v.parse() {
                md.insert(k, v);
            }
        }
    }
}

/// Tower layer recording `grpc_server_handled_total` and
/// `grpc_server_handling_seconds` per method and status.
#[derive(Clone, Copy, Default)]
pub struct MetricsLayer;

impl<S> tower::Layer<S> for MetricsLayer {
    type Service = MetricsService<S>;
    fn layer(&self, inner: S) -> Self::Service {
        MetricsService { inner }
    }
}

#[derive(Clone)]
pub struct MetricsService<S> {
    inner: S,
}

impl<S, B, RB> tower::Service<http::Request<B>> for MetricsService<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<RB>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    B: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = std::pin::Pin<
        Box<dyn std::future::Future<Output = std::result::Result<S::Response, S::Error>> + Send>,
    >;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<std::result::Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        let method = req.uri().path().to_string();
        let fut = self.inner.call(req);
        Box::pin(async move {
            let start = Instant::now();
            let res = fut.await;
            let code = match &res {
                Ok(r) => r
                    .headers()
                    .get("grpc-status")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("0")
                    .to_string(),
                Err(_) => "transport".into(),
            };
            metrics::counter!("grpc_server_handled_total", "method" => method.clone(), "code" => code).increment(1);
            metrics::histogram!("grpc_server_handling_seconds", "method" => method)
                .record(start.elapsed().as_secs_f64());
            res
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caller_round_trips_through_metadata() {
        let c = Caller { client_id: 42, user_id: 7, emp_id: 2, privileged: true };
        let mut req = tonic::Request::new(());
        c.attach(&mut req);
        assert_eq!(Caller::of(&req).expect("caller"), c);
    }

    #[test]
    fn missing_client_is_unauthenticated() {
        let req = tonic::Request::new(());
        assert_eq!(Caller::of(&req).err().map(|e| e.http_status()), Some(401));
    }
}
