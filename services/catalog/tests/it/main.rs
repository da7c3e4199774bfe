//! Integration tests of catalog against real PostgreSQL: one migrated database for
//! the whole binary (`setup`), each module working under client ids of its own so
//! tests never see each other's rows.

mod duplicates;
mod parties;
mod products;
mod reference;
mod services;
mod vehicles;

use erp_platform::config::Config;
use erp_platform::testing::TestCtx;

static CTX: TestCtx = TestCtx::new("catalog", |cfg| {
    Box::pin(async move { erp_catalog::migrate(&cfg).await })
});

/// The configuration of this binary's database, created and migrated on first use.
/// Only the configuration is shared: every test opens its own pool, because a pool
/// belongs to the runtime that created it and each test has its own runtime.
pub async fn setup() -> Config {
    CTX.config()
}
