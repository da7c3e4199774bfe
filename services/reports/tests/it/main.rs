//! Integration tests of the reports service against the real PostgreSQL: the read
//! model fed by the facts (once per order, another tenant's refused), the sales
//! reports computed by hand (per order, per product grouped, the ABC curve with
//! its monthly curve, the commission), their PDF (read back with `pdftotext`, a
//! PNG under `$CARGO_TARGET_TMPDIR/test-artifacts/reports/`) and XLSX (read back
//! with calamine), the empty period (204), the dashboard, the definitions and the
//! rebuild.

mod billing;
mod business_metrics;
mod finance;
mod live;
mod numeric;
mod purchases_stock;
mod sales;
mod service_orders;

use std::collections::HashMap;
use std::path::PathBuf;

use base64::Engine as _;
use erp_platform::bus::{apply_once, Effect, Message, CLIENT_HEADER};
use erp_platform::db::Db;
use erp_platform::testing::TestCtx;
use erp_proto::erp::v1::RecordChanged;
use erp_proto::orders::v1::{PedidoFaturado, SaleLine};
use prost::Message as _;
use serde_json::{json, Value};

pub(crate) const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

static CTX: TestCtx = TestCtx::new("reports", |cfg| {
    Box::pin(async move { erp_reports::migrate(&cfg).await })
});

/// The rebuild empties every client's read model: the tests take turns.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn message(c: i64, id: &str, subject: &str, payload: Vec<u8>) -> Message {
    let mut m = Message::new(id, subject, payload.into());
    m.headers.push((CLIENT_HEADER.into(), c.to_string()));
    m
}

async fn deliver<E: Effect + 'static>(
    db: &Db,
    consumer: &str,
    c: i64,
    effect: E,
    msg: Message,
) -> erp_platform::Result<bool> {
    let id = msg.id.clone();
    apply_once(db, "reports", consumer, &id, c, move |tx| {
        Box::pin(async move { effect.apply(tx, c, &msg).await })
    })
    .await
}

async fn record(
    db: &Db,
    c: i64,
    copy: erp_platform::bus::copies::Copy,
    resource: &str,
    row: Value,
) {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let ev = RecordChanged {
        resource: resource.into(),
        op: "criado".into(),
        client_id: c,
        // Groups and payment methods are the client's: their facts name no company
        // (and their rows have no company column), as catalog and finance send them.
        emp_id: if matches!(resource, "grupos" | "formas" | "fornecedores") {
            0
        } else {
            1
        },
        key: vec![],
        row_json: serde_json::to_vec(&row).expect("row"),
    };
    deliver(
        db,
        &format!("reports-{resource}"),
        c,
        copy,
        message(
            c,
            &format!("rc-{c}-{n}"),
            "erp.catalog.x.criado",
            ev.encode_to_vec(),
        ),
    )
    .await
    .expect("copy");
}

fn line(kind: &str, item: i64, id: i64, qty: &str, unit: &str, total: &str) -> SaleLine {
    SaleLine {
        kind: kind.into(),
        item,
        item_id: id,
        quantity: qty.into(),
        unit_price: unit.into(),
        discount: "0".into(),
        total: total.into(),
    }
}

/// The fact of order `pedido` (series 1, company 1) of `customer`, invoiced on
/// `day` with payment method `method`, its total the sum of its lines.
pub(crate) fn invoice(
    c: i64,
    pedido: i64,
    customer: i64,
    day: &str,
    method: i64,
    lines: Vec<SaleLine>,
) -> PedidoFaturado {
    let total: rust_decimal::Decimal = lines
        .iter()
        .map(|l| l.total.parse::<rust_decimal::Decimal>().expect("total"))
        .sum();
    PedidoFaturado {
        client_id: c,
        emp_id: 1,
        pedido_id: pedido,
        serie: "1".into(),
        customer_id: customer,
        customer_name: format!("CLIENTE {customer}"),
        total: total.to_string(),
        products_total: total.to_string(),
        services_total: "0".into(),
        issued_on: day.into(),
        payment_method_id: method,
        sale_lines: lines,
        ..Default::default()
    }
}

