//! PostgreSQL restarts in the middle of 5,000 invoices (a cluster of the test's own,
//! so the machine's server and the other tests are not touched): no call hangs past
//! the 15 s deadline, errors stop within 10 s of PostgreSQL answering again, and
//! every invoice that was made (every 2xx among them) reaches stock exactly once.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use erp_platform::bus::{Bus, NatsBus};
use erp_platform::config::Config;

use super::load::{self, ORDERS, SERIE};

/// A PostgreSQL cluster created for this test (trust authentication, a free port),
/// dropped at the end.
struct Cluster {
    version: String,
    name: String,
    port: u16,
}

fn run(cmd: &mut Command) {
    let out = cmd.output().expect("command runs");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Cluster {
    fn create() -> Cluster {
        let version = std::fs::read_dir("/etc/postgresql")
            .expect("Debian's PostgreSQL (pg_createcluster)")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .max()
            .expect("a PostgreSQL version");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("free port")
            .port();
        let name = format!("erpit{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
        let cluster = Cluster { version, name, port };
        // Dropped (by Drop) even when creating or starting it fails half-way.
        run(Command::new("pg_createcluster")
            .args([
                &cluster.version,
                &cluster.name,
                "-p",
                &port.to_string(),
                "--start",
            ])
            .args(["-o", "max_connections=200"])
            .args(["--", "--auth=trust"]));
        cluster
    }

    fn restart(&self) {
        run(Command::new("pg_ctlcluster").args([
            &self.version,
            &self.name,
            "restart",
            "-m",
            "fast",
        ]));
    }

    fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("pg_dropcluster")
            .args(["--stop", &self.version, &self.name])
            .output();
    }
}

#[tokio::test]
async fn invoices_survive_a_postgres_restart() {
    let cluster = Arc::new(Cluster::create());
    let nats = erp_platform::testing::NatsServer::start();
    let data = std::env::temp_dir().join(format!("erp-it-pgr-{}", uuid::Uuid::new_v4().simple()));
    let (url, nats_url) = (cluster.url("erp"), nats.url());
    let cfg = Config {
        db_max_connections: 6,
        ..Config::from_lookup(|k| match k {
            "DATABASE_URL" => Some(url.clone()),
            "NATS_URL" => Some(nats_url.clone()),
            "ERP_DATA_DIR" => Some(data.display().to_string()),
            "ERP_JWT_SECRET" => Some("test-secret-test-secret-test-secret-0123".into()),
            _ => None,
        })
    };
    let bus: Arc<dyn Bus> = Arc::new(NatsBus::connect(&nats.url()).await.expect("nats"));
    let stack = load::start(cfg, bus).await;

    let done = Arc::new(AtomicUsize::new(0));
    let restart = {
        let (done, cluster) = (done.clone(), cluster.clone());
        tokio::spawn(async move {
            while done.load(Ordering::SeqCst) < (ORDERS / 5) as usize {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let at = done.load(Ordering::SeqCst);
            tokio::task::spawn_blocking(move || cluster.restart())
                .await
                .expect("restart");
            // `pg_ctlcluster restart` returns once the server answers.
            (at, Instant::now())
        })
    };
    let calls = load::invoice_all(&stack, done).await;
    let (restarted_at, back) = restart.await.expect("restart task");
    assert!(
        restarted_at < ORDERS as usize,
        "the restart happened during the run"
    );

    let slowest = calls.iter().map(|c| c.took).max().unwrap_or_default();
    assert!(
        slowest <= Duration::from_secs(17),
        "a call hung past the 15 s deadline: {slowest:?}"
    );
    let late: Vec<_> = calls
        .iter()
        .filter(|c| c.status != 200 && c.ended > back + Duration::from_secs(10))
        .collect();
    assert!(
        late.is_empty(),
        "errors more than 10 s after PostgreSQL was back: {:?}",
        &late[..late.len().min(5)]
    );
    let errors = calls.iter().filter(|c| c.status != 200).count();
    eprintln!("pg restart: {errors} of {ORDERS} calls failed during the restart");

    // Every 2xx was invoiced, and everything invoiced reached stock once.
    let invoiced = load::assert_exactly_once(&stack).await;
    for c in calls.iter().filter(|c| c.status == 200) {
        assert!(
            invoiced.binary_search(&c.id).is_ok(),
            "order {}/{SERIE} answered 2xx but is not invoiced",
            c.id
        );
    }
    drop(stack);
    let _ = std::fs::remove_dir_all(data);
}
