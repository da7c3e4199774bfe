//! Read connections: the register lists, counts and searches run here, one
//! statement each, outside any transaction.
//!
//! A list in a tenant transaction costs four round trips (the pool's ping, `BEGIN`
//! with the tenant setting, the statement, `COMMIT`) and, with the application
//! role's `force_custom_plan`, a fresh plan every time: at a million rows that is
//! most of what PostgreSQL spends on a 20-row page. Here the tenant is a session
//! setting (`set_config('app.client_id', .., false)`) that a connection keeps
//! between requests, and the connection is handed preferably to a caller of the
//! same client, so a list is one round trip. Connections plan with PostgreSQL's
//! default `plan_cache_mode = auto`: a statement whose values do not change its
//! best plan (equality filters, literal LIMIT/OFFSET) is planned once per
//! connection; statements whose plan depends on their values (text patterns,
//! ranges) run unnamed, which PostgreSQL always plans with the values bound.
//!
//! Why the session setting is safe: every statement run here is one of the
//! engine's reads, which filter `client_id` explicitly as well; the setting is
//! made for the caller before any statement, and forgotten (so made again) when
//! a request is abandoned half way. Row-level security stays in force on every
//! row, as in a transaction. No other code can reach these connections.
//!
//! Why not the sqlx pool or deadpool: neither can hand out a connection by what
//! it holds (here, the client its setting names).

use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, PgConnection};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::{Error, Result};

/// An idle connection is closed after this long unused.
const IDLE_FOR: Duration = Duration::from_secs(300);
/// And any connection after this long in service (server-side memory, plan caches).
const LIFETIME: Duration = Duration::from_secs(1800);
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(10);
/// A connection idle for longer is checked (one round trip) before it is lent:
/// the server may have ended it meanwhile (a restart, a network cut). One used a
/// moment ago is lent as it is, as HikariCP does within its half-second window;
/// should it be dead after all, the request that finds it fails and
/// [`ReadConn::finish`] closes it and its idle siblings.
const CHECK_AFTER: Duration = Duration::from_secs(1);

struct Idle {
    conn: PgConnection,
    client: Option<i64>,
    born: Instant,
    since: Instant,
}

struct Shared {
    opts: PgConnectOptions,
    idle: Mutex<Vec<Idle>>,
    permits: Arc<Semaphore>,
}

impl Shared {
    fn idle(&self) -> MutexGuard<'_, Vec<Idle>> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The read connections of one service.
#[derive(Clone)]
pub struct Reads {
    shared: Arc<Shared>,
}

impl Reads {
    /// Up to `max` connections, opened on demand with `opts` (the application
    /// role's), planning with PostgreSQL's default plan cache mode.
    pub fn new(opts: &PgConnectOptions, max: u32) -> Reads {
        let opts = opts.clone().options([("plan_cache_mode", "auto")]);
        Reads {
            shared: Arc::new(Shared {
                opts,
                idle: Mutex::new(Vec::new()),
                permits: Arc::new(Semaphore::new(max.max(1) as usize)),
            }),
        }
    }

    /// A connection whose statements see `client_id`'s rows only.
    pub async fn acquire(&self, client_id: i64) -> Result<ReadConn> {
        let permit =
            tokio::time::timeout(ACQUIRE_TIMEOUT, self.shared.permits.clone().acquire_owned())
                .await
                .map_err(|_| Error::Db(sqlx::Error::PoolTimedOut))?
                .map_err(|_| Error::Db(sqlx::Error::PoolClosed))?;
        let reused = self.take_idle(client_id);
        let fresh = reused.is_none();
        let mut conn = match reused {
            Some(idle) => {
                let check = idle.since.elapsed() > CHECK_AFTER;
                let mut conn = ReadConn::from_idle(idle, &self.shared, permit);
                if check {
                    conn.check_alive().await;
                }
                conn
            }
            None => self.open(permit).await?,
        };
        match conn.set_client(client_id).await {
            Ok(()) => Ok(conn),
            // An idle connection the server has dropped (a restart, a network cut):
            // its siblings are likely gone too, so start over with a new one.
            Err(e) if !fresh && is_broken(&e) => {
                let permit = conn.permit.take();
                drop(conn);
                self.clear_idle();
                let permit = match permit {
                    Some(p) => p,
                    None => return Err(Error::Db(e)),
                };
                let mut conn = self.open(permit).await?;
                conn.set_client(client_id).await?;
                Ok(conn)
            }
            Err(e) => Err(Error::Db(e)),
        }
    }

