//! Helpers for integration tests of every crate: a fresh database per test binary
//! on the real PostgreSQL (`TEST_DATABASE_URL`, default the local server), the
//! per-binary set-up of a crate's tests (`TestCtx`), and the URLs of the real NATS
//! and Redis. Compiled only with the `testing` feature, which crates enable in
//! their `[dev-dependencies]`.

use std::str::FromStr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::OnceLock;

use futures::future::BoxFuture;
use serde_json::{Map, Value};
use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection, Executor};

use crate::config::Config;
use crate::db::Db;
use crate::grpc::Caller;
use crate::resource::{query, Resource};

/// The set-up a crate's integration-test binary shares: one migrated database for
/// the whole binary, fresh client ids and callers, and the register operations
/// each in a tenant transaction of its own, committed when they succeed.
///
/// Only the configuration is shared: every test opens its own pool (`db`), because
/// a pool belongs to the runtime that created it and each test has its own runtime.
///
/// ```ignore
/// use erp_platform::testing::TestCtx;
///
/// static CTX: TestCtx = TestCtx::new("orders", |cfg| {
///     Box::pin(async move { erp_orders::migrate(&cfg).await })
/// });
///
/// #[tokio::test]
/// async fn a_quote_is_created() {
///     let db = CTX.db().await;
///     let me = CTX.caller(CTX.client(), 1);
///     let reg = erp_orders::resources::registry().expect("registry");
///     let body = serde_json::json!({"ORCA_CLI_ID": 1});
///     let res = reg.get("orcamento").expect("declared");
///     CTX.create(&db, res, &me, Some(1), body.as_object().expect("object"))
///         .await
///         .expect("created");
/// }
/// ```
pub struct TestCtx {
    prefix: &'static str,
    migrate: fn(Config) -> BoxFuture<'static, crate::Result<()>>,
    config: OnceLock<Config>,
    next_client: AtomicI64,
}

impl TestCtx {
    /// `prefix` names the test databases (`erp_it_<prefix>_…`); `migrate` runs the
    /// crate's migrations on the fresh, bootstrapped database.
    pub const fn new(
        prefix: &'static str,
        migrate: fn(Config) -> BoxFuture<'static, crate::Result<()>>,
    ) -> TestCtx {
        TestCtx {
            prefix,
            migrate,
            config: OnceLock::new(),
            next_client: AtomicI64::new(1000),
        }
    }

    /// The configuration of this binary's database: on first use, drops stale
    /// databases of the prefix, creates, bootstraps and migrates a fresh one, on a
    /// thread and runtime of its own so no test's runtime owns it. `TEST_LOG` set
    /// turns on logging (`<prefix>-it`).
    pub fn config(&self) -> Config {
        self.config
            .get_or_init(|| {
                let (prefix, migrate) = (self.prefix, self.migrate);
                std::thread::spawn(move || {
                    let rt = tokio::runtime::Runtime::new().expect("runtime");
                    rt.block_on(async move {
                        if std::env::var("TEST_LOG").is_ok() {
                            crate::telemetry::init(&format!("{prefix}-it"), None);
                        }
                        drop_stale(prefix).await;
                        let cfg = fresh_database(prefix).await;
                        crate::db::bootstrap(&cfg).await.expect("bootstrap");
                        migrate(cfg.clone()).await.expect("migrate");
                        cfg
                    })
                })
                .join()
                .expect("setup thread")
            })
            .clone()
    }

    /// A pool of the app role on this binary's database, for the calling test.
    pub async fn db(&self) -> Db {
        Db::connect(&self.config()).await.expect("app pool")
    }

    /// A client id no other test of the binary uses (from 1000).
    pub fn client(&self) -> i64 {
        self.next_client.fetch_add(1, Ordering::SeqCst)
    }

    /// A non-privileged caller of `client_id` in company 1.
    pub fn caller(&self, client_id: i64, user_id: i64) -> Caller {
        Caller { client_id, user_id, emp_id: 1, privileged: false }
    }