#[allow(clippy::too_many_arguments)]
async fn sale(
    db: &Db,
    c: i64,
    event: &str,
    pedido: i64,
    customer: i64,
    day: &str,
    method: i64,
    lines: Vec<SaleLine>,
) -> bool {
    let ev = invoice(c, pedido, customer, day, method, lines);
    deliver(
        db,
        "reports-pedido-faturado",
        c,
        erp_reports::facts::InvoicedOrder,
        message(c, event, "erp.orders.pedido.faturado", ev.encode_to_vec()),
    )
    .await
    .expect("sale")
}

/// Copies and three orders: product 1 (group 1 'FILTROS') 700 + 100, product 2
/// (group 2 'ÓLEOS') 150, product 3 (group 2) 50; customer 7 of seller 3 (5%).
async fn seed(db: &Db, c: i64) {
    use erp_reports::copies::*;
    record(
        db,
        c,
        GRUPOS,
        "grupos",
        json!({"GRUP_ID": 1, "GRUP_DESCRICAO": "FILTROS"}),
    )
    .await;
    record(
        db,
        c,
        GRUPOS,
        "grupos",
        json!({"GRUP_ID": 2, "GRUP_DESCRICAO": "ÓLEOS"}),
    )
    .await;
    record(
        db,
        c,
        PRODUTOS,
        "produtos",
        json!({"PROD_ID": 1, "PROD_DESCRICAO": "FILTRO DE ÓLEO PSL 55", "PROD_GRUP_ID": 1}),
    )
    .await;
    record(
        db,
        c,
        PRODUTOS,
        "produtos",
        json!({"PROD_ID": 2, "PROD_DESCRICAO": "ÓLEO 5W30 1L", "PROD_GRUP_ID": 2}),
    )
    .await;
    record(
        db,
        c,
        PRODUTOS,
        "produtos",
        json!({"PROD_ID": 3, "PROD_DESCRICAO": "ÓLEO 15W40 1L", "PROD_GRUP_ID": "2"}),
    )
    .await;
    record(
        db,
        c,
        COLABORADORES,
        "colaboradores",
        json!({"COLA_ID": 3, "COLA_NOME": "Carlos Vendedor", "COLA_PERC_COMISSAO": "5"}),
    )
    .await;
    record(
        db,
        c,
        CLIENTES,
        "clientes",
        json!({"CLI_ID": 7, "CLI_DESCRICAO": "OFICINA DO JOÃO", "CLI_COLA_ID": 3}),
    )
    .await;
    record(
        db,
        c,
        CLIENTES,
        "clientes",
        json!({"CLI_ID": 8, "CLI_DESCRICAO": "AUTO PEÇAS BETA"}),
    )
    .await;
    record(
        db,
        c,
        FORMAS,
        "formas",
        json!({"FRMP_ID": 4, "FRMP_DESCRICAO": "PIX"}),
    )
    .await;
    assert!(
        sale(
            db,
            c,
            &format!("s1-{c}"),
            10,
            7,
            "2026-10-15",
            4,
            vec![
                line("P", 1, 1, "20", "35", "700.00"),
                line("P", 2, 2, "5", "30", "150.00")
            ]
        )
        .await
    );
    assert!(
        sale(
            db,
            c,
            &format!("s2-{c}"),
            11,
            8,
            "2026-11-03",
            4,
            vec![line("P", 1, 1, "2", "50", "100.00")]
        )
        .await
    );
    assert!(
        sale(
            db,
            c,
            &format!("s3-{c}"),
            12,
            7,
            "2026-11-20",
            0,
            vec![line("P", 1, 3, "2.5", "20", "50.00")]
        )
        .await
    );
}

async fn call(
    db: &Db,
    c: i64,
    action: &str,
    params: &[(&str, &str)],
    body: Value,
) -> erp_platform::Result<Value> {
    let dir = std::env::temp_dir().join("erp-reports-tests");
    let reg = erp_reports::resources::registry_in(&dir).expect("registry");
    let res = reg.get("vendas").expect("register").clone();
    let a = res
        .actions
        .iter()
        .find(|a| a.name == action)
        .expect("action")
        .clone();
    let params: HashMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut tx = db.begin_tenant(c).await?;
    let out = a
        .run(&mut tx, &res, &CTX.caller(c, 1), Some(1), &params, body)
        .await?;
    tx.commit().await?;
    Ok(out)
}

