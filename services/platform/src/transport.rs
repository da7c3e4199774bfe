//! Where a service's gRPC server takes its connections, and how the gateway
//! reaches it.
//!
//! Every client of a service is a tonic client over a [`GrpcLink`]: one boxed
//! tower service, whatever is behind it.
//!
//! - `erp serve <service>` listens on TCP; `erp gateway` (and other services, see
//!   `service::Peers`) reach it through a tonic `Channel` to its URL
//!   ([`link_channel`]): HTTP/2 over loopback or the network.
//! - In `erp run` everything is one process: a service hands its gRPC routes,
//!   with the same metrics layer and trace span, through its [`Listener::Direct`]
//!   slot, and a caller's request is a call of that tower service in the caller's
//!   own task ([`link_routes`]): protobuf in and out as over the network, but no
//!   HTTP/2 framing, no pipe, no task hand-off.
//! - [`memory`] keeps the in-memory HTTP/2 variant (duplex pipes) for tests that
//!   want a real connection without ports.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use futures::Stream;
use tokio::io::{AsyncRead, AsyncWrite, DuplexStream, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tonic::transport::server::Connected;
use tonic::transport::{Channel, Endpoint};

/// Size of an in-memory connection's buffer each way.
const PIPE_BYTES: usize = 256 * 1024;

/// A service's source of connections.
pub enum Listener {
    Tcp(TcpListener),
    Memory(mpsc::UnboundedReceiver<DuplexStream>),
    /// No connections: the service hands its routes to the caller in the same
    /// process (see [`direct`]).
    Direct(tokio::sync::oneshot::Sender<GrpcLink>),
}

/// How a client reaches a service: a boxed tower service taking gRPC requests.
/// `ResourceServiceClient::new(link)` and every other generated client accept it.
pub type GrpcLink = tower::util::BoxCloneSyncService<
    http::Request<tonic::body::Body>,
    http::Response<tonic::body::Body>,
    LinkError,
>;

/// A transport error of a [`GrpcLink`] (a concrete type: a bare `BoxError` there
/// trips the compiler's higher-ranked lifetime checks in async callers).
#[derive(Debug)]
pub struct LinkError(pub tower::BoxError);

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for LinkError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// A link over a tonic channel (TCP, or in-memory HTTP/2).
pub fn link_channel(ch: Channel) -> GrpcLink {
    use tower::ServiceExt;
    GrpcLink::new(
        ch.map_response(|r| r.map(tonic::body::Body::new))
            .map_err(|e| LinkError(e.into())),
    )
}

/// A link straight to a service's routes in this process, with the layers its
/// server would apply: the trace span (from the request's `traceparent`) and the
/// gRPC metrics.
pub fn link_routes(routes: tonic::service::Routes) -> GrpcLink {
    use tower::{Layer, ServiceExt};
    let svc = crate::grpc::MetricsLayer.layer(routes.prepare());
    GrpcLink::new(ServiceExt::<http::Request<tonic::body::Body>>::map_err(
        SpanService { inner: svc },
        |never: std::convert::Infallible| -> LinkError { match never {} },
    ))
}

/// Runs each request's future inside the span `telemetry::grpc_server_span` makes
/// for it, as tonic's server does with `trace_fn`.
#[derive(Clone)]
struct SpanService<S> {
    inner: S,
}

impl<S, B> tower::Service<http::Request<B>> for SpanService<S>
where
    S: tower::Service<http::Request<B>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = tracing::instrument::Instrumented<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        use tracing::Instrument;
        let mut head = http::Request::new(());
        *head.uri_mut() = req.uri().clone();
        *head.headers_mut() = req.headers().clone();
        let span = crate::telemetry::grpc_server_span(&head);
        self.inner.call(req).instrument(span)
    }
}

/// The slot a service hands its routes through, and the listener that carries it.
pub fn direct() -> (tokio::sync::oneshot::Receiver<GrpcLink>, Listener) {
    let (tx, rx) = tokio::sync::oneshot::channel();
    (rx, Listener::Direct(tx))
}

impl From<TcpListener> for Listener {
    fn from(l: TcpListener) -> Self {
        Listener::Tcp(l)
    }
}

/// The gateway's end of a service's in-memory listener.
#[derive(Clone)]
pub struct MemoryConnector {
    tx: mpsc::UnboundedSender<DuplexStream>,
}

/// An in-memory listener and the connector that reaches it.
pub fn memory() -> (MemoryConnector, Listener) {
    let (tx, rx) = mpsc::unbounded_channel();
    (MemoryConnector { tx }, Listener::Memory(rx))
}

impl MemoryConnector {
    /// A lazily connected channel whose connections are in-memory pipes.
    pub fn channel(&self) -> Channel {
        let tx = self.tx.clone();
        Endpoint::from_static("http://in-process")
            .connect_timeout(Duration::from_secs(5))
            .connect_with_connector_lazy(tower::service_fn(move |_: http::Uri| {
                let tx = tx.clone();
                async move {
                    let (client, server) = tokio::io::duplex(PIPE_BYTES);
                    tx.send(server).map_err(|_| {
                        io::Error::new(io::ErrorKind::NotConnected, "service stopped")
                    })?;
                    Ok::<_, io::Error>(hyper_util::rt::TokioIo::new(client))
                }
            }))
    }
}

/// A connection a service accepted.
pub enum Conn {
    Tcp(TcpStream),
    Memory(DuplexStream),
}

impl Connected for Conn {
    type ConnectInfo = ();
    fn connect_info(&self) -> Self::ConnectInfo {}
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Conn::Tcp(s) => Pin::new(s).poll_read(cx, buf),
            Conn::Memory(s) => Pin::new(s).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Conn::Tcp(s) => Pin::new(s).poll_write(cx, buf),
            Conn::Memory(s) => Pin::new(s).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Conn::Tcp(s) => Pin::new(s).poll_flush(cx),
            Conn::Memory(s) => Pin::new(s).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Conn::Tcp(s) => Pin::new(s).poll_shutdown(cx),
            Conn::Memory(s) => Pin::new(s).poll_shutdown(cx),
        }
    }
}

/// The accepted connections of a listener, for `serve_with_incoming`. TCP ones get
/// TCP_NODELAY: small request/response frames must not wait for delayed ACKs.
pub fn incoming(listener: Listener) -> Pin<Box<dyn Stream<Item = io::Result<Conn>> + Send>> {
    match listener {
        Listener::Direct(_) => Box::pin(futures::stream::pending()),
        Listener::Tcp(l) => Box::pin(futures::stream::unfold(l, |l| async move {
            let next = l.accept().await.map(|(s, _)| {
                if let Err(e) = s.set_nodelay(true) {
                    tracing::debug!(error = %e, "TCP_NODELAY not set");
                }
                Conn::Tcp(s)
            });
            Some((next, l))
        })),
        Listener::Memory(mut rx) => Box::pin(futures::stream::poll_fn(move |cx| {
            rx.poll_recv(cx).map(|c| c.map(|s| Ok(Conn::Memory(s))))
        })),
    }
}
