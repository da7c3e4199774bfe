//! Integration tests of the platform against real PostgreSQL, NATS and Redis.

mod bus;
mod cache;
mod db;
mod document;
mod reads;
mod resource;

use erp_platform::config::Config;
use erp_platform::db::Db;
use erp_platform::testing::TestCtx;
use sqlx::migrate::Migrator;

pub const SCHEMA: &str = "plat_it";
static MIGRATOR: Migrator = sqlx::migrate!("./tests/it/migrations");

/// One migrated database for the whole binary.
static CTX: TestCtx = TestCtx::new("platform", |cfg| {
    Box::pin(async move { erp_platform::db::migrate(&cfg, SCHEMA, &MIGRATOR).await })
});

pub fn config() -> Config {
    CTX.config()
}

pub async fn db() -> Db {
    CTX.db().await
}

/// A client id no other test uses.
pub fn client() -> i64 {
    CTX.client()
}