    /// The idle connection already set for `client_id`, else the most recently
    /// used one; closes those idle or alive for too long.
    fn take_idle(&self, client_id: i64) -> Option<Idle> {
        let mut idle = self.shared.idle();
        let now = Instant::now();
        idle.retain(|c| now - c.since < IDLE_FOR && now - c.born < LIFETIME);
        let at = idle
            .iter()
            .rposition(|c| c.client == Some(client_id))
            .or_else(|| idle.len().checked_sub(1))?;
        Some(idle.remove(at))
    }

    fn clear_idle(&self) {
        self.shared.idle().clear();
    }

    async fn open(&self, permit: OwnedSemaphorePermit) -> Result<ReadConn> {
        let conn = self.shared.opts.connect().await?;
        let now = Instant::now();
        Ok(ReadConn::from_idle(
            Idle { conn, client: None, born: now, since: now },
            &self.shared,
            permit,
        ))
    }

    /// Connections open and idle (for tests and metrics).
    pub fn idle_count(&self) -> usize {
        self.shared.idle().len()
    }
}

/// An error after which the connection cannot be used: lost, or ended by the
/// server (SQLSTATE classes 08, connection exception, and 57P, operator
/// intervention: a shutdown or a terminated backend).
fn is_broken(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_) | sqlx::Error::Protocol(_) | sqlx::Error::Tls(_) => true,
        sqlx::Error::Database(d) => d
            .code()
            .is_some_and(|c| c.starts_with("08") || c.starts_with("57P")),
        _ => false,
    }
}

/// A read connection lent to one request; [`ReadConn::finish`] gives it back.
pub struct ReadConn {
    conn: Option<PgConnection>,
    client: Option<i64>,
    born: Instant,
    shared: Arc<Shared>,
    permit: Option<OwnedSemaphorePermit>,
}

impl ReadConn {
    fn from_idle(idle: Idle, shared: &Arc<Shared>, permit: OwnedSemaphorePermit) -> ReadConn {
        ReadConn {
            conn: Some(idle.conn),
            client: idle.client,
            born: idle.born,
            shared: shared.clone(),
            permit: Some(permit),
        }
    }

    /// After a while idle: a round trip that fails on a connection the server
    /// ended. A dead one is marked so that the setting below fails as broken too.
    async fn check_alive(&mut self) {
        use sqlx::Connection;
        if let Some(conn) = self.conn.as_mut() {
            if conn.ping().await.is_err() {
                self.client = None;
            }
        }
    }

    async fn set_client(&mut self, client_id: i64) -> std::result::Result<(), sqlx::Error> {
        if self.client == Some(client_id) {
            return Ok(());
        }
        // Unknown until the server confirms: a request abandoned here leaves the
        // connection to be set again by its next user.
        self.client = None;
        let conn = self.conn.as_mut().ok_or(sqlx::Error::PoolClosed)?;
        sqlx::query("SELECT set_config('app.client_id', $1, false)")
            .bind(client_id.to_string())
            .execute(&mut *conn)
            .await?;
        self.client = Some(client_id);
        Ok(())
    }

    /// Ends the loan with the result of its statements: the connection goes back
    /// to the idle list unless it failed in a way that leaves it unusable.
    pub fn finish<T>(mut self, r: Result<T>) -> Result<T> {
        let reusable = match &r {
            Err(Error::Db(e)) => !is_broken(e) && !matches!(e, sqlx::Error::PoolTimedOut),
            _ => true,
        };
        if !reusable {
            // Its idle siblings were most likely ended with it.
            self.shared.idle().clear();
        } else if let Some(conn) = self.conn.take() {
            self.shared.idle().push(Idle {
                conn,
                client: self.client,
                born: self.born,
                since: Instant::now(),
            });
        }
        r
    }
}

impl Deref for ReadConn {
    type Target = PgConnection;
    fn deref(&self) -> &PgConnection {
        // Present from construction until drop.
        self.conn
            .as_ref()
            .expect("read connection present until dropped")
    }
}

impl DerefMut for ReadConn {
    fn deref_mut(&mut self) -> &mut PgConnection {
        self.conn
            .as_mut()
            .expect("read connection present until dropped")
    }
}

/// A loan not ended by [`ReadConn::finish`] (a request abandoned while its
/// statement ran, say) may leave the protocol half way: that connection is closed,
/// never lent again. The permit goes back either way.
impl Drop for ReadConn {
    fn drop(&mut self) {
        drop(self.conn.take());
        drop(self.permit.take());
    }
}
