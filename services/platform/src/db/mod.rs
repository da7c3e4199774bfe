//! PostgreSQL: the owner connection that bootstraps and migrates, the application
//! pool (role `erp_app`: not owner, no BYPASSRLS) and the tenant transaction.
//!
//! Each service owns one schema and keeps its migration history there
//! (`<schema>._sqlx_migrations`), so services migrate independently. Tenant tables
//! have `client_id` first in the primary key and a forced row-level-security policy
//! on `client_id = erp_current_client()`; `begin_tenant` sets `app.client_id` with
//! `set_config(.., true)`, which lives only as long as the transaction, so a pooled
//! connection never carries a tenant into the next request. Register reads run on
//! their own connections instead ([`reads`]), one statement each.
//!
//! Layout: this module (pools, tenant transaction, bootstrap, migrations);
//! `reads` (the read connections, kept per client).

mod reads;

pub use reads::{ReadConn, Reads};

use std::str::FromStr;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{ConnectOptions, Connection, Executor, PgConnection, PgPool, Postgres, Transaction};

use crate::config::{Config, APP_ROLE};
use crate::{Error, Result};

pub type Tx = Transaction<'static, Postgres>;

/// Infrastructure tables every service schema gets (outbox, inbox, id counters),
/// kept beside the service's own migrations in the same history table.
static PLATFORM_MIGRATOR: Migrator = sqlx::migrate!("./migrations");

#[derive(Clone)]
pub struct Db {
    pub pool: PgPool,
    reads: Reads,
    /// Keeps the pool in [`POOLS`] while this `Db` or a clone lives.
    _gauged: Arc<PgPool>,
}

/// The process's pools (one per service in `erp run`), for the gauges.
static POOLS: Mutex<Vec<Weak<PgPool>>> = Mutex::new(Vec::new());

fn gauged(pool: &PgPool) -> Arc<PgPool> {
    let p = Arc::new(pool.clone());
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    pools.retain(|w| w.strong_count() > 0);
    pools.push(Arc::downgrade(&p));
    p
}

/// Sets the pool gauges from the live pools (called on each scrape):
/// `erp_db_pool_connections{state="in_use"|"idle"}` and
/// `erp_db_pool_max_connections` summed over them, and `erp_db_pool_usage_ratio`,
/// the share in use of the fullest (what runs out first).
pub fn record_pool_metrics() {
    let pools: Vec<Arc<PgPool>> = POOLS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .filter_map(Weak::upgrade)
        .collect();
    let (mut busy, mut idle, mut max, mut fullest) = (0.0, 0.0, 0.0, 0.0_f64);
    for p in &pools {
        let free = p.num_idle() as f64;
        let used = (p.size() as f64 - free).max(0.0);
        let cap = f64::from(p.options().get_max_connections().max(1));
        (busy, idle, max) = (busy + used, idle + free, max + cap);
        fullest = fullest.max(used / cap);
    }
    metrics::gauge!("erp_db_pool_connections", "state" => "in_use").set(busy);
    metrics::gauge!("erp_db_pool_connections", "state" => "idle").set(idle);
    metrics::gauge!("erp_db_pool_max_connections").set(max);
    metrics::gauge!("erp_db_pool_usage_ratio").set(fullest);
}

impl Db {
    /// The application pool, as `erp_app`.
    pub async fn connect(cfg: &Config) -> Result<Db> {
        let opts = app_options(cfg)?;
        let pool = PgPoolOptions::new()
            .max_connections(cfg.db_max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(opts.clone())
            .await?;
        let reads = Reads::new(&opts, cfg.db_max_connections);
        let _gauged = gauged(&pool);
        Ok(Db { pool, reads, _gauged })
    }

    /// A `Db` over an existing pool; its reads open connections the same way.
    pub fn from_pool(pool: PgPool) -> Db {
        let reads = Reads::new(
            &pool.connect_options(),
            pool.options().get_max_connections(),
        );
        let _gauged = gauged(&pool);
        Db { pool, reads, _gauged }
    }

    /// A read connection for `client_id` (register lists, counts and searches:
    /// one statement each, no transaction). End the loan with [`ReadConn::finish`].
    pub async fn read(&self, client_id: i64) -> Result<ReadConn> {
        self.reads.acquire(client_id).await
    }

    /// Read connections open and idle.
    pub fn reads_idle(&self) -> usize {
        self.reads.idle_count()
    }

    /// A transaction bound to one client: every statement in it sees only that
    /// client's rows.
    pub async fn begin_tenant(&self, client_id: i64) -> Result<Tx> {
        // One round trip: BEGIN and the tenant setting in one simple query (the id
        // is an integer, formatted, never text from a request).
        Ok(self
            .pool
            .begin_with(format!(
                "BEGIN; SELECT set_config('app.client_id', '{client_id}', true)"
            ))
            .await?)
    }

    /// A transaction without a tenant: tenant tables show no rows in it. Used for
    /// global reference data and infrastructure tables.
    pub async fn begin(&self) -> Result<Tx> {
        Ok(self.pool.begin().await?)
    }

    pub async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }
}

