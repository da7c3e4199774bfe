//! The invoicing-under-load scenario: 5,000 invoices from 16 callers reach stock
//! exactly once. Its tests are `single_node` (one NATS server) and the `cluster`
//! test target (a 3-node JetStream cluster); this module is shared by both.
//!
//! A scenario runs the whole product (`erp run`'s composition, or every service
//! behind loopback gRPC as in microservices mode) over a NATS of its own on a fresh
//! database with 5,000 open orders of two product lines over 50 products that
//! start with 1,000 units at R$ 10,00, and 16 callers invoice them over HTTP
//! (`PUT /pedidogenerator/{id}/{emp}/{serie}`). Then every invoice must be applied
//! exactly once: one exit per order line, each product's balance equal to the sum
//! of its ledger and to the hand-computed 1,000 minus what its lines took, average
//! cost still 10.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use erp_gateway::roles::Link;
use erp_platform::bus::Bus;
use erp_platform::config::Config;
use erp_platform::db::Db;
use rust_decimal::Decimal;
use sqlx::PgPool;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::JoinHandle;

use super::wait_up_to;

pub const CLIENT: i64 = erp_identity::seed::DEMO_CLIENT;
pub const EMP: i64 = 1;
pub const SERIE: &str = "5";
pub const PRODUCTS: i64 = 50;
pub const ORDERS: i64 = 5_000;
pub const CALLERS: usize = 16;
pub const STOCK_CONSUMER: &str = "stock-pedido-faturado";

/// The two lines of order `i`: (product, quantity).
pub fn lines_of(i: i64) -> [(i64, i64); 2] {
    [
        (i % PRODUCTS + 1, i % 3 + 1),
        ((i * 7 + 3) % PRODUCTS + 1, 1),
    ]
}

/// What each product holds once `invoiced` orders left: 1,000 less their lines.
pub fn expected(invoiced: &[i64]) -> HashMap<i64, Decimal> {
    let mut out: HashMap<i64, Decimal> = (1..=PRODUCTS).map(|p| (p, Decimal::from(1000))).collect();
    for i in invoiced {
        for (p, q) in lines_of(*i) {
            *out.entry(p).or_default() -= Decimal::from(q);
        }
    }
    out
}