    /// `query::create` in a transaction of the caller's client, committed.
    pub async fn create(
        &self,
        db: &Db,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        body: &Map<String, Value>,
    ) -> crate::Result<Value> {
        let mut tx = db.begin_tenant(caller.client_id).await?;
        let row = query::create(&mut tx, res, caller, emp, body).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// `query::update` in a transaction of the caller's client, committed.
    pub async fn update(
        &self,
        db: &Db,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        key: &[String],
        body: &Map<String, Value>,
    ) -> crate::Result<Value> {
        let mut tx = db.begin_tenant(caller.client_id).await?;
        let row = query::update(&mut tx, res, caller, emp, key, body).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// `query::get` in a transaction of the caller's client.
    pub async fn get(
        &self,
        db: &Db,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        key: &[String],
    ) -> crate::Result<Value> {
        let mut tx = db.begin_tenant(caller.client_id).await?;
        let row = query::get(&mut tx, res, caller, emp, key).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// `query::delete` in a transaction of the caller's client, committed.
    pub async fn delete(
        &self,
        db: &Db,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        key: &[String],
    ) -> crate::Result<Value> {
        let mut tx = db.begin_tenant(caller.client_id).await?;
        let row = query::delete(&mut tx, res, caller, emp, key).await?;
        tx.commit().await?;
        Ok(row)
    }

    /// `query::list` in a transaction of the caller's client.
    pub async fn list(
        &self,
        db: &Db,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        body: &Map<String, Value>,
    ) -> crate::Result<Vec<Value>> {
        let mut tx = db.begin_tenant(caller.client_id).await?;
        let rows = query::list(&mut tx, res, caller, emp, body).await?;
        tx.commit().await?;
        Ok(rows)
    }
}

pub fn admin_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

pub fn nats_url() -> String {
    std::env::var("TEST_NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".into())
}

pub fn redis_url() -> String {
    std::env::var("TEST_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".into())
}

/// Creates an empty database named `erp_it_<prefix>_<random>` and returns a config
/// pointing at it (in-process bus and cache unless the caller sets them).
pub async fn fresh_database(prefix: &str) -> Config {
    let admin = PgConnectOptions::from_str(&admin_url()).expect("TEST_DATABASE_URL");
    let name = format!("erp_it_{prefix}_{}", uuid::Uuid::new_v4().simple());
    let mut conn = admin
        .connect()
        .await
        .expect("connect to PostgreSQL as admin");
    conn.execute(format!("CREATE DATABASE {name}").as_str())
        .await
        .expect("create test database");
    conn.close().await.ok();
    let url = admin.database(&name).to_url_lossy().to_string();
    let data = std::env::temp_dir().join(&name);
    Config::from_lookup(|k| match k {
        "DATABASE_URL" => Some(url.clone()),
        "ERP_DATA_DIR" => Some(data.display().to_string()),
        "ERP_JWT_SECRET" => Some("test-secret-test-secret-test-secret-0123".into()),
        "ERP_CACHE_PREFIX" => Some(format!("{name}:")),
        // Two tests' stacks of six services at once must stay well inside the
        // shared server's 100 connections (16 each would be 192).
        "ERP_DB_MAX_CONNECTIONS" => Some("6".into()),
        _ => None,
    })
}

/// Drops test databases left by earlier runs (older than a day or from this run's
/// prefix) so a developer machine does not fill up.
pub async fn drop_stale(prefix: &str) {
    let Ok(admin) = PgConnectOptions::from_str(&admin_url()) else {
        return;
    };
    let Ok(mut conn) = admin.connect().await else {
        return;
    };
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname NOT IN
           (SELECT datname FROM pg_stat_activity WHERE datname IS NOT NULL)",
    )
    .bind(format!("erp_it_{prefix}_%"))
    .fetch_all(&mut conn)
    .await
    .unwrap_or_default();
    for n in names {
        let _ = conn
            .execute(format!("DROP DATABASE IF EXISTS {n}").as_str())
            .await;
    }
}

/// A NATS JetStream server of the test's own (isolated from the machine's and from
/// other runs), which a test can stop and start again on the same port and store.
pub struct NatsServer {
    pub port: u16,
    dir: std::path::PathBuf,
    child: Option<std::process::Child>,
}

impl NatsServer {
    pub fn start() -> NatsServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("free port")
            .port();
        let dir = std::env::temp_dir().join(format!("erp-nats-{}", uuid::Uuid::new_v4().simple()));
        let mut n = NatsServer { port, dir, child: None };
        n.up();
        n
    }

    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    pub fn up(&mut self) {
        let bin = std::env::var("NATS_SERVER_BIN").unwrap_or_else(|_| {
            let sbin = "/usr/sbin/nats-server";
            if std::path::Path::new(sbin).exists() {
                sbin.into()
            } else {
                "nats-server".into()
            }
        });
        let mut cmd = std::process::Command::new(bin);
        // The server dies with the test process: a test binary's shared server
        // (one per binary, on a thread that lives until the process exits) is
        // never dropped, and would outlive every run.
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
        unsafe {
            use std::os::unix::process::CommandExt;
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let child = cmd
            .args([
                "-a",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-js",
                "-sd",
            ])
            .arg(&self.dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("nats-server on PATH (or NATS_SERVER_BIN)");
        self.child = Some(child);
        for _ in 0..200 {
            if std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        panic!("nats-server did not start on port {}", self.port);
    }

    pub fn down(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.down();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The table-driven register test: for every register of `registry`, in order,
/// create its sample, then get, list (default order, FILTRO on its label), count,
/// search and update it; then delete them all in reverse order (so references
/// hold) and check each is gone. Returns the first failure, naming the register.
pub async fn exercise_registry(
    db: &crate::db::Db,
    registry: &crate::resource::Registry,
    client_id: i64,
) -> Result<usize, String> {
    use crate::resource::query;
    use serde_json::{Map, Value};
    let caller = crate::grpc::Caller { client_id, user_id: 1, emp_id: 1, privileged: true };
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut created = Vec::new();
    for res in registry.all() {
        let name = &res.name;
        let fail = |step: &str, e: &dyn std::fmt::Display| format!("{name}: {step}: {e}");
        let sample = res
            .sample
            .clone()
            .and_then(|s| s.as_object().cloned())
            .ok_or_else(|| format!("{name}: no sample"))?;
        let emp = res.company.as_ref().map(|_| 1);
        let mut tx = db
            .begin_tenant(client_id)
            .await
            .map_err(|e| fail("begin", &e))?;
        let row = query::create(&mut tx, res, &caller, emp, &sample)
            .await
            .map_err(|e| fail("create", &e))?;
        let key: Vec<String> = res.key.iter().map(|k| text(&row[k])).collect();
        let got = query::get(&mut tx, res, &caller, emp, &key)
            .await
            .map_err(|e| fail("get", &e))?;
        if got != row {
            return Err(fail("get", &"row differs from the created one"));
        }
        let same = |r: &Value| res.key.iter().zip(&key).all(|(k, v)| text(&r[k]) == *v);
        let mut body = Map::new();
        body.insert("ORDENACAO".into(), Value::from(res.default_order.clone()));
        body.insert("LIMIT".into(), Value::from(6000));
        let rows = query::list(&mut tx, res, &caller, emp, &body)
            .await
            .map_err(|e| fail("list", &e))?;
        if !rows.iter().any(same) {
            return Err(fail("list", &"created row not listed"));
        }
        let label = text(&row[&res.label]);
        let mut body = Map::new();
        body.insert("FILTRO".into(), Value::from(label.clone()));
        let rows = query::list(&mut tx, res, &caller, emp, &body)
            .await
            .map_err(|e| fail("list FILTRO", &e))?;
        if !rows.iter().any(same) {
            return Err(fail(
                "list FILTRO",
                &format!("'{label}' did not find the row"),
            ));
        }
        let n = query::count(&mut tx, res, &caller, emp, &Map::new())
            .await
            .map_err(|e| fail("count", &e))?;
        if n < 1 {
            return Err(fail("count", &n));
        }
        let found = query::search(&mut tx, res, &caller, emp, &label, 1000)
            .await
            .map_err(|e| fail("search", &e))?;
        if !found.iter().any(same) {
            return Err(fail("search", &format!("'{label}' did not find the row")));
        }
        let updated = query::update(&mut tx, res, &caller, emp, &key, &sample)
            .await
            .map_err(|e| fail("update", &e))?;
        if !same(&updated) {
            return Err(fail("update", &"key changed"));
        }
        tx.commit().await.map_err(|e| fail("commit", &e))?;
        created.push((res.clone(), emp, key));
    }
    let total = created.len();
    for (res, emp, key) in created.into_iter().rev() {
        let mut tx = db
            .begin_tenant(client_id)
            .await
            .map_err(|e| e.to_string())?;
        query::delete(&mut tx, &res, &caller, emp, &key)
            .await
            .map_err(|e| format!("{}: delete: {e}", res.name))?;
        if query::get(&mut tx, &res, &caller, emp, &key).await.is_ok() {
            return Err(format!("{}: still there after delete", res.name));
        }
        tx.commit().await.map_err(|e| e.to_string())?;
    }
    Ok(total)
}

/// A tenant transaction that reads one snapshot (REPEATABLE READ): for checks that
/// compare two reads (a balance and its ledger) while consumers commit beside them.
pub async fn begin_snapshot(db: &Db, client_id: i64) -> crate::Result<crate::db::Tx> {
    Ok(db
        .pool
        .begin_with(format!(
            "BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT set_config('app.client_id', '{client_id}', true)"
        ))
        .await?)
}

/// Waits until `check` holds, polling every 50 ms, and panics naming `what` after
/// `secs` seconds: tests wait on a condition, never on a fixed sleep.
pub async fn until<F, Fut>(what: &str, secs: u64, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(secs);
    while tokio::time::Instant::now() < deadline {
        if check().await {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}