fn period() -> Value {
    json!({"DATA_INI": "2026-10-01", "DATA_FIM": "2026-11-30"})
}

fn with(mut v: Value, k: &str, x: Value) -> Value {
    v[k] = x;
    v
}

fn file(out: &Value, content_type: &str) -> Vec<u8> {
    let f = &out[erp_platform::resource::FILE_REPLY];
    assert_eq!(f["tipo"], content_type);
    base64::engine::general_purpose::STANDARD
        .decode(f["base64"].as_str().expect("base64"))
        .expect("decode")
}

/// The text of a PDF (`pdftotext -layout`), kept under the artifacts with a
/// PNG of its first page (`pdftoppm -png -r 60`); `None` without poppler.
fn pdf_text(pdf: &[u8], name: &str) -> Option<String> {
    assert!(pdf.starts_with(b"%PDF"));
    let path = artifacts().join(format!("{name}.pdf"));
    std::fs::write(&path, pdf).expect("write pdf");
    let text = std::process::Command::new("pdftotext")
        .arg("-layout")
        .arg(&path)
        .arg("-")
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let _ = std::process::Command::new("pdftoppm")
        .args(["-png", "-r", "60", "-f", "1", "-l", "1"])
        .arg(&path)
        .arg(artifacts().join(name))
        .status();
    Some(String::from_utf8_lossy(&text.stdout).into_owned())
}

/// The cells of a spreadsheet's `Sheet1` as text, row by row.
fn xlsx_rows(bytes: &[u8], name: &str) -> Vec<Vec<String>> {
    use calamine::Reader as _;
    let path = artifacts().join(format!("{name}.xlsx"));
    std::fs::write(&path, bytes).expect("write xlsx");
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(&path).expect("workbook");
    let sheet = book.worksheet_range("Sheet1").expect("Sheet1");
    sheet
        .rows()
        .map(|r| r.iter().map(|c| c.to_string()).collect())
        .collect()
}

