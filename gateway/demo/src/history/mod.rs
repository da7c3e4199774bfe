//! A year of demo history for `make run`, made through the documents: billing
//! orders over the demo customers, products and services, each invoiced by the
//! orders service (so stock, finance and reports get their facts as they would
//! from a user), service orders of the workshop finished (a service or two, each
//! in its sector, a part now and then), and the receivables due before this week
//! received, and purchases from the demo suppliers finalized every week (their
//! payables paid on their due dates, one in six left open). The dashboard and
//! every sales, service order and purchase report then show something on first
//! login.
//!
//! Deterministic (a fixed seed) and idempotent: a company that already has an
//! order with the history's note is left alone.

use std::time::{Duration, Instant};

use chrono::{Datelike, Days, NaiveDate, Weekday};
use erp_platform::grpc::Caller;
use erp_platform::{Error, Result};
use erp_proto::erp::v1::{ActionRequest, ListRequest, WriteRequest};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

use erp_gateway::state::AppState;
use erp_gateway::upstream::{call, request};

mod purchases;
mod sales;
mod settlements;
mod workshop;

use purchases::{buying, purchase};
use sales::{customers, order};
use settlements::{settle_past_due, PAYABLES, RECEIVABLES};
use workshop::{service_order, workshop};

/// The note on every order of the history (and how a second run knows it ran).
pub const NOTE: &str = "Histórico de demonstração";
/// Days of history, ending yesterday.
const DAYS: u64 = 365;
/// Orders per working day: between these.
const PER_DAY: (u32, u32) = (3, 6);

/// What the history made.
#[derive(Debug, Default)]
pub struct Made {
    pub orders: usize,
    pub service_orders: usize,
    pub purchases: usize,
    pub paid: usize,
    pub received: usize,
    pub elapsed: Duration,
}

fn ids(rows: &[Value], field: &str) -> Vec<i64> {
    rows.iter().filter_map(|r| r[field].as_i64()).collect()
}

async fn list(
    st: &AppState,
    caller: &Caller,
    schema: &str,
    resource: &str,
    body: Value,
) -> Result<Vec<Value>> {
    let msg = ListRequest {
        resource: resource.into(),
        emp: Some(caller.emp_id),
        filter_json: serde_json::to_vec(&body)?.into(),
        with_total: false,
    };
    let reply = call(st.up.resources(schema)?.list(request(caller, msg))).await?;
    Ok(serde_json::from_slice::<Vec<Value>>(&reply.rows_json).unwrap_or_default())
}

/// Runs declared call `action` of `resource` (served by service `schema`) as
/// `caller` in the caller's company, with the path parameters `params`.
async fn declared(
    st: &AppState,
    caller: &Caller,
    schema: &str,
    (resource, action): (&str, &str),
    params: &[(&str, String)],
    body: Value,
) -> Result<Value> {
    let mut params: std::collections::HashMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    params.insert("emp".into(), caller.emp_id.to_string());
    let msg = ActionRequest {
        resource: resource.into(),
        action: action.into(),
        params,
        body_json: serde_json::to_vec(&body)?.into(),
        companies: vec![caller.emp_id],
    };
    let out = call(st.up.resources(schema)?.action(request(caller, msg))).await?;
    Ok(serde_json::from_slice(&out.json)?)
}

async fn create(st: &AppState, caller: &Caller, resource: &str, body: Value) -> Result<Value> {
    create_in(st, caller, "orders", resource, body).await
}

async fn create_in(
    st: &AppState,
    caller: &Caller,
    schema: &str,
    resource: &str,
    body: Value,
) -> Result<Value> {
    let msg = WriteRequest {
        resource: resource.into(),
        emp: Some(caller.emp_id),
        key: vec![],
        body_json: serde_json::to_vec(&body)?,
    };
    let reply = call(st.up.resources(schema)?.create(request(caller, msg))).await?;
    Ok(serde_json::from_slice(&reply.row_json)?)
}

