//! `erp`: one binary, many roles. See README.md for the configuration.
//!
//! Layout:
//! - `main` (here): the command line and the roles it starts (in `erp-gateway`'s
//!   `roles`), the demo data (`erp-demo`), imports and jobs.
//! - `bench`: bulk seeding and the exact SQL of each scenario for `make bench`.

mod bench;

use std::sync::Arc;

use clap::{Parser, Subcommand};
use erp_gateway::roles;
use erp_platform::config::Config;

/// mimalloc: the request path allocates many small, short-lived buffers (rows,
/// JSON, protobuf) across threads, where glibc's malloc spent a fifth of the CPU.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "erp", version, about = "ERP: gateway e serviços")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Gateway and every service in one process (the default).
    Run {
        /// Seed the demo data and print the demo logins first.
        #[arg(long)]
        demo: bool,
    },
    /// Only the gateway (services from ERP_<SERVICE>_URL).
    Gateway,
    /// Only one service (gRPC on ERP_GRPC_ADDR, admin HTTP on ERP_ADMIN_ADDR).
    Serve { service: String },
    /// Run every service's migrations as the database owner.
    Migrate,
    /// Migrate and load the demo data.
    SeedDemo,
    /// Print the GraphQL schema (SDL).
    Schema,
    /// Print openapi.json (`--schemas`: only its component schemas, the web
    /// client's types).
    Openapi {
        #[arg(long)]
        schemas: bool,
    },
    /// Scheduled jobs of every service: schedule, next and last run, outcome.
    Jobs {
        #[command(subcommand)]
        action: Option<JobsAction>,
    },
    /// Empty the reports' read model and replay the retained facts into it (stop
    /// the reports service first; it replays when it starts again).
    ReportsRebuild,
    /// Load the official NCM table (Siscomex CSV export); see services/catalog/data/README.md.
    ImportNcm { file: std::path::PathBuf },
    /// Load the official CNAE 2.3 subclasses (IBGE CSV); see services/catalog/data/README.md.
    ImportCnae { file: std::path::PathBuf },
    /// Bulk-load generated rows of a register (benchmark data).
    #[command(hide = true)]
    BenchSeed {
        resource: String,
        #[arg(long)]
        client: i64,
        #[arg(long)]
        emp: i64,
        #[arg(long)]
        rows: u64,
    },
    /// Measure the floor of the invoice-to-stock path (commit and publish round trips).
    #[command(hide = true)]
    BenchFloor {
        #[arg(long)]
        nats: String,
        #[arg(long, default_value_t = 500)]
        n: usize,
    },
    /// Publish invoiced-order facts to a stream (the reports' rebuild benchmark).
    #[command(hide = true)]
    BenchFacts {
        #[arg(long)]
        nats: String,
        #[arg(long)]
        client: i64,
        #[arg(long)]
        emp: i64,
        #[arg(long)]
        orders: u64,
        #[arg(long, default_value_t = 80_000_000)]
        first: i64,
    },
    /// Print the SQL and parameters of a benchmark scenario.
    #[command(hide = true)]
    BenchSql {
        resource: String,
        scenario: String,
        #[arg(long)]
        client: i64,
        #[arg(long)]
        emp: i64,
        #[arg(long, default_value = "SILVA")]
        filter: String,
    },
}

#[derive(Subcommand)]
enum JobsAction {
    /// List the jobs (the default).
    List,
    /// Publish one run of a job now (needs NATS_URL: the services must see it).
    Run { service: String, job: String },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let cfg = Arc::new(Config::from_env());
    let role = match &cli.command {
        Some(Command::Serve { service }) => format!("erp-{service}"),
        Some(Command::Gateway) => "erp-gateway".into(),
        _ => "erp".into(),
    };
    if !matches!(
        cli.command,
        Some(Command::Schema) | Some(Command::Openapi { .. }) | Some(Command::BenchSql { .. })
    ) {
        erp_platform::telemetry::init(&role, cfg.otlp_endpoint.as_deref());
    }
    let result = match cli.command.unwrap_or(Command::Run { demo: false }) {
        Command::Run { demo } => run(cfg, demo).await,
        Command::Gateway => until_signal(|s| roles::gateway(cfg, s)).await,
        Command::Serve { service } => until_signal(|s| roles::serve_one(cfg, &service, s)).await,
        Command::Migrate => roles::migrate(cfg).await,
        Command::SeedDemo => {
            let r = erp_demo::seed_demo(cfg).await;
            if r.is_ok() {
                erp_demo::print_logins("(erp run)");
            }
            r
        }
        Command::ReportsRebuild => erp_reports::rebuild::run(&cfg).await.map(|r| {
            println!(
                "reports: read model emptied ({} inbox rows), {} consumers deleted; start the reports service to replay the retained facts",
                r.inbox_rows, r.consumers_deleted
            );
        }),
        Command::Schema => {
            print!("{}", erp_gateway::graphql::schema(false).sdl());
            Ok(())
        }
        Command::Openapi { schemas } => erp_gateway::composition::registry().map(|r| {
            let full = erp_gateway::app::openapi(&r);
            let doc = if schemas {
                erp_gateway::openapi::schemas_document(&full, &r)
            } else {
                full
            };
            println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        }),
        Command::Jobs { action } => match action.unwrap_or(JobsAction::List) {
            JobsAction::List => roles::print_jobs(cfg).await,
            JobsAction::Run { service, job } => roles::run_job(cfg, &service, &job).await,
        },
        Command::ImportNcm { file } => import(cfg, "NCM", file, true).await,
        Command::ImportCnae { file } => import(cfg, "CNAE", file, false).await,
        Command::BenchSeed { resource, client, emp, rows } => {
            bench::seed(&cfg, &resource, client, emp, rows).await
        }
        Command::BenchFloor { nats, n } => bench::floor(&cfg, &nats, n).await,
        Command::BenchFacts { nats, client, emp, orders, first } => {
            bench::facts(&nats, client, emp, orders, first).await
        }
        Command::BenchSql { resource, scenario, client, emp, filter } => {
            bench::scenario_sql(&resource, &scenario, client, emp, &filter)
                .map(|v| println!("{v}"))
        }
    };
    erp_platform::telemetry::shutdown();
    result.map_err(|e| anyhow::anyhow!("{e}"))
}

