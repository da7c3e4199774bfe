//! Integration tests of messaging against the real PostgreSQL: the queue and its
//! calls, the worker against fake providers over HTTP, the webhooks, e-mail
//! against a real SMTP server (Python's aiosmtpd), the documents asked of their
//! owners (a stand-in `ResourceService`, `owners`), and tenancy.

mod calls;
mod documents;
mod email;
mod load;
mod notifications;
mod owners;
mod registers;
mod send;
mod tenancy;
mod webhooks;
mod worker;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use erp_messaging::backoff::Backoff;
use erp_messaging::worker::{Config, Worker};
use erp_messaging::Deps;
use erp_platform::config::Config as PlatformConfig;
use erp_platform::crypto::Sealer;
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::Resource;
use erp_platform::shutdown::Shutdown;
use erp_platform::testing::TestCtx;
use serde_json::{json, Map, Value};

static CTX: TestCtx = TestCtx::new("messaging", |cfg| {
    Box::pin(async move { erp_messaging::migrate(&cfg).await })
});

/// The key the tests seal with (32 bytes of 7).
pub const KEY: &str = "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=";

pub fn config() -> PlatformConfig {
    CTX.config()
}

pub async fn db() -> Db {
    CTX.db().await
}

/// A pool with room for many concurrent callers and a worker.
pub async fn big_db() -> Db {
    let cfg = PlatformConfig { db_max_connections: 24, ..config() };
    Db::connect(&cfg).await.expect("pool")
}

pub fn client() -> i64 {
    CTX.client()
}

pub fn caller(client_id: i64) -> Caller {
    CTX.caller(client_id, 7)
}

pub fn deps() -> Arc<Deps> {
    let sealer = Sealer::from_var(&erp_messaging::settings::KEY, Some(KEY)).expect("key");
    Arc::new(Deps::new(sealer, None).expect("deps"))
}

pub fn registry(deps: &Arc<Deps>) -> erp_platform::resource::Registry {
    erp_messaging::resources::registry_with(deps.clone()).expect("registry")
}

pub fn res(deps: &Arc<Deps>, name: &str) -> Arc<Resource> {
    registry(deps)
        .get(name)
        .cloned()
        .unwrap_or_else(|| panic!("register {name}"))
}