/// The owner's connection options (migrations, maintenance commands).
pub fn owner_options(cfg: &Config) -> Result<PgConnectOptions> {
    let opts = PgConnectOptions::from_str(&cfg.database_url)
        .map_err(|e| Error::internal(format!("DATABASE_URL inválida: {e}")))?;
    Ok(plain_on_loopback(opts, &cfg.database_url).disable_statement_logging())
}

/// A server on this machine is reached without TLS unless the URL (or PGSSLMODE)
/// asks for it: encryption over loopback protects nothing and cost a sixth of the
/// CPU of a register list. Any other host keeps the driver's `prefer`.
fn plain_on_loopback(opts: PgConnectOptions, url: &str) -> PgConnectOptions {
    let asked = url.contains("sslmode=") || std::env::var_os("PGSSLMODE").is_some();
    let host = opts.get_host();
    let local = host.starts_with('/') || matches!(host, "localhost" | "127.0.0.1" | "::1");
    if local && !asked {
        opts.ssl_mode(sqlx::postgres::PgSslMode::Disable)
    } else {
        opts
    }
}

fn app_options(cfg: &Config) -> Result<PgConnectOptions> {
    let opts = match &cfg.database_app_url {
        Some(url) => plain_on_loopback(
            PgConnectOptions::from_str(url)
                .map_err(|e| Error::internal(format!("DATABASE_APP_URL inválida: {e}")))?,
            url,
        ),
        None => {
            let o = owner_options(cfg)?.username(APP_ROLE);
            match &cfg.app_db_password {
                Some(p) => o.password(p),
                None => o,
            }
        }
    };
    Ok(opts.application_name("erp").disable_statement_logging())
}

/// Creates the database if it is missing (connecting to `postgres`), then the
/// application role and the tenant helper function. Idempotent; safe to run from
/// several processes at once (advisory lock).
pub async fn bootstrap(cfg: &Config) -> Result<()> {
    let opts = owner_options(cfg)?;
    let dbname = opts.get_database().unwrap_or("erp").to_string();
    match PgConnection::connect_with(&opts).await {
        Ok(c) => c.close().await?,
        Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("3D000") => {
            let mut admin = PgConnection::connect_with(&opts.clone().database("postgres")).await?;
            let sql = format!("CREATE DATABASE {}", quote_ident(&dbname));
            if let Err(e) = admin.execute(sql.as_str()).await {
                // Another process may have created it meanwhile.
                if !matches!(&e, sqlx::Error::Database(d) if d.code().as_deref() == Some("42P04")) {
                    return Err(e.into());
                }
            }
            admin.close().await?;
        }
        Err(e) => return Err(e.into()),
    }

    let mut conn = PgConnection::connect_with(&opts).await?;
    conn.execute("SELECT pg_advisory_lock(7301001)").await?;
    let result = bootstrap_locked(&mut conn, cfg).await;
    conn.execute("SELECT pg_advisory_unlock(7301001)").await?;
    conn.close().await?;
    result
}

