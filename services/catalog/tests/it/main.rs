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
use tokio::sync::OnceCell;

/// The configuration of this binary's database, created and migrated on first use.
/// Only the configuration is shared: every test opens its own pool, because a pool
/// belongs to the runtime that created it and each test has its own runtime.
pub async fn setup() -> Config {
    static CFG: OnceCell<Config> = OnceCell::const_new();
    CFG.get_or_init(|| async {
        if std::env::var("TEST_LOG").is_ok() {
            erp_platform::telemetry::init("catalog-it", None);
        }
        erp_platform::testing::drop_stale("catalog").await;
        let cfg = erp_platform::testing::fresh_database("catalog").await;
        erp_platform::db::bootstrap(&cfg).await.expect("bootstrap");
        erp_catalog::migrate(&cfg).await.expect("migrate");
        cfg
    })
    .await
    .clone()
}
