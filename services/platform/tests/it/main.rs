//! Integration tests of the platform against real PostgreSQL, NATS and Redis.

mod bus;
mod cache;
mod db;
mod document;
mod resource;

use std::sync::OnceLock;

use erp_platform::config::Config;
use erp_platform::db::Db;
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "plat_it";
static MIGRATOR: Migrator = sqlx::migrate!("./tests/it/migrations");

/// One migrated database for the whole binary, created on a thread of its own so
/// no test's runtime owns it.
pub fn config() -> Config {
    static CFG: OnceLock<Config> = OnceLock::new();
    CFG.get_or_init(|| {
        std::thread::spawn(|| {
            let rt = tokio::runtime::Runtime::new().expect("runtime");
            rt.block_on(async {
                if std::env::var("TEST_LOG").is_ok() {
                    erp_platform::telemetry::init("platform-it", None);
                }
                erp_platform::testing::drop_stale("platform").await;
                let cfg = erp_platform::testing::fresh_database("platform").await;
                erp_platform::db::bootstrap(&cfg).await.expect("bootstrap");
                erp_platform::db::migrate(&cfg, SCHEMA, &MIGRATOR)
                    .await
                    .expect("migrate");
                cfg
            })
        })
        .join()
        .expect("setup thread")
    })
    .clone()
}

pub async fn db() -> Db {
    Db::connect(&config()).await.expect("app pool")
}

/// A client id no other test uses.
pub fn client() -> i64 {
    use std::sync::atomic::{AtomicI64, Ordering};
    static NEXT: AtomicI64 = AtomicI64::new(1000);
    NEXT.fetch_add(1, Ordering::SeqCst)
}
