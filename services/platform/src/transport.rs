//! Where a service's gRPC server takes its connections, and how the gateway
//! reaches it.
//!
//! `erp serve <service>` listens on TCP; the gateway of `erp gateway` connects to
//! its URL. In `erp run` everything is one process: each service takes its
//! connections from an in-memory channel ([`memory`]) and the gateway's channel
//! hands it one end of an in-memory duplex pipe per connection — the same tonic
//! clients and servers, the same interceptors and layers, HTTP/2 over memory
//! instead of loopback TCP (no syscalls, no Nagle, no ports).

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