/// `create`, waiting up to 30 s for orders to know a customer catalog just made
/// (its copy comes with catalog's fact).
async fn create_waiting(
    st: &AppState,
    caller: &Caller,
    resource: &str,
    body: Value,
) -> Result<Value> {
    let started = Instant::now();
    loop {
        match create(st, caller, resource, body.clone()).await {
            Err(e) if started.elapsed() < Duration::from_secs(30) => {
                tracing::debug!(error = %e, "demo history: waiting for orders to know the customer");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            other => return other,
        }
    }
}

/// Seeds the history of company `emp` of `client` once; `None` when it was there.
pub async fn seed(st: &AppState, client: i64, emp: i64) -> Result<Option<Made>> {
    let caller = Caller { client_id: client, user_id: 1, emp_id: emp, privileged: false };
    let started = Instant::now();
    let done = list(
        st,
        &caller,
        "orders",
        "pedido",
        json!({"PEDF_OBS": NOTE, "LIMIT": 1}),
    )
    .await?;
    if !done.is_empty() {
        return Ok(None);
    }
    let customers = customers(st, &caller).await?;
    let product_rows = list(st, &caller, "catalog", "produtos", json!({"LIMIT": 50})).await?;
    let products = ids(&product_rows, "PROD_ID");
    // What each product costs (purchases are made near it).
    let costs: std::collections::HashMap<i64, rust_decimal::Decimal> = product_rows
        .iter()
        .filter_map(|r| {
            let cost = r["PROD_CUSTO"].to_string().trim_matches('"').parse().ok()?;
            Some((r["PROD_ID"].as_i64()?, cost))
        })
        .collect();
    let services = ids(
        &list(st, &caller, "catalog", "servico", json!({"LIMIT": 50})).await?,
        "SERV_ID",
    );
    let methods = ids(
        &list(
            st,
            &caller,
            "finance",
            "formapagamento",
            json!({"LIMIT": 20}),
        )
        .await?,
        "FRMP_ID",
    );
    if customers.is_empty() || products.is_empty() {
        return Err(Error::internal(
            "demo history: no customers or products to sell",
        ));
    }
    let mut workshop = workshop(st, &caller).await?;
    let buying = buying(st, &caller).await?;
    let mut rng = StdRng::seed_from_u64(20_261_124);
    let today = chrono::Local::now().date_naive();
    let first = today - Days::new(DAYS);
    let mut made = Made::default();
    let mut day = first;
    // Quantities sold since the last purchase, which the next one replaces.
    let mut sold = std::collections::BTreeMap::<i64, i64>::new();
    while day < today {
        if day.weekday() != Weekday::Sun {
            for _ in 0..rng.gen_range(PER_DAY.0..=PER_DAY.1) {
                for (product, qty) in order(
                    st, &caller, &mut rng, day, &customers, &products, &services, &methods,
                )
                .await?
                {
                    *sold.entry(product).or_default() += qty;
                }
                made.orders += 1;
            }
            if !services.is_empty() && rng.gen_ratio(1, 2) {
                service_order(
                    st,
                    &caller,
                    &mut rng,
                    day,
                    &customers,
                    &products,
                    &services,
                    &mut workshop,
                )
                .await?;
                made.service_orders += 1;
            }
            if day.weekday() == Weekday::Mon && !buying.suppliers.is_empty() {
                purchase(
                    st,
                    &caller,
                    &mut rng,
                    day,
                    &products,
                    &sold,
                    &costs,
                    &buying,
                    made.purchases,
                )
                .await?;
                sold.clear();
                made.purchases += 1;
            }
        }
        day = day + Days::new(1);
    }
    made.received = settle_past_due(st, &caller, today - Days::new(7), &RECEIVABLES).await?;
    made.paid = settle_past_due(st, &caller, today - Days::new(7), &PAYABLES).await?;
    made.elapsed = started.elapsed();
    Ok(Some(made))
}

fn pick(rng: &mut StdRng, from: &[i64]) -> Option<i64> {
    (!from.is_empty()).then(|| from[rng.gen_range(0..from.len())])
}
