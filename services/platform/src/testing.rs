//! Helpers for integration tests of every crate: a fresh database per test binary
//! on the real PostgreSQL (`TEST_DATABASE_URL`, default the local server), and the
//! URLs of the real NATS and Redis.

use std::str::FromStr;

use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection, Executor};

use crate::config::Config;

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
        let mut n = NatsServer {
            port,
            dir,
            child: None,
        };
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
        let child = std::process::Command::new(bin)
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
    let caller = crate::grpc::Caller {
        client_id,
        user_id: 1,
        emp_id: 1,
        privileged: true,
    };
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
