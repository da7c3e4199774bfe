//! Support for `make bench`: bulk seeding of a register (COPY, as the owner) and the
//! exact SQL the engine runs for each benchmark scenario, so pgbench measures the
//! same statement the gateway path executes.

use std::str::FromStr;

use erp_platform::config::Config;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, DbType, Kind};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};
use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection};

const FIRST: [&str; 40] = [
    "ANA",
    "JOÃO",
    "MARIA",
    "JOSÉ",
    "ANTÔNIO",
    "FRANCISCA",
    "CARLOS",
    "PAULO",
    "PEDRO",
    "LUCAS",
    "LUIZ",
    "MARCOS",
    "LUÍS",
    "GABRIEL",
    "RAFAEL",
    "DANIEL",
    "MARCELO",
    "BRUNO",
    "EDUARDO",
    "FELIPE",
    "RAIMUNDO",
    "RODRIGO",
    "MANOEL",
    "MATEUS",
    "ANDRÉ",
    "FERNANDO",
    "FÁBIO",
    "LEONARDO",
    "GUSTAVO",
    "GUILHERME",
    "JULIANA",
    "ADRIANA",
    "MÁRCIA",
    "FERNANDA",
    "PATRÍCIA",
    "ALINE",
    "SANDRA",
    "CAMILA",
    "AMANDA",
    "BRUNA",
];
const LAST: [&str; 50] = [
    "SILVA",
    "SANTOS",
    "OLIVEIRA",
    "SOUZA",
    "RODRIGUES",
    "FERREIRA",
    "ALVES",
    "PEREIRA",
    "LIMA",
    "GOMES",
    "COSTA",
    "RIBEIRO",
    "MARTINS",
    "CARVALHO",
    "ALMEIDA",
    "LOPES",
    "SOARES",
    "FERNANDES",
    "VIEIRA",
    "BARBOSA",
    "ROCHA",
    "DIAS",
    "NASCIMENTO",
    "ANDRADE",
    "MOREIRA",
    "NUNES",
    "MARQUES",
    "MACHADO",
    "MENDES",
    "FREITAS",
    "CARDOSO",
    "RAMOS",
    "GONÇALVES",
    "SANTANA",
    "TEIXEIRA",
    "ARAÚJO",
    "PINTO",
    "CORREIA",
    "MONTEIRO",
    "MOURA",
    "CAVALCANTI",
    "BATISTA",
    "CAMPOS",
    "REIS",
    "MELO",
    "BORGES",
    "FREIRE",
    "AZEVEDO",
    "PIRES",
    "VASCONCELOS",
];

fn csv_field(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => format!("\"{}\"", s.replace('"', "\"\"")),
        other => format!("\"{}\"", other.to_string().replace('"', "\"\"")),
    }
}