pub fn body(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// A form call's file part as the gateway hands it over.
pub fn file(name: &str, bytes: &[u8]) -> Value {
    json!({"nome": name, "tipo": null, "conteudo": base64::engine::general_purpose::STANDARD.encode(bytes)})
}

/// Runs a declared call of register `register` as client `c` (company 1) and
/// commits when it succeeds.
pub async fn call(
    db: &Db,
    deps: &Arc<Deps>,
    c: i64,
    register: &str,
    action: &str,
    params: &[(&str, &str)],
    body: Value,
) -> erp_platform::Result<Value> {
    let r = res(deps, register);
    let a = r
        .actions
        .iter()
        .find(|a| a.name == action)
        .unwrap_or_else(|| panic!("{register}: action {action}"));
    let params: HashMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut tx = db.begin_tenant(c).await?;
    let emp = erp_platform::resource::call::company_of(
        &r,
        &caller(c),
        params.get("emp").map(String::as_str),
        &body,
    )?;
    let v = a.run(&mut tx, &r, &caller(c), emp, &params, body).await?;
    tx.commit().await?;
    Ok(v)
}

/// `POST /whatsapp/send` with a JSON body (and its files).
pub async fn send(db: &Db, deps: &Arc<Deps>, c: i64, body: Value) -> erp_platform::Result<Value> {
    call(db, deps, c, "whatsapp", "send", &[], body).await
}

pub fn msg(r: erp_platform::Result<Value>) -> Option<String> {
    r.err().map(|e| e.public_message())
}

/// Settings of client `c`'s company 1 (`whatsappconfig` or `emailconfig`).
pub async fn configure(db: &Db, deps: &Arc<Deps>, c: i64, register: &str, v: Value) -> Value {
    CTX.create(db, &res(deps, register), &caller(c), Some(1), &body(v))
        .await
        .unwrap_or_else(|e| panic!("{register}: {}", e.public_message()))
}

/// A Cloud API company pointing at the fake.
pub async fn cloud_company(
    db: &Db,
    deps: &Arc<Deps>,
    c: i64,
    fake: &erp_messaging::fake::Fake,
    phone_id: &str,
) -> Value {
    configure(
        db,
        deps,
        c,
        "whatsappconfig",
        json!({"WCFG_PROVEDOR": "cloud", "WCFG_URL": fake.cloud_url(), "WCFG_NUMERO_ID": phone_id,
               "WCFG_TOKEN": "token-de-teste", "WCFG_APP_SECRET": format!("segredo-{phone_id}"),
               "WCFG_VERIFY_TOKEN": format!("verifica-{phone_id}")}),
    )
    .await
}

/// An Evolution company pointing at the fake.
pub async fn evolution_company(
    db: &Db,
    deps: &Arc<Deps>,
    c: i64,
    fake: &erp_messaging::fake::Fake,
    instance: &str,
) -> Value {
    configure(
        db,
        deps,
        c,
        "whatsappconfig",
        json!({"WCFG_PROVEDOR": "evolution", "WCFG_URL": fake.evolution_url(), "WCFG_INSTANCIA": instance,
               "WCFG_TOKEN": format!("apikey-{instance}")}),
    )
    .await
}

/// A worker of client `c` tuned for tests: short polls, retries and timeouts
/// (the tests of the binary share one queue; each works its own client's).
pub fn test_config(c: i64) -> Config {
    Config {
        clients: Some(vec![c]),
        batch: 32,
        concurrency: 8,
        lease: Duration::from_secs(20),
        poll: Duration::from_millis(20),
        timeout: Duration::from_secs(2),
        backoff: Backoff {
            base: Duration::from_millis(20),
            cap: Duration::from_millis(200),
            max_attempts: 4,
        },
        no_provider_retry: Duration::from_secs(600),
    }
}

pub fn worker(db: &Db, deps: &Arc<Deps>, config: Config) -> Worker {
    Worker::new(
        db.clone(),
        deps.sealer.clone(),
        deps.smtp.clone(),
        config,
        deps.wake.clone(),
    )
    .expect("worker")
}

/// Runs rounds until nothing of client `c` is due, or `limit` passes.
pub async fn drain(w: &Worker, db: &Db, c: i64, limit: Duration) {
    let stop = Shutdown::new();
    let started = std::time::Instant::now();
    loop {
        w.round(&stop).await.expect("round");
        let due: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM messaging.fila WHERE client_id = $1 AND due_at <= now() + interval '1 second'",
        )
        .bind(c)
        .fetch_one(&db.pool)
        .await
        .expect("due");
        if due == 0 || started.elapsed() > limit {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A message's row as stored.
pub async fn row(db: &Db, c: i64, id: i64) -> Value {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let v: Value = sqlx::query_scalar(
        "SELECT to_jsonb(m) - 'mens_descricao' FROM messaging.mensagens m WHERE client_id = $1 AND mens_emp_id = 1 AND mens_id = $2",
    )
    .bind(c)
    .bind(id)
    .fetch_one(&mut *tx)
    .await
    .expect("row");
    v
}

pub fn id_of(v: &Value) -> i64 {
    v["MENS_ID"].as_i64().expect("MENS_ID")
}

pub const MOBILE: &str = "5554999876543";

/// A one-pixel PNG.
pub const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0xDA, 0x63, 0xFC, 0xCF, 0xC0, 0x50,
    0x0F, 0x00, 0x04, 0x85, 0x01, 0x80, 0x84, 0xA9, 0x8C, 0x21, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// Real PDF and XLSX files made by the project's print crate.
pub fn report_files() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    use erp_print::{Cell, Column, Report};
    let report = |title: &str| Report {
        title: title.into(),
        company: "Empresa Demo".into(),
        user: "admin".into(),
        generated_at: chrono::NaiveDate::from_ymd_opt(2026, 6, 10)
            .and_then(|d| d.and_hms_opt(9, 30, 0))
            .expect("date"),
        logo: None,
        landscape: false,
        columns: vec![
            Column::text("Cliente", 120.0),
            Column::money("Valor", 70.0).with_total(),
        ],
        rows: (1..=30)
            .map(|i| {
                vec![
                    Cell::from(format!("Cliente {i} — São João")),
                    Cell::from(rust_decimal::Decimal::new(i * 1234, 2)),
                ]
            })
            .collect(),
        group_by: None,
    };
    let a = erp_print::table::render_pdf(&report("Vendas de junho")).expect("pdf");
    let b = erp_print::table::render_pdf(&report("Recebimentos de junho")).expect("pdf");
    let x = erp_print::xlsx::render_xlsx(&report("Vendas")).expect("xlsx");
    (a, b, x)
}

#[tokio::test]
async fn the_order_index_of_every_register_builds() {
    let reg = registry(&deps());
    erp_platform::resource::ensure_order_indexes(&config(), &reg)
        .await
        .expect("order indexes");
}
