//! What every gateway handler shares.

use std::path::PathBuf;
use std::sync::Arc;

use erp_platform::bus::Bus;
use erp_platform::cache::Cache;
use erp_platform::config::Config;
use erp_platform::db::Db;
use erp_platform::resource::Registry;
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

#[derive(Clone)]
pub struct AppState {
    pub cfg: Arc<Config>,
    pub jwt: Arc<Jwt>,
    pub cache: Arc<dyn Cache>,
    pub bus: Arc<dyn Bus>,
    pub db: Db,
    pub up: Upstreams,
    pub registry: Arc<Registry>,
    pub uploads: PathBuf,
    pub notices: broadcast::Sender<Notice>,
}