/// Inserts `rows` generated records of `resource` for one client and company with
/// COPY (as the owner: a bulk load, not a user action). Names are realistic
/// combinations, documents valid CPFs, other fields the register's sample.
pub async fn seed(cfg: &Config, resource: &str, client: i64, emp: i64, rows: u64) -> Result<()> {
    let registry = erp_gateway::composition::registry()?;
    let res = registry
        .get(resource)
        .ok_or_else(|| Error::validation(format!("cadastro desconhecido: {resource}")))?;
    let sample = res
        .sample
        .clone()
        .and_then(|s| s.as_object().cloned())
        .unwrap_or_default();
    let key = res.key.first().cloned().unwrap_or_default();
    let mut cols = vec!["client_id".to_string()];
    let mut fields = Vec::new();
    for f in &res.fields {
        if f.name == key || res.company.as_deref() == Some(&f.name) {
            continue;
        }
        let is_label = f.name == res.label;
        let is_doc = f.kind == Kind::CpfCnpj && sample.contains_key(&f.name);
        let plain = f.reference.is_none() && !f.read_only && !f.write_only;
        if is_label || is_doc || (sample.contains_key(&f.name) && plain) {
            fields.push(f.clone());
        }
    }
    let company_col = res
        .company
        .as_deref()
        .and_then(|c| res.field(c))
        .map(|f| f.column.clone());
    cols.extend(company_col.clone());
    cols.push(
        res.field(&key)
            .map(|f| f.column.clone())
            .unwrap_or_default(),
    );
    cols.extend(fields.iter().map(|f| f.column.clone()));

    let opts = PgConnectOptions::from_str(&cfg.database_url).map_err(Error::internal)?;
    let mut conn = opts.connect().await?;
    let start: i64 = sqlx::query_scalar(&format!(
        "SELECT coalesce(max({k}), 0) FROM {t} WHERE client_id = $1 {c}",
        k = res
            .field(&key)
            .map(|f| f.column.clone())
            .unwrap_or_default(),
        t = res.qualified_table(),
        c = company_col
            .as_ref()
            .map(|c| format!("AND {c} = $2"))
            .unwrap_or_else(|| "AND $2 = $2".into())
    ))
    .bind(client)
    .bind(emp)
    .fetch_one(&mut conn)
    .await?;
    let copy = format!(
        "COPY {} ({}) FROM STDIN WITH (FORMAT csv)",
        res.qualified_table(),
        cols.join(", ")
    );
    let mut pending = conn.copy_in_raw(&copy).await?;
    let mut buf = String::with_capacity(8 << 20);
    for i in 1..=rows as i64 {
        let id = start + i;
        let mut line = vec![client.to_string()];
        if company_col.is_some() {
            line.push(emp.to_string());
        }
        line.push(id.to_string());
        for f in &fields {
            let v = if f.name == res.label {
                let n = id as usize;
                Value::from(format!(
                    "{} {} {} {}",
                    FIRST[n % 40],
                    LAST[(n / 40) % 50],
                    LAST[(n / 2000) % 50],
                    id
                ))
            } else if f.kind == Kind::CpfCnpj {
                Value::from(
                    erp_platform::validators::Cpf::from_base(id as u64)
                        .as_str()
                        .to_string(),
                )
            } else {
                match (f.db, sample.get(&f.name)) {
                    (DbType::Json, Some(v)) => Value::from(v.to_string()),
                    (_, Some(v)) => v.clone(),
                    _ => Value::Null,
                }
            };
            line.push(csv_field(&v));
        }
        buf.push_str(&line.join(","));
        buf.push('\n');
        if buf.len() > (4 << 20) {
            pending.send(buf.as_bytes()).await?;
            buf.clear();
        }
    }
    pending.send(buf.as_bytes()).await?;
    pending.finish().await?;
    sqlx::query(&format!("VACUUM (ANALYZE) {}", res.qualified_table()))
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    Ok(())
}

/// The statement and parameters of a benchmark scenario (`list`, `filtro`, `count`,
/// `search`), as JSON `{sql, params}` with `$n` placeholders.
pub fn scenario_sql(
    resource: &str,
    scenario: &str,
    client: i64,
    emp: i64,
    filter: &str,
) -> Result<Value> {
    let registry = erp_gateway::composition::registry()?;
    let res = registry
        .get(resource)
        .ok_or_else(|| Error::validation(format!("cadastro desconhecido: {resource}")))?;
    let caller = Caller { client_id: client, user_id: 1, emp_id: emp, privileged: false };
    let emp = res.company.as_ref().map(|_| emp);
    let mut body = Map::new();
    body.insert("LIMIT".into(), Value::from(20));
    let pattern = format!("%{filter}%");
    let (sql, tail): (String, Vec<Value>) = match scenario {
        "list" => (
            query::list_query(res, &caller, emp, &body)?
                .sql()
                .to_string(),
            vec![],
        ),
        "filtro" => {
            body.insert("FILTRO".into(), Value::from(filter));
            (
                query::list_query(res, &caller, emp, &body)?
                    .sql()
                    .to_string(),
                vec![],
            )
        }
        "count" => (
            query::count_query(res, &caller, emp, &Map::new())?
                .sql()
                .to_string(),
            vec![],
        ),
        "search" => (
            query::search_query(res, &caller, emp, filter, 0)?
                .sql()
                .to_string(),
            vec![],
        ),
        other => return Err(Error::validation(format!("cenário desconhecido: {other}"))),
    };
    let placeholders = (1..=64).filter(|n| sql.contains(&format!("${n}"))).count();
    let mut params = vec![json!(client)];
    params.extend(emp.map(|e| json!(e)));
    let patterns = placeholders.saturating_sub(params.len() + tail.len());
    params.extend(std::iter::repeat_n(json!(pattern), patterns));
    params.extend(tail);
    if params.len() != placeholders {
        return Err(Error::internal(format!(
            "{scenario}: {placeholders} placeholders, {} params",
            params.len()
        )));
    }
    Ok(json!({"sql": sql, "params": params}))
}