async fn run(cfg: Arc<Config>, demo: bool) -> erp_platform::Result<()> {
    if demo {
        erp_demo::seed_demo(cfg.clone()).await?;
    }
    let listener = tokio::net::TcpListener::bind(&cfg.http_addr)
        .await
        .map_err(|e| erp_platform::Error::internal(format!("{}: {e}", cfg.http_addr)))?;
    let running = roles::start_all(cfg.clone(), listener).await?;
    let port = running.addr.port();
    let url = format!("http://localhost:{port}");
    if demo {
        erp_demo::seed_documents(&cfg, erp_identity::seed::DEMO_CLIENT, 1).await?;
        // A year of invoiced orders, service orders, purchases, receipts and payments
        // (ERP_DEMO_HISTORY=0: none).
        if std::env::var("ERP_DEMO_HISTORY").map_or(true, |v| v != "0") {
            let made = erp_demo::history::seed(&running.state, erp_identity::seed::DEMO_CLIENT, 1);
            if let Some(made) = made.await? {
                println!(
                    "Histórico de demonstração: {} pedidos faturados, {} ordens de serviço finalizadas, {} compras finalizadas, {} títulos recebidos e {} pagos em {:.1} s",
                    made.orders,
                    made.service_orders,
                    made.purchases,
                    made.received,
                    made.paid,
                    made.elapsed.as_secs_f64()
                );
            }
        }
        erp_demo::print_logins(&url);
    } else {
        println!("ERP {} em {url}", erp_platform::VERSION);
    }
    let mut running = running;
    tokio::select! {
        _ = shutdown_signal() => tracing::info!("shutting down"),
        _ = running.ended() => tracing::error!("a role stopped"),
    }
    running.stop(erp_platform::shutdown::grace()).await;
    Ok(())
}

async fn import(
    cfg: Arc<Config>,
    what: &str,
    file: std::path::PathBuf,
    ncm: bool,
) -> erp_platform::Result<()> {
    roles::migrate(cfg.clone()).await?;
    let db = erp_platform::db::Db::connect(&cfg).await?;
    let n = if ncm {
        erp_catalog::import::import_ncm(&db, &file).await?
    } else {
        erp_catalog::import::import_cnae(&db, &file).await?
    };
    println!("{what}: {n} códigos importados de {}", file.display());
    Ok(())
}

/// SIGINT or SIGTERM (Kubernetes stops pods with SIGTERM): the role then drains
/// (see `erp_platform::shutdown`).
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Runs a role until it ends or a signal drains it; after the signal the role has
/// the grace to finish what it holds.
async fn until_signal<F, Fut>(role: F) -> erp_platform::Result<()>
where
    F: FnOnce(erp_platform::shutdown::Shutdown) -> Fut,
    Fut: std::future::Future<Output = erp_platform::Result<()>>,
{
    let shutdown = erp_platform::shutdown::Shutdown::new();
    let role = role(shutdown.clone());
    tokio::pin!(role);
    tokio::select! {
        r = &mut role => return r,
        _ = shutdown_signal() => tracing::info!("shutting down"),
    }
    shutdown.drain();
    match tokio::time::timeout(erp_platform::shutdown::grace(), role).await {
        Ok(r) => r,
        Err(_) => {
            tracing::warn!("cut at the end of the shutdown's grace");
            Ok(())
        }
    }
}