fn artifacts() -> PathBuf {
    let dir = option_env!("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join("test-artifacts/reports");
    std::fs::create_dir_all(&dir).expect("artifacts");
    dir
}

#[tokio::test]
async fn pdf_xlsx_dashboard_definitions_and_rebuild() {
    let _turn = ONE_AT_A_TIME.lock().await;
    let db = CTX.db().await;
    let c = CTX.client();
    seed(&db, c).await;
    // Who prints (the caller is user 1) and the company, from identity's facts.
    record(
        &db,
        c,
        erp_reports::copies::USUARIOS,
        "usuarios",
        json!({"USR_ID": 1, "USR_NOME": "Maria Gerente", "USR_EMP_ID": 1}),
    )
    .await;
    record(
        &db,
        c,
        erp_reports::copies::EMPRESAS,
        "empresas",
        json!({"EMP_ID": 1, "EMP_DESCRICAO": "OFICINA MODELO LTDA"}),
    )
    .await;

    let out = call(
        &db,
        c,
        "relatorio_vendasprodutos",
        &[],
        with(period(), "FORMATO", json!("pdf")),
    )
    .await
    .expect("pdf");
    let pdf = file(&out, "application/pdf");
    assert!(pdf.starts_with(b"%PDF"));
    let path = artifacts().join("vendas-produtos.pdf");
    std::fs::write(&path, &pdf).expect("write pdf");
    if let Ok(text) = std::process::Command::new("pdftotext")
        .arg("-layout")
        .arg(&path)
        .arg("-")
        .output()
    {
        if text.status.success() {
            let text = String::from_utf8_lossy(&text.stdout);
            assert!(text.contains("Vendas de Produtos"));
            assert!(text.contains("FILTRO DE ÓLEO PSL 55"));
            assert!(text.contains("1.000,00"), "the totals row");
            assert!(text.contains("Pág: 1 de 1"));
            assert!(text.contains("Maria Gerente"), "who printed it");
            assert!(text.contains("OFICINA MODELO LTDA"), "the company");
            let _ = std::process::Command::new("pdftoppm")
                .args(["-png", "-r", "60"])
                .arg(&path)
                .arg(artifacts().join("vendas-produtos"))
                .status();
        }
    }
    let out = call(
        &db,
        c,
        "relatorio_curvaprodutos",
        &[],
        with(period(), "FORMATO", json!("xlsx")),
    )
    .await
    .expect("xlsx");
    let bytes = file(
        &out,
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    let path = artifacts().join("curva-produtos.xlsx");
    std::fs::write(&path, &bytes).expect("write xlsx");
    use calamine::Reader as _;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(&path).expect("workbook");
    let sheet = book.worksheet_range("Sheet1").expect("Sheet1");
    let header: Vec<String> = sheet
        .rows()
        .next()
        .expect("header")
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert!(
        header.contains(&"Classe".to_string()) && header.contains(&"Out".to_string()),
        "{header:?}"
    );
    let valor = header
        .iter()
        .position(|h| h == "Valor")
        .expect("Valor column");
    let first = sheet.rows().nth(1).expect("first row");
    assert_eq!(
        first[valor],
        calamine::Data::Float(800.0),
        "money as a number"
    );

    let out = call(&db, c, "dashboard", &[("nome", "vendasgrupo")], period())
        .await
        .expect("dashboard");
    assert_eq!(
        out,
        json!({"dados": [{"ROTULO": "FILTROS", "VALOR": 800}, {"ROTULO": "ÓLEOS", "VALOR": 200}], "TOTAL": 1000})
    );
    let out = call(
        &db,
        c,
        "dashboard",
        &[("nome", "formaspagamentos")],
        period(),
    )
    .await
    .expect("formas");
    assert_eq!(out["dados"][0], json!({"ROTULO": "PIX", "VALOR": 950}));
    // No service order finished: sales by sector are empty; an unknown figure is 404.
    let out = call(&db, c, "dashboard", &[("nome", "vendassetor")], period())
        .await
        .expect("setor");
    assert_eq!(out, json!({"dados": [], "TOTAL": 0}));
    let e = call(&db, c, "dashboard", &[("nome", "vendasmarte")], period()).await;
    assert!(matches!(e, Err(erp_platform::Error::NotFound(_))));

    let defs = call(&db, c, "definicoes", &[("emp", "1")], json!({}))
        .await
        .expect("definitions");
    let routes: Vec<&str> = defs
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|d| d["ROTA"].as_str())
        .collect();
    // Every report screen of screens-and-rules.md §2.4 has its report.
    for screen in [
        "relatoriovendadeservicos",
        "relatoriovendadeprodutos",
        "relatoriocurvadeprodutos",
        "relatoriodevendas",
        "relatorioderecebimentos",
        "relatorioderequisicoes",
        "relatoriodeosporsetor",
        "relatorioordemdeservico",
        "relatoriosfaturamentocontabil",
        "relatoriosclientes",
        "relatorioscurvadeclientes",
        "relatorioscurvaderepresentantes",
        "relatorioscurvadegrupos",
        "relatoriosfornecedores",
        "relatorioscomissao",
        "relatoriosmovimentacaoestoque",
        "relatoriosestimativaestoque",
        "relatorioshistoricoveicular",
        "relatoriosrazaofornecedores",
        "relatoriosprodutos",
        "relatorioscontasareceber",
        "relatorioscontasapagar",
        "relatoriosmovbancario",
        "relatorioscompras",
        "relatoriosformaspagamento",
    ] {
        let route = format!("/{screen}");
        assert_eq!(routes.iter().filter(|r| **r == route).count(), 1, "{route}");
    }
    let curve = defs
        .as_array()
        .and_then(|l| l.iter().find(|d| d["NOME"] == "curvaprodutos"))
        .expect("curve");
    assert_eq!(curve["MENSAL"], true);
    assert_eq!(curve["ORIENTACAO"], "paisagem");
    assert_eq!(
        curve["FILTROS"][0],
        json!({"CAMPO": "DATA_INI", "ROTULO": "Data inicial", "TIPO": "data", "OBRIGATORIO": true})
    );

    // The rebuild empties the read model (every client's: it is a deployment command).
    let r = erp_reports::rebuild::run(&CTX.config())
        .await
        .expect("rebuild");
    assert!(r.inbox_rows > 0);
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM reports.vendas")
        .fetch_one(&mut *tx)
        .await
        .expect("count");
    assert_eq!(left, 0);
}