async fn bootstrap_locked(conn: &mut PgConnection, cfg: &Config) -> Result<()> {
    // Roles are cluster-wide while advisory locks are per database: several
    // databases bootstrapping at once (test binaries) may race here, so creating
    // tolerates "already exists" and changing retries a concurrent update.
    let state: Option<(bool, bool)> =
        sqlx::query_as("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1")
            .bind(APP_ROLE)
            .fetch_optional(&mut *conn)
            .await?;
    if state.is_none() {
        let create =
            format!("CREATE ROLE {APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE");
        if let Err(e) = conn.execute(create.as_str()).await {
            let benign = matches!(&e, sqlx::Error::Database(d) if matches!(d.code().as_deref(), Some("42710") | Some("23505")));
            if !benign {
                return Err(e.into());
            }
        }
    }
    // Whatever happened before, the role must never be superuser or bypass RLS.
    if state != Some((false, false)) {
        retry_concurrent(
            conn,
            &format!("ALTER ROLE {APP_ROLE} NOSUPERUSER NOBYPASSRLS"),
        )
        .await?;
    }
    // Register lists are generated statements with LIKE patterns and LIMITs whose
    // best plan depends on the values (a common name walks the order index, a rare
    // one the trigram index): plan each execution rather than reuse a generic plan.
    if plan_mode(conn).await?.as_deref() != Some("plan_cache_mode=force_custom_plan") {
        retry_concurrent(
            conn,
            &format!("ALTER ROLE {APP_ROLE} SET plan_cache_mode = force_custom_plan"),
        )
        .await?;
    }
    if let Some(p) = &cfg.app_db_password {
        retry_concurrent(
            conn,
            &format!("ALTER ROLE {APP_ROLE} PASSWORD {}", quote_literal(p)),
        )
        .await?;
    }
    conn.execute(
        "CREATE OR REPLACE FUNCTION public.erp_current_client() RETURNS bigint \
         LANGUAGE sql STABLE PARALLEL SAFE AS \
         $$ SELECT NULLIF(current_setting('app.client_id', true), '')::bigint $$",
    )
    .await?;
    conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        .await?;
    Ok(())
}

async fn plan_mode(conn: &mut PgConnection) -> Result<Option<String>> {
    let settings: Option<Vec<String>> = sqlx::query_scalar(
        "SELECT setconfig FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole \
         WHERE r.rolname = $1 AND s.setdatabase = 0",
    )
    .bind(APP_ROLE)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(settings.and_then(|v| v.into_iter().find(|s| s.starts_with("plan_cache_mode="))))
}

async fn retry_concurrent(conn: &mut PgConnection, sql: &str) -> Result<()> {
    let mut attempt = 0;
    loop {
        match conn.execute(sql).await {
            Ok(_) => return Ok(()),
            Err(sqlx::Error::Database(d))
                if d.code().as_deref() == Some("XX000") && attempt < 5 =>
            {
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(50 * attempt)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Runs the platform's and the service's migrations in `schema`, as owner, then
/// grants the application role what it needs there.
pub async fn migrate(cfg: &Config, schema: &str, migrator: &Migrator) -> Result<()> {
    if !schema.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
        return Err(Error::internal(format!("invalid schema name {schema}")));
    }
    let mut conn = PgConnection::connect_with(&owner_options(cfg)?).await?;
    conn.execute(format!("CREATE SCHEMA IF NOT EXISTS {schema}").as_str())
        .await?;
    // One owner connection whose search_path is the schema: the history table and
    // unqualified names in migrations land there.
    let search_path = format!("SET search_path TO {schema}, public");
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .after_connect(move |c, _| {
            let sql = search_path.clone();
            Box::pin(async move {
                c.execute(sql.as_str()).await?;
                Ok(())
            })
        })
        .connect_with(owner_options(cfg)?)
        .await?;
    let mut platform = clone_migrator(&PLATFORM_MIGRATOR);
    platform.set_ignore_missing(true);
    platform.run(&pool).await.map_err(Error::internal)?;
    let mut service = clone_migrator(migrator);
    service.set_ignore_missing(true);
    service.run(&pool).await.map_err(Error::internal)?;
    pool.close().await;
    for stmt in [
        format!("GRANT USAGE ON SCHEMA {schema} TO {APP_ROLE}"),
        format!(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {APP_ROLE}"
        ),
        format!("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {APP_ROLE}"),
        format!("REVOKE ALL ON {schema}._sqlx_migrations FROM {APP_ROLE}"),
    ] {
        conn.execute(stmt.as_str()).await?;
    }
    conn.close().await?;
    Ok(())
}

fn clone_migrator(m: &Migrator) -> Migrator {
    Migrator {
        migrations: m.migrations.clone(),
        ignore_missing: m.ignore_missing,
        locking: m.locking,
        no_tx: m.no_tx,
    }
}

/// Quotes an identifier for the few statements that cannot bind it.
pub fn quote_ident(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

fn quote_literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}