/// The floor under an invoice reaching stock, measured directly: `n` PostgreSQL
/// commit round trips (a one-row insert in its own transaction, as the app role)
/// and `n` JetStream publish-with-acknowledgement round trips, one at a time.
/// Prints `pg_p50 pg_p99 js_p50 js_p99` in milliseconds.
pub async fn floor(cfg: &Config, nats: &str, n: usize) -> Result<()> {
    use erp_platform::bus::{Bus, Message, NatsBus};
    let db = erp_platform::db::Db::connect(cfg).await?;
    let mut conn = db.pool.acquire().await?;
    sqlx::query("CREATE TEMP TABLE IF NOT EXISTS bench_floor (n bigint)")
        .execute(&mut *conn)
        .await?;
    let mut pg = Vec::with_capacity(n);
    for i in 0..n {
        let t = std::time::Instant::now();
        let mut tx = sqlx::Connection::begin(&mut *conn).await?;
        sqlx::query("INSERT INTO bench_floor VALUES ($1)")
            .bind(i as i64)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        pg.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let bus = NatsBus::connect(nats).await?;
    let mut js = Vec::with_capacity(n);
    for i in 0..n {
        let t = std::time::Instant::now();
        bus.publish(Message::new(
            uuid::Uuid::now_v7().to_string(),
            "erp.bench.floor",
            bytes::Bytes::from(i.to_string()),
        ))
        .await?;
        js.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let pct = |v: &mut Vec<f64>, p: f64| {
        v.sort_by(|a, b| a.total_cmp(b));
        v.get(((v.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or_default()
    };
    println!(
        "{:.3} {:.3} {:.3} {:.3}",
        pct(&mut pg, 0.5),
        pct(&mut pg, 0.99),
        pct(&mut js, 0.5),
        pct(&mut js, 0.99)
    );
    Ok(())
}

/// Publishes `orders` invoiced-order facts (`erp.orders.pedido.faturado`, 5
/// product lines each, spread over 2025) of `client`/`emp` to the stream at
/// `nats`, as the orders service's relay would: what `make bench` replays into
/// an empty read model to time a rebuild. Order ids start at `first`.
pub async fn facts(nats: &str, client: i64, emp: i64, orders: u64, first: i64) -> Result<()> {
    use erp_platform::bus::{Bus, Message, NatsBus, CLIENT_HEADER};
    use erp_proto::orders::v1::{PedidoFaturado, SaleLine};
    use prost::Message as _;
    use rust_decimal::Decimal;

    let bus = NatsBus::connect(nats).await?;
    let start = chrono::NaiveDate::from_ymd_opt(2025, 1, 1)
        .ok_or_else(|| Error::internal("data inicial"))?;
    let mut batch = Vec::with_capacity(1000);
    for o in 0..orders {
        let id = first + o as i64;
        let day = start + chrono::Days::new(o * 365 / orders.max(1));
        let mut lines = Vec::with_capacity(5);
        let mut total = Decimal::ZERO;
        for l in 0..5u64 {
            let item_id = 900_001 + ((o * 7 + l * 389) % 2000) as i64;
            let qty = Decimal::from(1 + (o + l) % 9);
            let unit = Decimal::new(500 + (item_id % 200) * 125, 2);
            let line_total = (qty * unit).round_dp(2);
            total += line_total;
            lines.push(SaleLine {
                kind: "P".into(),
                item: l as i64 + 1,
                item_id,
                quantity: qty.to_string(),
                unit_price: unit.to_string(),
                discount: "0".into(),
                total: line_total.to_string(),
            });
        }
        let ev = PedidoFaturado {
            client_id: client,
            emp_id: emp,
            pedido_id: id,
            serie: "R".into(),
            customer_id: 900_001 + (o as i64 * 7919) % 20_000,
            total: total.to_string(),
            products_total: total.to_string(),
            services_total: "0".into(),
            issued_on: day.format("%Y-%m-%d").to_string(),
            payment_method_id: 1 + (o as i64 % 4),
            sale_lines: lines,
            ..Default::default()
        };
        let mut msg = Message::new(
            format!("bench-facts-{client}-{id}"),
            erp_proto::subjects::PEDIDO_FATURADO,
            bytes::Bytes::from(ev.encode_to_vec()),
        );
        msg.headers.push((CLIENT_HEADER.into(), client.to_string()));
        batch.push(msg);
        if batch.len() == 1000 || o + 1 == orders {
            for r in bus.publish_all(std::mem::take(&mut batch)).await {
                r?;
            }
        }
    }
    Ok(())
}
