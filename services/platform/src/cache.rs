//! The cache: one trait, Redis when `REDIS_URL` is set, else in-process. Used for
//! the token denylist, login attempt counters and cached principals.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use tokio::sync::Mutex;

use crate::Result;

#[async_trait]
pub trait Cache: Send + Sync {
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>>;
    /// Several keys in one round trip, in order.
    async fn get_many(&self, keys: &[&str]) -> Result<Vec<Option<Vec<u8>>>> {
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            out.push(self.get(k).await?);
        }
        Ok(out)
    }
    async fn set(&self, key: &str, value: &[u8], ttl: Duration) -> Result<()>;
    async fn del(&self, key: &str) -> Result<()>;
    /// Increments a counter; the first increment starts its time to live.
    async fn incr(&self, key: &str, ttl: Duration) -> Result<i64>;
    async fn ping(&self) -> Result<()>;
    fn kind(&self) -> &'static str;
}

#[derive(Default)]
pub struct MemoryCache {
    map: Mutex<HashMap<String, (Vec<u8>, Instant)>>,
}

impl MemoryCache {
    pub fn new() -> Self {
        Self::default()
    }
}

#[async_trait]
impl Cache for MemoryCache {
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        let mut map = self.map.lock().await;
        match map.get(key) {
            Some((_, exp)) if *exp <= Instant::now() => {
                map.remove(key);
                Ok(None)
            }
            Some((v, _)) => Ok(Some(v.clone())),
            None => Ok(None),
        }
    }

    async fn set(&self, key: &str, value: &[u8], ttl: Duration) -> Result<()> {
        let mut map = self.map.lock().await;
        if map.len() > 100_000 {
            let now = Instant::now();
            map.retain(|_, (_, exp)| *exp > now);
        }
        map.insert(key.to_string(), (value.to_vec(), Instant::now() + ttl));
        Ok(())
    }

    async fn del(&self, key: &str) -> Result<()> {
        self.map.lock().await.remove(key);
        Ok(())
    }

    async fn incr(&self, key: &str, ttl: Duration) -> Result<i64> {
        let mut map = self.map.lock().await;
        let now = Instant::now();
        let entry = map
            .entry(key.to_string())
            .or_insert_with(|| (b"0".to_vec(), now + ttl));
        if entry.1 <= now {
            *entry = (b"0".to_vec(), now + ttl);
        }
        let n = std::str::from_utf8(&entry.0)
            .ok()
            .and_then(|s| s.parse::<i64>().ok())
            .unwrap_or(0)
            + 1;
        entry.0 = n.to_string().into_bytes();
        Ok(n)
    }

    async fn ping(&self) -> Result<()> {
        Ok(())
    }

    fn kind(&self) -> &'static str {
        "memory"
    }
}

pub struct RedisCache {
    conn: redis::aio::ConnectionManager,
    prefix: String,
}

impl RedisCache {
    pub async fn connect(url: &str, prefix: &str) -> Result<RedisCache> {
        let client = redis::Client::open(url)?;
        let conn = redis::aio::ConnectionManager::new(client).await?;
        Ok(RedisCache { conn, prefix: prefix.to_string() })
    }

    fn key(&self, k: &str) -> String {
        format!("{}{k}", self.prefix)
    }
}

#[async_trait]
impl Cache for RedisCache {
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>> {
        let mut c = self.conn.clone();
        Ok(redis::cmd("GET")
            .arg(self.key(key))
            .query_async(&mut c)
            .await?)
    }

    async fn get_many(&self, keys: &[&str]) -> Result<Vec<Option<Vec<u8>>>> {
        let mut c = self.conn.clone();
        let mut cmd = redis::cmd("MGET");
        for k in keys {
            cmd.arg(self.key(k));
        }
        Ok(cmd.query_async(&mut c).await?)
    }

    async fn set(&self, key: &str, value: &[u8], ttl: Duration) -> Result<()> {
        let mut c = self.conn.clone();
        let ms = ttl.as_millis().max(1) as u64;
        redis::cmd("SET")
            .arg(self.key(key))
            .arg(value)
            .arg("PX")
            .arg(ms)
            .query_async::<()>(&mut c)
            .await?;
        Ok(())
    }

    async fn del(&self, key: &str) -> Result<()> {
        let mut c = self.conn.clone();
        redis::cmd("DEL")
            .arg(self.key(key))
            .query_async::<()>(&mut c)
            .await?;
        Ok(())
    }

    async fn incr(&self, key: &str, ttl: Duration) -> Result<i64> {
        let mut c = self.conn.clone();
        let ms = ttl.as_millis().max(1) as u64;
        // INCR and the first expiry in one round trip, atomically.
        let (n,): (i64,) = redis::pipe()
            .atomic()
            .cmd("INCR")
            .arg(self.key(key))
            .cmd("PEXPIRE")
            .arg(self.key(key))
            .arg(ms)
            .arg("NX")
            .ignore()
            .query_async(&mut c)
            .await?;
        Ok(n)
    }

    async fn ping(&self) -> Result<()> {
        let mut c = self.conn.clone();
        redis::cmd("PING").query_async::<String>(&mut c).await?;
        Ok(())
    }

    fn kind(&self) -> &'static str {
        "redis"
    }
}

/// The configured cache: Redis when `REDIS_URL` is set, else in-process.
pub async fn from_config(cfg: &crate::config::Config) -> Result<Arc<dyn Cache>> {
    Ok(match &cfg.redis_url {
        Some(url) => Arc::new(RedisCache::connect(url, &cfg.cache_prefix).await?),
        None => Arc::new(MemoryCache::new()),
    })
}