pub struct Stack {
    pub base: String,
    pub owner: PgPool,
    pub token: String,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for Stack {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

/// Migrates, seeds the identity and the orders and stock of the scenario, and starts
/// the product on `bus` (`erp run`: the services in-process).
pub async fn start(cfg: Config, bus: Arc<dyn Bus>) -> Stack {
    start_linked(cfg, bus, Link::InProcess).await
}

/// `start` with the gateway reaching the services as `link` says (`Link::Tcp`:
/// each service on its own loopback gRPC port, as `erp gateway` reaches
/// `erp serve`).
pub async fn start_linked(cfg: Config, bus: Arc<dyn Bus>, link: Link) -> Stack {
    let cfg = Arc::new(cfg);
    erp_gateway::roles::migrate(cfg.clone())
        .await
        .expect("migrate");
    let db = Db::connect(&cfg).await.expect("db");
    erp_identity::seed::seed(&db, cfg.operator_client_id)
        .await
        .expect("identity seed");
    let owner = PgPool::connect(&cfg.database_url).await.expect("owner");
    let mut items = Vec::new();
    for i in 1..=ORDERS {
        for (n, (p, q)) in lines_of(i).into_iter().enumerate() {
            items.push((i, n as i64 + 1, p, q));
        }
    }
    sqlx::query(
        "INSERT INTO orders.pedido (client_id, pedf_emp_id, pedf_serie, pedf_id, pedf_cli_id, pedf_cli_desc, pedf_cli_cidade)
         SELECT $1, $2, $3, g, 1, 'CLIENTE DE CARGA', 'Caxias do Sul' FROM generate_series(1, $4::bigint) g",
    )
    .bind(CLIENT)
    .bind(EMP)
    .bind(SERIE)
    .bind(ORDERS)
    .execute(&owner)
    .await
    .expect("orders");
    sqlx::query(
        "INSERT INTO orders.pedidoproduto (client_id, pedi_pedf_emp_id, pedi_pedf_id, pedi_pedf_serie_id, pedi_pedf_item,
             pedi_prod_id, pedi_descricao, pedi_qtde, pedi_vlr_unitario, pedi_vlr_total)
         SELECT $1, $2, o, $3, n, p, 'ITEM ' || p, q, 20, 20 * q
         FROM unnest($4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[]) AS l(o, n, p, q)",
    )
    .bind(CLIENT)
    .bind(EMP)
    .bind(SERIE)
    .bind(items.iter().map(|l| l.0).collect::<Vec<_>>())
    .bind(items.iter().map(|l| l.1).collect::<Vec<_>>())
    .bind(items.iter().map(|l| l.2).collect::<Vec<_>>())
    .bind(items.iter().map(|l| l.3).collect::<Vec<_>>())
    .execute(&owner)
    .await
    .expect("order lines");
    // 1,000 units of each product at R$ 10,00, through the ledger.
    let mut tx = db.begin_tenant(CLIENT).await.expect("tx");
    let entries: Vec<erp_stock::ledger::Movement> = (1..=PRODUCTS)
        .map(|p| {
            let mut m = erp_stock::ledger::Movement::new(
                EMP,
                p,
                erp_stock::ledger::Kind::Entry,
                Decimal::from(1000),
                "SALDO",
                format!("carga/{p}"),
            );
            m.unit_cost = Decimal::from(10);
            m
        })
        .collect();
    erp_stock::ledger::record_many(&mut tx, CLIENT, &entries)
        .await
        .expect("opening stock");
    tx.commit().await.expect("commit");

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let running = erp_gateway::roles::start_linked(cfg.clone(), listener, bus, link)
        .await
        .expect("start");
    let base = format!("http://{}", running.addr);
    let login = crate::http()
        .post(format!("{base}/usuarios/sessions"))
        .json(&serde_json::json!({"cpfcnpj": crate::DEMO, "usuario": "admin", "senha": "admin123"}))
        .send()
        .await
        .expect("login");
    let body: serde_json::Value = login.json().await.expect("login body");
    Stack {
        base,
        owner,
        token: body["token"].as_str().unwrap_or_default().to_string(),
        tasks: std::iter::once(running.gateway)
            .chain(running.services)
            .collect(),
    }
}

/// A database of the product's own on the machine's PostgreSQL, with small pools
/// (several stacks share one server's connections).
pub async fn config(prefix: &str, nats: &str) -> Config {
    let mut cfg = erp_platform::testing::fresh_database(prefix).await;
    cfg.nats_url = Some(nats.to_string());
    cfg.db_max_connections = 6;
    cfg
}

/// One invoice call as the caller saw it.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    pub id: i64,
    pub status: u16,
    pub took: Duration,
    pub ended: Instant,
}

/// 16 callers invoice orders 1..=ORDERS, each taking the next number; `done` counts
/// answered calls (for a fault injected mid-run).
pub async fn invoice_all(stack: &Stack, done: Arc<AtomicUsize>) -> Vec<Call> {
    invoice_all_observed(stack, done, None).await
}

