//! The gateway over HTTP, with every service behind it on gRPC, against real
//! PostgreSQL, NATS JetStream and Redis.

mod access;
mod auth;
mod events;
mod graphql_limits;
mod logo_upload;
mod menu;
mod messaging;
mod notices;
mod purchases;
mod registers;
mod reports;
mod reports_all;
mod serving;
mod shutdown;

use std::sync::{Arc, OnceLock};

use erp_identity::seed::{self, Company};
use erp_platform::config::Config;
use erp_platform::db::Db;
use reqwest::{Client, Method, RequestBuilder, Response};
use serde_json::{json, Value};

pub const DEMO: &str = "11.222.333/0001-81";
pub const OTHER: &str = "33.000.167/0001-01";
pub const FAKE_OPERATOR: &str = "00.360.305/0001-04";
pub const OTHER_CLIENT: i64 = 3;
pub const FAKE_OPERATOR_CLIENT: i64 = 4;

pub struct App {
    pub base: String,
    pub cfg: Config,
}

/// One running product for the whole binary, on a thread (and runtime) of its own.
pub fn app() -> &'static App {
    static APP: OnceLock<App> = OnceLock::new();
    APP.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Runtime::new().expect("runtime");
            rt.block_on(async move {
                if std::env::var("TEST_LOG").is_ok() {
                    erp_platform::telemetry::init("gateway-it", None);
                }
                erp_platform::testing::drop_stale("gateway").await;
                let mut cfg = erp_platform::testing::fresh_database("gateway").await;
                let nats = erp_platform::testing::NatsServer::start();
                cfg.nats_url = Some(nats.url());
                cfg.redis_url = Some(erp_platform::testing::redis_url());
                let web = std::env::temp_dir().join(format!("erp-it-web-{}", std::process::id()));
                std::fs::create_dir_all(&web).expect("web dir");
                std::fs::write(web.join("index.html"), "<!doctype html><title>ERP</title>")
                    .expect("index");
                cfg.web_dir = web;
                let cfg = Arc::new(cfg);
                erp_demo::seed_demo(cfg.clone()).await.expect("seed");
                let db = Db::connect(&cfg).await.expect("db");
                seed_other_tenants(&db).await;
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind");
                let running = erp_gateway::roles::start_all(cfg.clone(), listener)
                    .await
                    .expect("start");
                tx.send(App { base: format!("http://{}", running.addr), cfg: (*cfg).clone() })
                    .expect("send");
                futures::future::pending::<()>().await;
                drop(nats);
            });
        });
        rx.recv().expect("app started")
    })
}

async fn seed_other_tenants(db: &Db) {
    seed::add_account(db, OTHER_CLIENT, "33000167000101", "Cliente B")
        .await
        .expect("account");
    let b = [Company {
        id: 1,
        name: "EMPRESA DO CLIENTE B",
        fantasy: "B",
        cnpj: "33000167000101",
        regime: "LUCRO REAL",
        city: "Rio de Janeiro",
        uf: "RJ",
        ibge: 3304557,
        ..Default::default()
    }];
    seed::seed_client(
        db,
        OTHER_CLIENT,
        &b,
        &[
            ("admin", "Admin do Cliente B", "senhaB123", 1, &[1], true),
            (
                "bloqueado",
                "Alvo de força bruta",
                "certa123",
                1,
                &[1],
                false,
            ),
        ],
    )
    .await
    .expect("client B");
    // A tenant that numbers its own company 9999 is not a support operator.
    seed::add_account(db, FAKE_OPERATOR_CLIENT, "00360305000104", "Falso operador")
        .await
        .expect("account");
    let f = [Company {
        id: 9999,
        name: "NAO SOU SUPORTE",
        fantasy: "X",
        cnpj: "00360305000104",
        regime: "NENHUM",
        city: "Brasília",
        uf: "DF",
        ibge: 5300108,
        ..Default::default()
    }];
    seed::seed_client(
        db,
        FAKE_OPERATOR_CLIENT,
        &f,
        &[("admin", "Falso", "falso123", 9999, &[9999], true)],
    )
    .await
    .expect("fake");
}

pub fn http() -> Client {
    Client::builder()
        .timeout(std::time::Duration::from_secs(40))
        .build()
        .expect("client")
}

pub struct User {
    pub token: String,
    pub login: Value,
}

impl User {
    pub fn id(&self) -> i64 {
        self.login["usuario"]["USR_ID"].as_i64().unwrap_or_default()
    }
    pub fn req(&self, method: Method, path: &str) -> RequestBuilder {
        http()
            .request(method, format!("{}{path}", app().base))
            .bearer_auth(&self.token)
    }
    pub async fn call(&self, method: Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut r = self.req(method, path);
        if let Some(b) = body {
            r = r.json(&b);
        }
        read(r.send().await.expect("send")).await
    }
}

pub async fn read(r: Response) -> (u16, Value) {
    let status = r.status().as_u16();
    let text = r.text().await.unwrap_or_default();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

pub async fn try_login(doc: &str, login: &str, password: &str) -> (u16, Value) {
    let r = http()
        .post(format!("{}/usuarios/sessions", app().base))
        .json(&json!({"cpfcnpj": doc, "usuario": login, "senha": password}))
        .send()
        .await
        .expect("login");
    read(r).await
}

pub async fn login(doc: &str, login: &str, password: &str) -> User {
    let (status, body) = try_login(doc, login, password).await;
    assert_eq!(status, 200, "login {login}: {body}");
    User {
        token: body["token"].as_str().unwrap_or_default().to_string(),
        login: body,
    }
}

pub async fn admin() -> User {
    login(DEMO, "admin", "admin123").await
}

pub async fn seller() -> User {
    login(DEMO, "vendedor", "vendedor123").await
}

/// Row counts of identity's tables, read as the owner (bypassing RLS), to prove a
/// refused request changed nothing.
pub async fn snapshot() -> Vec<i64> {
    use sqlx::Connection;
    let mut c = sqlx::PgConnection::connect(&app().cfg.database_url)
        .await
        .expect("owner");
    let mut out = Vec::new();
    for t in [
        "empresas",
        "usuarios",
        "programas_usuario",
        "subgrupo_usuario",
        "parametros_generico",
    ] {
        let sql =
            format!("SELECT count(*) + coalesce(sum(hashtext(t::text)), 0) FROM identity.{t} t");
        out.push(
            sqlx::query_scalar::<_, i64>(&sql)
                .fetch_one(&mut c)
                .await
                .expect("snapshot"),
        );
    }
    out
}

/// Tests that write, and the test that proves refused requests write nothing, take
/// turns.
pub async fn serial() -> tokio::sync::MutexGuard<'static, ()> {
    static LOCK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    LOCK.lock().await
}
