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

/// A notification (`erp.v1.Notification`), pushed to the GraphQL subscriptions
/// of the users it is for ([`Notice::reaches`]).
#[derive(Clone, Debug, Default)]
pub struct Notice {
    /// 0: everyone (an announcement such as a new version).
    pub client_id: i64,
    /// 0: every user of company `emp_id`.
    pub user_id: i64,
    pub emp_id: i64,
    pub id: String,
    pub message: String,
    pub created_at: String,
    /// What it is about ("mensagem", "nfe", "boleto", "versao").
    pub kind: String,
    /// The screen it leads to (empty: none).
    pub link: String,
}

impl Notice {
    /// Whether user `user_id` of client `client_id`, who may use `companies`,
    /// gets it: addressed to them, to every user (0) of one of their companies,
    /// or to everyone (client 0). Another tenant's, never.
    pub fn reaches(&self, client_id: i64, user_id: i64, companies: &[i64]) -> bool {
        if self.client_id == 0 {
            return true;
        }
        if self.client_id != client_id {
            return false;
        }
        if self.user_id == 0 {
            companies.contains(&self.emp_id)
        } else {
            self.user_id == user_id
        }
    }
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

#[cfg(test)]
mod tests {
    use super::Notice;

    #[test]
    fn a_notice_reaches_its_user_its_companys_users_or_everyone_and_no_other_tenant() {
        let to =
            |client_id, user_id, emp_id| Notice { client_id, user_id, emp_id, ..Notice::default() };
        // User 7 of client 2, who may use companies 1 and 2.
        let reaches = |n: Notice| n.reaches(2, 7, &[1, 2]);
        assert!(reaches(to(2, 7, 0)), "addressed to them");
        assert!(
            reaches(to(2, 7, 9)),
            "addressed to them, whatever the company"
        );
        assert!(!reaches(to(2, 8, 1)), "another user's");
        assert!(reaches(to(2, 0, 1)), "every user of company 1");
        assert!(!reaches(to(2, 0, 3)), "company 3 is not theirs");
        assert!(reaches(to(0, 0, 0)), "everyone");
        assert!(!reaches(to(3, 0, 1)), "another tenant's company 1");
        assert!(!reaches(to(3, 7, 1)), "another tenant's user 7");
    }
}