/// `invoice_all`, each call also sent to `observer` as it is answered.
pub async fn invoice_all_observed(
    stack: &Stack,
    done: Arc<AtomicUsize>,
    observer: Option<UnboundedSender<Call>>,
) -> Vec<Call> {
    let next = Arc::new(AtomicUsize::new(1));
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .pool_max_idle_per_host(CALLERS)
        .build()
        .expect("client");
    let mut workers = Vec::new();
    for _ in 0..CALLERS {
        let (next, done, client) = (next.clone(), done.clone(), client.clone());
        let observer = observer.clone();
        let (base, token) = (stack.base.clone(), stack.token.clone());
        workers.push(tokio::spawn(async move {
            let mut calls = Vec::new();
            loop {
                let id = next.fetch_add(1, Ordering::SeqCst) as i64;
                if id > ORDERS {
                    return calls;
                }
                let started = Instant::now();
                let status = client
                    .put(format!("{base}/pedidogenerator/{id}/{EMP}/{SERIE}"))
                    .bearer_auth(&token)
                    .send()
                    .await
                    .map(|r| r.status().as_u16())
                    .unwrap_or(0);
                let call = Call { id, status, took: started.elapsed(), ended: Instant::now() };
                if let Some(o) = &observer {
                    let _ = o.send(call);
                }
                calls.push(call);
                done.fetch_add(1, Ordering::SeqCst);
            }
        }));
    }
    let mut all = Vec::new();
    for w in workers {
        all.extend(w.await.expect("worker"));
    }
    all.sort_by_key(|c| c.id);
    all
}

async fn scalar(owner: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(owner).await.unwrap_or(-1)
}

/// Waits for stock to have applied every invoiced order, then checks each was
/// applied exactly once and each balance is the hand-computed one.
pub async fn assert_exactly_once(stack: &Stack) -> Vec<i64> {
    let invoiced: Vec<i64> = sqlx::query_scalar(
        "SELECT pedf_id FROM orders.pedido WHERE pedf_serie = $1 AND pedf_situacao = 'F' ORDER BY pedf_id",
    )
    .bind(SERIE)
    .fetch_all(&stack.owner)
    .await
    .expect("invoiced");
    let n = invoiced.len() as i64;
    wait_up_to(300, "stock to apply every invoice", || async {
        scalar(
            &stack.owner,
            &format!("SELECT count(*) FROM stock.inbox WHERE consumer = '{STOCK_CONSUMER}'"),
        )
        .await
            == n
    })
    .await;
    // One exit per line of every invoiced order, none twice.
    let per_order: Vec<(String, i64)> = sqlx::query_as(
        "SELECT movi_origem_id, count(*) FROM stock.movimentos WHERE movi_origem = 'PEDIDO'
         GROUP BY movi_origem_id ORDER BY movi_origem_id",
    )
    .fetch_all(&stack.owner)
    .await
    .expect("exits");
    assert_eq!(per_order.len() as i64, n, "orders with exits");
    assert!(
        per_order.iter().all(|(_, c)| *c == 2),
        "an order's exits were recorded other than once: {:?}",
        per_order.iter().find(|(_, c)| *c != 2)
    );
    let want = expected(&invoiced);
    let rows: Vec<(i64, Decimal, Decimal, Decimal)> = sqlx::query_as(
        "SELECT s.sald_prod_id, s.sald_qtde, s.sald_custo_medio,
                (SELECT sum(CASE movi_tipo WHEN 'E' THEN movi_qtde ELSE -movi_qtde END) FROM stock.movimentos m
                 WHERE m.client_id = s.client_id AND m.movi_emp_id = s.sald_emp_id AND m.movi_prod_id = s.sald_prod_id)
         FROM stock.saldos s WHERE s.client_id = $1 AND s.sald_emp_id = $2 ORDER BY 1",
    )
    .bind(CLIENT)
    .bind(EMP)
    .fetch_all(&stack.owner)
    .await
    .expect("balances");
    assert_eq!(rows.len() as i64, PRODUCTS);
    for (p, qty, avg, ledger) in rows {
        assert_eq!(qty, ledger, "product {p}: balance = ledger sum");
        assert_eq!(
            Some(&qty),
            want.get(&p),
            "product {p}: hand-computed balance"
        );
        assert_eq!(avg, Decimal::from(10), "product {p}: average cost");
    }
    invoiced
}

pub fn all_ok(calls: &[Call]) {
    let failed: Vec<&Call> = calls.iter().filter(|c| c.status != 200).collect();
    assert!(
        failed.is_empty(),
        "failed invoices: {:?}",
        &failed[..failed.len().min(5)]
    );
    assert_eq!(calls.len() as i64, ORDERS);
}
