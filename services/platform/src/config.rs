//! Configuration from the environment. Every variable has a default that suits
//! `erp run` on one machine; README.md documents them.

use std::path::PathBuf;

/// Events a consumer takes at once when its configuration does not say
/// (`ERP_EVENT_BATCH`).
pub const DEFAULT_BATCH: usize = 256;

#[derive(Clone, Debug)]
pub struct Config {
    /// Owner connection: migrations and bootstrap run with it.
    pub database_url: String,
    /// Application connection (role `erp_app`, not owner, no BYPASSRLS). When unset it
    /// is derived from `database_url` with the user replaced by `erp_app`.
    pub database_app_url: Option<String>,
    pub app_db_password: Option<String>,
    pub db_max_connections: u32,
    /// One NATS server or several, comma-separated (the nodes of a cluster).
    pub nats_url: Option<String>,
    /// Replicas of the `ERP` stream when it is created (`ERP_NATS_REPLICAS`, 1 to
    /// 5; 3 on a 3-node JetStream cluster). An existing stream keeps its own.
    pub nats_replicas: usize,
    pub redis_url: Option<String>,
    /// Prefix of every cache key, so environments can share one Redis.
    pub cache_prefix: String,
    pub otlp_endpoint: Option<String>,
    pub operator_client_id: i64,
    pub jwt_secret: Option<String>,
    pub jwt_ttl_minutes: i64,
    pub data_dir: PathBuf,
    pub web_dir: PathBuf,
    pub http_addr: String,
    pub grpc_addr: String,
    pub admin_addr: String,
    /// Failed logins allowed per login name within `login_window_secs`.
    pub login_max_failures: i64,
    pub login_window_secs: u64,
    /// Events a consumer applies in one transaction, at most (`ERP_EVENT_BATCH`).
    pub event_batch: usize,
    /// GraphQL answers introspection queries (`ERP_GRAPHQL_INTROSPECTION=1`; on in
    /// `make run`/`make dev` for GraphiQL, off by default in production).
    pub graphql_introspection: bool,
}

pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/erp";
pub const APP_ROLE: &str = "erp_app";

