//! The cache contract on both engines.

use std::sync::Arc;
use std::time::Duration;

use erp_platform::cache::{Cache, MemoryCache, RedisCache};

async fn contract(c: Arc<dyn Cache>) {
    let k = format!("erp-it:{}", uuid::Uuid::new_v4().simple());
    assert_eq!(c.get(&k).await.expect("get"), None);
    c.set(&k, b"v", Duration::from_secs(30)).await.expect("set");
    assert_eq!(c.get(&k).await.expect("get"), Some(b"v".to_vec()));
    c.del(&k).await.expect("del");
    assert_eq!(c.get(&k).await.expect("get"), None);

    c.set(&k, b"short", Duration::from_millis(100))
        .await
        .expect("set");
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        c.get(&k).await.expect("get"),
        None,
        "expired value returned"
    );

    let n = format!("{k}:n");
    for i in 1..=5 {
        assert_eq!(
            c.incr(&n, Duration::from_millis(300)).await.expect("incr"),
            i
        );
    }
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        c.incr(&n, Duration::from_secs(5)).await.expect("incr"),
        1,
        "counter window did not expire"
    );
    c.ping().await.expect("ping");
}

#[tokio::test]
async fn memory_cache_keeps_the_contract() {
    contract(Arc::new(MemoryCache::new())).await;
}

#[tokio::test]
async fn redis_cache_keeps_the_contract() {
    let r = RedisCache::connect(&erp_platform::testing::redis_url(), "erp-it:")
        .await
        .expect("Redis at TEST_REDIS_URL");
    contract(Arc::new(r)).await;
}
