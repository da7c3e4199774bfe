//! What every gateway handler shares.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use erp_platform::bus::Bus;
use erp_platform::cache::Cache;
use erp_platform::config::Config;
use erp_platform::db::Db;
use erp_platform::resource::Registry;
use erp_proto::identity::v1::Principal;
use tokio::sync::broadcast;

use crate::token::Jwt;
use crate::upstream::Upstreams;

/// A notification for one user, pushed to their GraphQL subscription.
#[derive(Clone, Debug)]
pub struct Notice {
    pub client_id: i64,
    pub user_id: i64,
    pub id: String,
    pub message: String,
    pub created_at: String,
}

/// Dashboard figures of a company that moved (`DashboardChanged`), pushed to the
/// open dashboards of that client and company.
#[derive(Clone, Debug)]
pub struct FiguresChanged {
    pub client_id: i64,
    pub emp_id: i64,
    pub widgets: Vec<String>,
}

/// A company's message queue moved (`QueueChanged`), pushed to the open
/// Mensagens screens of that client and company.
#[derive(Clone, Copy, Debug)]
pub struct QueueMoved {
    pub client_id: i64,
    pub emp_id: i64,
}

/// What every handler reads, shared: a clone (one per request and per
/// extractor) is one reference count, not one per part.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> Self {
        AppState(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The gateway's state (see [`AppState`]).
pub struct Shared {
    pub cfg: Arc<Config>,
    pub jwt: Arc<Jwt>,
    pub cache: Arc<dyn Cache>,
    pub bus: Arc<dyn Bus>,
    pub db: Db,
    pub up: Arc<Upstreams>,
    pub registry: Arc<Registry>,
    pub uploads: Arc<Path>,
    pub notices: broadcast::Sender<Notice>,
    pub figures: broadcast::Sender<FiguresChanged>,
    pub queues: broadcast::Sender<QueueMoved>,
    /// Decoded principals by their versioned cache key (see `auth::principal`).
    pub principals: Arc<Principals>,
    /// The process's shutdown: readiness and new requests answer 503 once draining.
    pub shutdown: erp_platform::shutdown::Shutdown,
}

/// Principals already decoded in this process, by versioned key, with when they
/// were fetched: the shared cache still says which version is current (and
/// whether the token was revoked) on every request, but a known version is not
/// decoded again.
pub struct Principals(pub(crate) quick_cache::sync::Cache<String, (Arc<Principal>, Instant)>);

impl Default for Principals {
    fn default() -> Self {
        Principals(quick_cache::sync::Cache::new(10_000))
    }
}