impl Config {
    pub fn from_env() -> Self {
        Self::from_lookup(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
    }

    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Self {
        let parse_i64 = |k: &str, d: i64| get(k).and_then(|v| v.parse().ok()).unwrap_or(d);
        Config {
            database_url: get("DATABASE_URL").unwrap_or_else(|| DEFAULT_DATABASE_URL.into()),
            database_app_url: get("DATABASE_APP_URL"),
            app_db_password: get("ERP_APP_DB_PASSWORD"),
            db_max_connections: parse_i64("ERP_DB_MAX_CONNECTIONS", 16).clamp(1, 1000) as u32,
            nats_url: get("NATS_URL"),
            nats_replicas: parse_i64("ERP_NATS_REPLICAS", 1).clamp(1, 5) as usize,
            redis_url: get("REDIS_URL"),
            cache_prefix: get("ERP_CACHE_PREFIX").unwrap_or_else(|| "erp:".into()),
            otlp_endpoint: get("OTEL_EXPORTER_OTLP_ENDPOINT"),
            operator_client_id: parse_i64("ERP_OPERATOR_CLIENT_ID", 1),
            jwt_secret: get("ERP_JWT_SECRET"),
            jwt_ttl_minutes: parse_i64("ERP_JWT_TTL_MINUTES", 720).max(1),
            data_dir: get("ERP_DATA_DIR").unwrap_or_else(|| "data".into()).into(),
            web_dir: get("ERP_WEB_DIR")
                .unwrap_or_else(|| "web/dist".into())
                .into(),
            http_addr: get("ERP_HTTP_ADDR").unwrap_or_else(|| "0.0.0.0:8080".into()),
            grpc_addr: get("ERP_GRPC_ADDR").unwrap_or_else(|| "0.0.0.0:50051".into()),
            admin_addr: get("ERP_ADMIN_ADDR").unwrap_or_else(|| "0.0.0.0:9090".into()),
            login_max_failures: parse_i64("ERP_LOGIN_MAX_FAILURES", 100).max(1),
            login_window_secs: parse_i64("ERP_LOGIN_WINDOW_SECS", 900).max(1) as u64,
            event_batch: parse_i64("ERP_EVENT_BATCH", DEFAULT_BATCH as i64).clamp(1, 10_000)
                as usize,
            graphql_introspection: get("ERP_GRAPHQL_INTROSPECTION")
                .is_some_and(|v| matches!(v.as_str(), "1" | "true" | "on")),
        }
    }

    /// Upstream URL of a service for the gateway (`ERP_<SERVICE>_URL`), if configured.
    pub fn service_url(service: &str) -> Option<String> {
        std::env::var(format!("ERP_{}_URL", service.to_ascii_uppercase()))
            .ok()
            .filter(|v| !v.is_empty())
    }

    /// The JWT signing secret: `ERP_JWT_SECRET`, else one generated once and kept in
    /// `<data dir>/jwt.secret` (mode 0600) so tokens survive restarts.
    pub fn resolve_jwt_secret(&self) -> std::io::Result<String> {
        if let Some(s) = &self.jwt_secret {
            return Ok(s.clone());
        }
        let path = self.data_dir.join("jwt.secret");
        if let Ok(s) = std::fs::read_to_string(&path) {
            let s = s.trim().to_string();
            if s.len() >= 32 {
                return Ok(s);
            }
        }
        std::fs::create_dir_all(&self.data_dir)?;
        let mut bytes = [0u8; 48];
        rand::RngCore::fill_bytes(&mut rand::thread_rng(), &mut bytes);
        let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        write_private(&path, &secret)?;
        Ok(secret)
    }
}

#[cfg(unix)]
fn write_private(path: &std::path::Path, content: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)?;
    f.write_all(content.as_bytes())
}

#[cfg(not(unix))]
fn write_private(path: &std::path::Path, content: &str) -> std::io::Result<()> {
    std::fs::write(path, content)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_apply_when_unset() {
        let c = Config::from_lookup(|_| None);
        assert_eq!(c.database_url, DEFAULT_DATABASE_URL);
        assert_eq!(c.operator_client_id, 1);
        assert!(c.nats_url.is_none() && c.redis_url.is_none());
        assert_eq!(c.http_addr, "0.0.0.0:8080");
        assert_eq!(c.login_max_failures, 100);
        assert_eq!(c.nats_replicas, 1);
    }

    #[test]
    fn values_come_from_lookup() {
        let c = Config::from_lookup(|k| match k {
            "ERP_OPERATOR_CLIENT_ID" => Some("7".into()),
            "NATS_URL" => Some("nats://x:4222".into()),
            "ERP_DB_MAX_CONNECTIONS" => Some("nonsense".into()),
            "ERP_NATS_REPLICAS" => Some("3".into()),
            _ => None,
        });
        assert_eq!(c.nats_replicas, 3);
        assert_eq!(c.operator_client_id, 7);
        assert_eq!(c.nats_url.as_deref(), Some("nats://x:4222"));
        assert_eq!(c.db_max_connections, 16);
    }

    #[test]
    fn jwt_secret_is_generated_once_and_kept() {
        let dir = std::env::temp_dir().join(format!("erp-cfg-{}", uuid::Uuid::new_v4()));
        let c = Config::from_lookup(|k| (k == "ERP_DATA_DIR").then(|| dir.display().to_string()));
        let a = c.resolve_jwt_secret().expect("generate");
        let b = c.resolve_jwt_secret().expect("reuse");
        assert_eq!(a, b);
        assert!(a.len() >= 64);
        let _ = std::fs::remove_dir_all(dir);
    }
}
