//! The test's own 3-node NATS JetStream cluster, run by `deploy/nats-cluster.sh`
//! (the script a developer uses) on free loopback ports and a store of its own,
//! and its nodes' monitoring endpoints read over HTTP.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

pub const NODES: [usize; 3] = [1, 2, 3];

pub struct NatsCluster {
    dir: PathBuf,
    client_base: u16,
    route_base: u16,
    monitor_base: u16,
}

fn free(port: u16) -> bool {
    std::net::TcpListener::bind(("127.0.0.1", port)).is_ok()
}

impl NatsCluster {
    /// Starts three nodes (cluster `erp`) and waits until every one is healthy.
    /// The ports are base+1..=3 of three bases 10 apart, where all nine are free.
    pub fn start() -> NatsCluster {
        let dir = std::env::temp_dir().join(format!(
            "erp-nats-cluster-{}",
            uuid::Uuid::new_v4().simple()
        ));
        let base = (0..100)
            .map(|_| 20_000 + (uuid::Uuid::new_v4().as_u128() % 3_000) as u16 * 10)
            .find(|b| (0..3).all(|family| NODES.iter().all(|n| free(b + family * 10 + *n as u16))))
            .expect("nine free ports");
        let cluster =
            NatsCluster { dir, client_base: base, route_base: base + 10, monitor_base: base + 20 };
        cluster.script(&["start"]);
        cluster
    }

    /// Runs `deploy/nats-cluster.sh` on this cluster; its standard output.
    pub fn script(&self, args: &[&str]) -> String {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/nats-cluster.sh");
        let out = Command::new(script)
            .args(args)
            .env("ERP_NATS_CLUSTER_DIR", &self.dir)
            .env("NATS_CLUSTER_CLIENT_BASE", self.client_base.to_string())
            .env("NATS_CLUSTER_ROUTE_BASE", self.route_base.to_string())
            .env("NATS_CLUSTER_MONITOR_BASE", self.monitor_base.to_string())
            .output()
            .expect("deploy/nats-cluster.sh runs");
        assert!(
            out.status.success(),
            "nats-cluster.sh {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// `NATS_URL`: the three nodes, comma-separated.
    pub fn urls(&self) -> String {
        self.script(&["urls"])
    }

    /// SIGKILLs the node leading `stream`; answers which one (1-3).
    pub fn kill_leader(&self, stream: &str) -> usize {
        self.script(&["kill-leader", stream])
            .parse()
            .expect("kill-leader prints the node")
    }

    /// Starts node `n` again on its store and waits until it is healthy.
    pub fn restart(&self, n: usize) {
        self.script(&["restart", &n.to_string()]);
    }

    /// What node `n`'s monitoring endpoint says of `stream` (its entry in
    /// `/jsz?accounts=true&streams=true`), or `None` when the node does not answer.
    pub async fn stream_on(&self, http: &reqwest::Client, n: usize, stream: &str) -> Option<Value> {
        let url = format!(
            "http://127.0.0.1:{}/jsz?accounts=true&streams=true&consumers=true",
            self.monitor_base + n as u16
        );
        let jsz: Value = http
            .get(url)
            // A loaded node answers late; a node that answers is still up.
            .timeout(Duration::from_secs(1))
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()?;
        jsz["account_details"]
            .as_array()?
            .iter()
            .filter_map(|a| a["stream_detail"].as_array())
            .flatten()
            .find(|s| s["name"] == stream)
            .cloned()
    }

    /// The node that says it leads `stream` (each node is asked at once).
    pub async fn leader(&self, http: &reqwest::Client, stream: &str) -> Option<usize> {
        let views = futures::future::join_all(NODES.map(|n| self.stream_on(http, n, stream))).await;
        NODES
            .into_iter()
            .zip(views)
            .find(|(n, v)| {
                v.as_ref()
                    .is_some_and(|v| v["cluster"]["leader"] == format!("erp-{n}"))
            })
            .map(|(n, _)| n)
    }
}

impl Drop for NatsCluster {
    fn drop(&mut self) {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/nats-cluster.sh");
        let _ = Command::new(script)
            .arg("clean")
            .env("ERP_NATS_CLUSTER_DIR", &self.dir)
            .output();
    }
}
