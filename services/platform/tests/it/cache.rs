//! The cache contract on both engines.

use std::sync::Arc;
use std::time::Duration;

use erp_platform::cache::{Cache, MemoryCache, RedisCache};

/// Polls until `k` has no value (at most 10 s).
async fn gone(c: &Arc<dyn Cache>, k: &str) -> bool {
    for _ in 0..200 {
        if c.get(k).await.expect("get").is_none() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

async fn contract(c: Arc<dyn Cache>) {
    let k = format!("erp-it:{}", uuid::Uuid::new_v4().simple());
    assert_eq!(c.get(&k).await.expect("get"), None);
    c.set(&k, b"v", Duration::from_secs(30)).await.expect("set");
    assert_eq!(c.get(&k).await.expect("get"), Some(b"v".to_vec()));
    c.del(&k).await.expect("del");
    assert_eq!(c.get(&k).await.expect("get"), None);

    // Expiry: the value goes within a bounded time (polled, so a loaded machine
    // only makes the test slower, never wrong).
    c.set(&k, b"short", Duration::from_millis(100))
        .await
        .expect("set");
    assert!(gone(&c, &k).await, "expired value still returned");

    // A counter counts within its window and starts again after it.
    let n = format!("{k}:n");
    for i in 1..=5 {
        assert_eq!(c.incr(&n, Duration::from_secs(2)).await.expect("incr"), i);
    }
    assert!(gone(&c, &n).await, "counter window did not expire");
    assert_eq!(
        c.incr(&n, Duration::from_secs(5)).await.expect("incr"),
        1,
        "a new window starts at 1"
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
